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

/// Splits multi-document text and decodes every document. Empty documents (`---` alone) are skipped.
/// Each document is decoded independently so that `kubectl apply` can apply the good ones in order.
pub fn parse_manifests(text: &str) -> Vec<Result<Manifest, ManifestError>> {
    let mut out = Vec::new();
    for document in serde_yaml::Deserializer::from_str(text) {
        let value = match serde_yaml::Value::deserialize_from(document) {
            Ok(v) => v,
            Err(e) => {
                out.push(Err(ManifestError::Syntax(format_yaml_error(&e))));
                // serde_yaml cannot resume after a syntax error.
                break;
            }
        };
        if value.is_null() {
            continue;
        }
        out.push(decode_value(value));
    }
    out
}

trait DeserializeFrom {
    fn deserialize_from(d: serde_yaml::Deserializer<'_>) -> Result<serde_yaml::Value, serde_yaml::Error>;
}

impl DeserializeFrom for serde_yaml::Value {
    fn deserialize_from(d: serde_yaml::Deserializer<'_>) -> Result<serde_yaml::Value, serde_yaml::Error> {
        serde::Deserialize::deserialize(d)
    }
}

fn format_yaml_error(e: &serde_yaml::Error) -> String {
    let message = e.to_string();
    // serde_yaml appends " at line L column C"; kubectl (go-yaml) says "yaml: line L: msg".
    match (e.location(), message.find(" at line ")) {
        (Some(loc), Some(idx)) => format!("yaml: line {}: {}", loc.line(), &message[..idx]),
        (Some(loc), None) => format!("yaml: line {}: {}", loc.line(), message),
        _ => format!("yaml: {message}"),
    }
}

/// Decodes one YAML/JSON value into a typed object.
pub fn decode_value(value: serde_yaml::Value) -> Result<Manifest, ManifestError> {
    let json: serde_json::Value = serde_json::to_value(&value).map_err(|e| ManifestError::Syntax(format!("yaml: {e}")))?;
    let serde_json::Value::Object(map) = &json else {
        return Err(ManifestError::NotAnObject(json_type_name(&json).to_string()));
    };
    let api_version = map.get("apiVersion").and_then(|v| v.as_str()).unwrap_or("").to_string();
    let kind_name = map.get("kind").and_then(|v| v.as_str()).unwrap_or("").to_string();
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

fn decode<T: DeserializeOwned>(json: serde_json::Value, kind: Kind, wrap: fn(T) -> Object) -> Result<Manifest, ManifestError> {
    let mut unknown_fields = Vec::new();
    let typed: T = serde_ignored::deserialize(json, |path| unknown_fields.push(format_path(&path)))
        .map_err(|e| ManifestError::Decode {
            kind: kind.name().to_string(),
            version: kind.api_version().rsplit('/').next().unwrap_or("v1").to_string(),
            message: e.to_string(),
        })?;
    Ok(Manifest { object: wrap(typed), unknown_fields })
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
        Path::Some { parent } | Path::NewtypeStruct { parent } | Path::NewtypeVariant { parent } => write_path(parent, out),
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
        write!(f, "{}/{}", self.object.kind().qualified_singular(), self.object.name())
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
        assert_eq!(ds.unknown_fields, vec!["spec.template.spec.containers[0].imagez", "spec.template.spec.tolerationz"]);
    }

    #[test]
    fn retired_extensions_daemonset_is_no_match_with_hint() {
        let docs = parse_manifests("apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: f\n  namespace: kube-system\n");
        let err = docs[0].as_ref().unwrap_err();
        assert_eq!(err.to_string(), "no matches for kind \"DaemonSet\" in version \"extensions/v1beta1\"");
        assert!(err.hint().unwrap().contains("apps/v1"));
    }

    #[test]
    fn syntax_error_names_line() {
        let docs = parse_manifests("a: b\n c: d\n");
        let err = docs[0].as_ref().unwrap_err().to_string();
        assert!(err.starts_with("error converting YAML to JSON: yaml: line 2:"), "{err}");
    }
}
