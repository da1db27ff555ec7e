//! `kubectl describe` by kind (`describe.go`) and the shared pod-template block: the describe
//! writer and the label/annotation/toleration/taint blocks here, one module per kind.
//!
//! Text is produced with tabs exactly where describe.go writes them and aligned by the describe
//! tabwriter (minwidth 0, padding 2), so label/annotation continuation lines and tables line up as
//! kubectl's do.

pub mod apps;
pub mod cluster_scoped;
pub mod daemon_set;
pub mod node;
pub mod pod;
pub mod pod_template;
pub mod service;
pub mod storage;

pub use apps::{describe_deployment, describe_replica_set};
pub use cluster_scoped::{describe_namespace, describe_priority_class};
pub use daemon_set::describe_daemon_set;
pub use node::describe_node;
pub use pod::{describe_pod, pod_qos};
pub use pod_template::{describe_pod_template, print_template, rollout_history_revision};
pub use service::{describe_endpoint_slice, describe_endpoints, describe_service};
pub use storage::{
    describe_persistent_volume, describe_persistent_volume_claim, describe_stateful_set,
    describe_storage_class,
};

use super::events::events_block;
use super::tabwriter::TabWriter;
use chrono::{DateTime, Utc};
use dsplay_api::types::*;
use std::collections::BTreeMap;

/// A describe writer: indentation levels of two spaces, aligned on [`Describe::finish`].
struct Describe {
    tw: TabWriter,
}

impl Describe {
    fn new() -> Self {
        Describe {
            tw: TabWriter::for_describe(),
        }
    }

    fn w(&mut self, level: usize, text: &str) {
        let mut s = "  ".repeat(level);
        s.push_str(text);
        self.tw.write(&s);
    }

    fn events(&mut self, events: &[&Event], now: DateTime<Utc>) {
        let (flush, text) = events_block(events, now);
        if flush {
            self.tw.flush();
        }
        self.tw.write(&text);
    }

    fn finish(self) -> String {
        self.tw.finish()
    }

    /// The `Name:` and `Namespace:` lines most describers open with.
    fn name_and_namespace(&mut self, meta: &ObjectMeta) {
        self.w(
            0,
            &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
        );
        self.w(
            0,
            &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")),
        );
    }

    /// `Selector:` of a workload.
    fn selector(&mut self, selector: &LabelSelector) {
        self.w(
            0,
            &format!(
                "Selector:\t{}\n",
                dsplay_api::selector::format_label_selector(Some(selector))
            ),
        );
    }

    /// `CreationTimestamp:` in RFC 1123 form (Go's zero time when unset).
    fn creation_timestamp(&mut self, meta: &ObjectMeta) {
        let created = meta
            .creation_timestamp
            .as_ref()
            .map(|t| rfc1123z(&t.0))
            .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into());
        self.w(0, &format!("CreationTimestamp:\t{created}\n"));
    }
}

/// `Pods Status:  R Running / W Waiting / S Succeeded / F Failed` over the controller's pods
/// (`getPodStatusForController`).
#[doc(alias = "getPodStatusForController")]
fn pods_status<'a>(w: &mut Describe, pods: impl IntoIterator<Item = &'a Pod>) {
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for pod in pods {
        match pod.status.as_ref().and_then(|s| s.phase.as_deref()) {
            Some("Running") => running += 1,
            Some("Pending") => waiting += 1,
            Some("Succeeded") => succeeded += 1,
            Some("Failed") => failed += 1,
            _ => {}
        }
    }
    w.w(0, &format!("Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"));
}

const MAX_ANNOTATION_LEN: usize = 140;

/// `printLabelsMultilineWithIndent(w, "", title, "\t", labels)`.
fn labels_multiline(w: &mut Describe, title: &str, labels: Option<&BTreeMap<String, String>>) {
    w.w(0, &format!("{title}:\t"));
    let labels = labels.cloned().unwrap_or_default();
    if labels.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in labels.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{k}={v}\n"));
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s.to_string()
    }
}

/// `printAnnotationsMultiline`: sorted, last-applied-configuration skipped, long or multi-line
/// values on their own lines (cut at 138 bytes).
#[doc(alias = "printAnnotationsMultiline")]
fn annotations_multiline(
    w: &mut Describe,
    title: &str,
    annotations: Option<&BTreeMap<String, String>>,
) {
    w.w(0, &format!("{title}:\t"));
    let keys: Vec<(&String, &String)> = annotations
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.as_str() != "kubectl.kubernetes.io/last-applied-configuration")
        .collect();
    if keys.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in keys.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let value = v.strip_suffix('\n').unwrap_or(v);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.w(0, &format!("{k}:\n"));
            for line in value.split('\n') {
                w.w(
                    0,
                    &format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2)),
                );
            }
        } else {
            w.w(0, &format!("{k}: {value}\n"));
        }
    }
}

/// `printTolerationsMultilineWithIndent`: sorted by key; `key=value:Effect op=Exists for Ns`.
#[doc(alias = "printTolerationsMultilineWithIndent")]
pub fn format_toleration(t: &Toleration) -> String {
    let key = t.key.as_deref().unwrap_or("");
    let value = t.value.as_deref().unwrap_or("");
    let effect = t.effect.as_deref().unwrap_or("");
    let mut s = key.to_string();
    if !value.is_empty() {
        s.push_str(&format!("={value}"));
    }
    if !effect.is_empty() {
        s.push_str(&format!(":{effect}"));
    }
    if t.operator.as_deref() == Some("Exists") && value.is_empty() {
        if !key.is_empty() || !effect.is_empty() {
            s.push_str(" op=Exists");
        } else {
            s.push_str("op=Exists");
        }
    }
    if let Some(secs) = t.toleration_seconds {
        s.push_str(&format!(" for {secs}s"));
    }
    s
}

fn tolerations_multiline(w: &mut Describe, title: &str, tolerations: Option<&Vec<Toleration>>) {
    w.w(0, &format!("{title}:\t"));
    let mut tols: Vec<&Toleration> = tolerations.into_iter().flatten().collect();
    if tols.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    tols.sort_by(|a, b| {
        a.key
            .as_deref()
            .unwrap_or("")
            .cmp(b.key.as_deref().unwrap_or(""))
    });
    for (i, t) in tols.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{}\n", format_toleration(t)));
    }
}

fn taints_multiline(w: &mut Describe, title: &str, taints: Option<&Vec<Taint>>) {
    w.w(0, &format!("{title}:\t"));
    let mut taints: Vec<&Taint> = taints.into_iter().flatten().collect();
    if taints.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    taints
        .sort_by(|a, b| format!("{},{}", a.effect, a.key).cmp(&format!("{},{}", b.effect, b.key)));
    for (i, t) in taints.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{}\n", dsplay_api::taints::format_taint(t)));
    }
}

fn rfc1123z(t: &DateTime<Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S %z").to_string()
}
