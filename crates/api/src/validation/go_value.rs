//! Go value rendering for field errors: `%q` of strings and `%#v` of the few structs the API server
//! prints in messages (maps, label selectors, tolerations).

use crate::types::*;

/// Go's `%q` of a string (`strconv.Quote`).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() || c == '\u{feff}' => {
                if (c as u32) > 0xffff {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                } else {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Renders a map as Go's `%#v` of `map[string]string` (keys sorted).
pub fn go_string_map(map: &std::collections::BTreeMap<String, String>) -> String {
    let body: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v)))
        .collect();
    format!("map[string]string{{{}}}", body.join(", "))
}

/// Renders a LabelSelector as Go's `%#v` of `v1.LabelSelector`.
pub fn go_label_selector(selector: Option<&LabelSelector>) -> String {
    let Some(s) = selector else {
        return "(*v1.LabelSelector)(nil)".to_string();
    };
    let labels = match &s.match_labels {
        Some(m) => go_string_map(m),
        None => "map[string]string(nil)".to_string(),
    };
    let exprs = match &s.match_expressions {
        Some(e) if !e.is_empty() => {
            let items: Vec<String> = e
                .iter()
                .map(|r| {
                    let values = match &r.values {
                        Some(v) => format!(
                            "[]string{{{}}}",
                            v.iter().map(|x| go_quote(x)).collect::<Vec<_>>().join(", ")
                        ),
                        None => "[]string(nil)".to_string(),
                    };
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{values}}}",
                        go_quote(&r.key),
                        go_quote(&r.operator)
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", items.join(", "))
        }
        _ => "[]v1.LabelSelectorRequirement(nil)".to_string(),
    };
    format!("v1.LabelSelector{{MatchLabels:{labels}, MatchExpressions:{exprs}}}")
}

/// Go's `%#v` of `core.Toleration`.
pub(super) fn go_toleration(t: &Toleration) -> String {
    let seconds = if t.toleration_seconds.is_some() {
        "(*int64)(0xc000a1c0c8)"
    } else {
        "(*int64)(nil)"
    };
    format!(
        "core.Toleration{{Key:{}, Operator:{}, Value:{}, Effect:{}, TolerationSeconds:{seconds}}}",
        go_quote(t.key.as_deref().unwrap_or("")),
        go_quote(t.operator.as_deref().unwrap_or("")),
        go_quote(t.value.as_deref().unwrap_or("")),
        go_quote(t.effect.as_deref().unwrap_or("")),
    )
}
