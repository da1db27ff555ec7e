//! Decode errors worded as kubectl's Go libraries word them: go-yaml's `yaml: line N: …`, Go's
//! `encoding/json` syntax errors and its `json: cannot unmarshal … into Go struct field …`.

use crate::object::Kind;

pub(super) fn format_yaml_error(e: &serde_yaml::Error, text: &str) -> String {
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
pub(super) fn format_json_error(e: &serde_json::Error, text: &str) -> String {
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

/// Rewrites serde's "invalid type: string \"abc\", expected i32" as Go's `encoding/json` does:
/// `json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32`.
pub(super) fn go_unmarshal_message(
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

pub(super) fn json_type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Array(_) => "array",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::Bool(_) => "bool",
        _ => "null",
    }
}
