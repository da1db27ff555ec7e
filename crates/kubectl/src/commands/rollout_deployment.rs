//! `kubectl rollout status|history|undo|restart|pause|resume` for Deployments.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/` `rollout_status.go`
//! (`DeploymentStatusViewer`), `history.go` (`DeploymentHistoryViewer`), `rollback.go`
//! (`DeploymentRollbacker`, `deploymentRevision`), `objectpauser.go`, `objectresumer.go`,
//! `objectrestarter.go`.

use super::rollout::{rollout_status_deadline, watch_rollout_status};
use super::{int64_flag, CmdResult, Ctx};
use crate::flags::Parsed;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::controller::deployment::util::{
    equal_ignore_hash, revision, POD_TEMPLATE_HASH_LABEL,
};
use dsplay_sim::ApiError;
use std::collections::BTreeMap;

/// Annotations a rollback keeps from the Deployment instead of taking them from the ReplicaSet
/// (`annotationsToSkip`).
const ANNOTATIONS_TO_SKIP: [&str; 6] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    "deployment.kubernetes.io/revision",
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

/// Runs one rollout subcommand against the Deployment `name`.
pub(crate) fn rollout(
    ctx: &mut Ctx,
    sub: &str,
    ns: &str,
    name: &str,
    parsed: &Parsed,
) -> CmdResult {
    let Some(d) = ctx.cluster.store().deployment(ns, name).cloned() else {
        return ctx.api_fail(
            &ApiError::NotFound {
                kind: Kind::Deployment,
                name: name.to_string(),
            },
            None,
        );
    };
    match sub {
        "status" => status(ctx, ns, name, parsed),
        "history" => history(ctx, &d, parsed.get("revision")),
        "undo" => {
            let dry_run = parsed.get("dry-run").unwrap_or("none").to_string();
            if !matches!(dry_run.as_str(), "none" | "client" | "server") {
                return ctx.fail(format!(
                    "Invalid dry-run value ({dry_run}). Must be \"none\", \"server\", or \"client\"."
                ));
            }
            let to = int64_flag(ctx, "rollout undo", parsed, "to-revision")?.unwrap_or(0);
            undo(ctx, &d, to, &dry_run)
        }
        "restart" => restart(ctx, d),
        "pause" | "resume" => pause(ctx, d, sub == "pause"),
        _ => Ok(()),
    }
}

/// The Deployment's ReplicaSets, as `GetAllReplicaSets` finds them (controlled by it).
fn replica_sets(ctx: &Ctx, d: &Deployment) -> Vec<ReplicaSet> {
    let uid = d.metadata.uid.clone().unwrap_or_default();
    ctx.cluster
        .store()
        .replica_sets()
        .filter(|rs| rs.metadata.namespace == d.metadata.namespace)
        .filter(|rs| {
            rs.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.controller == Some(true) && r.uid == uid)
        })
        .cloned()
        .collect()
}

fn template_of(rs: &ReplicaSet) -> PodTemplateSpec {
    rs.spec
        .as_ref()
        .and_then(|s| s.template.clone())
        .unwrap_or_default()
}

fn status(ctx: &mut Ctx, ns: &str, name: &str, parsed: &Parsed) -> CmdResult {
    let watch = parsed.get("watch").is_none_or(|w| w != "false");
    let wanted_revision = int64_flag(ctx, "rollout status", parsed, "revision")?.unwrap_or(0);
    let deadline = rollout_status_deadline(ctx, parsed)?;
    watch_rollout_status(ctx, Kind::Deployment, ns, name, watch, deadline, |object| {
        let Object::Deployment(d) = object else {
            return Err("not a deployment".to_string());
        };
        let running = revision(&d.metadata);
        if wanted_revision > 0 && running != wanted_revision {
            Err(format!(
                "desired revision ({wanted_revision}) is different from the running revision ({running})"
            ))
        } else {
            crate::printers::rollout_status::deployment_status_message(d)
        }
    })
}

/// `DeploymentHistoryViewer.ViewHistory`: one row per ReplicaSet revision with its change-cause,
/// or one revision's template.
fn history(ctx: &mut Ctx, d: &Deployment, wanted: Option<&str>) -> CmdResult {
    let name = d.metadata.name.clone().unwrap_or_default();
    let mut by_revision: BTreeMap<i64, (PodTemplateSpec, Option<String>)> = BTreeMap::new();
    for rs in replica_sets(ctx, d) {
        let cause = rs
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get("kubernetes.io/change-cause"))
            .cloned();
        let mut template = template_of(&rs);
        if let Some(cause) = cause.clone().filter(|c| !c.is_empty()) {
            template
                .metadata
                .get_or_insert_with(Default::default)
                .annotations
                .get_or_insert_with(Default::default)
                .insert("kubernetes.io/change-cause".into(), cause);
        }
        by_revision.insert(revision(&rs.metadata), (template, cause));
    }
    if let Some(wanted) = wanted
        .and_then(|r| r.parse::<i64>().ok())
        .filter(|r| *r != 0)
    {
        let Some((template, _)) = by_revision.get(&wanted) else {
            return ctx.fail("unable to find the specified revision");
        };
        let text = crate::printers::describe::rollout_history_revision(&name, wanted, template);
        ctx.out(text.replacen("daemonset.apps/", "deployment.apps/", 1));
        return Ok(());
    }
    let rows: Vec<(i64, Option<String>)> = by_revision
        .iter()
        .map(|(r, (_, cause))| (*r, cause.clone()))
        .collect();
    let text = crate::printers::get::rollout_history(&name, &rows);
    ctx.out(text.replacen("daemonset.apps/", "deployment.apps/", 1));
    Ok(())
}

/// `DeploymentRollbacker.Rollback`: the previous revision's (or `--to-revision`'s) template and
/// annotations go back into the Deployment.
fn undo(ctx: &mut Ctx, d: &Deployment, to: i64, dry_run: &str) -> CmdResult {
    let name = d.metadata.name.clone().unwrap_or_default();
    if to < 0 {
        return ctx.fail(format!("unable to find specified revision {to} in history"));
    }
    let mut rss = replica_sets(ctx, d);
    rss.sort_by_key(|rs| revision(&rs.metadata));
    let target = if to > 0 {
        match rss.iter().find(|rs| revision(&rs.metadata) == to) {
            Some(rs) => rs.clone(),
            None => return ctx.fail(format!("unable to find specified revision {to} in history")),
        }
    } else if rss.len() >= 2 {
        rss[rss.len() - 2].clone()
    } else {
        return ctx.fail(format!(
            "no rollout history found for deployment \"{name}\""
        ));
    };
    let mut template = template_of(&target);
    if dry_run == "client" {
        ctx.out(format!(
            "deployment.apps/{name} {} (dry run)",
            crate::printers::describe::print_template(&template)
        ));
        return Ok(());
    }
    let spec = d.spec.clone().unwrap_or_default();
    if spec.paused == Some(true) {
        return ctx.fail("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
    }
    if equal_ignore_hash(Some(&template), Some(&spec.template)) {
        ctx.out(format!(
            "deployment.apps/{name} skipped rollback (current template already matches revision {to})"
        ));
        return Ok(());
    }
    if let Some(labels) = template.metadata.as_mut().and_then(|m| m.labels.as_mut()) {
        labels.remove(POD_TEMPLATE_HASH_LABEL);
    }
    let mut annotations = BTreeMap::new();
    for (k, v) in d.metadata.annotations.iter().flatten() {
        if ANNOTATIONS_TO_SKIP.contains(&k.as_str()) {
            annotations.insert(k.clone(), v.clone());
        }
    }
    for (k, v) in target.metadata.annotations.iter().flatten() {
        if !ANNOTATIONS_TO_SKIP.contains(&k.as_str()) {
            annotations.insert(k.clone(), v.clone());
        }
    }
    if dry_run == "server" {
        ctx.out(format!(
            "deployment.apps/{name} rolled back (server dry run)"
        ));
        return Ok(());
    }
    let mut next = d.clone();
    next.metadata.annotations = Some(annotations);
    next.spec.get_or_insert_with(Default::default).template = template;
    match ctx.cluster.update(Object::Deployment(next)) {
        Ok(_) => {
            ctx.out(format!("deployment.apps/{name} rolled back"));
            Ok(())
        }
        Err(e) => ctx.api_fail(&e, None),
    }
}

/// `defaultObjectRestarter`: stamp `kubectl.kubernetes.io/restartedAt` on the template.
fn restart(ctx: &mut Ctx, mut d: Deployment) -> CmdResult {
    let name = d.metadata.name.clone().unwrap_or_default();
    let spec = d.spec.get_or_insert_with(Default::default);
    if spec.paused == Some(true) {
        return ctx.fail(format!(
            "deployments.apps \"{name}\" can't restart paused deployment (run rollout resume first)"
        ));
    }
    spec.template
        .metadata
        .get_or_insert_with(Default::default)
        .annotations
        .get_or_insert_with(Default::default)
        .insert(
            "kubectl.kubernetes.io/restartedAt".into(),
            ctx.cluster.now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        );
    let ns = d.metadata.namespace.clone().unwrap_or_default();
    if ctx.cluster.store().deployment(&ns, &name) == Some(&d) {
        return ctx.fail(format!("failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another"));
    }
    match ctx.cluster.update(Object::Deployment(d)) {
        Ok(_) => {
            ctx.out(format!("deployment.apps/{name} restarted"));
            Ok(())
        }
        Err(e) => ctx.api_fail(&e, None),
    }
}

/// `defaultObjectPauser` / `defaultObjectResumer`: flip `spec.paused`; flipping it to what it
/// already is fails (`is already paused`, `is not paused`).
fn pause(ctx: &mut Ctx, mut d: Deployment, paused: bool) -> CmdResult {
    let name = d.metadata.name.clone().unwrap_or_default();
    let spec = d.spec.get_or_insert_with(Default::default);
    if spec.paused.unwrap_or(false) == paused {
        let why = if paused {
            "is already paused"
        } else {
            "is not paused"
        };
        return ctx.fail(format!("deployments.apps \"{name}\" {why}"));
    }
    spec.paused = paused.then_some(true);
    match ctx.cluster.update(Object::Deployment(d)) {
        Ok(_) => {
            let done = if paused { "paused" } else { "resumed" };
            ctx.out(format!("deployment.apps/{name} {done}"));
            Ok(())
        }
        Err(e) => ctx.api_fail(&e, None),
    }
}
