//! Manifest text → typed objects: multi-document YAML or JSON, `apiVersion`/`kind` dispatch, and the
//! unknown fields that kubectl's `--validate=strict|warn` reports (with their full path).

use crate::object::{Kind, Object};
use serde::de::DeserializeOwned;
use std::fmt;

/// One decoded document.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    /// The typed object, exactly as written (no defaults yet).
    pub object: Object,
    /// Unknown fields with their full path, e.g. `spec.template.spec.tolerationz`, in document order.
    pub unknown_fields: Vec<String>,
}

/// Why a document could not be decoded. `Display` gives the text kubectl prints after its prefix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    /// The text is not YAML/JSON (`yaml: line 3: …`).
    #[error("error converting YAML to JSON: {0}")]
    Syntax(String),
    /// JSON input (text starting with `{`) that does not parse, worded as Go's `encoding/json`
    /// (`unexpected EOF`, `invalid character 'x' looking for beginning of value`).
    #[error("{0}")]
    JsonSyntax(String),
    /// A document is not a mapping.
    #[error("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {0} into Go value of type map[string]interface {{}}")]
    NotAnObject(String),
    /// `apiVersion` is missing.
    #[error("error validating data: apiVersion not set")]
    ApiVersionNotSet,
    /// `kind` is missing.
    #[error("error validating data: kind not set")]
    KindNotSet,
    /// The kind/version pair is not served (includes the retired `extensions/v1beta1` DaemonSet).
    #[error("no matches for kind \"{kind}\" in version \"{api_version}\"")]
    NoMatch {
        /// The `kind:` written.
        kind: String,
        /// The `apiVersion:` written.
        api_version: String,
        /// `metadata.name` if present (kubectl names it in the error).
        name: String,
        /// `metadata.namespace` if present.
        namespace: String,
    },
    /// The document has the right kind but a field of the wrong type.
    #[error("{kind} in version \"{version}\" cannot be handled as a {kind}: {message}")]
    Decode {
        /// The kind.
        kind: String,
        /// The version part of apiVersion (`v1`).
        version: String,
        /// serde's message, rephrased where possible.
        message: String,
    },
}

impl ManifestError {
    /// A hint for learners that real kubectl does not print but the playground adds on a second line.
    pub fn hint(&self) -> Option<String> {
        match self {
            ManifestError::NoMatch { kind, api_version, .. } if kind == "DaemonSet" && api_version != "apps/v1" => Some(format!(
                "hint: DaemonSet is no longer served in {api_version} (removed in Kubernetes 1.16); change apiVersion to apps/v1 and make sure spec.selector matches the template labels"
            )),
            _ => None,
        }
    }
}

/// The largest manifest text accepted (the playground's own limit; real kubectl has none, the API server
/// caps request bodies at 3 MiB).
pub const MAX_INPUT_BYTES: usize = 1024 * 1024;

/// The deepest nesting accepted. serde_yaml and serde_json stop at 128 levels; this check runs first so
/// the message is clear and no decoder recurses deeper.
pub const MAX_NESTING_DEPTH: usize = 100;

/// Splits multi-document text and decodes every document. Empty documents (`---` alone) are skipped.
/// Each document is decoded independently so that `kubectl apply` can apply the good ones in order.
/// Text starting with `{` or `[` is read as a stream of JSON values, as kubectl's `YAMLOrJSONDecoder`
/// does. A `kind: List` document yields its items. Never panics, whatever the input.
pub fn parse_manifests(text: &str) -> Vec<Result<Manifest, ManifestError>> {
    if let Some(error) = check_limits(text) {
        return vec![Err(error)];
    }
    let trimmed = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let values = if trimmed.starts_with('{') {
        json_values(trimmed)
    } else {
        yaml_values(text)
    };
    let mut out = Vec::new();
    for value in values {
        match value {
            Ok(value) => push_document(value, &mut out),
            Err(e) => out.push(Err(e)),
        }
    }
    out
}

/// [`parse_manifests`] for raw bytes (files, uploads): text that is not UTF-8 is rejected as go-yaml
/// does (`yaml: invalid leading UTF-8 octet` / `yaml: incomplete UTF-8 octet sequence`).
pub fn parse_manifest_bytes(bytes: &[u8]) -> Vec<Result<Manifest, ManifestError>> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_manifests(text),
        Err(e) => {
            let detail = if e.error_len().is_some() {
                "invalid leading UTF-8 octet"
            } else {
                "incomplete UTF-8 octet sequence"
            };
            vec![Err(ManifestError::Syntax(format!("yaml: {detail}")))]
        }
    }
}

/// Rejects oversized or too deeply nested input before any recursive decoder sees it.
fn check_limits(text: &str) -> Option<ManifestError> {
    if text.len() > MAX_INPUT_BYTES {
        return Some(ManifestError::Syntax(format!(
            "yaml: input is {} bytes, more than the {MAX_INPUT_BYTES} bytes the playground accepts",
            text.len()
        )));
    }
    let (depth, line) = max_nesting(text);
    if depth > MAX_NESTING_DEPTH {
        return Some(ManifestError::Syntax(format!(
            "yaml: line {line}: exceeded max depth of {MAX_NESTING_DEPTH}"
        )));
    }
    None
}

/// An upper bound of the nesting depth: flow brackets plus block indentation steps (every two
/// columns of indentation or a `- ` counts as one level), with the first line reaching the maximum.
fn max_nesting(text: &str) -> (usize, usize) {
    let mut flow: usize = 0;
    let mut best = (0, 1);
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches([' ', '-']).len();
        let block = indent / 2 + 1;
        for b in line.bytes() {
            match b {
                b'[' | b'{' => flow += 1,
                b']' | b'}' => flow = flow.saturating_sub(1),
                _ => {}
            }
            if block + flow > best.0 {
                best = (block + flow, n + 1);
            }
        }
    }
    best
}

fn yaml_values(text: &str) -> Vec<Result<serde_yaml::Value, ManifestError>> {
    let mut out = Vec::new();
    for document in serde_yaml::Deserializer::from_str(text) {
        match serde_yaml::Value::deserialize_from(document) {
            Ok(v) => out.push(Ok(v)),
            Err(e) => {
                out.push(Err(ManifestError::Syntax(format_yaml_error(&e, text))));
                // serde_yaml cannot resume after a syntax error.
                break;
            }
        }
    }
    out
}

fn json_values(text: &str) -> Vec<Result<serde_yaml::Value, ManifestError>> {
    let mut out = Vec::new();
    for value in serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>() {
        match value {
            Ok(v) => out.push(
                serde_yaml::to_value(v).map_err(|e| ManifestError::JsonSyntax(e.to_string())),
            ),
            Err(e) => {
                out.push(Err(ManifestError::JsonSyntax(format_json_error(&e, text))));
                break;
            }
        }
    }
    out
}

/// Decodes one document, expanding `kind: List` into its items.
fn push_document(value: serde_yaml::Value, out: &mut Vec<Result<Manifest, ManifestError>>) {
    if value.is_null() {
        return;
    }
    let is_list = value.get("kind").and_then(|k| k.as_str()) == Some("List")
        && value.get("apiVersion").and_then(|k| k.as_str()) == Some("v1");
    if is_list {
        match value.get("items") {
            Some(serde_yaml::Value::Sequence(items)) => {
                for item in items {
                    out.push(decode_value(item.clone()));
                }
            }
            None | Some(serde_yaml::Value::Null) => {}
            Some(_) => out.push(Err(ManifestError::Decode {
                kind: "List".into(),
                version: "v1".into(),
                message: "json: cannot unmarshal object into Go struct field List.items of type []runtime.RawExtension".into(),
            })),
        }
        return;
    }
    out.push(decode_value(value));
}

trait DeserializeFrom {
    fn deserialize_from(
        d: serde_yaml::Deserializer<'_>,
    ) -> Result<serde_yaml::Value, serde_yaml::Error>;
}

impl DeserializeFrom for serde_yaml::Value {
    fn deserialize_from(
        d: serde_yaml::Deserializer<'_>,
    ) -> Result<serde_yaml::Value, serde_yaml::Error> {
        serde::Deserialize::deserialize(d)
    }
}

fn format_yaml_error(e: &serde_yaml::Error, text: &str) -> String {
    let message = e.to_string();
    // serde_yaml appends " at line L column C"; kubectl (go-yaml) says "yaml: line L: msg".
    let bare = match message.find(" at line ") {
        Some(idx) => &message[..idx],
        None => message.as_str(),
    };
    let line = e.location().map(|l| l.line());
    // "metadata: duplicate entry with key \"name\"" → go-yaml's strict unmarshal error.
    if let Some(key) = duplicate_key(bare) {
        let at = line.map_or(0, |l| duplicate_line(text, l, &key));
        return format!("yaml: unmarshal errors:\n  line {at}: key {key:?} already set in map");
    }
    let bare = match bare {
        "recursion limit exceeded" => "exceeded max depth of 128".to_string(),
        other => strip_yaml_path(other),
    };
    match line {
        Some(l) => format!("yaml: line {l}: {bare}"),
        None => format!("yaml: {bare}"),
    }
}

/// serde_yaml prefixes some errors with the path of the offending node (`a.b: invalid type…`).
fn strip_yaml_path(message: &str) -> String {
    if let Some((path, rest)) = message.split_once(": ") {
        if !path.contains(' ')
            && (rest.starts_with("invalid type") || rest.starts_with("invalid value"))
        {
            return rest
                .replace(" as u128, expected any YAML value", " is out of range")
                .replace("invalid type: integer", "number")
                .replace('`', "");
        }
    }
    message.to_string()
}

fn duplicate_key(message: &str) -> Option<String> {
    let idx = message.find("duplicate entry with key ")?;
    let rest = &message[idx + "duplicate entry with key ".len()..];
    Some(rest.trim_matches('"').to_string())
}

/// The line of the second `key:` at the same indentation, searching from the mapping's line.
fn duplicate_line(text: &str, from: usize, key: &str) -> usize {
    let mut first_indent = None;
    for (n, line) in text.lines().enumerate().skip(from.saturating_sub(1)) {
        let body = line.trim_start_matches([' ', '-']);
        let indent = line.len() - body.len();
        let matches = [
            format!("{key}:"),
            format!("\"{key}\":"),
            format!("'{key}':"),
        ]
        .iter()
        .any(|p| body.starts_with(p.as_str()))
            || body.starts_with('{') && body.contains(&format!("{key}:"));
        if !matches {
            continue;
        }
        match first_indent {
            None => first_indent = Some(indent),
            Some(i) if i == indent => return n + 1,
            Some(_) => {}
        }
    }
    from
}

/// Go's `encoding/json` wording for serde_json's syntax errors.
fn format_json_error(e: &serde_json::Error, text: &str) -> String {
    if e.is_eof() {
        return "unexpected EOF".to_string();
    }
    let found = text
        .lines()
        .nth(e.line().saturating_sub(1))
        .and_then(|l| l.chars().nth(e.column().saturating_sub(1)))
        .unwrap_or(' ');
    let message = e.to_string();
    let context = if message.starts_with("expected value") {
        "looking for beginning of value"
    } else if message.starts_with("key must be a string") || message.starts_with("trailing comma") {
        "looking for beginning of object key string"
    } else if message.starts_with("expected `,` or `}`") {
        "after object key:value pair"
    } else if message.starts_with("expected `,` or `]`") {
        "after array element"
    } else if message.starts_with("expected `:`") {
        "after object key"
    } else if message.starts_with("recursion limit exceeded") {
        return "exceeded max depth".to_string();
    } else {
        return message.split(" at line ").next().unwrap_or("").to_string();
    };
    format!("invalid character {} {context}", go_char(found))
}

/// Go's `quoteChar`: `'x'`, with `'\''` and `'\\'` escaped.
fn go_char(c: char) -> String {
    match c {
        '\'' => "'\\''".to_string(),
        '"' => "'\"'".to_string(),
        c if c.is_control() => format!("'\\x{:02x}'", c as u32),
        c => format!("'{c}'"),
    }
}

/// Decodes one YAML/JSON value into a typed object.
pub fn decode_value(value: serde_yaml::Value) -> Result<Manifest, ManifestError> {
    if let Some(bad) = non_finite_float(&value) {
        // sigs.k8s.io/yaml converts through encoding/json, which refuses NaN and infinities.
        return Err(ManifestError::Syntax(format!(
            "json: unsupported value: {bad}"
        )));
    }
    let json: serde_json::Value =
        serde_json::to_value(&value).map_err(|e| ManifestError::Syntax(format!("yaml: {e}")))?;
    let serde_json::Value::Object(map) = &json else {
        return Err(ManifestError::NotAnObject(
            json_type_name(&json).to_string(),
        ));
    };
    let api_version = map
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    let kind_name = map
        .get("kind")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    if api_version.is_empty() {
        return Err(ManifestError::ApiVersionNotSet);
    }
    if kind_name.is_empty() {
        return Err(ManifestError::KindNotSet);
    }
    let metadata_str = |key: &str| {
        map.get("metadata")
            .and_then(|m| m.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let kind = Kind::from_kind_name(&kind_name).filter(|k| k.api_version() == api_version);
    let Some(kind) = kind else {
        return Err(ManifestError::NoMatch {
            kind: kind_name,
            api_version,
            name: metadata_str("name"),
            namespace: metadata_str("namespace"),
        });
    };
    match kind {
        Kind::Namespace => decode(json, kind, Object::Namespace),
        Kind::Node => decode(json, kind, Object::Node),
        Kind::Pod => decode(json, kind, Object::Pod),
        Kind::DaemonSet => decode(json, kind, Object::DaemonSet),
        Kind::ControllerRevision => decode(json, kind, Object::ControllerRevision),
        Kind::Event => decode(json, kind, Object::Event),
        Kind::PriorityClass => decode(json, kind, Object::PriorityClass),
    }
}

/// The first NaN or infinite float in the tree, spelled as Go prints it (`NaN`, `+Inf`, `-Inf`).
fn non_finite_float(value: &serde_yaml::Value) -> Option<&'static str> {
    match value {
        serde_yaml::Value::Number(n) => match n.as_f64() {
            Some(f) if f.is_nan() => Some("NaN"),
            Some(f) if f.is_infinite() && f > 0.0 => Some("+Inf"),
            Some(f) if f.is_infinite() => Some("-Inf"),
            _ => None,
        },
        serde_yaml::Value::Sequence(items) => items.iter().find_map(non_finite_float),
        serde_yaml::Value::Mapping(map) => map
            .iter()
            .find_map(|(k, v)| non_finite_float(k).or_else(|| non_finite_float(v))),
        serde_yaml::Value::Tagged(t) => non_finite_float(&t.value),
        _ => None,
    }
}

fn decode<T: DeserializeOwned>(
    json: serde_json::Value,
    kind: Kind,
    wrap: fn(T) -> Object,
) -> Result<Manifest, ManifestError> {
    let explicit_empty_selector = kind == Kind::DaemonSet && is_explicit_empty_selector(&json);
    let decode_error = |message: String| ManifestError::Decode {
        kind: kind.name().to_string(),
        version: kind
            .api_version()
            .rsplit('/')
            .next()
            .unwrap_or("v1")
            .to_string(),
        message,
    };
    let mut unknown_fields = Vec::new();
    let mut track = serde_path_to_error::Track::new();
    let result: Result<T, _> = serde_ignored::deserialize(
        serde_path_to_error::Deserializer::new(json, &mut track),
        |path| unknown_fields.push(format_path(&path)),
    );
    let typed = result
        .map_err(|e| decode_error(go_unmarshal_message(&e.to_string(), &track.path(), kind)))?;
    let mut object = wrap(typed);
    if let Some(message) = malformed_quantity(&object) {
        return Err(decode_error(message));
    }
    if explicit_empty_selector {
        mark_explicit_empty_selector(&mut object);
    }
    Ok(Manifest {
        object,
        unknown_fields,
    })
}

/// `spec.selector: {}` (present but with no requirements). Go keeps it apart from a missing selector:
/// the first is "empty selector is invalid", the second "does not match template labels".
fn is_explicit_empty_selector(json: &serde_json::Value) -> bool {
    let Some(serde_json::Value::Object(sel)) = json.pointer("/spec/selector") else {
        return false;
    };
    sel.get("matchLabels")
        .is_none_or(serde_json::Value::is_null)
        && sel
            .get("matchExpressions")
            .is_none_or(serde_json::Value::is_null)
}

/// k8s-openapi decodes a missing and an empty selector alike; an empty `matchExpressions` list marks
/// the explicit `{}` (see `validation::selector_is_nil`). Such an object never passes validation.
fn mark_explicit_empty_selector(object: &mut Object) {
    if let Object::DaemonSet(ds) = object {
        if let Some(spec) = ds.spec.as_mut() {
            spec.selector.match_expressions = Some(Vec::new());
        }
    }
}

/// Quantities are parsed while decoding in Go (`resource.ParseQuantity`), so a malformed one rejects the
/// whole document: `quantities must match the regular expression …`.
fn malformed_quantity(object: &Object) -> Option<String> {
    let pod_spec = match object {
        Object::DaemonSet(ds) => ds.spec.as_ref().and_then(|s| s.template.spec.as_ref()),
        Object::Pod(pod) => pod.spec.as_ref(),
        _ => None,
    }?;
    let containers = pod_spec
        .containers
        .iter()
        .chain(pod_spec.init_containers.iter().flatten());
    let bad = containers
        .filter_map(|c| c.resources.as_ref())
        .flat_map(|r| r.limits.iter().flatten().chain(r.requests.iter().flatten()))
        .any(|(_, q)| crate::quantity::milli(q).is_none());
    bad.then(|| crate::validation::QUANTITY_FORMAT_ERROR.to_string())
}

/// Rewrites serde's "invalid type: string \"abc\", expected i32" as Go's `encoding/json` does:
/// `json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32`.
fn go_unmarshal_message(
    serde_message: &str,
    path: &serde_path_to_error::Path,
    kind: Kind,
) -> String {
    let Some((found, expected)) = split_invalid(serde_message) else {
        return serde_message.to_string();
    };
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|segment| match segment {
            serde_path_to_error::Segment::Map { key } => Some(key.as_str()),
            _ => None,
        })
        .collect();
    let go_type = match expected {
        "a sequence" if !keys.is_empty() => format!("[]v1.{}", go_struct_name(&keys, kind)),
        _ => go_type_name(expected),
    };
    let Some((_, parents)) = keys.split_last() else {
        return format!("json: cannot unmarshal {found} into Go value of type {go_type}");
    };
    let owner = go_struct_name(parents, kind);
    format!(
        "json: cannot unmarshal {found} into Go struct field {owner}.{} of type {go_type}",
        keys.join(".")
    )
}

/// Splits serde's `invalid type: <found>, expected <expected>` into Go's JSON type word and the type.
fn split_invalid(message: &str) -> Option<(String, &str)> {
    let rest = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))?;
    let (found, expected) = rest.split_once(", expected ")?;
    let literal = found.split('`').nth(1).unwrap_or("");
    let found = if found.starts_with("string") {
        "string".to_string()
    } else if found.starts_with("integer") || found.starts_with("floating point") {
        format!("number {literal}")
    } else if found.starts_with("sequence") {
        "array".to_string()
    } else if found.starts_with("map") {
        "object".to_string()
    } else if found.starts_with("boolean") {
        "bool".to_string()
    } else {
        found.to_string()
    };
    Some((found, expected))
}

fn go_type_name(expected: &str) -> String {
    match expected {
        "i32" => "int32".into(),
        "i64" => "int64".into(),
        "u8" | "u16" | "u32" | "u64" | "f32" | "f64" => {
            expected.replace('f', "float").replace('u', "uint")
        }
        "a string" | "string" => "string".into(),
        "a boolean" | "bool" => "bool".into(),
        "a map" => "map[string]string".into(),
        "a sequence" => "[]interface {}".into(),
        "IntOrString" | "an integer or a string" => "intstr.IntOrString".into(),
        other => {
            let name = other
                .trim_start_matches("struct ")
                .trim_start_matches("a ")
                .trim_start_matches("an ");
            format!("v1.{name}")
        }
    }
}

/// The Go struct that owns a field, named from the key path leading to it.
fn go_struct_name(parents: &[&str], kind: Kind) -> String {
    let Some(last) = parents.last() else {
        return kind.name().to_string();
    };
    let in_template = parents.len() >= 2 && parents[parents.len() - 2] == "template";
    let name = match *last {
        "metadata" => "ObjectMeta",
        "spec" if in_template => "PodSpec",
        "spec" if parents.len() == 1 => return format!("{}Spec", kind.name()),
        "status" if parents.len() == 1 => return format!("{}Status", kind.name()),
        "template" => "PodTemplateSpec",
        "selector" => "LabelSelector",
        "matchExpressions" if parents.contains(&"selector") => "LabelSelectorRequirement",
        "matchExpressions" | "matchFields" => "NodeSelectorRequirement",
        "nodeSelectorTerms" => "NodeSelectorTerm",
        "updateStrategy" => "DaemonSetUpdateStrategy",
        "rollingUpdate" => "RollingUpdateDaemonSet",
        "containers" | "initContainers" => "Container",
        "ephemeralContainers" => "EphemeralContainer",
        "ports" => "ContainerPort",
        "resources" => "ResourceRequirements",
        "env" => "EnvVar",
        "volumeMounts" => "VolumeMount",
        "volumes" => "Volume",
        "tolerations" => "Toleration",
        "taints" => "Taint",
        "affinity" => "Affinity",
        "nodeAffinity" => "NodeAffinity",
        "hostPath" => "HostPathVolumeSource",
        "livenessProbe" | "readinessProbe" | "startupProbe" => "Probe",
        "securityContext" if parents.len() >= 2 && parents[parents.len() - 2] == "containers" => {
            "SecurityContext"
        }
        "securityContext" => "PodSecurityContext",
        other => {
            let mut chars = other.chars();
            return chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default();
        }
    };
    name.to_string()
}

/// Formats a serde_ignored path the way the API server's strict decoder names fields:
/// `spec.template.spec.containers[0].imagez`.
fn format_path(path: &serde_ignored::Path<'_>) -> String {
    let mut out = String::new();
    write_path(path, &mut out);
    out
}

fn write_path(path: &serde_ignored::Path<'_>, out: &mut String) {
    use serde_ignored::Path;
    match path {
        Path::Root => {}
        Path::Seq { parent, index } => {
            write_path(parent, out);
            out.push_str(&format!("[{index}]"));
        }
        Path::Map { parent, key } => {
            write_path(parent, out);
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(key);
        }
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => write_path(parent, out),
    }
}

fn json_type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Array(_) => "array",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::Bool(_) => "bool",
        _ => "null",
    }
}

impl fmt::Display for Manifest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}",
            self.object.kind().qualified_singular(),
            self.object.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_multi_document_with_unknown_fields() {
        let text = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: d\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n      tolerationz: []\n      containers: [{name: c, image: busybox, imagez: x}]\n";
        let docs = parse_manifests(text);
        assert_eq!(docs.len(), 2);
        let ds = docs[1].as_ref().unwrap();
        assert_eq!(ds.object.kind(), Kind::DaemonSet);
        // Paths come out in key order (the API server decodes a sorted map too).
        assert_eq!(
            ds.unknown_fields,
            vec![
                "spec.template.spec.containers[0].imagez",
                "spec.template.spec.tolerationz"
            ]
        );
    }

    #[test]
    fn retired_extensions_daemonset_is_no_match_with_hint() {
        let docs = parse_manifests("apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: f\n  namespace: kube-system\n");
        let err = docs[0].as_ref().unwrap_err();
        assert_eq!(
            err.to_string(),
            "no matches for kind \"DaemonSet\" in version \"extensions/v1beta1\""
        );
        assert!(err.hint().unwrap().contains("apps/v1"));
    }

    #[test]
    fn syntax_error_names_line() {
        let docs = parse_manifests("a: b\n c: d\n");
        let err = docs[0].as_ref().unwrap_err().to_string();
        assert!(
            err.starts_with("error converting YAML to JSON: yaml: line 2:"),
            "{err}"
        );
    }
}
