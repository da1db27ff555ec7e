//! `-o yaml`: `sigs.k8s.io/yaml` (go-yaml v2) emission: key order, indentation, quoting and folding.

use serde_json::{Map, Value};
use std::cmp::Ordering;

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
    // go-yaml also notes flow indicators (`,` `[` `]` `{` `}` …); they only matter inside flow
    // collections, which this emitter never writes.
    let mut block_ind = false;
    if s.starts_with("---") || s.starts_with("...") {
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
                    block_ind = true;
                }
                '?' | ':' if followed_by_ws => block_ind = true,
                '-' if followed_by_ws => {
                    block_ind = true;
                }
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_ws => block_ind = true,
                '#' if preceded_by_ws => {
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
