//! Commands that edit live objects: `label`, `annotate`, `taint`, `cordon`/`uncordon`, `drain`,
//! `set image`, `patch`.

use super::get::Query;
use super::{api_error_text, parse_flags, resolve_kind, resource_args, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value, FlagSpec};
use dsplay_api::types::*;
use dsplay_api::{taints, Kind, Object};
use dsplay_sim::{ApiError, DeleteOptions};
use std::collections::BTreeMap;

/// Which metadata map `label`/`annotate` edit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaField {
    Labels,
    Annotations,
}

fn fetch(ctx: &mut Ctx, kind: Kind, ns: &str, name: &str) -> Result<Object, Failed> {
    match ctx.cluster.store().get(kind, ns, name) {
        Some(o) => Ok(o),
        None => {
            ctx.err(api_error_text(
                &ApiError::NotFound {
                    kind,
                    name: name.to_string(),
                },
                None,
            ));
            Err(Failed)
        }
    }
}

fn store(ctx: &mut Ctx, object: Object) -> Result<(), Failed> {
    match ctx.cluster.update(object) {
        Ok(_) => Ok(()),
        Err(e) => {
            ctx.err(api_error_text(&e, None));
            Err(Failed)
        }
    }
}

/// `kubectl label` / `kubectl annotate`.
pub(crate) fn label(ctx: &mut Ctx, words: &[String], field: MetaField) -> CmdResult {
    let verb = if field == MetaField::Labels {
        "label"
    } else {
        "annotate"
    };
    let parsed = parse_flags(
        ctx,
        verb,
        words,
        &[
            boolean("overwrite", None),
            value("selector", Some('l')),
            value("field-selector", None),
            boolean("all", None),
            boolean("all-namespaces", Some('A')),
            value("output", Some('o')),
        ],
    )?;
    let (changes, resources): (Vec<String>, Vec<String>) =
        parsed.args.iter().cloned().partition(|a| {
            a.contains('=') || (a.ends_with('-') && !a.contains('/')) && a.len() > 1
        });
    let noun = if field == MetaField::Labels {
        "label"
    } else {
        "annotation"
    };
    if changes.is_empty() {
        return ctx.fail(format!("at least one {noun} update is required"));
    }
    let mut set = BTreeMap::new();
    let mut remove = Vec::new();
    for c in &changes {
        if let Some((k, v)) = c.split_once('=') {
            if field == MetaField::Labels && (k.is_empty() || v.contains(char::is_whitespace)) {
                return ctx.fail(format!("invalid label spec: {c}"));
            }
            set.insert(k.to_string(), v.to_string());
        } else {
            remove.push(c.trim_end_matches('-').to_string());
        }
    }
    let query = Query::from_flags(ctx, &parsed)?;
    let requests = resource_args(ctx, &resources)?;
    if requests.is_empty() {
        return ctx.fail(
            "one or more resources must be specified as <resource> <name> or <resource>/<name>",
        );
    }
    let mut failed = false;
    for (kind, name) in requests {
        let objects = match name {
            Some(n) => match fetch(ctx, kind, &query.namespace, &n) {
                Ok(o) => vec![o],
                Err(_) => {
                    failed = true;
                    continue;
                }
            },
            None => query.select(ctx, kind)?,
        };
        for mut object in objects {
            let qualified = format!("{}/{}", kind.qualified_singular(), object.name());
            let meta = object.metadata_mut();
            let map = if field == MetaField::Labels {
                &mut meta.labels
            } else {
                &mut meta.annotations
            };
            let current = map.get_or_insert_with(BTreeMap::new);
            let mut changed = false;
            let mut conflict = None;
            for (k, v) in &set {
                if let Some(old) = current.get(k) {
                    if old != v && !parsed.flag("overwrite") {
                        conflict = Some(format!(
                            "'{k}' already has a value ({old}), and --overwrite is false"
                        ));
                        break;
                    }
                }
                if current.insert(k.clone(), v.clone()).as_ref() != Some(v) {
                    changed = true;
                }
            }
            if let Some(c) = conflict {
                ctx.err(format!("error: {c}"));
                failed = true;
                continue;
            }
            for k in &remove {
                if current.remove(k).is_some() {
                    changed = true;
                }
            }
            if current.is_empty() {
                *map = None;
            }
            let message = match (field, changed) {
                (MetaField::Annotations, _) => "annotated",
                (MetaField::Labels, false) => "not labeled",
                (MetaField::Labels, true) if set.is_empty() => "unlabeled",
                (MetaField::Labels, true) => "labeled",
            };
            if changed && store(ctx, object).is_err() {
                failed = true;
                continue;
            }
            ctx.out(format!("{qualified} {message}"));
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

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
    let (node_name, specs) = if let Some((_, n)) = args[0].split_once('/') {
        (n.to_string(), &args[1..])
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
    let Ok(Object::Node(mut node)) = fetch(ctx, Kind::Node, "", &node_name) else {
        return Err(Failed);
    };
    let mut current = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.clone())
        .unwrap_or_default();
    for (key, effect) in &remove {
        let before = current.len();
        current.retain(|t| !(t.key == *key && effect.as_ref().is_none_or(|e| *e == t.effect)));
        if current.len() == before {
            let label = match effect {
                Some(e) => format!("{key}:{e}"),
                None => key.clone(),
            };
            return ctx.fail(format!("taint \"{label}\" not found"));
        }
    }
    let mut overwrote = false;
    for t in &add {
        if let Some(existing) = current
            .iter_mut()
            .find(|c| c.key == t.key && c.effect == t.effect)
        {
            if !parsed.flag("overwrite") {
                return ctx.fail(format!("node {node_name} already has {} taint(s) with same effect(s) and --overwrite is false", t.key));
            }
            *existing = t.clone();
            overwrote = true;
        } else {
            current.push(t.clone());
        }
    }
    node.spec.get_or_insert_with(Default::default).taints =
        (!current.is_empty()).then_some(current);
    store(ctx, Object::Node(node))?;
    let message = if overwrote {
        "modified"
    } else if add.is_empty() {
        "untainted"
    } else {
        "tainted"
    };
    ctx.out(format!("node/{node_name} {message}"));
    Ok(())
}

/// `kubectl cordon` / `uncordon`.
pub(crate) fn cordon(ctx: &mut Ctx, words: &[String], on: bool) -> CmdResult {
    let verb = if on { "cordon" } else { "uncordon" };
    let parsed = parse_flags(
        ctx,
        verb,
        words,
        &[value("selector", Some('l')), value("dry-run", None)],
    )?;
    if parsed.args.is_empty() {
        ctx.err(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        ));
        return Err(Failed);
    }
    let mut failed = false;
    for name in &parsed.args {
        if set_unschedulable(ctx, name, on, verb).is_err() {
            failed = true;
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

fn set_unschedulable(ctx: &mut Ctx, name: &str, on: bool, verb: &str) -> CmdResult {
    let name = name
        .strip_prefix("node/")
        .or_else(|| name.strip_prefix("nodes/"))
        .unwrap_or(name);
    let Ok(Object::Node(mut node)) = fetch(ctx, Kind::Node, "", name) else {
        return Err(Failed);
    };
    let spec = node.spec.get_or_insert_with(Default::default);
    let already = spec.unschedulable.unwrap_or(false) == on;
    if already {
        ctx.out(format!("node/{name} already {verb}ed"));
        return Ok(());
    }
    spec.unschedulable = on.then_some(true);
    store(ctx, Object::Node(node))?;
    ctx.out(format!("node/{name} {verb}ed"));
    Ok(())
}

/// `kubectl drain NODE`: cordon, then evict every pod that is not a DaemonSet pod (or fail on them).
pub(crate) fn drain(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "drain",
        words,
        &[
            boolean("ignore-daemonsets", None),
            boolean("delete-emptydir-data", None),
            boolean("force", None),
            value("grace-period", None),
            value("timeout", None),
            value("selector", Some('l')),
            boolean("disable-eviction", None),
            value("pod-selector", None),
        ],
    )?;
    let Some(name) = parsed.args.first().cloned() else {
        ctx.err("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples");
        return Err(Failed);
    };
    let name = name.strip_prefix("node/").unwrap_or(&name).to_string();
    fetch(ctx, Kind::Node, "", &name)?;
    set_unschedulable(ctx, &name, true, "cordon")?;
    let pods: Vec<Pod> = ctx
        .cluster
        .store()
        .pods()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name.as_str()))
        .cloned()
        .collect();
    let is_daemon = |p: &Pod| {
        p.metadata
            .owner_references
            .iter()
            .flatten()
            .any(|r| r.kind == "DaemonSet" && r.controller == Some(true))
    };
    let unmanaged: Vec<&Pod> = pods
        .iter()
        .filter(|p| {
            p.metadata
                .owner_references
                .as_ref()
                .is_none_or(|r| r.is_empty())
        })
        .collect();
    let daemon: Vec<&Pod> = pods.iter().filter(|p| is_daemon(p)).collect();
    let pod_ref = |p: &Pod| {
        format!(
            "{}/{}",
            p.metadata.namespace.clone().unwrap_or_default(),
            p.metadata.name.clone().unwrap_or_default()
        )
    };
    let mut errors = Vec::new();
    if !daemon.is_empty() && !parsed.flag("ignore-daemonsets") {
        errors.push(format!(
            "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): {}",
            daemon
                .iter()
                .map(|p| pod_ref(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !unmanaged.is_empty() && !parsed.flag("force") {
        errors.push(format!(
            "cannot delete Pods that declare no controller (use --force to override): {}",
            unmanaged
                .iter()
                .map(|p| pod_ref(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !errors.is_empty() {
        ctx.err(format!("error: unable to drain node \"{name}\" due to error: {}, continuing command...\nThere are pending nodes to be drained:\n {name}\nerror: {}", errors.join(", "), errors.join("\n")));
        return Err(Failed);
    }
    if !daemon.is_empty() {
        ctx.err(format!(
            "Warning: ignoring DaemonSet-managed Pods: {}",
            daemon
                .iter()
                .map(|p| pod_ref(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let evict: Vec<Pod> = pods
        .iter()
        .filter(|p| !is_daemon(p) && p.metadata.deletion_timestamp.is_none())
        .cloned()
        .collect();
    for pod in &evict {
        ctx.out(format!("evicting pod {}", pod_ref(pod)));
    }
    for pod in &evict {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let pname = pod.metadata.name.clone().unwrap_or_default();
        let _ = ctx
            .cluster
            .delete(Kind::Pod, &ns, &pname, DeleteOptions::default());
    }
    for pod in &evict {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let pname = pod.metadata.name.clone().unwrap_or_default();
        while ctx.cluster.store().pod(&ns, &pname).is_some() && ctx.cluster.step() {}
        ctx.out(format!("pod/{pname} evicted"));
    }
    ctx.out(format!("node/{name} drained"));
    Ok(())
}

/// `kubectl set image ds/NAME CONTAINER=IMAGE…`.
pub(crate) fn set(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "set",
        words,
        &[boolean("all", None), value("selector", Some('l'))],
    )?;
    let Some(sub) = parsed.args.first() else {
        ctx.err("error: unknown command \"\"\nSee 'kubectl set -h' for help and examples");
        return Err(Failed);
    };
    if sub != "image" {
        ctx.err(format!(
            "error: unknown command \"{sub}\"\nSee 'kubectl set -h' for help and examples"
        ));
        return Err(Failed);
    }
    let rest = &parsed.args[1..];
    let (pairs, resources): (Vec<String>, Vec<String>) =
        rest.iter().cloned().partition(|a| a.contains('='));
    if pairs.is_empty() || resources.is_empty() {
        ctx.err("error: you must specify a resource and at least one container=image pair\nSee 'kubectl set image -h' for help and examples");
        return Err(Failed);
    }
    let ns = super::namespace(&parsed);
    let requests = resource_args(ctx, &resources)?;
    for (kind, name) in requests {
        let Some(name) = name else {
            return ctx.fail("resource(s) were provided, but no name was specified");
        };
        let object = fetch(ctx, kind, &ns, &name)?;
        let Object::DaemonSet(mut ds) = object else {
            return ctx.fail(format!(
                "setting image on {} is not supported in the playground",
                kind.plural()
            ));
        };
        let spec = ds
            .spec
            .get_or_insert_with(Default::default)
            .template
            .spec
            .get_or_insert_with(Default::default);
        for pair in &pairs {
            let (container, image) = pair.split_once('=').unwrap_or((pair, ""));
            let all = container == "*";
            let mut found = false;
            for c in spec
                .containers
                .iter_mut()
                .chain(spec.init_containers.iter_mut().flatten())
            {
                if all || c.name == container {
                    c.image = Some(image.to_string());
                    found = true;
                }
            }
            if !found {
                return ctx.fail(format!("unable to find container named \"{container}\""));
            }
        }
        store(ctx, Object::DaemonSet(ds))?;
        ctx.out(format!("daemonset.apps/{name} image updated"));
    }
    Ok(())
}

const PATCH_FLAGS: &[FlagSpec] = &[
    value("type", None),
    value("patch", Some('p')),
    value("patch-file", None),
    value("output", Some('o')),
];

/// `kubectl patch KIND NAME --type=strategic|merge|json -p '…'`.
pub(crate) fn patch(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "patch", words, PATCH_FLAGS)?;
    let Some(patch_text) = parsed.get("patch").map(str::to_string) else {
        return ctx
            .fail("must specify --patch or --patch-file containing the contents of the patch");
    };
    let requests = resource_args(ctx, &parsed.args)?;
    let Some((kind, Some(name))) = requests.first().cloned() else {
        return ctx.fail("resource(s) were provided, but no name was specified");
    };
    let ns = super::namespace(&parsed);
    let object = fetch(ctx, kind, &ns, &name)?;
    let patch_type = parsed.get("type").unwrap_or("strategic").to_string();
    let patch_value: serde_json::Value =
        match serde_yaml::from_str::<serde_json::Value>(&patch_text) {
            Ok(v) => v,
            Err(e) => return ctx.fail(format!("unable to parse \"{patch_text}\": {e}")),
        };
    let mut doc = object.to_json();
    match patch_type.as_str() {
        "json" => {
            let patch: json_patch::Patch = match serde_json::from_value(patch_value) {
                Ok(p) => p,
                Err(e) => return ctx.fail(format!("unable to parse \"{patch_text}\": {e}")),
            };
            if let Err(e) = json_patch::patch(&mut doc, &patch) {
                ctx.err(format!("The request is invalid: the server rejected our request due to an error in our request: {e}"));
                return Err(Failed);
            }
        }
        "merge" => json_patch::merge(&mut doc, &patch_value),
        "strategic" => strategic_merge(&mut doc, &patch_value),
        other => {
            return ctx.fail(format!(
                "--type must be one of [json merge strategic], not \"{other}\""
            ))
        }
    }
    let decoded =
        match dsplay_api::manifest::decode_value(serde_yaml::to_value(&doc).unwrap_or_default()) {
            Ok(m) => m.object,
            Err(e) => {
                ctx.err(format!("Error from server (BadRequest): {e}"));
                return Err(Failed);
            }
        };
    let before = object.metadata().resource_version.clone();
    store(ctx, decoded)?;
    let after = ctx
        .cluster
        .store()
        .get(kind, &ns, &name)
        .and_then(|o| o.metadata().resource_version.clone());
    let suffix = if before == after { " (no change)" } else { "" };
    ctx.out(format!(
        "{}/{name} patched{suffix}",
        kind.qualified_singular()
    ));
    Ok(())
}

/// A strategic merge patch approximated as JSON merge patch, except that lists of objects with a
/// `name` key (containers, env, ports, volumes) merge element-wise by name, and `$patch: replace`/
/// `$patch: delete` directives are honoured.
fn strategic_merge(target: &mut serde_json::Value, patch: &serde_json::Value) {
    use serde_json::Value;
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            if p.get("$patch").and_then(|v| v.as_str()) == Some("replace") {
                let mut replaced = p.clone();
                replaced.remove("$patch");
                *t = replaced;
                return;
            }
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else if let Some(existing) = t.get_mut(k) {
                    strategic_merge(existing, v);
                } else {
                    t.insert(k.clone(), v.clone());
                }
            }
        }
        (Value::Array(t), Value::Array(p))
            if p.iter().all(|e| e.get("name").is_some())
                && t.iter().all(|e| e.get("name").is_some()) =>
        {
            for item in p {
                let name = item.get("name").cloned();
                match t.iter_mut().find(|e| e.get("name") == name.as_ref()) {
                    Some(existing) => {
                        if item.get("$patch").and_then(|v| v.as_str()) == Some("delete") {
                            existing.take();
                        } else {
                            strategic_merge(existing, item);
                        }
                    }
                    None => t.push(item.clone()),
                }
            }
            t.retain(|e| !e.is_null());
        }
        (t, p) => *t = p.clone(),
    }
}
