//! What the API server's pod strategy does to a new pod's inter-pod (anti-)affinity before it is
//! validated and stored: each term's `matchLabelKeys` and `mismatchLabelKeys` become `In` and
//! `NotIn` requirements of its `labelSelector`, with the values of the new pod's own labels
//! (feature MatchLabelKeysInPodAffinity, beta and on in v1.32). The scheduler then reads only the
//! selector.

use crate::k8s_openapi::api::core::v1::{PodAffinityTerm, WeightedPodAffinityTerm};
use crate::types::{LabelSelector, LabelSelectorRequirement, Pod};
use std::collections::BTreeMap;

/// Merges every affinity and anti-affinity term's label keys into its selector.
///
/// Upstream: pkg/registry/core/pod/strategy.go mutatePodAffinity (called by PrepareForCreate).
pub fn mutate_pod_affinity(pod: &mut Pod) {
    let labels = pod.metadata.labels.clone().unwrap_or_default();
    let Some(affinity) = pod.spec.as_mut().and_then(|s| s.affinity.as_mut()) else {
        return;
    };
    let mut terms = Vec::new();
    if let Some(a) = affinity.pod_affinity.as_mut() {
        terms.extend(terms_of(
            &mut a.preferred_during_scheduling_ignored_during_execution,
            &mut a.required_during_scheduling_ignored_during_execution,
        ));
    }
    if let Some(a) = affinity.pod_anti_affinity.as_mut() {
        terms.extend(terms_of(
            &mut a.preferred_during_scheduling_ignored_during_execution,
            &mut a.required_during_scheduling_ignored_during_execution,
        ));
    }
    for term in terms {
        apply_match_label_keys_and_mismatch_label_keys(term, &labels);
    }
}

/// The preferred terms, then the required ones, of a PodAffinity or a PodAntiAffinity.
fn terms_of<'a>(
    preferred: &'a mut Option<Vec<WeightedPodAffinityTerm>>,
    required: &'a mut Option<Vec<PodAffinityTerm>>,
) -> impl Iterator<Item = &'a mut PodAffinityTerm> {
    let preferred = preferred
        .iter_mut()
        .flatten()
        .map(|w| &mut w.pod_affinity_term);
    preferred.chain(required.iter_mut().flatten())
}

/// `key In (value)` for each of `matchLabelKeys`, `key NotIn (value)` for each of
/// `mismatchLabelKeys`, appended to the term's selector; keys the pod has no label for are
/// skipped, and a term without a selector (which selects nothing) is left alone.
///
/// Upstream: pkg/registry/core/pod/strategy.go applyMatchLabelKeysAndMismatchLabelKeys.
fn apply_match_label_keys_and_mismatch_label_keys(
    term: &mut PodAffinityTerm,
    labels: &BTreeMap<String, String>,
) {
    let Some(selector) = term.label_selector.as_mut() else {
        return;
    };
    let match_keys = term.match_label_keys.as_deref().unwrap_or_default();
    apply_label_keys_to_label_selector(selector, match_keys, "In", labels);
    let mismatch_keys = term.mismatch_label_keys.as_deref().unwrap_or_default();
    apply_label_keys_to_label_selector(selector, mismatch_keys, "NotIn", labels);
}

/// Upstream: pkg/registry/core/pod/strategy.go applyLabelKeysToLabelSelector.
fn apply_label_keys_to_label_selector(
    selector: &mut LabelSelector,
    keys: &[String],
    operator: &str,
    labels: &BTreeMap<String, String>,
) {
    for key in keys {
        if let Some(value) = labels.get(key) {
            let requirements = selector.match_expressions.get_or_insert_with(Vec::new);
            requirements.push(LabelSelectorRequirement {
                key: key.clone(),
                operator: operator.to_string(),
                values: Some(vec![value.clone()]),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Upstream: pkg/registry/core/pod/strategy_test.go TestApplyMatchLabelKeysAndMismatchLabelKeys
    /// (the same shape: a pod labelled country and city, both kinds of term).
    #[test]
    fn label_keys_become_requirements_with_the_pods_own_values() {
        let term = json!({
            "labelSelector": {"matchLabels": {"region": "Asia"}},
            "matchLabelKeys": ["country", "missing"],
            "mismatchLabelKeys": ["city"],
            "topologyKey": "zone"
        });
        let mut pod: Pod = serde_json::from_value(json!({
            "metadata": {"name": "p", "labels": {"country": "Japan", "city": "Kyoto"}},
            "spec": {"containers": [], "affinity": {
                "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term.clone()]},
                "podAntiAffinity": {
                    "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "podAffinityTerm": term}],
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {"matchLabelKeys": ["country"], "topologyKey": "zone"}
                    ]
                }
            }}
        }))
        .unwrap();
        mutate_pod_affinity(&mut pod);
        let merged = json!([
            {"key": "country", "operator": "In", "values": ["Japan"]},
            {"key": "city", "operator": "NotIn", "values": ["Kyoto"]}
        ]);
        let affinity = serde_json::to_value(pod.spec.unwrap().affinity.unwrap()).unwrap();
        let selector = |path: &str| affinity.pointer(path).cloned();
        assert_eq!(
            selector("/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/labelSelector/matchExpressions"),
            Some(merged.clone())
        );
        assert_eq!(
            selector("/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/0/podAffinityTerm/labelSelector/matchExpressions"),
            Some(merged)
        );
        // No selector: it selects nothing, and stays so.
        assert_eq!(
            selector(
                "/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/labelSelector"
            ),
            None
        );
    }
}
