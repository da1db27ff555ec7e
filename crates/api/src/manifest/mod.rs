//! Manifest text → typed objects: multi-document YAML or JSON, `apiVersion`/`kind` dispatch, and the
//! unknown fields that kubectl's `--validate=strict|warn` reports (with their full path). The error
//! texts, worded as the Go libraries word them, are in [`go_errors`].

mod go_errors;

use crate::object::{Kind, Object};
use go_errors::{format_json_error, format_yaml_error, go_unmarshal_message, json_type_name};
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
        json_values(trimmed, text.len() - trimmed.len())
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
/// Only structure counts: brackets inside quoted scalars, comments and block scalars (`|`, `>`)
/// are text.
fn max_nesting(text: &str) -> (usize, usize) {
    let mut flow: usize = 0;
    let mut best = (0, 1);
    let mut quote: Option<u8> = None;
    // The indentation of the line that opened a block scalar: more indented lines are its text.
    let mut block_scalar: Option<usize> = None;
    for (n, line) in text.lines().enumerate() {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        if let Some(parent) = block_scalar {
            if line.trim().is_empty() || spaces > parent {
                continue;
            }
            block_scalar = None;
        }
        let indent = line.len() - line.trim_start_matches([' ', '-']).len();
        let block = indent / 2 + 1;
        let bytes = line.as_bytes();
        let mut structure_end = bytes.len();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let after_indicator = i == 0 || b" \t:,[{-?".contains(&bytes[i - 1]);
            match quote {
                Some(b'"') if b == b'\\' => i += 1,
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None => match b {
                    b'#' if i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t' => {
                        structure_end = i;
                        break;
                    }
                    b'"' | b'\'' if after_indicator => quote = Some(b),
                    b'[' | b'{' => flow += 1,
                    b']' | b'}' => flow = flow.saturating_sub(1),
                    _ => {}
                },
            }
            if block + flow > best.0 {
                best = (block + flow, n + 1);
            }
            i += 1;
        }
        let structure = line[..structure_end].trim_end();
        let last_word = structure.rsplit([' ', '\t']).next().unwrap_or("");
        if quote.is_none()
            && flow == 0
            && last_word.starts_with(['|', '>'])
            && last_word[1..]
                .bytes()
                .all(|c| c.is_ascii_digit() || c == b'+' || c == b'-')
        {
            block_scalar = Some(spaces);
        }
    }
    best
}

fn yaml_values(text: &str) -> Vec<Result<serde_yaml::Value, ManifestError>> {
    let mut out = Vec::new();
    for document in serde_yaml::Deserializer::from_str(text) {
        match serde_yaml::Value::deserialize_from(document) {
            // YAML 1.1 merge keys (`<<: *defaults`), which go-yaml (and so kubectl) resolves.
            Ok(mut v) => out.push(v.apply_merge().map(|()| v).map_err(|_| {
                ManifestError::Syntax(
                    "yaml: map merge requires map or sequence of maps as the value".to_string(),
                )
            })),
            Err(e) => {
                out.push(Err(ManifestError::Syntax(format_yaml_error(&e, text))));
                // serde_yaml cannot resume after a syntax error.
                break;
            }
        }
    }
    out
}

/// The JSON documents of `text`, which starts `skipped` bytes into the input.
fn json_values(text: &str, skipped: usize) -> Vec<Result<serde_yaml::Value, ManifestError>> {
    let mut out = Vec::new();
    for value in serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>() {
        match value {
            Ok(v) => out.push(
                serde_yaml::to_value(v).map_err(|e| ManifestError::JsonSyntax(e.to_string())),
            ),
            Err(e) => {
                out.push(Err(ManifestError::JsonSyntax(format_json_error(
                    &e, text, skipped,
                ))));
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
        Kind::Deployment => decode(json, kind, Object::Deployment),
        Kind::ReplicaSet => decode(json, kind, Object::ReplicaSet),
        Kind::Service => decode(json, kind, Object::Service),
        Kind::EndpointSlice => decode(json, kind, Object::EndpointSlice),
        Kind::StatefulSet => decode(json, kind, Object::StatefulSet),
        Kind::PersistentVolumeClaim => decode(json, kind, Object::PersistentVolumeClaim),
        Kind::PersistentVolume => decode(json, kind, |pv| Object::PersistentVolume(Box::new(pv))),
        Kind::StorageClass => decode(json, kind, Object::StorageClass),
        Kind::Endpoints => decode(json, kind, Object::Endpoints),
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

fn decode<T: DeserializeOwned + serde::Serialize>(
    json: serde_json::Value,
    kind: Kind,
    wrap: fn(T) -> Object,
) -> Result<Manifest, ManifestError> {
    let explicit_empty_selector = matches!(
        kind,
        Kind::DaemonSet | Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
    ) && is_explicit_empty_selector(&json);
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
    let typed = T::deserialize(&json).map_err(|e| {
        let message = e.to_string();
        let path = error_path::<T>(&json, &message);
        decode_error(go_unmarshal_message(&message, &path, kind))
    })?;
    let mut unknown_fields = Vec::new();
    if let Ok(kept) = serde_json::to_value(&typed) {
        find_unknown_fields(&json, &kept, &mut String::new(), &mut unknown_fields);
    }
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
    let selector = match object {
        Object::DaemonSet(ds) => ds.spec.as_mut().map(|s| &mut s.selector),
        Object::Deployment(d) => d.spec.as_mut().map(|s| &mut s.selector),
        Object::ReplicaSet(rs) => rs.spec.as_mut().map(|s| &mut s.selector),
        Object::StatefulSet(sts) => sts.spec.as_mut().map(|s| &mut s.selector),
        _ => None,
    };
    if let Some(selector) = selector {
        selector.match_expressions = Some(Vec::new());
    }
}

/// Quantities are parsed while decoding in Go (`resource.ParseQuantity`), so a malformed one rejects the
/// whole document: `quantities must match the regular expression …`.
fn malformed_quantity(object: &Object) -> Option<String> {
    let pod_spec = match object {
        Object::DaemonSet(ds) => ds.spec.as_ref().and_then(|s| s.template.spec.as_ref()),
        Object::Pod(pod) => pod.spec.as_ref(),
        Object::Deployment(d) => d.spec.as_ref().and_then(|s| s.template.spec.as_ref()),
        Object::ReplicaSet(rs) => rs
            .spec
            .as_ref()
            .and_then(|s| s.template.as_ref())
            .and_then(|t| t.spec.as_ref()),
        Object::StatefulSet(sts) => sts.spec.as_ref().and_then(|s| s.template.spec.as_ref()),
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

/// The keys leading to the node a decoding error is about. A deserializer stops at the first bad
/// child of a node, taking children in order, so the bad one is found by binary search over how
/// many of them are kept: the shortest prefix that still fails ends with it. Only a failed decode
/// pays for this (a few decodes per level), and the wasm carries one typed deserializer instead of
/// a second, path-tracking one around every type.
fn error_path<T: DeserializeOwned>(document: &serde_json::Value, message: &str) -> Vec<String> {
    use serde_json::Value;
    let fails_with = |pointer: &str, keep: usize| {
        let mut probe = document.clone();
        match probe.pointer_mut(pointer) {
            Some(Value::Object(map)) => {
                let dropped: Vec<String> = map.keys().skip(keep).cloned().collect();
                for key in dropped {
                    map.remove(&key);
                }
            }
            Some(Value::Array(items)) => items.truncate(keep),
            _ => {}
        }
        T::deserialize(&probe)
            .err()
            .is_some_and(|e| e.to_string() == message)
    };
    let mut keys = Vec::new();
    let mut pointer = String::new();
    while let Some(node) = document.pointer(&pointer) {
        let count = match node {
            Value::Object(map) => map.len(),
            Value::Array(items) => items.len(),
            _ => break,
        };
        // The smallest number of children kept that still fails (all of them do).
        let (mut low, mut high) = (0, count);
        while low < high {
            let mid = (low + high) / 2;
            if fails_with(&pointer, mid) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        let Some(index) = low.checked_sub(1) else {
            break;
        };
        pointer.push('/');
        match node {
            Value::Object(map) => {
                let key = map.keys().nth(index).cloned().unwrap_or_default();
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                keys.push(key);
            }
            _ => pointer.push_str(&index.to_string()),
        }
    }
    keys
}

/// The fields of the document the typed object did not keep (k8s-openapi skips fields it does not
/// know), named as the API server's strict decoder names them:
/// `spec.template.spec.containers[0].imagez`, in the document's order. Comparing the document with
/// the typed object written back finds them without a second, field-tracking deserializer (which
/// would double the decoding code in the wasm). A field written as `null` is not reported: the typed
/// object drops a known field set to `null` too.
fn find_unknown_fields(
    document: &serde_json::Value,
    kept: &serde_json::Value,
    path: &mut String,
    out: &mut Vec<String>,
) {
    use serde_json::Value;
    match (document, kept) {
        (Value::Object(fields), Value::Object(known)) => {
            for (key, value) in fields {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                match known.get(key) {
                    Some(kept) => find_unknown_fields(value, kept, path, out),
                    None if !value.is_null() => out.push(path.clone()),
                    None => {}
                }
                path.truncate(len);
            }
        }
        (Value::Array(items), Value::Array(known)) => {
            for (index, (item, kept)) in items.iter().zip(known).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{index}]"));
                find_unknown_fields(item, kept, path, out);
                path.truncate(len);
            }
        }
        _ => {}
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

    /// A decoding error names the field it is about wherever it sits (here a later list item),
    /// found without a path-tracking deserializer.
    #[test]
    fn decode_errors_name_the_field_they_are_about() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {a/b: c}\nspec:\n  containers:\n  - {name: a, image: busybox}\n  - name: b\n    image: busybox\n    ports: [{containerPort: 80}, {containerPort: \"x\"}]\n";
        let error = parse_manifests(text).remove(0).unwrap_err().to_string();
        assert!(
            error.contains("json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"),
            "{error}"
        );
    }

    /// A wrong value inside a map is reported as the map field, without the key, as Go's decoder
    /// names only struct fields.
    #[test]
    fn decode_errors_in_maps_name_the_map_field() {
        for (text, expected) in [
            (
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {app: 5}\n",
                "json: cannot unmarshal number 5 into Go struct field ObjectMeta.metadata.labels of type string",
            ),
            (
                "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  selector: {app: [x]}\n",
                "json: cannot unmarshal array into Go struct field ServiceSpec.spec.selector of type string",
            ),
        ] {
            let error = parse_manifests(text).remove(0).unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
    }

    /// Unknown fields are what the decoded object does not keep, at any depth and in lists; known
    /// fields set to `null` or to empty values are not reported, nor are the keys of free maps.
    #[test]
    fn unknown_fields_are_those_the_object_does_not_keep() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {anything: x}\n  extra: 1\nspec:\n  nodeName: null\n  tolerations: []\n  nodeSelector: {}\n  containers:\n  - {name: a, image: busybox}\n  - name: b\n    image: busybox\n    ports: [{containerPort: 80, bogus: true}]\n    env: null\n";
        let docs = parse_manifests(text);
        let pod = docs[0].as_ref().unwrap();
        assert_eq!(
            pod.unknown_fields,
            vec!["metadata.extra", "spec.containers[1].ports[0].bogus"]
        );
    }

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
