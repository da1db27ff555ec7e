//! `kubectl describe deployment|replicaset` (`describe.go` `DeploymentDescriber`,
//! `describeDeployment`, `printReplicaSetsByLabels`, `ReplicaSetDescriber`, `describeReplicaSet`).

use super::pod_template::pod_template_block;
use super::{annotations_multiline, labels_multiline, Describe};
use chrono::{DateTime, Utc};
use dsplay_api::types::*;

/// `printReplicaSetsByLabels`: `NAME (current/desired replicas created)`, comma-separated.
fn replica_sets_by_labels(rss: &[&ReplicaSet]) -> String {
    let list: Vec<String> = rss
        .iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                rs.metadata.name.as_deref().unwrap_or(""),
                rs.status.as_ref().map_or(0, |s| s.replicas),
                rs.spec.as_ref().and_then(|s| s.replicas).unwrap_or(0)
            )
        })
        .collect();
    if list.is_empty() {
        "<none>".to_string()
    } else {
        list.join(", ")
    }
}

/// The `Conditions:` table both describers print when there are conditions.
fn conditions(w: &mut Describe, rows: &[(String, String, String)]) {
    if rows.is_empty() {
        return;
    }
    w.w(0, "Conditions:\n  Type\tStatus\tReason\n");
    w.w(1, "----\t------\t------\n");
    for (type_, status, reason) in rows {
        w.w(1, &format!("{type_} \t{status}\t{reason}\n"));
    }
}

/// `kubectl describe deployment NAME`: `old` and `new` are its ReplicaSets (all old ones, and the
/// one whose template matches), `events` those about the Deployment.
pub fn describe_deployment(
    d: &Deployment,
    old: &[&ReplicaSet],
    new: Option<&ReplicaSet>,
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &d.metadata;
    let spec = d.spec.clone().unwrap_or_default();
    let status = d.status.clone().unwrap_or_default();
    w.name_and_namespace(meta);
    w.creation_timestamp(meta);
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.selector(&spec.selector);
    w.w(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            spec.replicas.unwrap_or(0),
            status.updated_replicas.unwrap_or(0),
            status.replicas.unwrap_or(0),
            status.available_replicas.unwrap_or(0),
            status.unavailable_replicas.unwrap_or(0)
        ),
    );
    let strategy = spec.strategy.clone().unwrap_or_default();
    w.w(
        0,
        &format!(
            "StrategyType:\t{}\n",
            strategy.type_.as_deref().unwrap_or("")
        ),
    );
    w.w(
        0,
        &format!(
            "MinReadySeconds:\t{}\n",
            spec.min_ready_seconds.unwrap_or(0)
        ),
    );
    if let Some(ru) = &strategy.rolling_update {
        let text = |v: &Option<IntOrString>| {
            v.as_ref()
                .map_or("0".to_string(), dsplay_api::int_or_percent::format)
        };
        w.w(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                text(&ru.max_unavailable),
                text(&ru.max_surge)
            ),
        );
    }
    pod_template_block(&mut w, &spec.template);
    let rows: Vec<(String, String, String)> = status
        .conditions
        .iter()
        .flatten()
        .map(|c| {
            (
                c.type_.clone(),
                c.status.clone(),
                c.reason.clone().unwrap_or_default(),
            )
        })
        .collect();
    conditions(&mut w, &rows);
    if !old.is_empty() || new.is_some() {
        w.w(
            0,
            &format!("OldReplicaSets:\t{}\n", replica_sets_by_labels(old)),
        );
        let new: Vec<&ReplicaSet> = new.into_iter().collect();
        w.w(
            0,
            &format!("NewReplicaSet:\t{}\n", replica_sets_by_labels(&new)),
        );
    }
    w.events(events, now);
    w.finish()
}

/// `kubectl describe rs NAME`: `pods` are the pods it controls, `events` those about it.
pub fn describe_replica_set(
    rs: &ReplicaSet,
    pods: &[&Pod],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &rs.metadata;
    let spec = rs.spec.clone().unwrap_or_default();
    let status = rs.status.clone().unwrap_or_default();
    w.name_and_namespace(meta);
    w.selector(&spec.selector);
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    if let Some(owner) = meta
        .owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
    {
        w.w(
            0,
            &format!("Controlled By:\t{}/{}\n", owner.kind, owner.name),
        );
    }
    w.w(
        0,
        &format!(
            "Replicas:\t{} current / {} desired\n",
            status.replicas,
            spec.replicas.unwrap_or(0)
        ),
    );
    super::pods_status(&mut w, pods.iter().copied());
    pod_template_block(&mut w, &spec.template.clone().unwrap_or_default());
    let rows: Vec<(String, String, String)> = status
        .conditions
        .iter()
        .flatten()
        .map(|c| {
            (
                c.type_.clone(),
                c.status.clone(),
                c.reason.clone().unwrap_or_default(),
            )
        })
        .collect();
    conditions(&mut w, &rows);
    w.events(events, now);
    w.finish()
}
