//! `kubectl describe daemonset` (`describe.go` `DaemonSetDescriber`), in kubectl v1.32's form: no
//! `Namespace:` line (kubectl v1.33 added one after `Name:`).

use super::pod_template::pod_template_block;
use super::{annotations_multiline, labels_multiline, Describe};
use crate::printers::table::format_labels;
use chrono::{DateTime, Utc};
use dsplay_api::selector::format_label_selector;
use dsplay_api::types::*;

fn controller_uid(meta: &ObjectMeta) -> Option<&str> {
    meta.owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
        .map(|o| o.uid.as_str())
}

/// `kubectl describe ds NAME`. `pods` are the pods matching the selector (only those controlled by
/// this DaemonSet count in `Pods Status`); `events` are the events whose involvedObject is the DS.
pub fn describe_daemon_set(
    ds: &DaemonSet,
    pods: &[&Pod],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &ds.metadata;
    let spec = ds.spec.clone().unwrap_or_default();
    let status = ds.status.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    let selector = format_label_selector(Some(&spec.selector));
    w.w(
        0,
        &format!(
            "Selector:\t{}\n",
            if selector == "<none>" { "" } else { &selector }
        ),
    );
    let node_selector = spec
        .template
        .spec
        .as_ref()
        .and_then(|s| s.node_selector.clone())
        .unwrap_or_default();
    w.w(
        0,
        &format!("Node-Selector:\t{}\n", format_labels(&node_selector)),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(
        0,
        &format!(
            "Desired Number of Nodes Scheduled: {}\n",
            status.desired_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Current Number of Nodes Scheduled: {}\n",
            status.current_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Scheduled with Up-to-date Pods: {}\n",
            status.updated_number_scheduled.unwrap_or(0)
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Scheduled with Available Pods: {}\n",
            status.number_available.unwrap_or(0)
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Misscheduled: {}\n",
            status.number_misscheduled
        ),
    );
    super::pods_status(
        &mut w,
        pods.iter()
            .copied()
            .filter(|p| meta.uid.is_none() || controller_uid(&p.metadata) == meta.uid.as_deref()),
    );
    pod_template_block(&mut w, &spec.template);
    w.events(events, now);
    w.finish()
}
