//! `kubectl describe priorityclass|namespace` (`describe.go` `PriorityClassDescriber`,
//! `NamespaceDescriber`): the two cluster-scoped kinds besides nodes.

use super::{annotations_multiline, labels_multiline, Describe};
use crate::printers::table::format_labels;
use chrono::{DateTime, Utc};
use dsplay_api::types::*;

/// `kubectl describe priorityclass NAME`: value, default flag, preemption policy, description,
/// annotations on one line (`labels.FormatLabels`, unlike other describers) and events.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go describePriorityClass
#[doc(alias = "describePriorityClass")]
pub fn describe_priority_class(
    pc: &PriorityClass,
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let name = pc.metadata.name.as_deref().unwrap_or("");
    w.w(0, &format!("Name:\t{name}\n"));
    w.w(0, &format!("Value:\t{}\n", pc.value));
    w.w(
        0,
        &format!("GlobalDefault:\t{}\n", pc.global_default.unwrap_or(false)),
    );
    w.w(
        0,
        &format!(
            "PreemptionPolicy:\t{}\n",
            pc.preemption_policy.as_deref().unwrap_or("")
        ),
    );
    w.w(
        0,
        &format!(
            "Description:\t{}\n",
            pc.description.as_deref().unwrap_or("")
        ),
    );
    let annotations = pc.metadata.annotations.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Annotations:\t{}\n", format_labels(&annotations)),
    );
    w.events(events, now);
    w.finish()
}

/// `kubectl describe namespace NAME`: labels, annotations, phase, then the quota and limit-range
/// sections, which are always empty here (the playground has neither kind).
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go describeNamespace
#[doc(alias = "describeNamespace")]
pub fn describe_namespace(ns: &Namespace) -> String {
    let mut w = Describe::new();
    let name = ns.metadata.name.as_deref().unwrap_or("");
    w.w(0, &format!("Name:\t{name}\n"));
    labels_multiline(&mut w, "Labels", ns.metadata.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", ns.metadata.annotations.as_ref());
    let phase = ns
        .status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("");
    w.w(0, &format!("Status:\t{phase}\n"));
    w.w(0, "\nNo resource quota.\n");
    w.w(0, "\nNo LimitRange resource.\n");
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn now() -> DateTime<Utc> {
        DateTime::from_timestamp(0, 0).unwrap()
    }

    #[test]
    fn describe_priority_class_prints_every_field_and_no_events() {
        let pc = PriorityClass {
            metadata: ObjectMeta {
                name: Some("system-node-critical".into()),
                ..Default::default()
            },
            value: 2000001000,
            global_default: None,
            preemption_policy: Some("PreemptLowerPriority".into()),
            description: Some(
                "Used for system critical pods that must not be moved from their current node."
                    .into(),
            ),
        };
        assert_eq!(
            describe_priority_class(&pc, &[], now()),
            "Name:              system-node-critical\n\
             Value:             2000001000\n\
             GlobalDefault:     false\n\
             PreemptionPolicy:  PreemptLowerPriority\n\
             Description:       Used for system critical pods that must not be moved from their current node.\n\
             Annotations:       <none>\n\
             Events:            <none>\n"
        );
    }

    #[test]
    fn describe_priority_class_formats_annotations_on_one_line() {
        let pc = PriorityClass {
            metadata: ObjectMeta {
                name: Some("high".into()),
                annotations: Some(BTreeMap::from([
                    ("b".to_string(), "2".to_string()),
                    ("a".to_string(), "1".to_string()),
                ])),
                ..Default::default()
            },
            value: 1000,
            global_default: Some(true),
            preemption_policy: Some("Never".into()),
            ..Default::default()
        };
        let text = describe_priority_class(&pc, &[], now());
        assert!(text.contains("Annotations:       a=1,b=2\n"), "{text}");
        assert!(text.contains("GlobalDefault:     true\n"), "{text}");
    }

    #[test]
    fn describe_namespace_ends_with_quota_and_limit_range_sections() {
        let ns = Namespace {
            metadata: ObjectMeta {
                name: Some("default".into()),
                labels: Some(BTreeMap::from([(
                    "kubernetes.io/metadata.name".to_string(),
                    "default".to_string(),
                )])),
                ..Default::default()
            },
            status: Some(k8s_openapi::api::core::v1::NamespaceStatus {
                phase: Some("Active".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(
            describe_namespace(&ns),
            "Name:         default\n\
             Labels:       kubernetes.io/metadata.name=default\n\
             Annotations:  <none>\n\
             Status:       Active\n\
             \n\
             No resource quota.\n\
             \n\
             No LimitRange resource.\n"
        );
    }
}
