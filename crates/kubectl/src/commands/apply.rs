//! `kubectl apply`, `create` and `replace`: manifests in, objects stored, kubectl's result lines out.

use super::{api_error_text, parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value, FlagSpec, Parsed};
use dsplay_api::manifest::{parse_manifests, ManifestError};
use dsplay_api::Object;
use std::collections::BTreeMap;

/// The annotation `kubectl apply` keeps the applied manifest in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Which verb is running.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Apply,
    Create,
    Replace,
}

const FLAGS: &[FlagSpec] = &[
    value("filename", Some('f')),
    value("validate", None),
    value("output", Some('o')),
    value("dry-run", None),
    boolean("force", None),
    value("field-manager", None),
    boolean("server-side", None),
    boolean("save-config", None),
    value("selector", Some('l')),
];

/// `kubectl create`: `create namespace NAME` or `create -f`.
pub(crate) fn create(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    if matches!(words.first().map(String::as_str), Some("service" | "svc")) {
        return super::create_service::create_service(ctx, &words[1..]);
    }
    let parsed = parse_flags(ctx, "create", words, FLAGS)?;
    match parsed.args.first().map(String::as_str) {
        Some("namespace" | "ns") => {
            let Some(name) = parsed.args.get(1) else {
                return ctx.fail("exactly one NAME is required, got 0\nSee 'kubectl create namespace -h' for help and examples");
            };
            let ns = dsplay_api::types::Namespace {
                metadata: dsplay_api::types::ObjectMeta {
                    name: Some(name.clone()),
                    ..Default::default()
                },
                ..Default::default()
            };
            match ctx.cluster.create(Object::Namespace(ns)) {
                Ok(_) => {
                    ctx.out(format!("namespace/{name} created"));
                    Ok(())
                }
                Err(e) => ctx.api_fail(&e, None),
            }
        }
        Some(other) if !other.is_empty() => ctx.fail(format!(
            "unknown command \"{other}\" for \"kubectl create\""
        )),
        _ => run_manifests(ctx, &parsed, Mode::Create),
    }
}

/// `kubectl apply -f` / `kubectl replace -f`.
pub(crate) fn apply(ctx: &mut Ctx, words: &[String], mode: Mode) -> CmdResult {
    let verb = if mode == Mode::Replace {
        "replace"
    } else {
        "apply"
    };
    let parsed = parse_flags(ctx, verb, words, FLAGS)?;
    run_manifests(ctx, &parsed, mode)
}

/// Reads the `-f` input: `-` is the here-document, anything else a file.
pub(crate) fn read_input(ctx: &mut Ctx, parsed: &Parsed) -> Result<(String, String), Failed> {
    let Some(file) = parsed.get("filename") else {
        ctx.err("error: must specify one of -f and -k");
        return Err(Failed);
    };
    if file == "-" {
        return Ok(("STDIN".to_string(), ctx.stdin.unwrap_or("").to_string()));
    }
    match ctx.read_file {
        Some(read) => match read(file) {
            Ok(text) => Ok((file.to_string(), text)),
            Err(message) => {
                ctx.err(format!("error: {message}"));
                Err(Failed)
            }
        },
        None => {
            ctx.err(format!("error: the path \"{file}\" does not exist (the playground has no files: use -f - with a here-document)"));
            Err(Failed)
        }
    }
}

/// Renders a manifest decoding error the way kubectl reports it.
pub(crate) fn manifest_error_text(error: &ManifestError, source: &str) -> String {
    let mut text = match error {
        ManifestError::Syntax(_) | ManifestError::JsonSyntax(_) | ManifestError::NotAnObject(_) => format!("error: error parsing {source}: {error}"),
        ManifestError::ApiVersionNotSet | ManifestError::KindNotSet => format!("error: error validating \"{source}\": {error}; if you choose to ignore these errors, turn validation off with --validate=false"),
        ManifestError::NoMatch { name, namespace, .. } => format!("error: resource mapping not found for name: \"{name}\" namespace: \"{namespace}\" from \"{source}\": {error}\nensure CRDs are installed first"),
        ManifestError::Decode { .. } => format!("Error from server (BadRequest): error when creating \"{source}\": {error}"),
    };
    if let Some(hint) = error.hint() {
        text.push('\n');
        text.push_str(&hint);
    }
    text
}

/// The configuration `kubectl apply` keeps in [`LAST_APPLIED`]: the object as sent, namespace filled
/// in, and its annotations without a previous applied configuration (an empty map when none is left,
/// as the unstructured encoder writes it).
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/util/apply.go GetModifiedConfiguration.
fn modified_configuration(object: &Object) -> String {
    let mut json = object.to_json();
    if let Some(meta) = json.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        let mut annotations = match meta.remove("annotations") {
            Some(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        annotations.remove(LAST_APPLIED);
        meta.insert("annotations".into(), serde_json::Value::Object(annotations));
    }
    // The typed claim templates gain apiVersion and kind when serialized; kubectl sends the
    // manifest's own fields, which seldom have them.
    if let Some(templates) = json
        .pointer_mut("/spec/volumeClaimTemplates")
        .and_then(|t| t.as_array_mut())
    {
        for template in templates.iter_mut().filter_map(|t| t.as_object_mut()) {
            template.remove("apiVersion");
            template.remove("kind");
        }
    }
    serde_json::to_string(&json).unwrap_or_default() + "\n"
}

fn run_manifests(ctx: &mut Ctx, parsed: &Parsed, mode: Mode) -> CmdResult {
    let (source, text) = read_input(ctx, parsed)?;
    let validate = parsed.get("validate").unwrap_or("strict").to_string();
    let validate = match validate.as_str() {
        "true" | "strict" => "strict",
        "warn" => "warn",
        "false" | "ignore" => "ignore",
        other => return ctx.fail(format!("invalid - validate option \"{other}\"; must be one of: strict (or true), warn, ignore (or false)")),
    };
    let explicit_ns = parsed.get("namespace").map(str::to_string);
    let dry_run = parsed.get("dry-run").is_some_and(|v| v != "none");
    // Upstream `apply.go` `applyOneObject`: server-side apply sends the object as a patch (no
    // last-applied annotation) and reports `serverside-applied` whether it created or changed it.
    let server_side = mode == Mode::Apply && parsed.get("server-side") == Some("true");
    let dry_run_suffix = match parsed.get("dry-run") {
        Some("server") => "(server dry run)",
        _ => "(dry run)",
    };
    let mut failed = false;
    let documents = parse_manifests(&text);
    if documents.is_empty() {
        return ctx.fail(
            "no objects passed to ".to_string()
                + if mode == Mode::Replace {
                    "replace"
                } else if mode == Mode::Create {
                    "create"
                } else {
                    "apply"
                },
        );
    }
    for document in documents {
        let manifest = match document {
            Ok(m) => m,
            Err(e) => {
                ctx.err(manifest_error_text(&e, &source));
                failed = true;
                continue;
            }
        };
        let mut object = manifest.object.clone();
        let kind = object.kind();
        let action = match mode {
            Mode::Create => "creating",
            Mode::Replace => "replacing",
            Mode::Apply => "creating",
        };
        if !manifest.unknown_fields.is_empty() {
            match validate {
                "strict" => {
                    let fields: Vec<String> = manifest
                        .unknown_fields
                        .iter()
                        .map(|f| format!("unknown field \"{f}\""))
                        .collect();
                    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
                    ctx.err(format!("Error from server (BadRequest): error when {action} \"{source}\": {} in version \"{version}\" cannot be handled as a {}: strict decoding error: {}", kind.name(), kind.name(), fields.join(", ")));
                    failed = true;
                    continue;
                }
                "warn" => {
                    for f in &manifest.unknown_fields {
                        ctx.err(format!("Warning: unknown field \"{f}\""));
                    }
                }
                _ => {}
            }
        }
        if kind.namespaced() {
            let object_ns = object
                .metadata()
                .namespace
                .clone()
                .filter(|n| !n.is_empty());
            match (&object_ns, &explicit_ns) {
                (Some(o), Some(e)) if o != e => {
                    ctx.err(format!("error: the namespace from the provided object \"{o}\" does not match the namespace \"{e}\". You must pass '--namespace={o}' to perform this operation."));
                    failed = true;
                    continue;
                }
                (None, _) => {
                    object.metadata_mut().namespace = Some(
                        explicit_ns
                            .clone()
                            .unwrap_or_else(|| super::namespace(parsed)),
                    )
                }
                _ => {}
            }
        }
        let ns = object.metadata().namespace.clone().unwrap_or_default();
        let name = object.name().to_string();
        ctx.request(kind);
        let exists = ctx.cluster.store().get(kind, &ns, &name);
        let qualified = format!("{}/{}", kind.qualified_singular(), name);
        if mode == Mode::Apply && !server_side {
            let applied = modified_configuration(&object);
            object
                .metadata_mut()
                .annotations
                .get_or_insert_with(BTreeMap::new)
                .insert(LAST_APPLIED.to_string(), applied);
        }
        if dry_run {
            let verb = match (mode, &exists) {
                _ if server_side => "serverside-applied",
                (Mode::Replace, _) => "replaced",
                (Mode::Apply, Some(_)) => "configured",
                _ => "created",
            };
            ctx.out(format!("{qualified} {verb} {dry_run_suffix}"));
            continue;
        }
        let result = match (mode, exists) {
            (Mode::Create, Some(_)) => Err((
                dsplay_sim::ApiError::AlreadyExists {
                    kind,
                    name: name.clone(),
                },
                "creating",
            )),
            (Mode::Replace, None) => Err((
                dsplay_sim::ApiError::NotFound {
                    kind,
                    name: name.clone(),
                },
                "replacing",
            )),
            (Mode::Create, None) | (Mode::Apply, None) => ctx
                .cluster
                .create(object)
                .map(|_| "created")
                .map_err(|e| (e, "creating")),
            (Mode::Replace, Some(_)) => ctx
                .cluster
                .update(object)
                .map(|_| "replaced")
                .map_err(|e| (e, "replacing")),
            (Mode::Apply, Some(live)) => {
                // Upstream `apply.go` `warningNoLastAppliedConfigAnnotation`.
                let annotated = live
                    .metadata()
                    .annotations
                    .as_ref()
                    .is_some_and(|a| a.contains_key(LAST_APPLIED));
                if !annotated && !server_side {
                    ctx.err(format!("Warning: resource {}/{name} is missing the {LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.", kind.plural()));
                }
                let before = live.metadata().resource_version.clone();
                let merged = merge_metadata(&live, object);
                match ctx.cluster.update(merged) {
                    Ok(_) => {
                        let after = ctx
                            .cluster
                            .store()
                            .get(kind, &ns, &name)
                            .and_then(|o| o.metadata().resource_version.clone());
                        Ok(if after == before {
                            "unchanged"
                        } else {
                            "configured"
                        })
                    }
                    Err(e) => Err((e, "applying patch")),
                }
            }
        };
        match result {
            Ok(_) if server_side => ctx.out(format!("{qualified} serverside-applied")),
            Ok(verb) => ctx.out(format!("{qualified} {verb}")),
            Err((error, action)) => {
                failed = true;
                let context = format!("error when {action} \"{source}\"");
                ctx.err(api_error_text(&error, Some(&context)));
            }
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

/// Three-way merge of labels and annotations: keys the last apply set but this one drops are removed;
/// keys set by others (`kubectl label`, the server) are kept.
fn merge_metadata(live: &Object, mut desired: Object) -> Object {
    let live_meta = live.metadata();
    let last: serde_json::Value = live_meta
        .annotations
        .as_ref()
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(serde_json::Value::Null);
    let merge = |live: Option<&BTreeMap<String, String>>,
                 desired: Option<BTreeMap<String, String>>,
                 last: Option<&serde_json::Map<String, serde_json::Value>>| {
        let mut out = live.cloned().unwrap_or_default();
        if let Some(last) = last {
            for k in last.keys() {
                out.remove(k);
            }
        }
        out.extend(desired.unwrap_or_default());
        (!out.is_empty()).then_some(out)
    };
    let last_labels = last.pointer("/metadata/labels").and_then(|v| v.as_object());
    let last_annotations = last
        .pointer("/metadata/annotations")
        .and_then(|v| v.as_object());
    let meta = desired.metadata_mut();
    meta.labels = merge(live_meta.labels.as_ref(), meta.labels.take(), last_labels);
    meta.annotations = merge(
        live_meta.annotations.as_ref(),
        meta.annotations.take(),
        last_annotations,
    );
    if let (Object::Node(live_node), Object::Node(node)) = (live, &mut desired) {
        if node.spec.is_none() {
            node.spec = live_node.spec.clone();
        }
    }
    desired
}
