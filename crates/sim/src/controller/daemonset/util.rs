//! Helpers with no controller state (`pkg/controller/daemon/util/daemonset_util.go` and the
//! predicates of `daemon_controller.go`).

use crate::service_account_admission::pod_spec_for_new_pod;
use dsplay_api::types::*;
use dsplay_api::{node_affinity, taints};
use k8s_openapi::api::core::v1::NodeSelector;

/// Pod label carrying the ControllerRevision hash (`apps.DefaultDaemonSetUniqueLabelKey`).
pub const REVISION_HASH_LABEL: &str = "controller-revision-hash";
/// Pod label carrying the template generation (`extensions.DaemonSetTemplateGenerationKey`).
pub const TEMPLATE_GENERATION_LABEL: &str = "pod-template-generation";

/// The [`REVISION_HASH_LABEL`] of a pod or ControllerRevision, empty when it has none.
pub fn revision_hash_label(meta: &ObjectMeta) -> String {
    meta.labels
        .as_ref()
        .and_then(|l| l.get(REVISION_HASH_LABEL))
        .cloned()
        .unwrap_or_default()
}

/// The answer to "should this DaemonSet have a pod on this node?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// A pod should be created here if missing.
    pub should_run: bool,
    /// An existing pod may stay.
    pub should_continue_running: bool,
}

/// `NodeShouldRunDaemonPod`: template nodeName, nodeSelector + required affinity, then taints
/// (NoSchedule/NoExecute) against the template's tolerations plus the daemon tolerations.
/// Resources, ports, `spec.unschedulable` and conditions are not considered (the scheduler does that).
/// Upstream: pkg/controller/daemon/daemon_controller.go NodeShouldRunDaemonPod
#[doc(alias = "NodeShouldRunDaemonPod")]
pub fn node_should_run_daemon_pod(node: &Node, ds: &DaemonSet) -> Placement {
    evaluate_placement(node, ds, None)
}

/// The same decision with the reason for each step, in words a learner can act on (`sim explain`).
pub fn explain_placement(node: &Node, ds: &DaemonSet) -> (Placement, Vec<String>) {
    let mut notes = Vec::new();
    let placement = evaluate_placement(node, ds, Some(&mut notes));
    (placement, notes)
}

/// The single implementation behind `node_should_run_daemon_pod` and `explain_placement`: reasons are
/// only formatted when `notes` is given, so the controller's hot path builds no reason strings.
fn evaluate_placement(
    node: &Node,
    ds: &DaemonSet,
    mut notes: Option<&mut Vec<String>>,
) -> Placement {
    // Reasons are built only when asked for: the controller calls this for every node it syncs.
    let mut note = |text: &dyn Fn() -> String| {
        if let Some(n) = notes.as_deref_mut() {
            n.push(text());
        }
    };
    let none = Placement {
        should_run: false,
        should_continue_running: false,
    };
    let Some(spec) = ds.spec.as_ref().and_then(|s| s.template.spec.as_ref()) else {
        return none;
    };
    let node_name = node.metadata.name.as_deref().unwrap_or("");
    if let Some(wanted) = spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        if wanted != node_name {
            note(&|| {
                format!("spec.template.spec.nodeName is {wanted}: only that node runs the pod")
            });
            return none;
        }
        note(&|| format!("spec.template.spec.nodeName is {wanted}: this node"));
    }
    if !node_affinity::node_selector_matches(spec, node) {
        let labels = node.metadata.labels.clone().unwrap_or_default();
        for (k, v) in spec.node_selector.iter().flatten() {
            match labels.get(k) {
                None => note(&|| format!("nodeSelector {k}={v}: node has no label {k}")),
                Some(actual) if actual != v => {
                    note(&|| format!("nodeSelector {k}={v}: node has {k}={actual}"))
                }
                Some(_) => {}
            }
        }
        return none;
    }
    if !node_affinity::required_terms_match(spec, node) {
        note(&|| {
            "required node affinity: no nodeSelectorTerm matches this node's labels".to_string()
        });
        return none;
    }
    if spec.node_selector.as_ref().is_some_and(|s| !s.is_empty())
        || node_affinity::required_terms(spec).is_some()
    {
        note(&|| "nodeSelector / required node affinity: matches".to_string());
    }
    let node_taints = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.as_deref())
        .unwrap_or_default();
    // Only a tainted node needs the daemon tolerations (most nodes have no taint).
    let tolerations = if node_taints.is_empty() {
        Vec::new()
    } else {
        daemon_pod_tolerations(spec)
    };
    let mut should_run = true;
    let mut should_continue_running = true;
    for taint in node_taints {
        let text = || taints::format_taint(taint);
        let tolerated = taints::tolerated_by_any(&tolerations, taint);
        let by_user = taints::tolerated_by_any(spec.tolerations.as_deref().unwrap_or(&[]), taint);
        if taint.effect == taints::PREFER_NO_SCHEDULE {
            note(&|| {
                format!(
                    "taint {}: ignored by the DaemonSet controller (PreferNoSchedule)",
                    text()
                )
            });
            continue;
        }
        match (tolerated, by_user) {
            (true, true) => note(&|| format!("taint {}: tolerated by the template", text())),
            (true, false) => note(&|| {
                format!(
                    "taint {}: tolerated automatically (daemon pods tolerate {}:{})",
                    text(),
                    taint.key,
                    taint.effect
                )
            }),
            (false, _) => {
                should_run = false;
                if taint.effect == taints::NO_EXECUTE {
                    should_continue_running = false;
                }
                note(&|| {
                    format!("taint {} not tolerated (add a toleration {{key: {}, operator: Exists, effect: {}}}){}", text(),
                    taint.key,
                    taint.effect,
                    if taint.effect == taints::NO_EXECUTE { ": existing pods are deleted" } else { ": no new pod, an existing one keeps running" }
                )
                });
            }
        }
    }
    Placement {
        should_run,
        should_continue_running,
    }
}

/// The template's tolerations plus the daemon tolerations (`AddOrUpdateDaemonPodTolerations`).
pub fn daemon_pod_tolerations(spec: &PodSpec) -> Vec<Toleration> {
    let mut tolerations = spec.tolerations.clone().unwrap_or_default();
    add_daemon_pod_tolerations(&mut tolerations, spec.host_network.unwrap_or(false));
    tolerations
}

/// Adds the daemon tolerations to `tolerations`, or replaces a toleration of the same taint.
///
/// Upstream: `pkg/controller/daemon/util/daemonset_util.go` `AddOrUpdateDaemonPodTolerations`.
fn add_daemon_pod_tolerations(tolerations: &mut Vec<Toleration>, host_network: bool) {
    const ADDED: [(&str, &str); 7] = [
        (taints::keys::NOT_READY, taints::NO_EXECUTE),
        (taints::keys::UNREACHABLE, taints::NO_EXECUTE),
        (taints::keys::DISK_PRESSURE, taints::NO_SCHEDULE),
        (taints::keys::MEMORY_PRESSURE, taints::NO_SCHEDULE),
        (taints::keys::PID_PRESSURE, taints::NO_SCHEDULE),
        (taints::keys::UNSCHEDULABLE, taints::NO_SCHEDULE),
        (taints::keys::NETWORK_UNAVAILABLE, taints::NO_SCHEDULE),
    ];
    let added = if host_network {
        &ADDED[..]
    } else {
        &ADDED[..6]
    };
    // Room for all of them at once: the vector is the stored pod's for life, and growing it by
    // doubling left up to three spare tolerations in each of thousands of pods.
    tolerations.reserve_exact(added.len());
    for &(key, effect) in added {
        let toleration = taints::exists_toleration(key, effect);
        // MatchToleration: same key, operator, value and effect → replaced (tolerationSeconds dropped).
        match tolerations.iter_mut().find(|t| {
            t.key == toleration.key
                && t.operator.as_deref().unwrap_or("Equal") == "Exists"
                && t.value.as_deref().unwrap_or("").is_empty()
                && t.effect == toleration.effect
        }) {
            Some(existing) => *existing = toleration,
            None => tolerations.push(toleration),
        }
    }
}

/// The pod the controller creates for a node (`CreatePodTemplate` + `ReplaceDaemonSetPodNodeNameNodeAffinity`).
/// Upstream: pkg/controller/daemon/util/daemonset_util.go CreatePodTemplate
pub fn new_daemon_pod(
    ds: &DaemonSet,
    node_name: &str,
    hash: &str,
    template_generation: Option<&str>,
) -> Pod {
    let template = ds.spec.as_ref().map(|s| &s.template);
    let mut metadata = template
        .and_then(|t| t.metadata.clone())
        .unwrap_or_default();
    let labels = metadata.labels.get_or_insert_with(Default::default);
    if let Some(generation) = template_generation {
        labels.insert(
            TEMPLATE_GENERATION_LABEL.to_string(),
            generation.to_string(),
        );
    }
    if !hash.is_empty() {
        labels.insert(REVISION_HASH_LABEL.to_string(), hash.to_string());
    }
    let ds_name = ds.metadata.name.clone().unwrap_or_default();
    metadata.generate_name = Some(format!("{ds_name}-"));
    metadata.name = None;
    metadata.namespace = ds.metadata.namespace.clone();
    metadata.owner_references = Some(vec![OwnerReference {
        api_version: "apps/v1".into(),
        kind: "DaemonSet".into(),
        name: ds_name,
        uid: ds.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }]);
    let mut spec = template
        .and_then(|t| t.spec.as_ref())
        .map(pod_spec_for_new_pod)
        .unwrap_or_default();
    let host_network = spec.host_network.unwrap_or(false);
    add_daemon_pod_tolerations(spec.tolerations.get_or_insert_with(Vec::new), host_network);
    replace_node_name_affinity(&mut spec, node_name);
    Pod {
        metadata,
        spec: Some(spec),
        status: None,
    }
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required terms become a single
/// `matchFields metadata.name In [node]` term; preferred terms are kept.
#[doc(alias = "ReplaceDaemonSetPodNodeNameNodeAffinity")]
pub fn replace_node_name_affinity(spec: &mut PodSpec, node_name: &str) {
    let term = NodeSelectorTerm {
        match_expressions: None,
        match_fields: Some(vec![NodeSelectorRequirement {
            key: "metadata.name".into(),
            operator: "In".into(),
            values: Some(vec![node_name.to_string()]),
        }]),
    };
    let affinity = spec.affinity.get_or_insert_with(Default::default);
    let node_affinity = affinity.node_affinity.get_or_insert_with(Default::default);
    node_affinity.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: vec![term],
    });
}

/// `IsPodUpdated`: the pod's hash label equals the current hash, or its template-generation label
/// equals the DaemonSet's template generation.
#[doc(alias = "IsPodUpdated")]
pub fn is_pod_updated(pod: &Pod, hash: &str, template_generation: Option<&str>) -> bool {
    let label = |key: &str| {
        pod.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(key))
            .map(String::as_str)
    };
    labels_are_updated(
        label(REVISION_HASH_LABEL),
        label(TEMPLATE_GENERATION_LABEL),
        hash,
        template_generation,
    )
}

/// [`is_pod_updated`] given the pod's hash and template-generation labels.
pub(crate) fn labels_are_updated(
    hash_label: Option<&str>,
    generation_label: Option<&str>,
    hash: &str,
    template_generation: Option<&str>,
) -> bool {
    let generation_matches =
        template_generation.is_some() && generation_label == template_generation;
    let hash_matches = !hash.is_empty() && hash_label == Some(hash);
    hash_matches || generation_matches
}

/// The node a daemon pod is meant for: `spec.nodeName`, else the single matchFields value.
/// Upstream: pkg/controller/daemon/util/daemonset_util.go GetTargetNodeName
pub fn target_node_name(pod: &Pod) -> Option<&str> {
    let spec = pod.spec.as_ref()?;
    if let Some(name) = spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return Some(name);
    }
    node_affinity::target_node_from_affinity(spec)
}

/// The pod is bound to no node yet and is not being deleted.
pub fn is_unscheduled_and_live(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.node_name.as_ref())
        .is_none()
        && pod.metadata.deletion_timestamp.is_none()
}

/// When the pod's Ready condition last became True, in ms, if it is True.
pub fn ready_since_ms(pod: &Pod) -> Option<i64> {
    let condition = dsplay_api::pod::pod_ready_condition(pod.status.as_ref()?)?;
    (condition.status == "True").then(|| {
        condition
            .last_transition_time
            .as_ref()
            .map(|t| t.0.timestamp_millis())
            .unwrap_or(0)
    })
}

/// `podutil.IsPodAvailable`: Ready, and Ready for more than minReadySeconds.
pub fn is_pod_available(pod: &Pod, min_ready_seconds: i32, now_ms: i64) -> bool {
    is_available_since(ready_since_ms(pod), min_ready_seconds, now_ms)
}

/// [`is_pod_available`] given when the pod turned Ready ([`ready_since_ms`]).
pub(crate) fn is_available_since(
    ready_since_ms: Option<i64>,
    min_ready_seconds: i32,
    now_ms: i64,
) -> bool {
    match ready_since_ms {
        None => false,
        Some(_) if min_ready_seconds <= 0 => true,
        Some(since) => since + i64::from(min_ready_seconds) * 1000 < now_ms,
    }
}

/// The phase string of a pod ("Pending" when unset).
pub fn phase(pod: &Pod) -> &str {
    pod.status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("Pending")
}

/// `podByCreationTimestampAndPhase`: scheduled pods first, then older, then by name.
#[doc(alias = "podByCreationTimestampAndPhase")]
pub fn oldest_first(a: &Pod, b: &Pod) -> std::cmp::Ordering {
    let scheduled = |p: &Pod| {
        p.spec
            .as_ref()
            .and_then(|s| s.node_name.as_ref())
            .is_some_and(|n| !n.is_empty())
    };
    scheduled(b)
        .cmp(&scheduled(a))
        .then_with(|| dsplay_api::object::older_first(&a.metadata, &b.metadata))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_api::taints::taint;

    fn node(name: &str, taints: Vec<Taint>) -> Node {
        Node {
            metadata: ObjectMeta {
                name: Some(name.into()),
                ..Default::default()
            },
            spec: Some(NodeSpec {
                taints: Some(taints),
                ..Default::default()
            }),
            status: None,
        }
    }

    fn ds(host_network: bool) -> DaemonSet {
        DaemonSet {
            metadata: ObjectMeta {
                name: Some("x".into()),
                ..Default::default()
            },
            spec: Some(DaemonSetSpec {
                template: PodTemplateSpec {
                    metadata: None,
                    spec: Some(PodSpec {
                        host_network: Some(host_network),
                        ..Default::default()
                    }),
                },
                ..Default::default()
            }),
            status: None,
        }
    }

    #[test]
    fn taint_truth_table() {
        // Upstream: pkg/controller/daemon/daemon_controller_test.go TestNodeShouldRunDaemonPod /
        // TestTaintedNode* cases.
        let cases = [
            (
                "NoSchedule",
                taint("k", Some("v"), "NoSchedule"),
                false,
                (false, true),
            ),
            (
                "NoExecute",
                taint("k", Some("v"), "NoExecute"),
                false,
                (false, false),
            ),
            (
                "PreferNoSchedule",
                taint("k", Some("v"), "PreferNoSchedule"),
                false,
                (true, true),
            ),
            (
                "not-ready NoExecute auto-tolerated",
                taint(taints::keys::NOT_READY, None, "NoExecute"),
                false,
                (true, true),
            ),
            (
                "unreachable NoExecute auto-tolerated",
                taint(taints::keys::UNREACHABLE, None, "NoExecute"),
                false,
                (true, true),
            ),
            (
                "disk-pressure",
                taint(taints::keys::DISK_PRESSURE, None, "NoSchedule"),
                false,
                (true, true),
            ),
            (
                "unschedulable",
                taint(taints::keys::UNSCHEDULABLE, None, "NoSchedule"),
                false,
                (true, true),
            ),
            (
                "network-unavailable without hostNetwork",
                taint(taints::keys::NETWORK_UNAVAILABLE, None, "NoSchedule"),
                false,
                (false, true),
            ),
            (
                "network-unavailable with hostNetwork",
                taint(taints::keys::NETWORK_UNAVAILABLE, None, "NoSchedule"),
                true,
                (true, true),
            ),
            (
                "not-ready NoSchedule not tolerated",
                taint(taints::keys::NOT_READY, None, "NoSchedule"),
                false,
                (false, true),
            ),
            (
                "unreachable NoSchedule not tolerated",
                taint(taints::keys::UNREACHABLE, None, "NoSchedule"),
                false,
                (false, true),
            ),
        ];
        for (name, t, host_network, (run, cont)) in cases {
            let got = node_should_run_daemon_pod(&node("n", vec![t]), &ds(host_network));
            assert_eq!(
                (got.should_run, got.should_continue_running),
                (run, cont),
                "{name}"
            );
        }
    }

    #[test]
    fn daemon_pod_gets_tolerations_affinity_labels_owner() {
        // Upstream TestReplaceDaemonSetPodNodeNameNodeAffinity (single-term replacement).
        let mut d = ds(false);
        d.metadata.uid = Some("u".into());
        let pod = new_daemon_pod(&d, "kind-worker", "abc", Some("1"));
        let spec = pod.spec.unwrap();
        let terms = spec
            .affinity
            .unwrap()
            .node_affinity
            .unwrap()
            .required_during_scheduling_ignored_during_execution
            .unwrap()
            .node_selector_terms;
        assert_eq!(terms.len(), 1);
        assert_eq!(
            terms[0].match_fields.as_ref().unwrap()[0].values,
            Some(vec!["kind-worker".to_string()])
        );
        assert_eq!(spec.tolerations.unwrap().len(), 6);
        let labels = pod.metadata.labels.unwrap();
        assert_eq!(labels[REVISION_HASH_LABEL], "abc");
        assert_eq!(labels[TEMPLATE_GENERATION_LABEL], "1");
        assert_eq!(pod.metadata.generate_name.as_deref(), Some("x-"));
        assert_eq!(
            pod.metadata.owner_references.unwrap()[0].controller,
            Some(true)
        );
    }
}
