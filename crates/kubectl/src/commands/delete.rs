//! `kubectl delete`, which waits (in virtual time) until the objects are gone unless `--wait=false`.

use super::apply::{manifest_error_text, read_input};
use super::get::Query;
use super::{
    int64_flag, parse_flags, positive_or, resource_args, wait_deadline, CmdResult, Ctx, Failed,
};
use crate::flags::{boolean, value, FlagSpec};
use dsplay_api::manifest::parse_manifests;
use dsplay_api::Kind;
use dsplay_sim::{ApiError, DeleteOptions, Propagation};
use std::time::Duration;

const FLAGS: &[FlagSpec] = &[
    value("filename", Some('f')),
    value("selector", Some('l')),
    value("field-selector", None),
    boolean("all", None),
    boolean("all-namespaces", Some('A')),
    value("cascade", None),
    value("wait", None),
    value("grace-period", None),
    boolean("force", None),
    value("timeout", None),
    boolean("ignore-not-found", None),
    boolean("now", None),
];

/// `kubectl delete`.
pub(crate) fn delete(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "delete", words, FLAGS)?;
    let propagation = match parsed.get("cascade").unwrap_or("background") {
        "background" | "true" => Propagation::Background,
        "foreground" => Propagation::Foreground,
        "orphan" | "false" => Propagation::Orphan,
        other => return ctx.fail(format!("invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\"")),
    };
    let mut grace = int64_flag(ctx, "delete", &parsed, "grace-period")?.filter(|g| *g >= 0);
    if parsed.flag("now") {
        grace = Some(1);
    }
    let force = parsed.flag("force");
    if force {
        grace = Some(0);
        ctx.err("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.");
    }
    let options = DeleteOptions {
        propagation,
        grace_period_seconds: grace,
    };
    // Deletes take no virtual time, so the deadline is known (and a bad --timeout refused) first.
    let deadline = wait_deadline(
        ctx,
        "delete",
        &parsed,
        positive_or(Duration::from_secs(3600)),
    )?;
    let query = Query::from_flags(ctx, &parsed)?;
    let mut targets: Vec<(Kind, String, String)> = Vec::new();
    let mut failed = false;
    if parsed.get("filename").is_some() {
        let (source, text) = read_input(ctx, &parsed)?;
        for doc in parse_manifests(&text) {
            match doc {
                Ok(m) => {
                    let kind = m.object.kind();
                    let ns = m
                        .object
                        .metadata()
                        .namespace
                        .clone()
                        .unwrap_or_else(|| query.namespace.clone());
                    targets.push((
                        kind,
                        if kind.namespaced() { ns } else { String::new() },
                        m.object.name().to_string(),
                    ));
                }
                Err(e) => {
                    ctx.err(manifest_error_text(&e, &source));
                    failed = true;
                }
            }
        }
    } else {
        if parsed.args.is_empty() {
            ctx.err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
            return Err(Failed);
        }
        let requests = resource_args(ctx, &parsed.args)?;
        for (kind, name) in requests {
            match name {
                Some(name) => targets.push((
                    kind,
                    if kind.namespaced() {
                        query.namespace.clone()
                    } else {
                        String::new()
                    },
                    name,
                )),
                None => {
                    if !query.has_selector() && !parsed.flag("all") {
                        return ctx.fail("resource(s) were provided, but no name was specified");
                    }
                    let objects = query.select(ctx, kind)?;
                    if objects.is_empty() {
                        ctx.err("No resources found");
                    }
                    for o in objects {
                        targets.push((
                            kind,
                            o.metadata().namespace.clone().unwrap_or_default(),
                            o.name().to_string(),
                        ));
                    }
                }
            }
        }
    }
    let mut waiting = Vec::new();
    for (kind, ns, name) in targets {
        ctx.request(kind);
        // kubectl waits for this object (its uid) to go: a controller may recreate the name.
        let uid = ctx
            .cluster
            .store()
            .get(kind, &ns, &name)
            .and_then(|o| o.metadata().uid.clone());
        match ctx.cluster.delete(kind, &ns, &name, options) {
            Ok(()) => {
                let verb = if force { "force deleted" } else { "deleted" };
                let ns_part = if kind.namespaced() && ns != query.namespace && !ns.is_empty() {
                    format!(" from {ns} namespace")
                } else {
                    String::new()
                };
                ctx.out(format!(
                    "{} \"{name}\" {verb}{ns_part}",
                    kind.qualified_singular()
                ));
                waiting.push((kind, ns, name, uid));
            }
            Err(ApiError::NotFound { .. }) if parsed.flag("ignore-not-found") => {}
            Err(e) => {
                failed = true;
                ctx.err(super::api_error_text(&e, None));
            }
        }
    }
    if parsed.flag_or("wait", true) && !waiting.is_empty() {
        // The first object still there when the clock was last looked at (named on a timeout).
        let mut left = None;
        let all_gone = ctx.cluster.advance_until(deadline, |c| {
            left = waiting
                .iter()
                .find(|(k, ns, n, uid)| {
                    c.store()
                        .get(*k, ns, n)
                        .is_some_and(|o| o.metadata().uid == *uid)
                })
                .cloned();
            left.is_none()
        });
        if !all_gone {
            if let Some((k, _, n, _)) = left {
                ctx.err(format!(
                    "error: timed out waiting for the condition on {}/{n}",
                    k.plural()
                ));
            }
            return Err(Failed);
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}
