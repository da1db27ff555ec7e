//! `kubectl rollout status|history|undo|restart` for DaemonSets and StatefulSets, whose history is
//! ControllerRevisions (Deployments: `rollout_deployment`).

use super::{
    int64_flag, parse_flags, positive_or, resource_args, wait_deadline, CmdResult, Ctx, Failed,
};
use crate::flags::{value, FlagSpec};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::ApiError;
use std::time::Duration;

fn target(ctx: &mut Ctx, verb: &str, args: &[String]) -> Result<(Kind, String), Failed> {
    let requests = resource_args(ctx, args)?;
    let Some((kind, Some(name))) = requests.first().cloned() else {
        ctx.err(format!("error: required resource not specified\nSee 'kubectl rollout {verb} -h' for help and examples"));
        return Err(Failed);
    };
    if !matches!(kind, Kind::DaemonSet | Kind::StatefulSet) {
        ctx.err(format!(
            "error: no status viewer has been implemented for {}",
            kind.name()
        ));
        return Err(Failed);
    }
    Ok((kind, name))
}

/// The pod template of a DaemonSet or StatefulSet.
fn owner_template(owner: &Object) -> PodTemplateSpec {
    match owner {
        Object::DaemonSet(ds) => ds.spec.as_ref().map(|s| s.template.clone()),
        Object::StatefulSet(sts) => sts.spec.as_ref().map(|s| s.template.clone()),
        _ => None,
    }
    .unwrap_or_default()
}

/// The owner with another pod template.
fn with_template(owner: &Object, template: PodTemplateSpec) -> Object {
    let mut next = owner.clone();
    match &mut next {
        Object::DaemonSet(ds) => ds.spec.get_or_insert_with(Default::default).template = template,
        Object::StatefulSet(sts) => {
            sts.spec.get_or_insert_with(Default::default).template = template
        }
        _ => {}
    }
    next
}

/// `rollout history daemonsets|statefulsets` without a name: every object of the type in the
/// namespace, by name, as the resource builder lists them; `None` when the words name an object
/// (or another type).
///
/// Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_history.go` `RunHistory`
/// (`ResourceTypeOrNameArgs(true, …)` visits every object of the type).
fn every_revision_owner(ctx: &mut Ctx, args: &[String], ns: &str) -> Option<Vec<Object>> {
    match args {
        [word] if !word.contains('/') => {}
        _ => return None,
    }
    let requests = resource_args(ctx, args).ok()?;
    let [(kind @ (Kind::DaemonSet | Kind::StatefulSet), None)] = requests.as_slice() else {
        return None;
    };
    let mut all: Vec<Object> = ctx
        .cluster
        .store()
        .list(*kind)
        .into_iter()
        .filter(|o| o.metadata().namespace.as_deref() == Some(ns))
        .collect();
    all.sort_by(|a, b| a.name().cmp(b.name()));
    Some(all)
}

/// The `kubectl rollout` subcommands.
const SUBCOMMANDS: [&str; 6] = ["status", "history", "undo", "restart", "pause", "resume"];

const STATUS_FLAGS: &[FlagSpec] = &[
    value("revision", None),
    value("timeout", None),
    value("watch", Some('w')),
    value("selector", Some('l')),
];
const HISTORY_FLAGS: &[FlagSpec] = &[
    value("revision", None),
    value("selector", Some('l')),
    value("output", Some('o')),
];
const UNDO_FLAGS: &[FlagSpec] = &[
    value("to-revision", None),
    value("dry-run", None),
    value("selector", Some('l')),
    value("output", Some('o')),
];
const OTHER_FLAGS: &[FlagSpec] = &[
    value("selector", Some('l')),
    value("output", Some('o')),
    value("field-manager", None),
];

/// Each subcommand's own flags (v1.32: only `undo` has `--dry-run`).
///
/// Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_*.go` `NewCmdRollout*`.
fn subcommand_flags(sub: &str) -> &'static [FlagSpec] {
    match sub {
        "status" => STATUS_FLAGS,
        "history" => HISTORY_FLAGS,
        "undo" => UNDO_FLAGS,
        _ => OTHER_FLAGS,
    }
}

/// `kubectl rollout …`.
pub(crate) fn rollout(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let sub = words
        .iter()
        .find(|w| SUBCOMMANDS.contains(&w.as_str()))
        .cloned()
        .unwrap_or_default();
    let verb = if sub.is_empty() {
        "rollout".to_string()
    } else {
        format!("rollout {sub}")
    };
    let parsed = parse_flags(ctx, &verb, words, subcommand_flags(&sub))?;
    // Bare `kubectl rollout` is a command group: cobra prints its help.
    let Some(sub) = parsed.args.first().cloned() else {
        let help = crate::help::kubectl_command(&["rollout".to_string()]).unwrap_or_default();
        ctx.out(help.trim_end());
        return Ok(());
    };
    let rest = parsed.args[1..].to_vec();
    if !SUBCOMMANDS.contains(&sub.as_str()) {
        ctx.err(format!(
            "error: unknown command \"{}\"\nSee 'kubectl rollout -h' for help and examples",
            parsed.args.join(" ")
        ));
        return Err(Failed);
    }
    let ns = super::namespace(&parsed);
    if sub == "history" && parsed.get("revision").is_none() {
        if let Some(all) = every_revision_owner(ctx, &rest, &ns) {
            for owner in &all {
                history(ctx, owner, None)?;
            }
            return Ok(());
        }
    }
    if let Ok(requests) = super::split_resource_args(&rest) {
        match requests.as_slice() {
            [(Kind::Deployment, Some(name)), ..] => {
                return super::rollout_deployment::rollout(ctx, &sub, &ns, name, &parsed);
            }
            // `rollout history deployments`: every Deployment of the namespace, by name.
            [(Kind::Deployment, None)] if sub == "history" && rest.len() == 1 => {
                let names: Vec<String> = ctx
                    .cluster
                    .store()
                    .deployments()
                    .filter(|d| d.metadata.namespace.as_deref() == Some(ns.as_str()))
                    .filter_map(|d| d.metadata.name.clone())
                    .collect();
                for name in names {
                    super::rollout_deployment::rollout(ctx, &sub, &ns, &name, &parsed)?;
                }
                return Ok(());
            }
            _ => {}
        }
    }
    let (kind, name) = target(ctx, &sub, &rest)?;
    let Some(ds) = ctx.cluster.store().get(kind, &ns, &name) else {
        ctx.err(super::api_error_text(
            &ApiError::NotFound { kind, name },
            None,
        ));
        return Err(Failed);
    };
    let prefix = kind.qualified_singular();
    match sub.as_str() {
        "status" => status(ctx, kind, &ns, &name, &parsed),
        "history" => history(ctx, &ds, parsed.get("revision")),
        "undo" => {
            let dry_run = match parsed.get("dry-run").unwrap_or("none") {
                "none" => None,
                mode @ ("client" | "server") => Some(mode),
                other => {
                    return ctx.fail(format!(
                    "Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
                ))
                }
            };
            let to_revision = int64_flag(ctx, "rollout undo", &parsed, "to-revision")?;
            undo(ctx, &ds, to_revision.unwrap_or(0), dry_run)
        }
        "restart" => {
            let mut template = owner_template(&ds);
            let annotations = template
                .metadata
                .get_or_insert_with(Default::default)
                .annotations
                .get_or_insert_with(Default::default);
            annotations.insert(
                "kubectl.kubernetes.io/restartedAt".into(),
                ctx.cluster.now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            );
            let restarted = with_template(&ds, template);
            // Upstream `restart.go` `RunRestart`: the same restartedAt (second resolution) makes
            // an empty patch, which kubectl refuses.
            if restarted == ds {
                return ctx.fail(format!("failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another"));
            }
            match ctx.cluster.update(restarted) {
                Ok(_) => {
                    ctx.out(format!("{prefix}/{name} restarted"));
                    Ok(())
                }
                Err(e) => ctx.api_fail(&e, None),
            }
        }
        // Upstream: `polymorphichelpers/objectpauser.go` / `objectresumer.go` (`pausing is not
        // supported`), prefixed by `rollout_pause.go` `RunPause` with the resource and name.
        verb => ctx.fail(format!(
            "{} \"{name}\" {}ing is not supported",
            kind.qualified_plural(),
            verb.trim_end_matches('e')
        )),
    }
}

fn status(
    ctx: &mut Ctx,
    kind: Kind,
    ns: &str,
    name: &str,
    parsed: &crate::flags::Parsed,
) -> CmdResult {
    let watch = parsed.get("watch").is_none_or(|w| w != "false");
    let deadline = rollout_status_deadline(ctx, parsed)?;
    watch_rollout_status(
        ctx,
        kind,
        ns,
        name,
        watch,
        deadline,
        |object| match object {
            Object::StatefulSet(sts) => {
                crate::printers::rollout_status::stateful_set_status_message(sts)
            }
            Object::DaemonSet(ds) => crate::printers::rollout_status::status_message(ds),
            _ => Err(format!(
                "no status viewer has been implemented for {}",
                kind.name()
            )),
        },
    )
}

/// The status viewer's `(message, done)` for one state of the watched object, or its error.
pub(super) type StatusLook = Result<(String, bool), String>;

/// `rollout status`'s watch: the status of the object as it is now (the watch's initial list), then
/// of every write to it while the virtual clock moves, until the viewer says done (or at once
/// without `--watch`) — kubectl prints the status at every ADDED/MODIFIED event, repeating a
/// message when a write changed other fields.
///
/// `rollout status --timeout`'s deadline: a real kubectl without one (or with zero) waits
/// forever; the simulated one gives up after an hour of virtual time (a crash-looping rollout
/// would otherwise step its back-off timers forever).
pub(super) fn rollout_status_deadline(
    ctx: &mut Ctx,
    parsed: &crate::flags::Parsed,
) -> Result<i64, Failed> {
    wait_deadline(
        ctx,
        "rollout status",
        parsed,
        positive_or(Duration::from_secs(3600)),
    )
}

/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_status.go RunStatus
pub(super) fn watch_rollout_status(
    ctx: &mut Ctx,
    kind: Kind,
    ns: &str,
    name: &str,
    watch: bool,
    deadline: i64,
    mut look: impl FnMut(&Object) -> StatusLook,
) -> CmdResult {
    let mut messages: Vec<String> = Vec::new();
    // Ok(done), or why the wait stopped early: the object is gone (None) or its view failed.
    let mut outcome: Result<bool, Option<String>> = Ok(false);
    let mut on_state = |object: Option<&Object>| -> bool {
        let Some(object) = object else {
            outcome = Err(None);
            return true;
        };
        match look(object) {
            Err(e) => {
                outcome = Err(Some(e));
                true
            }
            Ok((message, done)) => {
                messages.push(message);
                outcome = Ok(done);
                done || !watch
            }
        }
    };
    let current = ctx.cluster.store().get(kind, ns, name);
    if !on_state(current.as_ref()) {
        let owns_snapshots = !ctx.cluster.store().keeps_watch_snapshots();
        ctx.cluster.keep_watch_snapshots(true);
        let mut cursor = ctx.cluster.store().watch_log().len();
        ctx.cluster.advance_until(deadline, |c| {
            let log = c.store().watch_log();
            let writes = log[cursor..].iter().filter(|e| {
                e.kind == kind && e.namespace == ns && e.name == name && e.object.is_some()
            });
            let mut stop = false;
            for write in writes {
                let gone = write.event_type == dsplay_sim::store::WatchEventType::Deleted;
                stop = on_state(write.object.as_deref().filter(|_| !gone));
                if stop {
                    break;
                }
            }
            cursor = log.len();
            stop
        });
        if owns_snapshots {
            ctx.cluster.keep_watch_snapshots(false);
        }
    }
    for message in messages {
        ctx.out(message);
    }
    match outcome {
        Ok(true) => Ok(()),
        Ok(false) if !watch => Ok(()),
        Ok(false) => ctx.fail("timed out waiting for the condition"),
        Err(Some(e)) => ctx.fail(e),
        Err(None) => ctx.api_fail(
            &ApiError::NotFound {
                kind,
                name: name.to_string(),
            },
            None,
        ),
    }
}

fn revisions(ctx: &Ctx, owner: &Object) -> Vec<ControllerRevision> {
    dsplay_sim::controller::daemonset::history::revisions_controlled_by(
        ctx.cluster.store(),
        owner.metadata(),
    )
    .into_iter()
    .cloned()
    .collect()
}

fn revision_template(revision: &ControllerRevision) -> PodTemplateSpec {
    revision
        .data
        .as_ref()
        .and_then(|d| dsplay_sim::controller::daemonset::history::template_from_patch(&d.0))
        .unwrap_or_default()
}

/// `DaemonSetHistoryViewer` / `StatefulSetHistoryViewer`: the revisions, or one revision's template.
fn history(ctx: &mut Ctx, owner: &Object, revision: Option<&str>) -> CmdResult {
    let name = owner.name().to_string();
    let prefix = format!("{}/", owner.kind().qualified_singular());
    let revs = revisions(ctx, owner);
    if let Some(wanted) = revision
        .and_then(|r| r.parse::<i64>().ok())
        .filter(|r| *r != 0)
    {
        let Some(rev) = revs.iter().find(|r| r.revision == wanted) else {
            return ctx.fail("unable to find the specified revision");
        };
        let template = revision_template(rev);
        let text = crate::printers::describe::rollout_history_revision(&name, wanted, &template);
        ctx.out(text.replacen("daemonset.apps/", &prefix, 1));
        return Ok(());
    }
    let rows: Vec<(i64, Option<String>)> = revs
        .iter()
        .map(|r| {
            (
                r.revision,
                r.metadata
                    .annotations
                    .as_ref()
                    .and_then(|a| a.get("kubernetes.io/change-cause"))
                    .cloned(),
            )
        })
        .collect();
    let text = crate::printers::get::rollout_history(&name, &rows);
    ctx.out(text.replacen("daemonset.apps/", &prefix, 1));
    Ok(())
}

/// `kubectl rollout undo`: back to the previous (or `--to-revision`) template. A client dry run
/// prints the template it would roll back to; a server dry run changes nothing.
///
/// Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go`
/// `DaemonSetRollbacker.Rollback`, `StatefulSetRollbacker.Rollback`, `printPodTemplate`.
fn undo(ctx: &mut Ctx, owner: &Object, to: i64, dry_run: Option<&str>) -> CmdResult {
    let name = owner.name().to_string();
    let prefix = owner.kind().qualified_singular();
    let revs = revisions(ctx, owner);
    let target = if to == 0 {
        if revs.len() < 2 {
            return ctx.fail("no last revision to roll back to");
        }
        revs[revs.len() - 2].clone()
    } else {
        match revs.iter().find(|r| r.revision == to) {
            Some(r) => r.clone(),
            None => return ctx.fail(format!("unable to find specified revision {to} in history")),
        }
    };
    let template = revision_template(&target);
    if dry_run == Some("client") {
        ctx.out(format!(
            "{prefix}/{name} will roll back to {} (dry run)",
            crate::printers::describe::print_template(&template)
        ));
        return Ok(());
    }
    let current = owner_template(owner);
    if serde_json::to_value(&template).ok() == serde_json::to_value(&current).ok() {
        ctx.out(format!(
            "{prefix}/{name} skipped rollback (current template already matches revision {to})"
        ));
        return Ok(());
    }
    if dry_run == Some("server") {
        ctx.out(format!("{prefix}/{name} rolled back (server dry run)"));
        return Ok(());
    }
    match ctx.cluster.update(with_template(owner, template)) {
        Ok(_) => {
            ctx.out(format!("{prefix}/{name} rolled back"));
            Ok(())
        }
        Err(e) => ctx.api_fail(&e, None),
    }
}
