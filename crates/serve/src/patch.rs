//! The patch types of `PATCH`: JSON patch and JSON merge patch (the `json-patch` crate), strategic
//! merge patch and server-side apply.
//!
//! No maintained Rust crate implements strategic merge patch, so it is hand-rolled here for the
//! directives kubectl sends: lists merged by their merge key ([`merge_key`]), `$patch: replace` and
//! `$patch: delete` (maps and list elements), `$setElementOrder/FIELD`, `$retainKeys`,
//! `$deleteFromPrimitiveList/FIELD`, and `null` deleting a field.
//! Server-side apply is approximated by the same merge of the applied configuration onto the live
//! object (fields the configuration leaves out are kept; there is no field ownership).
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go`
//! `StrategicMergePatch` / `mergeMap` / `mergeSlice`.

use serde_json::{Map, Value};

/// A PATCH body's content type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    /// `application/json-patch+json`.
    Json,
    /// `application/merge-patch+json`.
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
    /// `application/apply-patch+yaml` (server-side apply).
    Apply,
}

impl PatchType {
    /// From the request's Content-Type (parameters ignored).
    pub fn from_content_type(content_type: &str) -> Option<PatchType> {
        match content_type.split(';').next().unwrap_or("").trim() {
            "application/json-patch+json" => Some(PatchType::Json),
            "application/merge-patch+json" => Some(PatchType::Merge),
            "application/strategic-merge-patch+json" => Some(PatchType::Strategic),
            "application/apply-patch+yaml" | "application/apply-patch+json" => {
                Some(PatchType::Apply)
            }
            _ => None,
        }
    }
}

/// Applies `body` (a patch of `patch_type`) to `original`.
pub fn apply_patch(original: &Value, body: &[u8], patch_type: PatchType) -> Result<Value, String> {
    let patch: Value = match patch_type {
        PatchType::Apply => serde_yaml::from_slice::<Value>(body).map_err(|e| e.to_string())?,
        _ => serde_json::from_slice(body).map_err(|e| e.to_string())?,
    };
    let mut doc = original.clone();
    match patch_type {
        PatchType::Json => {
            let ops: json_patch::Patch =
                serde_json::from_value(patch).map_err(|e| e.to_string())?;
            json_patch::patch(&mut doc, &ops).map_err(|e| e.to_string())?;
            Ok(doc)
        }
        PatchType::Merge => {
            json_patch::merge(&mut doc, &patch);
            Ok(doc)
        }
        PatchType::Strategic | PatchType::Apply => {
            if !patch.is_object() {
                return Err("strategic merge patch must be a JSON object".into());
            }
            Ok(strategic_merge(&doc, &patch, ""))
        }
    }
}

/// The merge key of the list at `path` (dotted field names, no indices), None for atomic lists.
/// Upstream: the `patchMergeKey` struct tags of `k8s.io/api`.
pub fn merge_key(path: &str) -> Option<&'static str> {
    let field = path.rsplit('.').next().unwrap_or(path);
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets" => Some("name"),
        "ports" if path.contains("ontainers.") => Some("containerPort"),
        "volumeMounts" => Some("mountPath"),
        "ownerReferences" => Some("uid"),
        "conditions" => Some("type"),
        "hostAliases" => Some("ip"),
        _ => None,
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Strategic merge of `patch` onto `original` at field path `path`.
pub fn strategic_merge(original: &Value, patch: &Value, path: &str) -> Value {
    let (Value::Object(orig), Value::Object(patch_map)) = (original, patch) else {
        return strip_directives(patch);
    };
    match patch_map.get("$patch").and_then(Value::as_str) {
        Some("replace") => return strip_directives(patch),
        Some("delete") => return Value::Object(Map::new()),
        _ => {}
    }
    let mut out = orig.clone();
    for (key, value) in patch_map {
        if key.starts_with('$') {
            continue;
        }
        let field_path = child(path, key);
        match value {
            Value::Null => {
                out.remove(key);
            }
            Value::Object(_) => {
                let merged = match orig.get(key) {
                    Some(existing @ Value::Object(_)) => {
                        strategic_merge(existing, value, &field_path)
                    }
                    _ => strip_directives(value),
                };
                out.insert(key.clone(), merged);
            }
            Value::Array(items) => {
                let merged = match (orig.get(key), merge_key(&field_path)) {
                    (Some(Value::Array(existing)), Some(merge)) => {
                        merge_list(existing, items, merge, &field_path)
                    }
                    _ => Value::Array(
                        items
                            .iter()
                            .filter(|i| i.get("$patch").is_none())
                            .map(strip_directives)
                            .collect(),
                    ),
                };
                out.insert(key.clone(), merged);
            }
            other => {
                out.insert(key.clone(), other.clone());
            }
        }
    }
    for (key, value) in patch_map {
        if let Some(field) = key.strip_prefix("$deleteFromPrimitiveList/") {
            if let (Some(Value::Array(list)), Value::Array(remove)) = (out.get_mut(field), value) {
                list.retain(|v| !remove.contains(v));
            }
        }
        if let Some(field) = key.strip_prefix("$setElementOrder/") {
            if let (Some(Value::Array(list)), Value::Array(order)) = (out.get_mut(field), value) {
                let merge = merge_key(&child(path, field));
                reorder(list, order, merge);
            }
        }
    }
    if let Some(Value::Array(retain)) = patch_map.get("$retainKeys") {
        out.retain(|k, _| retain.iter().any(|r| r.as_str() == Some(k)));
    }
    Value::Object(out)
}

fn merge_list(existing: &[Value], patch: &[Value], merge: &str, path: &str) -> Value {
    if patch
        .iter()
        .any(|p| p.get("$patch").and_then(Value::as_str) == Some("replace"))
    {
        return Value::Array(
            patch
                .iter()
                .filter(|p| p.get("$patch").is_none())
                .map(strip_directives)
                .collect(),
        );
    }
    let mut out: Vec<Value> = existing.to_vec();
    for item in patch {
        let key = item.get(merge);
        let position = key.and_then(|k| out.iter().position(|o| o.get(merge) == Some(k)));
        let delete = item.get("$patch").and_then(Value::as_str) == Some("delete");
        match (position, delete) {
            (Some(i), true) => {
                out.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => out[i] = strategic_merge(&out[i], item, path),
            (None, false) => out.push(strip_directives(item)),
        }
    }
    Value::Array(out)
}

/// `$setElementOrder`: the listed elements first, in that order; the others after, as they were.
fn reorder(list: &mut Vec<Value>, order: &[Value], merge: Option<&str>) {
    let id = |v: &Value| match merge {
        Some(m) => v.get(m).cloned().unwrap_or(Value::Null),
        None => v.clone(),
    };
    let mut sorted = Vec::with_capacity(list.len());
    for wanted in order {
        let wanted = id(wanted);
        if let Some(i) = list.iter().position(|v| id(v) == wanted) {
            sorted.push(list.remove(i));
        }
    }
    sorted.append(list);
    *list = sorted;
}

/// `value` without `$…` directive keys, at any depth.
pub fn strip_directives(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !k.starts_with('$'))
                .map(|(k, v)| (k.clone(), strip_directives(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_directives).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn smp(original: Value, patch: Value) -> Value {
        strategic_merge(&original, &patch, "")
    }

    #[test]
    fn containers_merge_by_name_and_null_deletes() {
        let original = json!({"spec": {"containers": [
            {"name": "a", "image": "busybox", "args": ["x"]},
            {"name": "b", "image": "nginx"}
        ]}, "metadata": {"labels": {"x": "1", "y": "2"}}});
        let patch = json!({"spec": {"containers": [{"name": "b", "image": "nginx:1.27"}]},
            "metadata": {"labels": {"x": null}}});
        let out = smp(original, patch);
        assert_eq!(out["spec"]["containers"][0]["image"], "busybox");
        assert_eq!(out["spec"]["containers"][1]["image"], "nginx:1.27");
        assert_eq!(out["metadata"]["labels"], json!({"y": "2"}));
    }

    #[test]
    fn patch_replace_on_a_map_replaces_it_whole() {
        let original =
            json!({"spec": {"template": {"metadata": {"labels": {"a": "1"}}, "spec": {"x": 1}}}});
        let patch = json!({"spec": {"template": {"$patch": "replace", "spec": {"y": 2}}}});
        assert_eq!(
            smp(original, patch),
            json!({"spec": {"template": {"spec": {"y": 2}}}})
        );
    }

    #[test]
    fn set_element_order_and_delete_directives() {
        let original = json!({"containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]});
        let patch = json!({
            "$setElementOrder/containers": [{"name": "c"}, {"name": "a"}],
            "containers": [{"name": "b", "$patch": "delete"}]
        });
        assert_eq!(
            smp(original, patch),
            json!({"containers": [{"name": "c"}, {"name": "a"}]})
        );
    }

    #[test]
    fn lists_without_a_merge_key_are_replaced() {
        let original = json!({"spec": {"taints": [{"key": "a", "effect": "NoSchedule"}]}});
        let patch = json!({"spec": {"taints": [{"key": "b", "effect": "NoExecute"}]}});
        assert_eq!(smp(original, patch.clone()), patch);
    }

    #[test]
    fn json_and_merge_patches_use_the_library() {
        let doc = json!({"spec": {"paused": false}});
        let out = apply_patch(
            &doc,
            br#"[{"op":"replace","path":"/spec/paused","value":true}]"#,
            PatchType::Json,
        )
        .unwrap();
        assert_eq!(out["spec"]["paused"], true);
        let out = apply_patch(&doc, br#"{"spec":{"paused":null}}"#, PatchType::Merge).unwrap();
        assert_eq!(out, json!({"spec": {}}));
        assert!(apply_patch(&doc, b"[1]", PatchType::Strategic).is_err());
    }
}
