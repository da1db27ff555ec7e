//! `-o json`: Go's `json.MarshalIndent(obj, "", "    ")` on unstructured objects (keys sorted, HTML
//! characters and U+2028/U+2029 escaped).

use serde_json::Value;

/// `-o json`: 4-space indentation, sorted keys, Go escaping, trailing newline.
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0, true, None);
    out.push('\n');
    out
}

/// Compact JSON as Go's `json.Marshal` writes it (sorted keys, Go escaping), for jsonpath output.
pub fn to_json_compact(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0, false, None);
    out
}

/// A Go struct's fields in declaration order (what `json.Marshal` of a typed object follows),
/// each with the struct of its value where that is a struct too (or a slice of them). Keys a
/// value has beyond these (map fields such as labels) come after them, sorted, as Go writes maps.
pub struct GoStruct {
    pub fields: &'static [(&'static str, Option<&'static GoStruct>)],
}

/// `-o json` of a typed object (kubectl commands that print what a typed client returned, such
/// as `kubectl events`): fields in the struct's order, as [`to_json`] otherwise.
pub fn to_json_typed(value: &Value, shape: &GoStruct) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0, true, Some(shape));
    out.push('\n');
    out
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_json(
    out: &mut String,
    value: &Value,
    level: usize,
    pretty: bool,
    shape: Option<&GoStruct>,
) {
    let pad = |out: &mut String, level: usize| {
        if pretty {
            out.push('\n');
            for _ in 0..level {
                out.push_str("    ");
            }
        }
    };
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => json_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, level + 1);
                write_json(out, item, level + 1, pretty, shape);
            }
            pad(out, level);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            // Struct fields first, in order, then the rest sorted.
            let fields = shape.map_or(&[][..], |s| s.fields);
            let mut rest: Vec<&String> = map
                .keys()
                .filter(|k| !fields.iter().any(|(name, _)| name == k))
                .collect();
            rest.sort();
            let keys: Vec<(&String, Option<&GoStruct>)> = fields
                .iter()
                .filter_map(|(name, inner)| map.get_key_value(*name).map(|(k, _)| (k, *inner)))
                .chain(rest.into_iter().map(|k| (k, None)))
                .collect();
            out.push('{');
            for (i, (k, inner)) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, level + 1);
                json_string(out, k);
                out.push(':');
                if pretty {
                    out.push(' ');
                }
                write_json(out, &map[*k], level + 1, pretty, *inner);
            }
            pad(out, level);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_json_follows_the_struct_then_sorts_map_keys() {
        const INNER: GoStruct = GoStruct {
            fields: &[("z", None), ("a", None)],
        };
        const OUTER: GoStruct = GoStruct {
            fields: &[("kind", None), ("items", Some(&INNER))],
        };
        let value = serde_json::json!({
            "items": [{"a": 1, "z": 2, "labels": {"y": 1, "b": 2}}],
            "kind": "List",
            "extra": true,
        });
        let text = to_json_typed(&value, &OUTER);
        let order: Vec<usize> = [
            "\"kind\"",
            "\"items\"",
            "\"z\"",
            "\"a\"",
            "\"labels\"",
            "\"b\"",
            "\"y\"",
            "\"extra\"",
        ]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
        // Untyped output stays sorted.
        assert!(to_json(&value).find("\"extra\"") < to_json(&value).find("\"items\""));
    }
}
