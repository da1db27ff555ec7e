//! `kubectl label` and `kubectl annotate`.

use super::get::Query;
use super::live_object::{fetch, store};
use super::{parse_flags, resource_args, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use std::collections::BTreeMap;

/// Which metadata map `label`/`annotate` edit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaField {
    Labels,
    Annotations,
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
