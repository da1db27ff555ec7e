//! `kubectl label` and `kubectl annotate`: the same resource/pair arguments, each verb with its own
//! messages (upstream `pkg/cmd/label/label.go`, `pkg/cmd/annotate/annotate.go`).

use super::get::Query;
use super::live_object::{fetch, store};
use super::{parse_flags, resource_args, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::Object;
use std::collections::BTreeMap;

/// Which metadata map `label`/`annotate` edit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaField {
    Labels,
    Annotations,
}

/// The annotation `kubectl annotate` may always overwrite.
///
/// Upstream: `pkg/polymorphichelpers/interface.go` `ChangeCauseAnnotation`.
const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// `kubectl label` / `kubectl annotate`.
pub(crate) fn label(ctx: &mut Ctx, words: &[String], field: MetaField) -> CmdResult {
    let (verb, noun) = match field {
        MetaField::Labels => ("label", "label"),
        MetaField::Annotations => ("annotate", "annotation"),
    };
    let parsed = parse_flags(
        ctx,
        verb,
        words,
        &[
            boolean("overwrite", None),
            boolean("list", None),
            value("selector", Some('l')),
            value("field-selector", None),
            boolean("all", None),
            boolean("all-namespaces", Some('A')),
            value("output", Some('o')),
        ],
    )?;
    let list = parsed.flag("list");
    if list && parsed.get("output").is_some() {
        return ctx.fail("--list and --output may not be specified together");
    }
    let (resources, pairs) = match get_resources_and_pairs(&parsed.args, noun) {
        Ok(split) => split,
        Err(e) => return ctx.fail(e),
    };
    let parsed_pairs = match field {
        MetaField::Labels => parse_labels(&pairs),
        MetaField::Annotations => parse_pairs(&pairs, noun),
    };
    let (set, remove) = match parsed_pairs {
        Ok(p) => p,
        Err(e) => return ctx.fail(e),
    };
    if resources.is_empty() {
        return ctx.fail(
            "one or more resources must be specified as <resource> <name> or <resource>/<name>",
        );
    }
    if set.is_empty() && remove.is_empty() && !list {
        return ctx.fail(format!("at least one {noun} update is required"));
    }
    if field == MetaField::Annotations {
        let both: Vec<&str> = remove
            .iter()
            .filter(|k| set.contains_key(*k))
            .map(String::as_str)
            .collect();
        if !both.is_empty() {
            return ctx.fail(format!("can not both modify and remove the following annotation(s) in the same command: {}", both.join(", ")));
        }
    }
    let query = Query::from_flags(ctx, &parsed)?;
    let requests = resource_args(ctx, &resources)?;
    let single = requests.len() == 1 && requests[0].1.is_some();
    let edit = Edit {
        field,
        set,
        remove,
        overwrite: parsed.flag("overwrite"),
    };
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
        for object in objects {
            let result = if list {
                print_list(ctx, &object, field, single);
                Ok(())
            } else {
                edit.apply(ctx, object)
            };
            failed |= result.is_err();
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

/// What to change on each object.
struct Edit {
    field: MetaField,
    set: BTreeMap<String, String>,
    remove: Vec<String>,
    overwrite: bool,
}

impl Edit {
    /// Edits one object, writes it back and prints the verb's message.
    fn apply(&self, ctx: &mut Ctx, mut object: Object) -> Result<(), Failed> {
        let qualified = format!("{}/{}", object.kind().qualified_singular(), object.name());
        let before = serde_json::to_string(object.metadata()).unwrap_or_default();
        let meta = object.metadata_mut();
        let map = match self.field {
            MetaField::Labels => &mut meta.labels,
            MetaField::Annotations => &mut meta.annotations,
        };
        let current = map.get_or_insert_with(BTreeMap::new);
        if self.field == MetaField::Labels {
            // Upstream `RunLabel`: removals of absent labels are reported first.
            for k in self.remove.iter().filter(|k| !current.contains_key(*k)) {
                ctx.out(format!("label \"{k}\" not found."));
            }
        }
        if !self.overwrite {
            if let Some(conflict) = self.overwrite_conflict(current) {
                ctx.err(format!("error: {conflict}"));
                return Err(Failed);
            }
        }
        for (k, v) in &self.set {
            current.insert(k.clone(), v.clone());
        }
        for k in &self.remove {
            current.remove(k);
        }
        if current.is_empty() {
            *map = None;
        }
        let after = serde_json::to_string(object.metadata()).unwrap_or_default();
        let message = match self.field {
            MetaField::Annotations => "annotated",
            MetaField::Labels => update_data_change_msg(&before, &after, self.overwrite),
        };
        if before != after {
            store(ctx, object)?;
        }
        ctx.out(format!("{qualified} {message}"));
        Ok(())
    }

    /// Keys `--overwrite` would be needed for: those that already have a different value (for
    /// labels the first one found; for annotations all of them, the change cause excepted).
    ///
    /// Upstream: `label.go` `validateNoOverwrites`; `annotate.go` `validateNoAnnotationOverwrites`.
    fn overwrite_conflict(&self, current: &BTreeMap<String, String>) -> Option<String> {
        match self.field {
            MetaField::Labels => self.set.iter().find_map(|(k, v)| {
                let old = current.get(k).filter(|old| *old != v)?;
                Some(format!(
                    "'{k}' already has a value ({old}), and --overwrite is false"
                ))
            }),
            MetaField::Annotations => {
                let found: Vec<String> = self
                    .set
                    .keys()
                    .filter(|k| k.as_str() != CHANGE_CAUSE)
                    .filter_map(|k| {
                        let old = current.get(k).filter(|old| Some(*old) != self.set.get(k))?;
                        Some(format!("'{k}' already has a value ({old})"))
                    })
                    .collect();
                (!found.is_empty()).then(|| {
                    format!(
                        "--overwrite is false but found the following declared annotation(s): {}",
                        found.join("; ")
                    )
                })
            }
        }
    }
}

/// `updateDataChangeMsg`: `not labeled` when nothing changed; `unlabeled` when the object got
/// shorter without `--overwrite`; else `labeled`.
fn update_data_change_msg(before: &str, after: &str, overwrite: bool) -> &'static str {
    if before == after {
        "not labeled"
    } else if !overwrite && after.len() < before.len() {
        "unlabeled"
    } else {
        "labeled"
    }
}

/// `--list`: the object's labels or annotations as `key=value` lines (sorted), under a
/// `Listing … for Kind.group/name:` header when several objects were asked for.
fn print_list(ctx: &mut Ctx, object: &Object, field: MetaField, single: bool) {
    let meta = object.metadata();
    let (map, what) = match field {
        MetaField::Labels => (&meta.labels, "labels"),
        MetaField::Annotations => (&meta.annotations, "annotations"),
    };
    let indent = if single { "" } else { " " };
    if !single {
        let kind = object.kind();
        ctx.out(format!(
            "Listing {what} for {}.{}/{}:",
            kind.name(),
            kind.group(),
            object.name()
        ));
    }
    for (k, v) in map.iter().flatten() {
        ctx.out(format!("{indent}{k}={v}"));
    }
}

/// `GetResourcesAndPairs`: resources first, then `key=value` / `key-` pairs.
fn get_resources_and_pairs(
    args: &[String],
    noun: &str,
) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut resources, mut pairs) = (Vec::new(), Vec::new());
    for a in args {
        let is_pair = (a.contains('=') && !a.starts_with('=')) || (a.ends_with('-') && a != "-");
        match (pairs.is_empty(), is_pair) {
            (_, true) => pairs.push(a.clone()),
            (true, false) => resources.push(a.clone()),
            (false, false) => {
                return Err(format!(
                    "all resources must be specified before {noun} changes: {a}"
                ))
            }
        }
    }
    Ok((resources, pairs))
}

/// Additions and removals.
type Pairs = (BTreeMap<String, String>, Vec<String>);

/// `ParsePairs` (annotate): `key=value` (empty values allowed) and `key-`.
fn parse_pairs(pairs: &[String], noun: &str) -> Result<Pairs, String> {
    let (mut set, mut remove, mut invalid) = (BTreeMap::new(), Vec::new(), Vec::new());
    for p in pairs {
        match p.split_once('=') {
            Some((k, v)) if !k.is_empty() => {
                set.insert(k.to_string(), v.to_string());
            }
            _ if p.ends_with('-') && p != "-" => remove.push(p[..p.len() - 1].to_string()),
            _ => invalid.push(p.as_str()),
        }
    }
    if !invalid.is_empty() {
        return Err(format!("invalid {noun} format: {}", invalid.join(", ")));
    }
    Ok((set, remove))
}

/// `parseLabels`: `key=value` with a single `=` and no whitespace in the value, or `key-`.
fn parse_labels(pairs: &[String]) -> Result<Pairs, String> {
    let (mut set, mut remove) = (BTreeMap::new(), Vec::new());
    for p in pairs {
        if let Some((k, v)) = p.split_once('=') {
            if k.is_empty() || v.contains(char::is_whitespace) {
                return Err(format!("invalid label spec: {p}"));
            }
            set.insert(k.to_string(), v.to_string());
        } else {
            remove.push(p.trim_end_matches('-').to_string());
        }
    }
    Ok((set, remove))
}
