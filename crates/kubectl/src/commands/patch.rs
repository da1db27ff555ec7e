//! `kubectl patch` (strategic merge, JSON merge and JSON patch).

use super::live_object::{fetch, store};
use super::{parse_flags, resource_args, CmdResult, Ctx, Failed};
use crate::flags::{value, FlagSpec};

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
pub(super) fn strategic_merge(target: &mut serde_json::Value, patch: &serde_json::Value) {
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
