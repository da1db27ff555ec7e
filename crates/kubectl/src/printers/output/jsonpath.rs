//! `-o jsonpath=…`: kubectl's jsonpath templates (`k8s.io/client-go/util/jsonpath`): parsing,
//! evaluation and printing of the results.

use super::json::to_json_compact;
use dsplay_api::validation::go_quote;
use serde_json::Value;
use std::cmp::Ordering;

/// A jsonpath template error, rendered as kubectl does (without the `error: ` prefix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonPathError(pub String);

impl std::fmt::Display for JsonPathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Field(String),
    Recursive(String),
    Wildcard,
    Index(i64),
    Slice(Option<i64>, Option<i64>),
    Filter(Box<Filter>),
}

#[derive(Clone, Debug, PartialEq)]
enum Operand {
    Path(Vec<Step>),
    Str(String),
    Num(f64),
}

#[derive(Clone, Debug, PartialEq)]
struct Filter {
    left: Vec<Step>,
    op: Option<(String, Operand)>,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    Path(Vec<Step>),
    Range(Vec<Step>, Vec<Node>),
}

/// Evaluates a kubectl `-o jsonpath=TEMPLATE` on one value (an object, or a `List`).
///
/// Supported: `{.a.b}`, `{.items[*].metadata.name}`, `{.items[0]}`, `[1:3]`, `..name`, `.*`,
/// `['key.with.dots']`, `{range .items[*]}…{end}`, `{"\n"}` literals, filters
/// `[?(@.type=="Ready")]` (`==`, `!=`, `<`, `>`, `<=`, `>=`, existence). Missing keys print nothing
/// (kubectl's `--allow-missing-template-keys=true`). Several results of one expression are joined
/// with spaces; maps and lists print as compact JSON.
pub fn jsonpath(template: &str, value: &Value) -> Result<String, JsonPathError> {
    let groups = execute(template, value)?;
    Ok(groups
        .iter()
        .map(|group| group.iter().map(print_value).collect::<Vec<_>>().join(" "))
        .collect())
}

/// `-o jsonpath-as-json=TEMPLATE`: each of the template's result groups as an indented JSON array.
///
/// Upstream: staging/src/k8s.io/client-go/util/jsonpath/jsonpath.go `PrintResults` with
/// `EnableJSONOutput(true)`.
pub fn jsonpath_as_json(template: &str, value: &Value) -> Result<String, JsonPathError> {
    let groups = execute(template, value)?;
    Ok(groups
        .into_iter()
        .map(|group| super::to_json(&Value::Array(group)))
        .collect())
}

/// Parses and runs a template for kubectl's `-o jsonpath*` printers, with their error texts.
fn execute(template: &str, value: &Value) -> Result<Vec<Vec<Value>>, JsonPathError> {
    let parsed = Template::parse(template)
        .map_err(|e| JsonPathError(format!("error parsing jsonpath {template}, {e}")))?;
    parsed.find_results(value).map_err(|e| {
        JsonPathError(format!(
            "error executing jsonpath {}: Error executing template: {e}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{template}\n\tobject given to jsonpath engine was:\n\t\t{}\n\n\n",
            go_quote(template),
            go_sharp_v(value)
        ))
    })
}

/// A parsed jsonpath template (missing keys find nothing, as with `AllowMissingKeys(true)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Template(Vec<Node>);

impl Template {
    /// Parses a template; the error is the parser's own text.
    ///
    /// Upstream: staging/src/k8s.io/client-go/util/jsonpath/parser.go `Parse`.
    pub fn parse(template: &str) -> Result<Template, String> {
        parse_template(template).map(Template)
    }

    /// The values each of the template's nodes finds, one group per node (per node and range
    /// iteration inside `{range}`); text nodes find their text.
    ///
    /// Upstream: staging/src/k8s.io/client-go/util/jsonpath/jsonpath.go `FindResults`.
    pub fn find_results(&self, root: &Value) -> Result<Vec<Vec<Value>>, String> {
        let mut groups = Vec::new();
        find_in(&self.0, root, &mut groups)?;
        Ok(groups)
    }
}

fn find_in(nodes: &[Node], root: &Value, groups: &mut Vec<Vec<Value>>) -> Result<(), String> {
    for node in nodes {
        match node {
            Node::Text(t) => groups.push(vec![Value::String(t.clone())]),
            Node::Path(steps) => {
                groups.push(eval_steps(steps, root)?.into_iter().cloned().collect());
            }
            Node::Range(steps, body) => {
                for item in eval_steps(steps, root)? {
                    find_in(body, item, groups)?;
                }
            }
        }
    }
    Ok(())
}

/// The first value the template's first expression finds, printed as `-o jsonpath` prints it, or
/// `None` when it finds nothing: what kubectl's `--sort-by` compares (`values[0][0]`).
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go (SortObjects, TableSorter.Less).
pub fn jsonpath_first(template: &str, value: &Value) -> Result<Option<String>, JsonPathError> {
    let nodes = parse_template(template)
        .map_err(|e| JsonPathError(format!("error parsing jsonpath {template}, {e}")))?;
    let Some(steps) = nodes.iter().find_map(|n| match n {
        Node::Path(steps) => Some(steps),
        _ => None,
    }) else {
        return Ok(None);
    };
    let found = eval_steps(steps, value).map_err(JsonPathError)?;
    Ok(found.first().map(|v| print_value(v)))
}

/// Go's `%#v` of an unstructured value (`map[string]interface {}{"k":"v"}`), keys sorted.
fn go_sharp_v(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_quote(s),
        Value::Array(a) => format!(
            "[]interface {{}}{{{}}}",
            a.iter().map(go_sharp_v).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let items: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", go_quote(k), go_sharp_v(&m[*k])))
                .collect();
            format!("map[string]interface {{}}{{{}}}", items.join(", "))
        }
    }
}

/// The deepest `{range}` or `[…]` nesting a template may have. Upstream has no limit (Go's stack
/// grows); evaluation here recurses per level, so a hostile template (`{range .}` 100 000 times)
/// would overflow the stack, in the browser too. Real templates nest two or three levels.
const MAX_NESTING: usize = 100;

/// The parse error for a template nested deeper than [`MAX_NESTING`].
fn too_deep() -> String {
    format!("exceeded max depth of {MAX_NESTING}")
}

const UNTERMINATED_ARRAY: &str = "unterminated array";

fn parse_template(t: &str) -> Result<Vec<Node>, String> {
    let chars: Vec<char> = t.chars().collect();
    let mut i = 0;
    let mut stack: Vec<(Vec<Step>, Vec<Node>)> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut text = String::new();
    while i < chars.len() {
        let c = chars[i];
        if c != '{' {
            text.push(c);
            i += 1;
            continue;
        }
        if !text.is_empty() {
            nodes.push(Node::Text(std::mem::take(&mut text)));
        }
        // Find the matching '}' (quotes may contain braces).
        let mut j = i + 1;
        let mut quote: Option<char> = None;
        while j < chars.len() {
            match (quote, chars[j]) {
                (Some(q), ch) if ch == q => quote = None,
                (Some(_), '\\') => j += 1,
                (Some(_), _) => {}
                (None, '"') | (None, '\'') => quote = Some(chars[j]),
                (None, '}') => break,
                _ => {}
            }
            j += 1;
        }
        if j >= chars.len() {
            // Upstream's lexer reads the action before it misses the `}`: an open `[` is reported
            // first (parser.go parseArray).
            let rest: String = chars[i + 1..].iter().collect();
            return Err(match parse_path(rest.trim()) {
                Err(e) if e == UNTERMINATED_ARRAY => e,
                _ => "unclosed action".to_string(),
            });
        }
        let inner: String = chars[i + 1..j].iter().collect();
        let inner = inner.trim();
        i = j + 1;
        if let Some(rest) = inner.strip_prefix("range ") {
            if stack.len() >= MAX_NESTING {
                return Err(too_deep());
            }
            let path = parse_path(rest.trim())?;
            stack.push((path, std::mem::take(&mut nodes)));
        } else if inner == "end" {
            let Some((path, outer)) = stack.pop() else {
                return Err("not in range, nothing to end".to_string());
            };
            let body = std::mem::replace(&mut nodes, outer);
            nodes.push(Node::Range(path, body));
        } else if inner.starts_with('"') || inner.starts_with('\'') {
            nodes.push(Node::Text(parse_string_literal(inner)?));
        } else if inner.is_empty() {
            continue;
        } else {
            nodes.push(Node::Path(parse_path(inner)?));
        }
    }
    if !text.is_empty() {
        nodes.push(Node::Text(text));
    }
    if !stack.is_empty() {
        return Err("unclosed range".to_string());
    }
    Ok(nodes)
}

fn parse_string_literal(s: &str) -> Result<String, String> {
    let quote = s.chars().next().unwrap_or('"');
    let body = s
        .strip_prefix(quote)
        .and_then(|b| b.strip_suffix(quote))
        .ok_or_else(|| format!("unterminated string {s}"))?;
    let mut out = String::new();
    let mut it = body.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

fn parse_path(s: &str) -> Result<Vec<Step>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut steps = Vec::new();
    if chars.first() == Some(&'$') || chars.first() == Some(&'@') {
        i += 1;
    }
    while i < chars.len() {
        match chars[i] {
            '.' => {
                let recursive = chars.get(i + 1) == Some(&'.');
                i += if recursive { 2 } else { 1 };
                // A field name runs to the next unescaped `.` or `[`; `\.` is a literal dot (as in
                // `{.metadata.annotations.deprecated\.daemonset\.template\.generation}`).
                let mut name = String::new();
                while i < chars.len() && !matches!(chars[i], '.' | '[') {
                    if chars[i] == '\\' && chars.get(i + 1) == Some(&'.') {
                        i += 1;
                    }
                    name.push(chars[i]);
                    i += 1;
                }
                if name == "*" {
                    steps.push(Step::Wildcard);
                } else if recursive {
                    steps.push(Step::Recursive(name));
                } else if !name.is_empty() {
                    if name.contains([' ', '(', ')']) {
                        return Err(format!("unrecognized identifier {name}"));
                    }
                    steps.push(Step::Field(name));
                }
            }
            '[' => {
                let mut depth = 0;
                let start = i + 1;
                let mut j = i;
                let mut quote: Option<char> = None;
                while j < chars.len() {
                    let c = chars[j];
                    match quote {
                        Some(q) if c == q => quote = None,
                        Some(_) => {}
                        None if c == '"' || c == '\'' => quote = Some(c),
                        None if c == '[' => {
                            depth += 1;
                            if depth > MAX_NESTING {
                                return Err(too_deep());
                            }
                        }
                        None if c == ']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        None => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    return Err(UNTERMINATED_ARRAY.to_string());
                }
                let inner: String = chars[start..j].iter().collect();
                steps.push(parse_bracket(inner.trim())?);
                i = j + 1;
            }
            c if c.is_whitespace() => i += 1,
            c => {
                // A bare identifier at the start (`{metadata.name}`) is accepted like `.metadata`.
                if steps.is_empty() && i == 0 {
                    let start = i;
                    while i < chars.len() && !matches!(chars[i], '.' | '[') {
                        i += 1;
                    }
                    steps.push(Step::Field(chars[start..i].iter().collect()));
                } else {
                    return Err(format!(
                        "unrecognized character in action: U+{:04X} '{c}'",
                        c as u32
                    ));
                }
            }
        }
    }
    Ok(steps)
}

fn parse_bracket(inner: &str) -> Result<Step, String> {
    if inner == "*" {
        return Ok(Step::Wildcard);
    }
    if let Some(f) = inner.strip_prefix("?(").and_then(|f| f.strip_suffix(')')) {
        return Ok(Step::Filter(Box::new(parse_filter(f.trim())?)));
    }
    if (inner.starts_with('\'') && inner.ends_with('\'') && inner.len() >= 2)
        || (inner.starts_with('"') && inner.ends_with('"') && inner.len() >= 2)
    {
        return Ok(Step::Field(inner[1..inner.len() - 1].to_string()));
    }
    if let Some((a, b)) = inner.split_once(':') {
        let num = |x: &str| -> Result<Option<i64>, String> {
            let x = x.trim();
            if x.is_empty() {
                Ok(None)
            } else {
                x.parse()
                    .map(Some)
                    .map_err(|_| format!("invalid array index {inner}"))
            }
        };
        let b = b.split(':').next().unwrap_or("");
        return Ok(Step::Slice(num(a)?, num(b)?));
    }
    inner
        .parse::<i64>()
        .map(Step::Index)
        .map_err(|_| format!("invalid array index {inner}"))
}

fn parse_filter(f: &str) -> Result<Filter, String> {
    for op in ["==", "!=", "<=", ">=", "<", ">"] {
        if let Some((l, r)) = split_outside_quotes(f, op) {
            let left = parse_path(l.trim())?;
            let r = r.trim();
            let right = if r.starts_with('"') || r.starts_with('\'') {
                Operand::Str(parse_string_literal(r)?)
            } else if let Ok(n) = r.parse::<f64>() {
                Operand::Num(n)
            } else {
                Operand::Path(parse_path(r)?)
            };
            return Ok(Filter {
                left,
                op: Some((op.to_string(), right)),
            });
        }
    }
    Ok(Filter {
        left: parse_path(f)?,
        op: None,
    })
}

fn split_outside_quotes<'a>(s: &'a str, op: &str) -> Option<(&'a str, &'a str)> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if s[i..].starts_with(op) => return Some((&s[..i], &s[i + op.len()..])),
            None => {}
        }
    }
    None
}

fn eval_steps<'a>(steps: &[Step], root: &'a Value) -> Result<Vec<&'a Value>, String> {
    let mut cur: Vec<&Value> = vec![root];
    for step in steps {
        let mut next: Vec<&Value> = Vec::new();
        for v in cur {
            match step {
                Step::Field(name) => {
                    if let Value::Object(m) = v {
                        if let Some(x) = m.get(name) {
                            next.push(x);
                        }
                    }
                }
                Step::Recursive(name) => collect_recursive(v, name, &mut next),
                Step::Wildcard => match v {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(m) => {
                        let mut keys: Vec<&String> = m.keys().collect();
                        keys.sort();
                        next.extend(keys.into_iter().map(|k| &m[k]));
                    }
                    _ => {}
                },
                Step::Index(i) => {
                    if let Value::Array(a) = v {
                        let len = a.len() as i64;
                        let idx = if *i < 0 { len + i } else { *i };
                        if idx < 0 || idx >= len {
                            return Err(format!(
                                "array index out of bounds: index {i}, length {len}"
                            ));
                        }
                        next.push(&a[idx as usize]);
                    }
                }
                Step::Slice(a, b) => {
                    if let Value::Array(arr) = v {
                        let len = arr.len() as i64;
                        let norm = |x: i64| if x < 0 { (len + x).max(0) } else { x.min(len) };
                        let start = a.map_or(0, norm);
                        let end = b.map_or(len, norm);
                        if start < end {
                            next.extend(arr[start as usize..end as usize].iter());
                        }
                    }
                }
                Step::Filter(f) => {
                    if let Value::Array(arr) = v {
                        for item in arr {
                            if filter_matches(f, item)? {
                                next.push(item);
                            }
                        }
                    }
                }
            }
        }
        cur = next;
    }
    Ok(cur)
}

fn collect_recursive<'a>(v: &'a Value, name: &str, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            if let Some(x) = m.get(name) {
                out.push(x);
            }
            for k in keys {
                collect_recursive(&m[k], name, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_recursive(x, name, out)),
        _ => {}
    }
}

fn filter_matches(f: &Filter, item: &Value) -> Result<bool, String> {
    let left = eval_steps(&f.left, item)?;
    let Some((op, right)) = &f.op else {
        return Ok(!left.is_empty());
    };
    let Some(l) = left.first() else {
        return Ok(false);
    };
    let r: Value = match right {
        Operand::Str(s) => Value::String(s.clone()),
        Operand::Num(n) => serde_json::Number::from_f64(*n)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Operand::Path(p) => match eval_steps(p, item)?.first() {
            Some(v) => (*v).clone(),
            None => return Ok(false),
        },
    };
    let ord = match (l, &r) {
        (Value::Number(a), Value::Number(b)) => a.as_f64().partial_cmp(&b.as_f64()),
        (Value::String(a), Value::String(b)) => Some(a.cmp(b)),
        (a, b) if op == "==" || op == "!=" => Some(if *a == b {
            Ordering::Equal
        } else {
            Ordering::Less
        }),
        _ => None,
    };
    Ok(match (op.as_str(), ord) {
        ("==", Some(o)) => o == Ordering::Equal,
        ("!=", Some(o)) => o != Ordering::Equal,
        ("<", Some(o)) => o == Ordering::Less,
        (">", Some(o)) => o == Ordering::Greater,
        ("<=", Some(o)) => o != Ordering::Greater,
        (">=", Some(o)) => o != Ordering::Less,
        _ => false,
    })
}

fn print_value(v: &Value) -> String {
    match v {
        Value::Object(_) | Value::Array(_) => to_json_compact(v),
        Value::String(s) => s.clone(),
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
    }
}
