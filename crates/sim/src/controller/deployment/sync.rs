//! The Deployment sync steps shared by every strategy: finding (or creating) the new ReplicaSet,
//! scaling, history clean-up and status.
//! Upstream: pkg/controller/deployment/sync.go

use super::util::*;
use super::{refreshed, COMPONENT};
use crate::api_server::object_reference;
use crate::cluster::{k8s_time, Cluster};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use std::collections::BTreeMap;

/// Writes a Deployment's status and annotations (`UpdateStatus`) when they changed.
pub(crate) fn write_deployment(cluster: &mut Cluster, d: &Deployment) {
    let ns = d.metadata.namespace.as_deref().unwrap_or("");
    let name = d.metadata.name.as_deref().unwrap_or("");
    let Some(stored) = cluster.store.deployment(ns, name) else {
        return;
    };
    if stored.status == d.status && stored.metadata.annotations == d.metadata.annotations {
        return;
    }
    let mut next = stored.clone();
    next.status = d.status.clone();
    next.metadata.annotations = d.metadata.annotations.clone();
    cluster.write(Object::Deployment(next));
}

/// Writes a ReplicaSet update (the generation moves when the spec does) and returns it as stored.
pub(crate) fn update_replica_set(cluster: &mut Cluster, mut rs: ReplicaSet) -> ReplicaSet {
    let stored = refreshed(cluster, &rs);
    if stored.spec != rs.spec {
        rs.metadata.generation = Some(stored.metadata.generation.unwrap_or(1) + 1);
    }
    if stored != rs {
        cluster.write(Object::ReplicaSet(rs.clone()));
    }
    refreshed(cluster, &rs)
}

fn refs(rss: &[ReplicaSet]) -> Vec<&ReplicaSet> {
    rss.iter().collect()
}

/// Old and new ReplicaSets together (`append(oldRSs, newRS)`).
pub(crate) fn all_of(old: &[ReplicaSet], new: Option<&ReplicaSet>) -> Vec<ReplicaSet> {
    let mut all = old.to_vec();
    all.extend(new.cloned());
    all
}

/// `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when `create` and missing) and
/// every old one.
#[doc(alias = "getAllReplicaSetsAndSyncRevision")]
pub(crate) fn get_all_replica_sets_and_sync_revision(
    cluster: &mut Cluster,
    d: &mut Deployment,
    rs_list: &[ReplicaSet],
    create: bool,
) -> (Option<ReplicaSet>, Vec<ReplicaSet>) {
    let list = refs(rs_list);
    let new_name = find_new_replica_set(d, &list).and_then(|rs| rs.metadata.name.clone());
    let old: Vec<ReplicaSet> = rs_list
        .iter()
        .filter(|rs| rs.metadata.name != new_name || new_name.is_none())
        .map(|rs| refreshed(cluster, rs))
        .collect();
    let new = get_new_replica_set(cluster, d, rs_list, &old, create);
    (new, old)
}

/// `getNewReplicaSet`: sync the existing new ReplicaSet's annotations and minReadySeconds and the
/// Deployment's revision, or create `<deployment>-<pod-template-hash>` with its first replicas.
#[doc(alias = "getNewReplicaSet")]
pub(crate) fn get_new_replica_set(
    cluster: &mut Cluster,
    d: &mut Deployment,
    rs_list: &[ReplicaSet],
    old: &[ReplicaSet],
    create: bool,
) -> Option<ReplicaSet> {
    let existing = find_new_replica_set(d, &refs(rs_list)).map(|rs| refreshed(cluster, rs));
    let new_revision = max_revision(&refs(old)) + 1;
    let min_ready = d.spec.as_ref().and_then(|s| s.min_ready_seconds);
    let now = k8s_time(cluster.now_ms);
    if let Some(existing) = existing {
        let mut copy = existing.clone();
        let annotations_updated = set_new_replica_set_annotations(d, &mut copy, new_revision, true);
        let spec = copy.spec.get_or_insert_with(Default::default);
        let min_ready_changed = spec.min_ready_seconds.unwrap_or(0) != min_ready.unwrap_or(0);
        if annotations_updated || min_ready_changed {
            spec.min_ready_seconds = min_ready;
            return Some(update_replica_set(cluster, copy));
        }
        let revision = copy
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(REVISION_ANNOTATION))
            .cloned()
            .unwrap_or_default();
        let mut needs_update = set_deployment_revision(d, &revision);
        let deadline = has_progress_deadline(d);
        let status = d.status.get_or_insert_with(Default::default);
        if deadline && get_condition(status, "Progressing").is_none() {
            let message = format!(
                "Found new replica set {:?}",
                copy.metadata.name.clone().unwrap_or_default()
            );
            set_condition(
                status,
                new_condition("Progressing", "True", "FoundNewReplicaSet", &message, &now),
            );
            needs_update = true;
        }
        if needs_update {
            write_deployment(cluster, d);
        }
        return Some(copy);
    }
    if !create {
        return None;
    }
    let spec = d.spec.clone().unwrap_or_default();
    let collision_count = d.status.as_ref().and_then(|s| s.collision_count);
    let template_json = serde_json::to_string(&spec.template).unwrap_or_default();
    let hash = crate::names::compute_hash(&template_json, collision_count);
    let mut template = spec.template.clone();
    let template_meta = template.metadata.get_or_insert_with(Default::default);
    template_meta
        .labels
        .get_or_insert_with(BTreeMap::new)
        .insert(POD_TEMPLATE_HASH_LABEL.to_string(), hash.clone());
    let labels = template_meta.labels.clone();
    let mut selector = spec.selector.clone();
    selector
        .match_labels
        .get_or_insert_with(BTreeMap::new)
        .insert(POD_TEMPLATE_HASH_LABEL.to_string(), hash.clone());
    let d_name = d.metadata.name.clone().unwrap_or_default();
    let mut new_rs = ReplicaSet {
        metadata: ObjectMeta {
            name: Some(format!("{d_name}-{hash}")),
            namespace: d.metadata.namespace.clone(),
            owner_references: Some(vec![crate::controller::replicaset::controller_ref(
                Kind::Deployment,
                &d.metadata,
            )]),
            labels,
            ..Default::default()
        },
        spec: Some(ReplicaSetSpec {
            replicas: Some(0),
            min_ready_seconds: min_ready,
            selector,
            template: Some(template),
        }),
        status: None,
    };
    let mut all: Vec<&ReplicaSet> = refs(old);
    all.push(&new_rs);
    let count = new_rs_new_replicas(d, &all, &new_rs);
    if let Some(spec) = new_rs.spec.as_mut() {
        spec.replicas = Some(count);
    }
    set_new_replica_set_annotations(d, &mut new_rs, new_revision, false);
    let name = new_rs.metadata.name.clone().unwrap_or_default();
    let reference = object_reference(Kind::Deployment, &d.metadata);
    let already_exists = match cluster.create_internal(Object::ReplicaSet(new_rs.clone())) {
        Ok(_) => false,
        Err(crate::error::ApiError::AlreadyExists { .. }) => {
            // A hash collision: count it so the next sync hashes differently.
            let status = d.status.get_or_insert_with(Default::default);
            status.collision_count = Some(status.collision_count.unwrap_or(0) + 1);
            write_deployment(cluster, d);
            return None;
        }
        Err(err) => {
            let message = format!(
                "Failed to create new replica set {name:?}: {}",
                err.server_message()
            );
            cluster.record_event(
                &reference,
                "Warning",
                "FailedCreate",
                &message,
                COMPONENT,
                None,
            );
            return None;
        }
    };
    if !already_exists && count > 0 {
        cluster.record_event(
            &reference,
            "Normal",
            "ScalingReplicaSet",
            &format!("Scaled up replica set {name} from 0 to {count}"),
            COMPONENT,
            None,
        );
    }
    set_deployment_revision(d, &new_revision.to_string());
    if has_progress_deadline(d) {
        let message = format!("Created new replica set {name:?}");
        set_condition(
            d.status.get_or_insert_with(Default::default),
            new_condition(
                "Progressing",
                "True",
                "NewReplicaSetCreated",
                &message,
                &now,
            ),
        );
    }
    write_deployment(cluster, d);
    cluster
        .store
        .replica_set(d.metadata.namespace.as_deref().unwrap_or(""), &name)
        .cloned()
}

/// `SetDeploymentRevision`: true when the annotation changed.
#[doc(alias = "SetDeploymentRevision")]
pub(crate) fn set_deployment_revision(d: &mut Deployment, revision: &str) -> bool {
    let annotations = d.metadata.annotations.get_or_insert_with(BTreeMap::new);
    if annotations.get(REVISION_ANNOTATION).map(String::as_str) == Some(revision) {
        return false;
    }
    annotations.insert(REVISION_ANNOTATION.to_string(), revision.to_string());
    true
}

/// `scaleReplicaSetAndRecordEvent`: returns whether it scaled, and the ReplicaSet as stored.
#[doc(alias = "scaleReplicaSetAndRecordEvent")]
pub(crate) fn scale_replica_set_and_record_event(
    cluster: &mut Cluster,
    rs: &ReplicaSet,
    new_scale: i32,
    d: &Deployment,
) -> (bool, ReplicaSet) {
    if rs_replicas(rs) == new_scale {
        return (false, rs.clone());
    }
    let operation = if rs_replicas(rs) < new_scale {
        "up"
    } else {
        "down"
    };
    scale_replica_set(cluster, rs, new_scale, d, operation)
}

/// `scaleReplicaSet`: set the size and the replicas annotations; a `ScalingReplicaSet` event when
/// the size changed.
#[doc(alias = "scaleReplicaSet")]
pub(crate) fn scale_replica_set(
    cluster: &mut Cluster,
    rs: &ReplicaSet,
    new_scale: i32,
    d: &Deployment,
    operation: &str,
) -> (bool, ReplicaSet) {
    let replicas = deployment_replicas(d);
    let max = replicas + max_surge(d);
    let size_changed = rs_replicas(rs) != new_scale;
    if !size_changed && !replicas_annotations_need_update(rs, replicas, max) {
        return (false, rs.clone());
    }
    let old_scale = rs_replicas(rs);
    let mut copy = rs.clone();
    copy.spec.get_or_insert_with(Default::default).replicas = Some(new_scale);
    set_replicas_annotations(&mut copy, replicas, max);
    let updated = update_replica_set(cluster, copy);
    if size_changed {
        let message = format!(
            "Scaled {operation} replica set {} from {old_scale} to {new_scale}",
            updated.metadata.name.as_deref().unwrap_or("")
        );
        cluster.record_event(
            &object_reference(Kind::Deployment, &d.metadata),
            "Normal",
            "ScalingReplicaSet",
            &message,
            COMPONENT,
            None,
        );
    }
    (size_changed, updated)
}

/// `sync`: scale (paused Deployments and scaling events), clean up a paused Deployment's history,
/// then the status.
pub(crate) fn sync(cluster: &mut Cluster, d: &mut Deployment, rs_list: &[ReplicaSet]) {
    let (new, old) = get_all_replica_sets_and_sync_revision(cluster, d, rs_list, false);
    scale(cluster, d, new.as_ref(), &old);
    let new = new.map(|rs| refreshed(cluster, &rs));
    let old: Vec<ReplicaSet> = old.iter().map(|rs| refreshed(cluster, rs)).collect();
    if d.spec.as_ref().and_then(|s| s.paused) == Some(true) {
        cleanup_deployment(cluster, &old, d);
    }
    sync_deployment_status(cluster, &all_of(&old, new.as_ref()), new.as_ref(), d);
}

/// `syncStatusOnly`: a Deployment being deleted only has its status brought up to date.
#[doc(alias = "syncStatusOnly")]
pub(crate) fn sync_status_only(cluster: &mut Cluster, d: &mut Deployment, rs_list: &[ReplicaSet]) {
    let (new, old) = get_all_replica_sets_and_sync_revision(cluster, d, rs_list, false);
    sync_deployment_status(cluster, &all_of(&old, new.as_ref()), new.as_ref(), d);
}

/// `checkPausedConditions`: Progressing Unknown `DeploymentPaused` / `DeploymentResumed` when
/// `spec.paused` flips (unless the Deployment already timed out).
#[doc(alias = "checkPausedConditions")]
pub(crate) fn check_paused_conditions(cluster: &mut Cluster, d: &mut Deployment) {
    if !has_progress_deadline(d) {
        return;
    }
    let paused = d.spec.as_ref().and_then(|s| s.paused) == Some(true);
    let status = d.status.get_or_insert_with(Default::default);
    let reason = get_condition(status, "Progressing").and_then(|c| c.reason.clone());
    if reason.as_deref() == Some("ProgressDeadlineExceeded") {
        return;
    }
    let paused_exists = reason.as_deref() == Some("DeploymentPaused");
    let now = k8s_time(cluster.now_ms);
    let condition = if paused && !paused_exists {
        new_condition(
            "Progressing",
            "Unknown",
            "DeploymentPaused",
            "Deployment is paused",
            &now,
        )
    } else if !paused && paused_exists {
        new_condition(
            "Progressing",
            "Unknown",
            "DeploymentResumed",
            "Deployment is resumed",
            &now,
        )
    } else {
        return;
    };
    set_condition(status, condition);
    write_deployment(cluster, d);
}

/// `isScalingEvent`: an active ReplicaSet's desired-replicas annotation differs from `spec.replicas`.
#[doc(alias = "isScalingEvent")]
pub(crate) fn is_scaling_event(
    cluster: &mut Cluster,
    d: &mut Deployment,
    rs_list: &[ReplicaSet],
) -> bool {
    let (new, old) = get_all_replica_sets_and_sync_revision(cluster, d, rs_list, false);
    let all = all_of(&old, new.as_ref());
    let replicas = deployment_replicas(d);
    filter_active(&refs(&all))
        .into_iter()
        .filter_map(desired_replicas_annotation)
        .any(|desired| desired != replicas)
}

/// `scale`: one active (or the latest) ReplicaSet takes every replica; a saturated new one empties
/// the old; else a rolling Deployment spreads the change over the active ReplicaSets in proportion.
pub(crate) fn scale(
    cluster: &mut Cluster,
    d: &Deployment,
    new: Option<&ReplicaSet>,
    old: &[ReplicaSet],
) {
    let replicas = deployment_replicas(d);
    if let Some(target) = find_active_or_latest(new, &refs(old)) {
        if rs_replicas(target) != replicas {
            let target = target.clone();
            scale_replica_set_and_record_event(cluster, &target, replicas, d);
        }
        return;
    }
    if is_saturated(d, new) {
        for rs in filter_active(&refs(old))
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
        {
            scale_replica_set_and_record_event(cluster, &rs, 0, d);
        }
        return;
    }
    let rolling = d
        .spec
        .as_ref()
        .and_then(|s| s.strategy.as_ref())
        .and_then(|s| s.type_.as_deref())
        != Some("Recreate");
    if !rolling {
        return;
    }
    let all = all_of(old, new);
    let mut active: Vec<ReplicaSet> = filter_active(&refs(&all)).into_iter().cloned().collect();
    let allowed = if replicas > 0 {
        replicas + max_surge(d)
    } else {
        0
    };
    let to_add = allowed - replica_count(&refs(&active));
    let operation = match to_add.cmp(&0) {
        std::cmp::Ordering::Greater => {
            active.sort_by(|a, b| by_size(a, b, true));
            "up"
        }
        std::cmp::Ordering::Less => {
            active.sort_by(|a, b| by_size(a, b, false));
            "down"
        }
        std::cmp::Ordering::Equal => "",
    };
    let mut added = 0;
    let mut sizes = Vec::new();
    for rs in &active {
        if to_add != 0 {
            let proportion = get_proportion(rs, d, to_add, added);
            sizes.push(rs_replicas(rs) + proportion);
            added += proportion;
        } else {
            sizes.push(rs_replicas(rs));
        }
    }
    for (i, rs) in active.iter().enumerate() {
        if i == 0 && to_add != 0 {
            sizes[0] = (sizes[0] + to_add - added).max(0);
        }
        scale_replica_set(cluster, rs, sizes[i], d, operation);
    }
}

/// `cleanupDeployment`: delete the oldest empty old ReplicaSets beyond revisionHistoryLimit.
#[doc(alias = "cleanupDeployment")]
pub(crate) fn cleanup_deployment(cluster: &mut Cluster, old: &[ReplicaSet], d: &Deployment) {
    let Some(limit) = d.spec.as_ref().and_then(|s| s.revision_history_limit) else {
        return;
    };
    let mut cleanable: Vec<&ReplicaSet> = old
        .iter()
        .filter(|rs| rs.metadata.deletion_timestamp.is_none())
        .collect();
    let diff = cleanable.len() as i64 - i64::from(limit);
    if diff <= 0 {
        return;
    }
    cleanable.sort_by(|a, b| by_revision(a, b));
    for rs in cleanable.into_iter().take(diff as usize) {
        let status = rs.status.clone().unwrap_or_default();
        if status.replicas != 0
            || rs_replicas(rs) != 0
            || rs.metadata.generation.unwrap_or(0) > status.observed_generation.unwrap_or(0)
        {
            continue;
        }
        let (ns, name) = crate::store::key_of(&rs.metadata);
        cluster.remove_object(Kind::ReplicaSet, &ns, &name);
    }
}

/// `calculateStatus`: the counts summed over the ReplicaSets, and the Available condition.
#[doc(alias = "calculateStatus")]
pub(crate) fn calculate_status(
    now: &Time,
    all: &[ReplicaSet],
    new: Option<&ReplicaSet>,
    d: &Deployment,
) -> DeploymentStatus {
    let all_refs = refs(all);
    let available = available_replica_count(&all_refs);
    let total = replica_count(&all_refs);
    let unavailable = (total - available).max(0);
    let old = d.status.clone().unwrap_or_default();
    let nonzero = |n: i32| (n != 0).then_some(n);
    let mut status = DeploymentStatus {
        observed_generation: d.metadata.generation,
        replicas: nonzero(actual_replica_count(&all_refs)),
        updated_replicas: nonzero(new.map_or(0, |rs| actual_replica_count(&[rs]))),
        ready_replicas: nonzero(ready_replica_count(&all_refs)),
        available_replicas: nonzero(available),
        unavailable_replicas: nonzero(unavailable),
        collision_count: old.collision_count,
        conditions: old.conditions.clone(),
        terminating_replicas: None,
    };
    let condition = if available >= deployment_replicas(d) - max_unavailable(d) {
        new_condition(
            "Available",
            "True",
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
            now,
        )
    } else {
        new_condition(
            "Available",
            "False",
            "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.",
            now,
        )
    };
    set_condition(&mut status, condition);
    status
}

/// `syncDeploymentStatus`: write the calculated status when it changed.
#[doc(alias = "syncDeploymentStatus")]
pub(crate) fn sync_deployment_status(
    cluster: &mut Cluster,
    all: &[ReplicaSet],
    new: Option<&ReplicaSet>,
    d: &mut Deployment,
) {
    let status = calculate_status(&k8s_time(cluster.now_ms), all, new, d);
    if d.status.as_ref() == Some(&status) {
        return;
    }
    d.status = Some(status);
    write_deployment(cluster, d);
}
