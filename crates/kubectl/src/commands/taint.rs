//! `kubectl taint node` (one node by name, or every node selected by `--all` / `-l`).

use super::get::Query;
use super::live_object::{fetch, store};
use super::{parse_flags, resolve_kind, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::types::*;
use dsplay_api::{taints, Kind, Object};

fn valid_taint_key(key: &str) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
}

const KEY_RULE: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/// `kubectl taint nodes NAME k=v:Effect | k:Effect- | k-`.
pub(crate) fn taint(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "taint",
        words,
        &[
            boolean("overwrite", None),
            value("selector", Some('l')),
            boolean("all", None),
        ],
    )?;
    let args = &parsed.args;
    if args.is_empty() {
        return ctx.fail("at least one taint update is required");
    }
    let kind = resolve_kind(ctx, args[0].split('/').next().unwrap_or(""))?;
    if kind != Kind::Node {
        return ctx.fail(format!(
            "invalid resource type {}, only node types are supported",
            args[0]
        ));
    }
    let by_selector = parsed.flag("all") || parsed.get("selector").is_some();
    let (node_name, specs) = if let Some((_, n)) = args[0].split_once('/') {
        (n.to_string(), &args[1..])
    } else if by_selector {
        (String::new(), &args[1..])
    } else if args.len() > 1 {
        (args[1].clone(), &args[2..])
    } else {
        return ctx.fail("at least one taint update is required");
    };
    let mut add: Vec<Taint> = Vec::new();
    let mut remove: Vec<(String, Option<String>)> = Vec::new();
    for spec in specs {
        let usage = "\nSee 'kubectl taint -h' for help and examples";
        if let Some(body) = spec.strip_suffix('-') {
            let (key, effect) = match body.split_once(':') {
                Some((k, e)) => (
                    k.split('=').next().unwrap_or(k).to_string(),
                    Some(e.to_string()),
                ),
                None => (body.split('=').next().unwrap_or(body).to_string(), None),
            };
            remove.push((key, effect));
            continue;
        }
        let Some((kv, effect)) = spec.rsplit_once(':') else {
            ctx.err(format!(
                "error: invalid taint spec: {spec}, {KEY_RULE}{usage}"
            ));
            return Err(Failed);
        };
        let (key, value) = match kv.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (kv, None),
        };
        if !valid_taint_key(key) {
            let empty = if key.is_empty() {
                "name part must be non-empty; "
            } else {
                ""
            };
            ctx.err(format!(
                "error: invalid taint spec: {spec}, {empty}{KEY_RULE}{usage}"
            ));
            return Err(Failed);
        }
        if ![
            taints::NO_SCHEDULE,
            taints::PREFER_NO_SCHEDULE,
            taints::NO_EXECUTE,
        ]
        .contains(&effect)
        {
            ctx.err(format!(
                "error: invalid taint effect: {effect}, unsupported taint effect{usage}"
            ));
            return Err(Failed);
        }
        if add.iter().any(|t| t.key == key && t.effect == effect) {
            ctx.err(format!("error: duplicated taints with the same key and effect: {{{key} {} {effect} <nil>}}{usage}", value.clone().unwrap_or_default()));
            return Err(Failed);
        }
        add.push(taints::taint(key, value.as_deref(), effect));
    }
    if add.is_empty() && remove.is_empty() {
        return ctx.fail("at least one taint update is required");
    }
    if !by_selector {
        return taint_node(ctx, &node_name, &add, &remove, parsed.flag("overwrite"));
    }
    // `--all` / `-l`: every selected node, each reported on its own line; a failure on one node
    // does not stop the others.
    let query = Query::from_flags(ctx, &parsed)?;
    let nodes = query.select(ctx, Kind::Node)?;
    let mut result = Ok(());
    for node in nodes {
        if taint_node(ctx, node.name(), &add, &remove, parsed.flag("overwrite")).is_err() {
            result = Err(Failed);
        }
    }
    result
}

/// Applies the taint changes to one node and prints `node/NAME tainted|untainted|modified`.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/taint/taint.go updateTaints.
fn taint_node(
    ctx: &mut Ctx,
    node_name: &str,
    add: &[Taint],
    remove: &[(String, Option<String>)],
    overwrite: bool,
) -> CmdResult {
    let Ok(Object::Node(mut node)) = fetch(ctx, Kind::Node, "", node_name) else {
        return Err(Failed);
    };
    let old = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.clone())
        .unwrap_or_default();
    if !overwrite {
        let existing = taints_already_existing(&old, add);
        if !existing.is_empty() {
            return ctx.fail(format!("node {node_name} already has {existing} taint(s) with same effect(s) and --overwrite is false"));
        }
    }
    let (message, new, errors) = reorganize_taints(&old, overwrite, add, remove);
    match errors.as_slice() {
        [] => {}
        [one] => return ctx.fail(one.clone()),
        many => {
            ctx.err(many.join("\n"));
            return Err(Failed);
        }
    }
    node.spec.get_or_insert_with(Default::default).taints = (!new.is_empty()).then_some(new);
    store(ctx, Object::Node(node))?;
    ctx.out(format!("node/{node_name} {message}"));
    Ok(())
}

/// The keys (comma-separated) of the taints to add that the node already has with the same effect.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/taint/utils.go checkIfTaintsAlreadyExists.
fn taints_already_existing(old: &[Taint], add: &[Taint]) -> String {
    add.iter()
        .flat_map(|t| {
            old.iter()
                .filter(move |o| o.key == t.key && o.effect == t.effect)
                .map(move |_| t.key.as_str())
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The node's new taints: the added ones first, then the old ones they do not replace, minus the
/// removed ones; with the word to print and a `taint "…" not found` error per removal that matched
/// nothing.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/taint/utils.go reorganizeTaints, addTaints,
/// deleteTaints.
fn reorganize_taints(
    old: &[Taint],
    overwrite: bool,
    add: &[Taint],
    remove: &[(String, Option<String>)],
) -> (&'static str, Vec<Taint>, Vec<String>) {
    let mut new = add.to_vec();
    for o in old {
        if !new.iter().any(|t| t.key == o.key && t.effect == o.effect) {
            new.push(o.clone());
        }
    }
    let added = old.len() != new.len();
    let mut errors = Vec::new();
    let mut deleted = false;
    for (key, effect) in remove {
        let before = new.len();
        new.retain(|t| !(t.key == *key && effect.as_ref().is_none_or(|e| *e == t.effect)));
        deleted = new.len() != before;
        if !deleted {
            let shown = match effect {
                Some(e) => format!("{key}:{e}"),
                None => key.clone(),
            };
            errors.push(format!("taint \"{shown}\" not found"));
        }
    }
    let message = if (added && deleted) || overwrite {
        "modified"
    } else if added {
        "tainted"
    } else {
        "untainted"
    };
    (message, new, errors)
}
