//! `kubectl events [--for TYPE/NAME] [--types Normal,Warning] [-A]`: the cluster's events, oldest
//! first, in kubectl's `events` layout (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE).
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/events/events.go (`Validate`, `Run`: the
//! `--for` field selector, `SortableEvents`) and event_printer.go (`PrintObj`, `getInterval`).

use super::{namespace, parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value, FlagSpec};
use crate::printers::events::{describe_sort_time, event_interval};
use crate::printers::tabwriter::TabWriter;
use dsplay_api::types::Event;

const EVENTS_FLAGS: &[FlagSpec] = &[
    boolean("all-namespaces", Some('A')),
    value("for", None),
    value("types", None),
    boolean("watch", Some('w')),
    value("chunk-size", None),
];

/// `kubectl events`.
pub(crate) fn events(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "events", words, EVENTS_FLAGS)?;
    let types = parsed.all("types");
    if types
        .iter()
        .any(|t| !t.eq_ignore_ascii_case("Normal") && !t.eq_ignore_ascii_case("Warning"))
    {
        return ctx.fail("valid --types are Normal or Warning");
    }
    let all = parsed.flag("all-namespaces");
    let ns = namespace(&parsed);
    let about = match parsed.get("for") {
        None => None,
        Some(spec) => {
            let Some((kind, name)) = spec.split_once('/') else {
                return ctx.fail("--for must be in resource/name form");
            };
            let kind = match super::resource_name::resolve(kind) {
                Ok(k) => k,
                Err(message) => {
                    // kubectl prints this one without its `error: ` prefix.
                    ctx.err(message);
                    return Err(Failed);
                }
            };
            Some((kind, name.to_string()))
        }
    };
    let mut events: Vec<&Event> = ctx
        .cluster
        .store()
        .events()
        .filter(|e| all || e.metadata.namespace.as_deref() == Some(ns.as_str()))
        .filter(|e| {
            types.is_empty()
                || types.iter().any(|t| {
                    e.type_
                        .as_deref()
                        .is_some_and(|et| et.eq_ignore_ascii_case(t))
                })
        })
        .filter(|e| {
            about.as_ref().is_none_or(|(kind, name)| {
                let o = &e.involved_object;
                o.kind.as_deref() == Some(kind.name())
                    && o.api_version.as_deref() == Some(kind.api_version())
                    && o.name.as_deref() == Some(name.as_str())
            })
        })
        .collect();
    if events.is_empty() {
        ctx.err(if all {
            "No events found.".to_string()
        } else {
            format!("No events found in {ns} namespace.")
        });
        return Ok(());
    }
    events.sort_by_key(|e| describe_sort_time(e));
    let now = ctx.cluster.now();
    let mut w = TabWriter::for_table();
    let prefix = if all { "NAMESPACE\t" } else { "" };
    w.write(&format!(
        "{prefix}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n"
    ));
    for e in events {
        if all {
            w.write(&format!(
                "{}\t",
                e.metadata.namespace.as_deref().unwrap_or("")
            ));
        }
        w.write(&format!(
            "{}\t{}\t{}\t{}/{}\t{}\n",
            event_interval(e, now),
            e.type_.as_deref().unwrap_or(""),
            e.reason.as_deref().unwrap_or(""),
            e.involved_object.kind.as_deref().unwrap_or(""),
            e.involved_object.name.as_deref().unwrap_or(""),
            e.message.as_deref().unwrap_or("").trim()
        ));
    }
    ctx.out(w.finish());
    if parsed.flag("watch") {
        ctx.err("error: \"kubectl events --watch\" is not available in the playground: use kubectl get events -w");
        return Err(Failed);
    }
    Ok(())
}
