//! Deployment helpers with no controller state.
//!
//! Upstream: pkg/controller/deployment/util/deployment_util.go, pkg/controller/controller_utils.go
//! (the ReplicaSet sorts and filters).

use dsplay_api::types::*;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The label the Deployment adds to its ReplicaSets' selector and template
/// (`apps.DefaultDeploymentUniqueLabelKey`).
pub const POD_TEMPLATE_HASH_LABEL: &str = "pod-template-hash";
/// `deployment.kubernetes.io/revision`.
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// `deployment.kubernetes.io/revision-history`.
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
/// `deployment.kubernetes.io/desired-replicas`.
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
/// `deployment.kubernetes.io/max-replicas`.
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
/// The longest revision-history annotation kept (`maxRevHistoryLengthInChars`).
const MAX_REV_HISTORY_LENGTH_IN_CHARS: usize = 2000;

/// Annotations never copied from a Deployment to its ReplicaSets (`annotationsToSkip`).
const ANNOTATIONS_TO_SKIP: [&str; 6] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION_ANNOTATION,
    REVISION_HISTORY_ANNOTATION,
    DESIRED_REPLICAS_ANNOTATION,
    MAX_REPLICAS_ANNOTATION,
    "deprecated.deployment.rollback.to",
];

/// `spec.replicas` of a Deployment (defaulted to 1).
pub fn deployment_replicas(d: &Deployment) -> i32 {
    d.spec.as_ref().and_then(|s| s.replicas).unwrap_or(1)
}

/// `spec.replicas` of a ReplicaSet.
pub fn rs_replicas(rs: &ReplicaSet) -> i32 {
    rs.spec.as_ref().and_then(|s| s.replicas).unwrap_or(1)
}

fn rs_status(rs: &ReplicaSet) -> ReplicaSetStatus {
    rs.status.clone().unwrap_or_default()
}

/// Whether the Deployment rolls out with RollingUpdate (anything but `Recreate`).
pub fn is_rolling_update(d: &Deployment) -> bool {
    d.spec
        .as_ref()
        .and_then(|s| s.strategy.as_ref())
        .and_then(|s| s.type_.as_deref())
        != Some("Recreate")
}

/// `ResolveFenceposts`: maxSurge rounded up and maxUnavailable rounded down against `desired`;
/// both zero makes maxUnavailable 1.
#[doc(alias = "ResolveFenceposts")]
pub fn resolve_fenceposts(
    max_surge: Option<&IntOrString>,
    max_unavailable: Option<&IntOrString>,
    desired: i32,
) -> (i32, i32) {
    let zero = IntOrString::Int(0);
    let scaled = |v: Option<&IntOrString>, up: bool| {
        dsplay_api::int_or_percent::scaled_value(v.unwrap_or(&zero), desired, up).unwrap_or(0)
    };
    let surge = scaled(max_surge, true);
    let mut unavailable = scaled(max_unavailable, false);
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable)
}

fn fenceposts(d: &Deployment) -> (i32, i32) {
    let rolling = d
        .spec
        .as_ref()
        .and_then(|s| s.strategy.as_ref())
        .and_then(|s| s.rolling_update.clone())
        .unwrap_or_default();
    resolve_fenceposts(
        rolling.max_surge.as_ref(),
        rolling.max_unavailable.as_ref(),
        deployment_replicas(d),
    )
}

/// `MaxUnavailable`: 0 for Recreate or zero replicas, at most `spec.replicas`.
#[doc(alias = "MaxUnavailable")]
pub fn max_unavailable(d: &Deployment) -> i32 {
    let replicas = deployment_replicas(d);
    if !is_rolling_update(d) || replicas == 0 {
        return 0;
    }
    fenceposts(d).1.min(replicas)
}

/// `MaxSurge`: 0 for Recreate.
#[doc(alias = "MaxSurge")]
pub fn max_surge(d: &Deployment) -> i32 {
    if !is_rolling_update(d) {
        return 0;
    }
    fenceposts(d).0
}

/// `GetReplicaCountForReplicaSets`: the sum of `spec.replicas`.
pub fn replica_count(rss: &[&ReplicaSet]) -> i32 {
    rss.iter().map(|rs| rs_replicas(rs)).sum()
}

/// `GetActualReplicaCountForReplicaSets`: the sum of `status.replicas`.
pub fn actual_replica_count(rss: &[&ReplicaSet]) -> i32 {
    rss.iter().map(|rs| rs_status(rs).replicas).sum()
}

/// `GetReadyReplicaCountForReplicaSets`.
pub fn ready_replica_count(rss: &[&ReplicaSet]) -> i32 {
    rss.iter()
        .map(|rs| rs_status(rs).ready_replicas.unwrap_or(0))
        .sum()
}

/// `GetAvailableReplicaCountForReplicaSets`.
pub fn available_replica_count(rss: &[&ReplicaSet]) -> i32 {
    rss.iter()
        .map(|rs| rs_status(rs).available_replicas.unwrap_or(0))
        .sum()
}

/// `ReplicaSetsByCreationTimestamp`: older first, then by name.
pub fn by_creation_timestamp(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    dsplay_api::object::older_first(&a.metadata, &b.metadata)
}

/// `ReplicaSetsBySizeOlder` (`newer` false) / `ReplicaSetsBySizeNewer` (true): larger first; equal
/// sizes older (or newer) first.
pub fn by_size(a: &ReplicaSet, b: &ReplicaSet, newer: bool) -> Ordering {
    rs_replicas(b).cmp(&rs_replicas(a)).then_with(|| {
        let order = by_creation_timestamp(a, b);
        if newer {
            order.reverse()
        } else {
            order
        }
    })
}

/// The revision annotation as a number (0 when absent or malformed, as `Revision` errors are ignored).
pub fn revision(meta: &ObjectMeta) -> i64 {
    meta.annotations
        .as_ref()
        .and_then(|a| a.get(REVISION_ANNOTATION))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// `ReplicaSetsByRevision`: lower revision first, then older.
pub fn by_revision(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    revision(&a.metadata)
        .cmp(&revision(&b.metadata))
        .then_with(|| by_creation_timestamp(a, b))
}

/// `MaxRevision`.
pub fn max_revision(rss: &[&ReplicaSet]) -> i64 {
    rss.iter()
        .map(|rs| revision(&rs.metadata))
        .max()
        .unwrap_or(0)
}

fn without_hash(template: Option<&PodTemplateSpec>) -> PodTemplateSpec {
    let mut t = template.cloned().unwrap_or_default();
    if let Some(labels) = t.metadata.as_mut().and_then(|m| m.labels.as_mut()) {
        labels.remove(POD_TEMPLATE_HASH_LABEL);
    }
    t
}

/// `EqualIgnoreHash`: the templates are equal once the pod-template-hash label is dropped.
#[doc(alias = "EqualIgnoreHash")]
pub fn equal_ignore_hash(a: Option<&PodTemplateSpec>, b: Option<&PodTemplateSpec>) -> bool {
    without_hash(a) == without_hash(b)
}

/// `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's.
#[doc(alias = "FindNewReplicaSet")]
pub fn find_new_replica_set<'a>(d: &Deployment, rss: &[&'a ReplicaSet]) -> Option<&'a ReplicaSet> {
    let template = d.spec.as_ref().map(|s| &s.template);
    let mut sorted = rss.to_vec();
    sorted.sort_by(|a, b| by_creation_timestamp(a, b));
    sorted
        .into_iter()
        .find(|rs| equal_ignore_hash(rs.spec.as_ref().and_then(|s| s.template.as_ref()), template))
}

/// `FilterActiveReplicaSets`: ReplicaSets with replicas wanted.
pub fn filter_active<'a>(rss: &[&'a ReplicaSet]) -> Vec<&'a ReplicaSet> {
    rss.iter()
        .copied()
        .filter(|rs| rs_replicas(rs) > 0)
        .collect()
}

fn annotation(meta: &ObjectMeta, key: &str) -> Option<i32> {
    meta.annotations.as_ref()?.get(key)?.parse().ok()
}

/// `GetDesiredReplicasAnnotation`.
pub fn desired_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    annotation(&rs.metadata, DESIRED_REPLICAS_ANNOTATION)
}

/// `getMaxReplicasAnnotation`.
pub fn max_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    annotation(&rs.metadata, MAX_REPLICAS_ANNOTATION)
}

/// `SetReplicasAnnotations`: desired-replicas and max-replicas; true when one changed.
#[doc(alias = "SetReplicasAnnotations")]
pub fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let annotations = rs.metadata.annotations.get_or_insert_with(BTreeMap::new);
    let mut changed = false;
    for (key, value) in [
        (DESIRED_REPLICAS_ANNOTATION, desired),
        (MAX_REPLICAS_ANNOTATION, max),
    ] {
        let value = value.to_string();
        if annotations.get(key) != Some(&value) {
            annotations.insert(key.to_string(), value);
            changed = true;
        }
    }
    changed
}

/// `ReplicasAnnotationsNeedUpdate`.
pub fn replicas_annotations_need_update(rs: &ReplicaSet, desired: i32, max: i32) -> bool {
    desired_replicas_annotation(rs) != Some(desired) || max_replicas_annotation(rs) != Some(max)
}

/// `SetNewReplicaSetAnnotations`: copy the Deployment's annotations (not the skipped ones), raise
/// the revision (keeping the old one in revision-history on a rollback), and for a ReplicaSet about
/// to be created the replicas annotations. True when an annotation changed.
#[doc(alias = "SetNewReplicaSetAnnotations")]
pub fn set_new_replica_set_annotations(
    d: &Deployment,
    rs: &mut ReplicaSet,
    new_revision: i64,
    exists: bool,
) -> bool {
    let mut changed = false;
    let annotations = rs.metadata.annotations.get_or_insert_with(BTreeMap::new);
    for (k, v) in d.metadata.annotations.iter().flatten() {
        if ANNOTATIONS_TO_SKIP.contains(&k.as_str()) || annotations.get(k) == Some(v) {
            continue;
        }
        annotations.insert(k.clone(), v.clone());
        changed = true;
    }
    let old = annotations.get(REVISION_ANNOTATION).cloned();
    let old_number = match old.as_deref() {
        None | Some("") => 0,
        Some(text) => match text.parse::<i64>() {
            Ok(n) => n,
            Err(_) => return false,
        },
    };
    if old_number < new_revision {
        annotations.insert(REVISION_ANNOTATION.to_string(), new_revision.to_string());
        changed = true;
        if let Some(old) = old {
            let history = annotations
                .get(REVISION_HISTORY_ANNOTATION)
                .cloned()
                .unwrap_or_default();
            let joined = if history.is_empty() {
                old
            } else {
                let mut parts: Vec<&str> = history.split(',').collect();
                let mut total = history.len() + old.len() + 1;
                while total > MAX_REV_HISTORY_LENGTH_IN_CHARS && !parts.is_empty() {
                    total -= parts[0].len() + 1;
                    parts.remove(0);
                }
                parts.push(&old);
                parts.join(",")
            };
            annotations.insert(REVISION_HISTORY_ANNOTATION.to_string(), joined);
        }
    }
    if !exists {
        let replicas = deployment_replicas(d);
        changed |= set_replicas_annotations(rs, replicas, replicas + max_surge(d));
    }
    changed
}

/// `NewRSNewReplicas`: how many replicas the new ReplicaSet may have now (Recreate: all of them;
/// RollingUpdate: up to `replicas + maxSurge` pods in total).
#[doc(alias = "NewRSNewReplicas")]
pub fn new_rs_new_replicas(d: &Deployment, all: &[&ReplicaSet], new_rs: &ReplicaSet) -> i32 {
    let replicas = deployment_replicas(d);
    if !is_rolling_update(d) {
        return replicas;
    }
    let current = replica_count(all);
    let max_total = replicas + max_surge(d);
    if current >= max_total {
        return rs_replicas(new_rs);
    }
    let scale_up = (max_total - current).min(replicas - rs_replicas(new_rs));
    rs_replicas(new_rs) + scale_up
}

/// `IsSaturated`: the new ReplicaSet has, wants and has available all the Deployment's replicas.
#[doc(alias = "IsSaturated")]
pub fn is_saturated(d: &Deployment, rs: Option<&ReplicaSet>) -> bool {
    let Some(rs) = rs else { return false };
    let replicas = deployment_replicas(d);
    rs_replicas(rs) == replicas
        && desired_replicas_annotation(rs) == Some(replicas)
        && rs_status(rs).available_replicas.unwrap_or(0) == replicas
}

/// `FindActiveOrLatest`: the only active ReplicaSet, or the newest when none is active.
#[doc(alias = "FindActiveOrLatest")]
pub fn find_active_or_latest<'a>(
    new_rs: Option<&'a ReplicaSet>,
    old: &[&'a ReplicaSet],
) -> Option<&'a ReplicaSet> {
    if new_rs.is_none() && old.is_empty() {
        return None;
    }
    let mut sorted = old.to_vec();
    sorted.sort_by(|a, b| by_creation_timestamp(b, a));
    let mut all = sorted.clone();
    all.extend(new_rs);
    let active = filter_active(&all);
    match active.len() {
        0 => new_rs.or_else(|| sorted.first().copied()),
        1 => Some(active[0]),
        _ => None,
    }
}

/// `GetProportion` with `getReplicaSetFraction`: this ReplicaSet's share of a proportional scale.
#[doc(alias = "GetProportion")]
pub fn get_proportion(rs: &ReplicaSet, d: &Deployment, to_add: i32, added: i32) -> i32 {
    if rs_replicas(rs) == 0 || to_add == 0 || to_add == added {
        return 0;
    }
    let fraction = replica_set_fraction(rs, d);
    let allowed = to_add - added;
    if to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    }
}

fn replica_set_fraction(rs: &ReplicaSet, d: &Deployment) -> i32 {
    let replicas = deployment_replicas(d);
    if replicas == 0 {
        return -rs_replicas(rs);
    }
    let max_now = replicas + max_surge(d);
    let before = match max_replicas_annotation(rs).filter(|m| *m != 0) {
        Some(m) => m,
        None => {
            let status_replicas = d.status.as_ref().and_then(|s| s.replicas).unwrap_or(0);
            if status_replicas == 0 {
                return 0;
            }
            status_replicas
        }
    };
    let size = f64::from(rs_replicas(rs)) * f64::from(max_now) / f64::from(before);
    size.round() as i32 - rs_replicas(rs)
}

/// `DeploymentComplete`: every replica updated and available, the latest generation observed.
#[doc(alias = "DeploymentComplete")]
pub fn deployment_complete(d: &Deployment, status: &DeploymentStatus) -> bool {
    let replicas = deployment_replicas(d);
    status.updated_replicas.unwrap_or(0) == replicas
        && status.replicas.unwrap_or(0) == replicas
        && status.available_replicas.unwrap_or(0) == replicas
        && status.observed_generation.unwrap_or(0) >= d.metadata.generation.unwrap_or(0)
}

/// `DeploymentProgressing`: more updated, ready or available replicas, or fewer old ones.
#[doc(alias = "DeploymentProgressing")]
pub fn deployment_progressing(d: &Deployment, new: &DeploymentStatus) -> bool {
    let old = d.status.clone().unwrap_or_default();
    let n = |v: Option<i32>| v.unwrap_or(0);
    let old_old = n(old.replicas) - n(old.updated_replicas);
    let new_old = n(new.replicas) - n(new.updated_replicas);
    n(new.updated_replicas) > n(old.updated_replicas)
        || new_old < old_old
        || n(new.ready_replicas) > n(old.ready_replicas)
        || n(new.available_replicas) > n(old.available_replicas)
}

/// `HasProgressDeadline`.
pub fn has_progress_deadline(d: &Deployment) -> bool {
    d.spec
        .as_ref()
        .and_then(|s| s.progress_deadline_seconds)
        .is_some_and(|s| s != i32::MAX)
}

/// `GetDeploymentCondition`.
pub fn get_condition<'a>(
    status: &'a DeploymentStatus,
    type_: &str,
) -> Option<&'a DeploymentCondition> {
    status
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == type_)
}

/// `NewDeploymentCondition` at `now`.
pub fn new_condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: &Time,
) -> DeploymentCondition {
    DeploymentCondition {
        type_: type_.to_string(),
        status: status.to_string(),
        reason: Some(reason.to_string()),
        message: Some(message.to_string()),
        last_update_time: Some(now.clone()),
        last_transition_time: Some(now.clone()),
    }
}

/// `SetDeploymentCondition`: no change for the same status and reason; the transition time is kept
/// while the status stays; the condition moves to the end.
#[doc(alias = "SetDeploymentCondition")]
pub fn set_condition(status: &mut DeploymentStatus, mut condition: DeploymentCondition) {
    if let Some(current) = get_condition(status, &condition.type_) {
        if current.status == condition.status && current.reason == condition.reason {
            return;
        }
        if current.status == condition.status {
            condition.last_transition_time = current.last_transition_time.clone();
        }
    }
    remove_condition(status, &condition.type_.clone());
    status
        .conditions
        .get_or_insert_with(Vec::new)
        .push(condition);
}

/// `RemoveDeploymentCondition`.
pub fn remove_condition(status: &mut DeploymentStatus, type_: &str) {
    if let Some(conditions) = status.conditions.as_mut() {
        conditions.retain(|c| c.type_ != type_);
    }
}

/// `DeploymentTimedOut`: the Progressing condition was last updated more than
/// progressDeadlineSeconds ago (an existing time-out stays timed out).
#[doc(alias = "DeploymentTimedOut")]
pub fn deployment_timed_out(d: &Deployment, status: &DeploymentStatus, now_ms: i64) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(condition) = get_condition(status, "Progressing") else {
        return false;
    };
    match condition.reason.as_deref() {
        Some("NewReplicaSetAvailable") => false,
        Some("ProgressDeadlineExceeded") => true,
        _ => {
            let deadline = d
                .spec
                .as_ref()
                .and_then(|s| s.progress_deadline_seconds)
                .unwrap_or(0);
            let from = condition
                .last_update_time
                .as_ref()
                .map(|t| t.0.timestamp_millis())
                .unwrap_or(0);
            from + i64::from(deadline) * 1000 < now_ms
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i32) -> IntOrString {
        IntOrString::Int(i)
    }
    fn pct(s: &str) -> IntOrString {
        IntOrString::String(s.to_string())
    }

    /// Port of TestResolveFenceposts.
    #[test]
    fn resolve_fenceposts_cases() {
        let cases = [
            (Some(pct("0%")), Some(pct("0%")), 0, (0, 1)),
            (Some(pct("39%")), Some(pct("39%")), 10, (4, 3)),
            (Some(pct("25%")), Some(pct("25%")), 4, (1, 1)),
            (Some(pct("25%")), Some(pct("25%")), 10, (3, 2)),
            (Some(int(0)), Some(int(0)), 5, (0, 1)),
            (None, None, 10, (0, 1)),
            (Some(pct("100%")), Some(int(0)), 3, (3, 0)),
        ];
        for (surge, unavailable, desired, want) in cases {
            assert_eq!(
                resolve_fenceposts(surge.as_ref(), unavailable.as_ref(), desired),
                want,
                "{surge:?} {unavailable:?} {desired}"
            );
        }
    }

    fn rs(name: &str, replicas: i32, created_s: i64) -> ReplicaSet {
        use chrono::TimeZone;
        ReplicaSet {
            metadata: ObjectMeta {
                name: Some(name.into()),
                creation_timestamp: Some(Time(chrono::Utc.timestamp_opt(created_s, 0).unwrap())),
                ..Default::default()
            },
            spec: Some(ReplicaSetSpec {
                replicas: Some(replicas),
                ..Default::default()
            }),
            status: None,
        }
    }

    /// Port of TestFindActiveOrLatest.
    #[test]
    fn find_active_or_latest_cases() {
        let newest = rs("newest", 0, 30);
        let older = rs("older", 0, 20);
        let oldest = rs("oldest", 3, 10);
        let name = |r: Option<&ReplicaSet>| r.and_then(|r| r.metadata.name.clone());
        // No active: the new one.
        assert_eq!(
            name(find_active_or_latest(Some(&newest), &[&older])),
            Some("newest".into())
        );
        // No new, no active: the newest old one.
        assert_eq!(
            name(find_active_or_latest(None, &[&older, &newest])),
            Some("newest".into())
        );
        // One active.
        assert_eq!(
            name(find_active_or_latest(Some(&newest), &[&oldest])),
            Some("oldest".into())
        );
        // Two active: none.
        let other = rs("other", 1, 40);
        assert_eq!(name(find_active_or_latest(Some(&other), &[&oldest])), None);
    }

    /// Port of TestNewRSNewReplicas (rolling update with maxSurge 1).
    #[test]
    fn new_rs_new_replicas_respects_max_surge() {
        let d = Deployment {
            spec: Some(DeploymentSpec {
                replicas: Some(3),
                strategy: Some(DeploymentStrategy {
                    type_: Some("RollingUpdate".into()),
                    rolling_update: Some(RollingUpdateDeployment {
                        max_surge: Some(int(1)),
                        max_unavailable: Some(int(1)),
                    }),
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let new = rs("new", 0, 20);
        let old = rs("old", 3, 10);
        assert_eq!(new_rs_new_replicas(&d, &[&old, &new], &new), 1);
        let old = rs("old", 1, 10);
        let new2 = rs("new", 2, 20);
        assert_eq!(new_rs_new_replicas(&d, &[&old, &new2], &new2), 3);
    }

    /// Port of TestMaxUnavailable.
    #[test]
    fn max_unavailable_is_bounded_by_replicas() {
        let mut d = Deployment {
            spec: Some(DeploymentSpec {
                replicas: Some(1),
                strategy: Some(DeploymentStrategy {
                    type_: Some("RollingUpdate".into()),
                    rolling_update: Some(RollingUpdateDeployment {
                        max_surge: Some(int(0)),
                        max_unavailable: Some(int(5)),
                    }),
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(max_unavailable(&d), 1);
        d.spec.as_mut().unwrap().replicas = Some(0);
        assert_eq!(max_unavailable(&d), 0);
        d.spec.as_mut().unwrap().strategy = Some(DeploymentStrategy {
            type_: Some("Recreate".into()),
            rolling_update: None,
        });
        d.spec.as_mut().unwrap().replicas = Some(5);
        assert_eq!(max_unavailable(&d), 0);
    }
}
