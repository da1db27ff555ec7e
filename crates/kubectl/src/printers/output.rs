//! `-o yaml`, `-o json`, `-o name` and `-o jsonpath=…` as kubectl prints them.
//!
//! * YAML follows `sigs.k8s.io/yaml` (go-yaml v2): keys in go-yaml's natural order, two-space
//!   indentation, sequences not indented inside mappings, go-yaml's quoting rules and its folding of
//!   long scalars past column 80.
//! * JSON follows Go's `json.MarshalIndent(obj, "", "    ")` on unstructured objects: keys sorted,
//!   `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`….

use dsplay_api::Kind;
use serde_json::{Map, Value};
use std::cmp::Ordering;

// ---------------------------------------------------------------------------------------------
// -o name / List
// ---------------------------------------------------------------------------------------------

/// `-o name`: `daemonset.apps/demo`, `pod/demo-abcde`, `node/kind-worker` (with a newline).
pub fn name_line(kind: Kind, name: &str) -> String {
    format!("{}/{}\n", kind.qualified_singular(), name)
}

/// The `List` kubectl prints for `get` of a collection in `-o yaml|json`.
pub fn list_value(items: Vec<Value>) -> Value {
    serde_json::json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "List",
        "metadata": { "resourceVersion": "" },
    })
}

// ---------------------------------------------------------------------------------------------
// -o json
// ---------------------------------------------------------------------------------------------

/// `-o json`: 4-space indentation, sorted keys, Go escaping, trailing newline.
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0, true);
    out.push('\n');
    out
}

/// Compact JSON as Go's `json.Marshal` writes it (sorted keys, Go escaping), for jsonpath output.
pub fn to_json_compact(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0, false);
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

fn write_json(out: &mut String, value: &Value, level: usize, pretty: bool) {
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
                write_json(out, item, level + 1, pretty);
            }
            pad(out, level);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, level + 1);
                json_string(out, k);
                out.push(':');
                if pretty {
                    out.push(' ');
                }
                write_json(out, &map[*k], level + 1, pretty);
            }
            pad(out, level);
            out.push('}');
        }
    }
}

// ---------------------------------------------------------------------------------------------
// -o yaml
// ---------------------------------------------------------------------------------------------

/// go-yaml v2's map key order (`keyList.Less`): rune by rune, letters after non-letters, and runs of
/// digits compared as numbers (`item9` < `item10`).
pub fn yaml_key_cmp(a: &str, b: &str) -> Ordering {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i].cmp(&br[i]);
        }
        if al || bl {
            return if bl {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an.cmp(&bn);
        }
        if ai != bi {
            return ai.cmp(&bi);
        }
        return ar[i].cmp(&br[i]);
    }
    ar.len().cmp(&br.len())
}

/// `-o yaml` of one object (or a List), with a trailing newline.
pub fn to_yaml(value: &Value) -> String {
    let mut e = YamlEmitter { out: String::new() };
    match value {
        Value::Object(m) if !m.is_empty() => e.mapping(m, 0, false),
        Value::Array(a) if !a.is_empty() => e.sequence(a, 0, false),
        other => {
            e.scalar_or_empty(other, 0, false);
            e.out.push('\n');
        }
    }
    e.out
}

const BEST_WIDTH: usize = 80;

struct YamlEmitter {
    out: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

struct Analysis {
    block_plain: bool,
    single_allowed: bool,
    block_allowed: bool,
    multiline: bool,
}

fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || u == 0x85
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
        || (0x10000..=0x10FFFF).contains(&u)
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn analyze(s: &str) -> Analysis {
    let chars: Vec<char> = s.chars().collect();
    let mut flow_ind = false;
    let mut block_ind = false;
    if s.starts_with("---") || s.starts_with("...") {
        flow_ind = true;
        block_ind = true;
    }
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break, mut previous_space, mut previous_break) =
        (false, false, false, false);
    let mut line_breaks = false;
    let mut special = false;
    let mut preceded_by_ws = true;
    let n = chars.len();
    for i in 0..n {
        let c = chars[i];
        let followed_by_ws =
            i + 1 >= n || matches!(chars[i + 1], ' ' | '\t') || is_break(chars[i + 1]);
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => {
                    flow_ind = true;
                    block_ind = true;
                }
                '?' | ':' => {
                    flow_ind = true;
                    if followed_by_ws {
                        block_ind = true;
                    }
                }
                '-' if followed_by_ws => {
                    flow_ind = true;
                    block_ind = true;
                }
                _ => {}
            }
        } else {
            match c {
                ',' | '?' | '[' | ']' | '{' | '}' => flow_ind = true,
                ':' => {
                    flow_ind = true;
                    if followed_by_ws {
                        block_ind = true;
                    }
                }
                '#' if preceded_by_ws => {
                    flow_ind = true;
                    block_ind = true;
                }
                _ => {}
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == n {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == n {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_break = true;
            previous_space = false;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_ws = matches!(c, ' ' | '\t') || is_break(c);
    }
    let _ = flow_ind;
    let mut a = Analysis {
        block_plain: true,
        single_allowed: true,
        block_allowed: true,
        multiline: line_breaks,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain = false;
        a.single_allowed = false;
    }
    if space_break || special {
        a.block_plain = false;
        a.single_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.block_plain = false;
    }
    if block_ind {
        a.block_plain = false;
    }
    a
}

/// Whether go-yaml's resolver would read the plain scalar as something other than a string
/// (null, bool, int, float, timestamp) or as a base-60 float: such strings are double-quoted.
fn resolves_to_non_string(s: &str) -> bool {
    const SPECIAL: &[&str] = &[
        "", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
        "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
        ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF", "<<",
    ];
    if SPECIAL.contains(&s) {
        return true;
    }
    let first = s.as_bytes()[0];
    if first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'.' {
        let plain: String = s.chars().filter(|&c| c != '_').collect();
        if go_parse_int(&plain) || is_yaml_float(&plain) || is_binary_int(&plain) {
            return true;
        }
        if is_timestamp(s) || is_base60_float(s) {
            return true;
        }
    }
    false
}

fn go_parse_int(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty() {
        return false;
    }
    let lower = body.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(o) = lower.strip_prefix("0o") {
        (o.to_string(), 8)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower.clone(), 10)
    };
    !digits.is_empty()
        && u128::from_str_radix(&digits, radix).is_ok_and(|v| v <= u128::from(u64::MAX))
}

fn is_binary_int(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    body.strip_prefix("0b")
        .is_some_and(|b| !b.is_empty() && b.chars().all(|c| c == '0' || c == '1'))
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i >= b.len() || !b[i].is_ascii_digit() {
        return false;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let n = i - start;
        if n == 0 || (n == 2 && b[start] > b'5') {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml's timestamp formats: `2006-1-2T15:4:5.999999999Z07:00`, `2006-1-2t15:4:5…`,
/// `2006-1-2 15:4:5…`, `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    // Quick shape check, as go-yaml does: four digits then '-'.
    if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let (date, rest) = match s.find(['T', 't', ' ']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = date.split('-').collect();
    let num = |p: &str, max_len: usize| {
        !p.is_empty() && p.len() <= max_len && p.bytes().all(|c| c.is_ascii_digit())
    };
    if parts.len() != 3 || parts[0].len() != 4 || !num(parts[1], 2) || !num(parts[2], 2) {
        return false;
    }
    let (m, d): (u32, u32) = (parts[1].parse().unwrap_or(0), parts[2].parse().unwrap_or(0));
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return false;
    }
    let Some(rest) = rest else { return true };
    // time: h:m:s[.frac][Z|±hh:mm]
    let (time, zone) = match rest.find(['Z', '+', '-']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let (hms, frac) = match time.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (time, None),
    };
    let t: Vec<&str> = hms.split(':').collect();
    if t.len() != 3 || !num(t[0], 2) || !num(t[1], 2) || !num(t[2], 2) {
        return false;
    }
    if frac.is_some_and(|f| !num(f, 9)) {
        return false;
    }
    if zone.is_empty() || zone == "Z" {
        return true;
    }
    let z = &zone[1..];
    let zp: Vec<&str> = z.split(':').collect();
    zp.len() == 2 && num(zp[0], 2) && num(zp[1], 2)
}

impl YamlEmitter {
    fn column(&self) -> usize {
        match self.out.rfind('\n') {
            Some(i) => self.out[i + 1..].chars().count(),
            None => self.out.chars().count(),
        }
    }

    fn indent(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push(' ');
        }
    }

    fn newline_indent(&mut self, n: usize) {
        self.out.push('\n');
        self.indent(n);
    }

    fn mapping(&mut self, map: &Map<String, Value>, indent: usize, first_inline: bool) {
        let mut keys: Vec<&String> = map.keys().collect();
        keys.sort_by(|a, b| yaml_key_cmp(a, b));
        for (i, k) in keys.iter().enumerate() {
            if !(i == 0 && first_inline) {
                self.indent(indent);
            }
            self.string(k, indent + 2, true);
            self.out.push(':');
            let v = &map[*k];
            match v {
                Value::Object(m) if !m.is_empty() => {
                    self.out.push('\n');
                    self.mapping(m, indent + 2, false);
                }
                Value::Array(a) if !a.is_empty() => {
                    self.out.push('\n');
                    self.sequence(a, indent, false);
                }
                other => {
                    self.out.push(' ');
                    self.scalar_or_empty(other, indent + 2, false);
                    self.out.push('\n');
                }
            }
        }
    }

    fn sequence(&mut self, items: &[Value], indent: usize, first_inline: bool) {
        for (i, item) in items.iter().enumerate() {
            if !(i == 0 && first_inline) {
                self.indent(indent);
            }
            self.out.push('-');
            match item {
                Value::Object(m) if !m.is_empty() => {
                    self.out.push(' ');
                    self.mapping(m, indent + 2, true);
                }
                Value::Array(a) if !a.is_empty() => {
                    self.out.push(' ');
                    self.sequence(a, indent + 2, true);
                }
                other => {
                    self.out.push(' ');
                    self.scalar_or_empty(other, indent + 2, false);
                    self.out.push('\n');
                }
            }
        }
    }

    fn scalar_or_empty(&mut self, v: &Value, indent: usize, key: bool) {
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => self.out.push_str(&n.to_string()),
            Value::String(s) => self.string(s, indent, key),
            Value::Array(_) => self.out.push_str("[]"),
            Value::Object(_) => self.out.push_str("{}"),
        }
    }

    /// Writes a string scalar; `indent` is where folded continuation lines start.
    fn string(&mut self, s: &str, indent: usize, key: bool) {
        let a = analyze(s);
        let mut style = if s.contains('\n') {
            Style::Literal
        } else if resolves_to_non_string(s) {
            Style::Double
        } else {
            Style::Plain
        };
        if style == Style::Plain && (!a.block_plain || (s.is_empty() && key)) {
            style = Style::Single;
        }
        if style == Style::Single && !a.single_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!a.block_allowed || key) {
            style = Style::Double;
        }
        let _ = a.multiline;
        let allow_breaks = !key;
        match style {
            Style::Plain => self.write_plain(s, indent, allow_breaks),
            Style::Single => self.write_single(s, indent, allow_breaks),
            Style::Double => self.write_double(s, indent, allow_breaks),
            Style::Literal => self.write_literal(s, indent),
        }
    }

    fn write_plain(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        let mut column = self.column();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks && !spaces && column > BEST_WIDTH && chars.get(i + 1) != Some(&' ')
                {
                    self.newline_indent(indent);
                    column = indent;
                } else {
                    self.out.push(c);
                    column += 1;
                }
                spaces = true;
            } else {
                self.out.push(c);
                column += 1;
                spaces = false;
            }
        }
    }

    fn write_single(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        self.out.push('\'');
        let mut column = self.column();
        let mut spaces = false;
        let n = chars.len();
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && column > BEST_WIDTH
                    && i != 0
                    && i + 1 != n
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.newline_indent(indent);
                    column = indent;
                } else {
                    self.out.push(c);
                    column += 1;
                }
                spaces = true;
            } else {
                if c == '\'' {
                    self.out.push('\'');
                    column += 1;
                }
                self.out.push(c);
                column += 1;
                spaces = false;
            }
        }
        self.out.push('\'');
    }

    fn write_double(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        self.out.push('"');
        let mut column = self.column();
        let mut spaces = false;
        let n = chars.len();
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                let esc = match c {
                    '\0' => "\\0".to_string(),
                    '\u{7}' => "\\a".to_string(),
                    '\u{8}' => "\\b".to_string(),
                    '\t' => "\\t".to_string(),
                    '\n' => "\\n".to_string(),
                    '\u{b}' => "\\v".to_string(),
                    '\u{c}' => "\\f".to_string(),
                    '\r' => "\\r".to_string(),
                    '\u{1b}' => "\\e".to_string(),
                    '"' => "\\\"".to_string(),
                    '\\' => "\\\\".to_string(),
                    '\u{85}' => "\\N".to_string(),
                    '\u{a0}' => "\\_".to_string(),
                    '\u{2028}' => "\\L".to_string(),
                    '\u{2029}' => "\\P".to_string(),
                    c if (c as u32) <= 0xFF => format!("\\x{:02X}", c as u32),
                    c if (c as u32) <= 0xFFFF => format!("\\u{:04X}", c as u32),
                    c => format!("\\U{:08X}", c as u32),
                };
                column += esc.len();
                self.out.push_str(&esc);
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && column > BEST_WIDTH && i != 0 && i + 1 != n {
                    self.newline_indent(indent);
                    column = indent;
                    if chars.get(i + 1) == Some(&' ') {
                        self.out.push('\\');
                        column += 1;
                    }
                } else {
                    self.out.push(c);
                    column += 1;
                }
                spaces = true;
            } else {
                self.out.push(c);
                column += 1;
                spaces = false;
            }
        }
        self.out.push('"');
    }

    fn write_literal(&mut self, s: &str, indent: usize) {
        self.out.push('|');
        let chars: Vec<char> = s.chars().collect();
        if chars.first().is_some_and(|&c| c == ' ' || is_break(c)) {
            self.out.push('2');
        }
        let n = chars.len();
        if n == 0 || !is_break(chars[n - 1]) {
            self.out.push('-');
        } else if n == 1 || is_break(chars[n - 2]) {
            self.out.push('+');
        }
        self.out.push('\n');
        let mut at_line_start = true;
        for &c in &chars {
            if is_break(c) {
                self.out.push('\n');
                at_line_start = true;
            } else {
                if at_line_start {
                    self.indent(indent);
                    at_line_start = false;
                }
                self.out.push(c);
            }
        }
        // The caller writes the final newline; drop ours if the text ended in a break.
        if self.out.ends_with('\n') {
            self.out.pop();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// -o jsonpath
// ---------------------------------------------------------------------------------------------

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
    let nodes = parse_template(template)
        .map_err(|e| JsonPathError(format!("error parsing jsonpath {template}, {e}")))?;
    let mut out = String::new();
    eval_nodes(&nodes, value, &mut out).map_err(|e| {
        JsonPathError(format!(
            "error executing jsonpath {}: Error executing template: {e}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{template}\n\tobject given to jsonpath engine was:\n\t\t{}\n\n\n",
            go_quote(template),
            go_sharp_v(value)
        ))
    })?;
    Ok(out)
}

/// Go's `%q` of a string (`strconv.Quote`).
pub fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
            return Err("unclosed action".to_string());
        }
        let inner: String = chars[i + 1..j].iter().collect();
        let inner = inner.trim();
        i = j + 1;
        if let Some(rest) = inner.strip_prefix("range ") {
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
                        None if c == '[' => depth += 1,
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
                    return Err("unterminated array".to_string());
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

fn eval_nodes(nodes: &[Node], root: &Value, out: &mut String) -> Result<(), String> {
    for node in nodes {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Path(steps) => {
                let results = eval_steps(steps, root)?;
                let texts: Vec<String> = results.iter().map(|v| print_value(v)).collect();
                out.push_str(&texts.join(" "));
            }
            Node::Range(steps, body) => {
                for item in eval_steps(steps, root)? {
                    eval_nodes(body, item, out)?;
                }
            }
        }
    }
    Ok(())
}
