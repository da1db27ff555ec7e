//! ControllerRevisions: `constructHistory`, `dedupCurHistories`, `cleanupHistory`.
//! Upstream: pkg/controller/daemon/update.go

use super::util::{revision_hash_label, REVISION_HASH_LABEL};
use crate::cluster::{k8s_time, Cluster};
use crate::names;
use crate::store::Store;
use dsplay_api::types::*;
use dsplay_api::{selector, Kind, Object};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;

/// The revision data for a DaemonSet's template.
pub fn revision_data(ds: &DaemonSet) -> serde_json::Value {
    template_patch(
        &ds.spec
            .as_ref()
            .map(|s| s.template.clone())
            .unwrap_or_default(),
    )
}

/// A ControllerRevision's data for a pod template: `{"spec":{"template":{…,"$patch":"replace"}}}`,
/// the shape both the DaemonSet's and the StatefulSet's `getPatch` store.
///
/// Upstream: pkg/controller/daemon/update.go getPatch; pkg/controller/statefulset/stateful_set_utils.go getPatch
#[doc(alias = "getPatch")]
pub fn template_patch(template: &PodTemplateSpec) -> serde_json::Value {
    let mut template_json = serde_json::to_value(template).unwrap_or_default();
    if let Some(map) = template_json.as_object_mut() {
        map.insert("$patch".into(), serde_json::Value::String("replace".into()));
    }
    serde_json::json!({ "spec": { "template": template_json } })
}

/// A revision's labels: its pod template's labels, and its hash under `key`.
pub fn revision_labels(
    template: Option<&PodTemplateSpec>,
    key: &str,
    hash: &str,
) -> std::collections::BTreeMap<String, String> {
    let mut labels = template
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    labels.insert(key.to_string(), hash.to_string());
    labels
}

/// The pod template a revision's data holds (the inverse of [`template_patch`]): what applying
/// the revision to its owner puts in `spec.template`.
pub fn template_from_patch(data: &serde_json::Value) -> Option<PodTemplateSpec> {
    let mut template = data.pointer("/spec/template")?.clone();
    if let Some(map) = template.as_object_mut() {
        map.remove("$patch");
    }
    // From a borrowed value, as manifests are decoded: one deserializer for the types in the wasm.
    <PodTemplateSpec as k8s_openapi::serde::Deserialize>::deserialize(&template).ok()
}

/// The revision hash of the DaemonSet's current template.
pub fn template_hash(ds: &DaemonSet) -> String {
    let template = ds
        .spec
        .as_ref()
        .map(|s| s.template.clone())
        .unwrap_or_default();
    let text = serde_json::to_string(&template).unwrap_or_default();
    names::compute_hash(&text, ds.status.as_ref().and_then(|s| s.collision_count))
}

/// The ControllerRevisions owned by the DaemonSet (adopting matching orphans), by revision number.
pub fn controlled_histories(cluster: &mut Cluster, ds: &DaemonSet) -> Vec<ControllerRevision> {
    let ns = ds.metadata.namespace.clone().unwrap_or_default();
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let sel = ds.spec.as_ref().map(|s| s.selector.clone());
    let candidates: Vec<ControllerRevision> = cluster
        .store
        .controller_revisions()
        .filter(|r| r.metadata.namespace.as_deref() == Some(ns.as_str()))
        .cloned()
        .collect();
    let mut out = Vec::new();
    for mut revision in candidates {
        let controller = revision
            .metadata
            .owner_references
            .iter()
            .flatten()
            .find(|r| r.controller == Some(true))
            .cloned();
        match controller {
            Some(r) if r.uid == uid => out.push(revision),
            Some(_) => {}
            None if selector::label_selector_matches(
                sel.as_ref(),
                revision.metadata.labels.as_ref(),
            ) =>
            {
                revision.metadata.owner_references = Some(vec![owner_ref(ds)]);
                cluster.write(Object::ControllerRevision(revision.clone()));
                out.push(revision);
            }
            None => {}
        }
    }
    out.sort_by_key(|r| r.revision);
    out
}

fn owner_ref(ds: &DaemonSet) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".into(),
        kind: "DaemonSet".into(),
        name: ds.metadata.name.clone().unwrap_or_default(),
        uid: ds.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// `constructHistory`: find or create the current revision, dedup, renumber; returns the (possibly
/// status-updated) DaemonSet and the current hash. None when a hash collision bumped collisionCount
/// and the sync must be retried (it is, by the next loop pass).
#[doc(alias = "constructHistory")]
pub fn construct_history(cluster: &mut Cluster, ds: &DaemonSet) -> Option<(DaemonSet, String)> {
    let histories = controlled_histories(cluster, ds);
    let data = revision_data(ds);
    let (current, old): (Vec<ControllerRevision>, Vec<ControllerRevision>) = histories
        .into_iter()
        .partition(|r| r.data.as_ref().map(|d| &d.0) == Some(&data));
    let next_revision = old.iter().map(|r| r.revision).max().unwrap_or(0) + 1;
    let ns = ds.metadata.namespace.clone().unwrap_or_default();
    let ds_name = ds.metadata.name.clone().unwrap_or_default();
    let kept = if current.is_empty() {
        let hash = template_hash(ds);
        let name = format!("{ds_name}-{hash}");
        if let Some(existing) = cluster
            .store
            .controller_revisions
            .get(&(ns.clone(), name.clone()))
            .cloned()
        {
            if existing.data.as_ref().map(|d| &d.0) == Some(&data) {
                existing
            } else {
                // Hash collision: bump collisionCount and retry.
                let mut next = cluster.store.daemon_set(&ns, &ds_name)?.clone();
                let status = next.status.get_or_insert_with(Default::default);
                status.collision_count = Some(status.collision_count.unwrap_or(0) + 1);
                cluster.write(Object::DaemonSet(next));
                return None;
            }
        } else {
            let labels = revision_labels(
                ds.spec.as_ref().map(|s| &s.template),
                REVISION_HASH_LABEL,
                &hash,
            );
            let annotations = ds.metadata.annotations.clone().map(|mut a| {
                a.remove("kubectl.kubernetes.io/last-applied-configuration");
                a
            });
            let revision = ControllerRevision {
                metadata: ObjectMeta {
                    name: Some(name),
                    namespace: Some(ns.clone()),
                    labels: Some(labels),
                    annotations: annotations.filter(|a| !a.is_empty()),
                    owner_references: Some(vec![owner_ref(ds)]),
                    uid: Some(names::uid(&mut cluster.rng)),
                    creation_timestamp: Some(k8s_time(cluster.now_ms)),
                    ..Default::default()
                },
                data: Some(RawExtension(data)),
                revision: next_revision,
            };
            cluster.write(Object::ControllerRevision(revision.clone()));
            revision
        }
    } else {
        let mut current = current;
        current.sort_by_key(|r| r.revision);
        let kept = current.pop().expect("non-empty");
        let kept_hash = revision_hash_label(&kept.metadata);
        for duplicate in current {
            cluster.remove_object(
                Kind::ControllerRevision,
                &ns,
                duplicate.metadata.name.as_deref().unwrap_or(""),
            );
            relabel_pods(cluster, ds, &kept_hash);
        }
        if kept.revision < next_revision {
            let mut bumped = kept.clone();
            bumped.revision = next_revision;
            cluster.write(Object::ControllerRevision(bumped.clone()));
            bumped
        } else {
            kept
        }
    };
    let hash = revision_hash_label(&kept.metadata);
    let ds = cluster.store.daemon_set(&ns, &ds_name)?.clone();
    Some((ds, hash))
}

fn relabel_pods(cluster: &mut Cluster, ds: &DaemonSet, hash: &str) {
    let pods: Vec<Pod> = cluster.store.pods_owned_by(&ds.metadata).cloned().collect();
    for mut pod in pods {
        let labels = pod.metadata.labels.get_or_insert_with(Default::default);
        if labels.get(REVISION_HASH_LABEL).map(String::as_str) != Some(hash) {
            labels.insert(REVISION_HASH_LABEL.to_string(), hash.to_string());
            cluster.write(Object::Pod(pod));
        }
    }
}

/// What `constructHistory` and `cleanupHistory` read besides pods: the template (generation), the
/// collisionCount and every ControllerRevision write. While it is unchanged they have nothing to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HistoryKey {
    generation: Option<i64>,
    collision_count: Option<i32>,
    revisions_version: u64,
}

impl HistoryKey {
    /// The key of the DaemonSet and the store now.
    pub(crate) fn of(cluster: &Cluster, ds: &DaemonSet) -> HistoryKey {
        HistoryKey {
            generation: ds.metadata.generation,
            collision_count: ds.status.as_ref().and_then(|s| s.collision_count),
            revisions_version: cluster.store.controller_revisions_version(),
        }
    }
}

/// `cleanupHistory`: keep revisionHistoryLimit old revisions (never ones a live pod still uses).
/// Returns true when no more than the limit are left (false while live pods keep extra ones).
#[doc(alias = "cleanupHistory")]
pub fn cleanup_history(cluster: &mut Cluster, ds: &DaemonSet) -> bool {
    let limit = ds
        .spec
        .as_ref()
        .and_then(|s| s.revision_history_limit)
        .unwrap_or(10)
        .max(0) as usize;
    let histories = controlled_histories(cluster, ds);
    let data = revision_data(ds);
    let old: Vec<ControllerRevision> = histories
        .into_iter()
        .filter(|r| r.data.as_ref().map(|d| &d.0) != Some(&data))
        .collect();
    if old.len() <= limit {
        return true;
    }
    let live_hashes: std::collections::BTreeSet<String> = cluster
        .store
        .pods_owned_by(&ds.metadata)
        .map(|p| revision_hash_label(&p.metadata))
        .collect();
    let mut to_kill = old.len() - limit;
    let ns = ds.metadata.namespace.clone().unwrap_or_default();
    for revision in old {
        if to_kill == 0 {
            break;
        }
        let hash = revision_hash_label(&revision.metadata);
        if live_hashes.contains(&hash) {
            continue;
        }
        cluster.remove_object(
            Kind::ControllerRevision,
            &ns,
            revision.metadata.name.as_deref().unwrap_or(""),
        );
        to_kill -= 1;
    }
    to_kill == 0
}

/// The ControllerRevisions controlled by `ds` (a controller owner reference with its uid), oldest
/// revision first. One owner for `kubectl rollout history|undo` and the views.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/polymorphichelpers/history.go controlledHistories
/// (`metav1.IsControlledBy`).
#[doc(alias = "controlledHistories")]
pub fn controlled_revisions<'a>(store: &'a Store, ds: &DaemonSet) -> Vec<&'a ControllerRevision> {
    revisions_controlled_by(store, &ds.metadata)
}

/// The ControllerRevisions controlled by the object `owner` describes, oldest revision first.
pub fn revisions_controlled_by<'a>(
    store: &'a Store,
    owner: &ObjectMeta,
) -> Vec<&'a ControllerRevision> {
    let uid = owner.uid.as_deref().unwrap_or_default();
    let mut out: Vec<&ControllerRevision> = store
        .controller_revisions()
        .filter(|r| {
            r.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.uid == uid && o.controller == Some(true))
        })
        .collect();
    out.sort_by_key(|r| r.revision);
    out
}

/// The hash of the DaemonSet's current revision, read-only (for views and diagnosis): the label of
/// the owned revision whose data matches the template, else the hash a new revision would get.
pub fn current_hash(cluster: &Cluster, ds: &DaemonSet) -> Option<String> {
    ds.metadata.uid.as_deref()?;
    let data = revision_data(ds);
    let owned = controlled_revisions(&cluster.store, ds)
        .into_iter()
        .filter(|r| r.data.as_ref().map(|d| &d.0) == Some(&data))
        .max_by_key(|r| r.revision);
    Some(match owned {
        Some(r) => revision_hash_label(&r.metadata),
        None => template_hash(ds),
    })
}
