//! Pods that differ only in what validation does not look at validate alike: a DaemonSet creates one
//! pod per node from one template, and the pods differ only in their generated name suffix, the
//! node name in their `matchFields` affinity term and the random suffix of the service account token
//! volume (`kube-api-access-xxxxx`, and its mounts). The API server validates each of them; here the
//! result of a recent pod that passed is reused for the next one that equals it apart from those
//! three things, instead of validating the same spec thousands of times in a rollout. Several are
//! kept: a node joining a cluster gets one pod from each DaemonSet in turn (kind's kube-proxy and
//! kindnet, and the user's), so the last one alone would never match.
//!
//! Why the result carries over: a generated name is the (already checked) `generateName` plus five
//! characters of the `utilrand.String` alphabet, all valid in a DNS subdomain, at a fixed length;
//! pod validation checks only the key, operator and number of values of a `matchFields` requirement,
//! never the values (`validation::node_affinity`); and the token volume is renamed consistently
//! (the volume and exactly the mounts that name it), between names of one valid form.

use crate::service_account_admission::VOLUME_PREFIX;
use dsplay_api::types::*;
use k8s_openapi::api::core::v1::VolumeMount;

/// The most pods [`ValidationMemo`] keeps.
const REMEMBERED: usize = 8;

/// The last pods (most recent first, at most [`REMEMBERED`]) that passed validation, each with its
/// varying parts taken out, and their shape.
#[derive(Clone, Debug, Default)]
pub(crate) struct ValidationMemo {
    recent: Vec<(Pod, Shape)>,
}

/// The varying parts of a pod, taken out of it for the comparison and put back after.
struct Taken {
    name: Option<String>,
    values: Vec<Option<Vec<String>>>,
    /// The token volume (its index and name) and the indices of the mounts that named it, in
    /// [`mounts`] order; in the pod they are left empty.
    token_volume: Option<(usize, String, Vec<usize>)>,
}

impl ValidationMemo {
    /// Whether `pod`, whose name was just generated, equals a recent pod that passed apart from
    /// its name, `matchFields` values and token volume name (so it passes too).
    pub(crate) fn passes(&self, pod: &mut Pod) -> bool {
        if self.recent.is_empty() {
            return false;
        }
        let taken = take_varying(pod);
        let shape = shape_of(&taken);
        let same = self
            .recent
            .iter()
            .any(|(passed, passed_shape)| *pod == *passed && shape == *passed_shape);
        put_back(pod, taken);
        same
    }

    /// Remembers a pod (with a generated name) that passed validation.
    pub(crate) fn remember(&mut self, pod: &Pod) {
        let mut pod = pod.clone();
        let taken = take_varying(&mut pod);
        self.recent.insert(0, (pod, shape_of(&taken)));
        self.recent.truncate(REMEMBERED);
    }
}

/// What validation sees of the parts taken out: how many `matchFields` values each requirement
/// had, and which mounts named the token volume.
fn shape_of(taken: &Taken) -> Shape {
    let counts = taken
        .values
        .iter()
        .map(|v| v.as_ref().map_or(0, Vec::len))
        .collect();
    let token = taken
        .token_volume
        .as_ref()
        .map(|(at, _, mounts)| (*at, mounts.clone()));
    (counts, token)
}

/// The `matchFields` value counts, and the token volume's index with its mounts' indices.
type Shape = (Vec<usize>, Option<(usize, Vec<usize>)>);

/// The required node affinity terms' `matchFields` requirements, in order.
fn match_fields(pod: &mut Pod) -> impl Iterator<Item = &mut NodeSelectorRequirement> {
    pod.spec
        .as_mut()
        .and_then(|s| s.affinity.as_mut())
        .and_then(|a| a.node_affinity.as_mut())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_mut()
        })
        .into_iter()
        .flat_map(|r| r.node_selector_terms.iter_mut())
        .flat_map(|t| t.match_fields.iter_mut().flatten())
}

/// Every volume mount of the pod's init containers, then of its containers.
fn mounts(spec: &mut PodSpec) -> impl Iterator<Item = &mut VolumeMount> {
    spec.init_containers
        .iter_mut()
        .flatten()
        .chain(spec.containers.iter_mut())
        .flat_map(|c| c.volume_mounts.iter_mut().flatten())
}

fn take_varying(pod: &mut Pod) -> Taken {
    let name = pod.metadata.name.take();
    let values = match_fields(pod).map(|r| r.values.take()).collect();
    let token_volume = pod.spec.as_mut().and_then(|spec| {
        let (at, volume) = spec
            .volumes
            .iter_mut()
            .flatten()
            .enumerate()
            .find(|(_, v)| v.name.starts_with(VOLUME_PREFIX))?;
        let taken = std::mem::take(&mut volume.name);
        let named: Vec<usize> = mounts(spec)
            .enumerate()
            .filter(|(_, m)| m.name == taken)
            .map(|(i, m)| {
                m.name.clear();
                i
            })
            .collect();
        Some((at, taken, named))
    });
    Taken {
        name,
        values,
        token_volume,
    }
}

fn put_back(pod: &mut Pod, taken: Taken) {
    pod.metadata.name = taken.name;
    for (requirement, values) in match_fields(pod).zip(taken.values) {
        requirement.values = values;
    }
    let (Some(spec), Some((at, token, named))) = (pod.spec.as_mut(), taken.token_volume) else {
        return;
    };
    for (i, mount) in mounts(spec).enumerate() {
        if named.contains(&i) {
            mount.name.clone_from(&token);
        }
    }
    if let Some(volume) = spec.volumes.iter_mut().flatten().nth(at) {
        volume.name = token;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A pod as a DaemonSet makes it, with the token volume `token` mounted in its container and
    /// an extra mount named `other`.
    fn daemon_pod(name: &str, nodes: &[&str], image: &str, token: &str, other: &str) -> Pod {
        serde_json::from_value(json!({
            "metadata": {"name": name, "generateName": "ds-", "namespace": "default"},
            "spec": {
                "containers": [{"name": "c", "image": image, "volumeMounts": [
                    {"name": other, "mountPath": "/data"},
                    {"name": token, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}
                ]}],
                "volumes": [{"name": "data", "emptyDir": {}}, {"name": token, "projected": {}}],
                "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{"matchFields": [
                        {"key": "metadata.name", "operator": "In", "values": nodes}
                    ]}]
                }}}
            }
        }))
        .expect("pod")
    }

    fn remembered() -> ValidationMemo {
        let mut memo = ValidationMemo::default();
        let mut first = daemon_pod(
            "ds-aaaaa",
            &["n-1"],
            "pause:3.9",
            "kube-api-access-bbbbb",
            "data",
        );
        assert!(!memo.passes(&mut first), "nothing remembered yet");
        memo.remember(&first);
        memo
    }

    #[test]
    fn a_pod_differing_only_in_name_node_and_token_volume_passes_and_is_left_as_it_was() {
        let memo = remembered();
        let mut next = daemon_pod(
            "ds-ccccc",
            &["n-2"],
            "pause:3.9",
            "kube-api-access-ddddd",
            "data",
        );
        let before = next.clone();
        assert!(memo.passes(&mut next));
        assert_eq!(next, before, "the pod is put back as it was");
    }

    #[test]
    fn any_other_difference_validates_again() {
        let memo = remembered();
        let token = "kube-api-access-ddddd";
        for mut pod in [
            daemon_pod("ds-ccccc", &["n-2"], "pause:3.10", token, "data"),
            daemon_pod("ds-ccccc", &["n-1", "n-2"], "pause:3.9", token, "data"),
            daemon_pod("ds-ccccc", &[], "pause:3.9", token, "data"),
            // A mount of the other volume that names the token volume instead.
            daemon_pod("ds-ccccc", &["n-2"], "pause:3.9", token, token),
            // A mount naming the first pod's token volume, which this pod does not have.
            daemon_pod(
                "ds-ccccc",
                &["n-2"],
                "pause:3.9",
                token,
                "kube-api-access-bbbbb",
            ),
        ] {
            let before = pod.clone();
            assert!(!memo.passes(&mut pod), "{pod:?}");
            assert_eq!(pod, before);
        }
    }

    /// Pods of several DaemonSets in turn (a node joining gets one from each) all pass from the
    /// memo once each template has passed; the oldest is forgotten after [`REMEMBERED`] others.
    #[test]
    fn pods_of_templates_in_turn_pass() {
        let mut memo = ValidationMemo::default();
        let images: Vec<String> = (0..=REMEMBERED).map(|i| format!("pause:{i}")).collect();
        let pod = |image: &str, node: &str| {
            daemon_pod("ds-ccccc", &[node], image, "kube-api-access-ddddd", "data")
        };
        for image in &images[..3] {
            memo.remember(&pod(image, "n-1"));
        }
        for image in &images[..3] {
            assert!(memo.passes(&mut pod(image, "n-2")), "{image}");
        }
        for image in &images[3..] {
            memo.remember(&pod(image, "n-1"));
        }
        assert!(!memo.passes(&mut pod(&images[0], "n-2")), "forgotten");
        assert!(memo.passes(&mut pod(&images[1], "n-2")));
    }
}
