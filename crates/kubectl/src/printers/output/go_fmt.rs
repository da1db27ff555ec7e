//! Go's `fmt` verbs on unstructured values (what kubectl's printers hand to `fmt.Sprint`).

use serde_json::Value;

/// Go's `fmt.Sprint` of an unstructured value: `map[k:v]` with sorted keys, `[a b]`, `<nil>`.
pub fn go_sprint(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(go_sprint).collect::<Vec<_>>().join(" ")
        ),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let items: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k}:{}", go_sprint(&m[k])))
                .collect();
            format!("map[{}]", items.join(" "))
        }
    }
}

/// The Go type an unstructured value has (`string`, `int64`, `map[string]interface {}`…), as
/// `fmt` names it in `%!d(string=x)`.
pub fn go_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}
