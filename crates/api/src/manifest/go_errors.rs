//! Decode errors worded as kubectl's Go libraries word them: go-yaml's `yaml: line N: …`, Go's
//! `encoding/json` syntax errors and its `json: cannot unmarshal … into Go struct field …`.

use crate::object::Kind;

/// go-yaml's message for a YAML document serde_yaml could not read (`yaml: [line N: ]problem`).
pub(super) fn format_yaml_error(e: &serde_yaml::Error, text: &str) -> String {
    let message = e.to_string();
    let line = e.location().map(|l| l.line());
    let bare = message.split(" at line ").next().unwrap_or("");
    // "metadata: duplicate entry with key \"name\"" → go-yaml's strict unmarshal error.
    if let Some(key) = duplicate_key(bare) {
        let at = line.map_or(0, |l| duplicate_line(text, l, &key));
        return format!("yaml: unmarshal errors:\n  line {at}: key {key:?} already set in map");
    }
    match bare {
        "recursion limit exceeded" => {
            return format!(
                "yaml: line {}: exceeded max depth of 128",
                line.unwrap_or(0)
            )
        }
        "repetition limit exceeded" => return "yaml: document contains excessive aliasing".into(),
        "unknown anchor" => {
            let name = e
                .location()
                .and_then(|l| alias_name(text, l.index()))
                .unwrap_or_default();
            return format!("yaml: unknown anchor '{name}' referenced");
        }
        _ => {}
    }
    let failure = LibyamlFailure::parse(&message);
    let problem = strip_yaml_path(failure.problem);
    match failure.go_line() {
        0 => format!("yaml: {problem}"),
        n => format!("yaml: line {n}: {problem}"),
    }
}

/// The problems libyaml's parser (rather than its scanner or reader) reports.
///
/// Upstream: sigs.k8s.io/yaml goyaml.v2 parserc.go (every yaml_parser_set_parser_error* call).
const PARSER_PROBLEMS: &[&str] = &[
    "did not find expected <document start>",
    "found duplicate %YAML directive",
    "found incompatible YAML document",
    "found duplicate %TAG directive",
    "found undefined tag handle",
    "did not find expected node content",
    "did not find expected key",
    "did not find expected '-' indicator",
    "did not find expected ',' or ']'",
    "did not find expected ',' or '}'",
];

/// A libyaml failure as serde_yaml prints it:
/// `PROBLEM[ at line L column C | at position P][, while CONTEXT[ at line L2 column C2]]`.
struct LibyamlFailure<'a> {
    problem: &'a str,
    /// The 1-based line of the problem mark; `None` for reader errors (no mark, only a position).
    problem_line: Option<usize>,
}

impl<'a> LibyamlFailure<'a> {
    fn parse(message: &'a str) -> Self {
        let head = message.split(", while ").next().unwrap_or(message);
        let (problem, problem_line) = match head.split_once(" at line ") {
            Some((problem, mark)) => (problem, mark.split(' ').next().and_then(|l| l.parse().ok())),
            None => (head.split(" at position ").next().unwrap_or(head), None),
        };
        LibyamlFailure {
            problem,
            problem_line,
        }
    }

    /// The line go-yaml names: the problem mark's 0-based line, one more for a scanner error;
    /// 0 (no line) when the problem is on the first line or is a reader error.
    ///
    /// Upstream: sigs.k8s.io/yaml goyaml.v2 decode.go (*parser).fail.
    fn go_line(&self) -> usize {
        let zero_based = self.problem_line.map_or(0, |l| l.saturating_sub(1));
        let scanner = !PARSER_PROBLEMS.contains(&self.problem);
        match zero_based {
            0 => 0,
            n => n + usize::from(scanner),
        }
    }
}

/// The name of the alias (`*name`) at byte `index` of `text`.
fn alias_name(text: &str, index: usize) -> Option<String> {
    let rest = text.get(index..)?;
    let start = rest.find('*')? + 1;
    let name: String = rest[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
        .collect();
    Some(name)
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

/// Go's `encoding/json` wording for serde_json's syntax errors, with the byte offset the YAML-or-JSON
/// decoder puts in front of them (`json: offset N: …`, N counting the `skipped` leading bytes and
/// the offending character).
///
/// Upstream: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go JSONSyntaxError.Error.
pub(super) fn format_json_error(e: &serde_json::Error, text: &str, skipped: usize) -> String {
    if e.is_eof() {
        return "unexpected EOF".to_string();
    }
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let offset = skipped + line_start + e.column();
    match go_json_syntax_message(e, text) {
        Some(message) => format!("json: offset {offset}: {message}"),
        None => e
            .to_string()
            .split(" at line ")
            .next()
            .unwrap_or("")
            .to_string(),
    }
}

/// Go's `SyntaxError` text for serde_json's error, when Go would report one.
fn go_json_syntax_message(e: &serde_json::Error, text: &str) -> Option<String> {
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
        return Some("exceeded max depth".to_string());
    } else {
        return None;
    };
    Some(format!("invalid character {} {context}", go_char(found)))
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
pub(super) fn go_unmarshal_message(serde_message: &str, path: &[String], kind: Kind) -> String {
    let Some((found, expected)) = split_invalid(serde_message) else {
        return serde_message.to_string();
    };
    let mut keys: Vec<&str> = path.iter().map(String::as_str).collect();
    // Go's decoder names struct fields only: a value inside a map is reported as the map field.
    if keys.len() >= 2 && is_map_field(&keys[..keys.len() - 1], kind) {
        keys.pop();
    }
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

/// Whether the field at `path` is a Go map (string keys), whose keys are data rather than field
/// names: labels, annotations, selectors of labels, resource lists, ConfigMap-style data.
///
/// Upstream: sigs.k8s.io/json internal/golang/encoding/json/decode.go `object` (only struct
/// fields are pushed on the error context's field stack, never map keys).
fn is_map_field(path: &[&str], kind: Kind) -> bool {
    let Some(last) = path.last() else {
        return false;
    };
    match *last {
        "labels" | "annotations" | "matchLabels" | "nodeSelector" | "limits" | "requests"
        | "capacity" | "allocatable" | "data" | "stringData" | "binaryData" | "parameters" => true,
        // A Service's selector is a map; a workload's is a LabelSelector.
        "selector" => kind == Kind::Service && path == ["spec", "selector"],
        _ => false,
    }
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
