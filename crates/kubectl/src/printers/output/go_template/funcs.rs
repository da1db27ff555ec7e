//! The builtin functions (`index`, `len`, `printf`…, kubectl's `base64decode`) and Go's `fmt`
//! formatting they use.
//!
//! Upstream: Go text/template funcs.go, fmt; kubectl's template printer funcs.

use super::exec::{truth, Val};
use super::*;
use crate::printers::output::go_fmt::{go_sprint, go_type_name};
use dsplay_api::validation::go_quote;
use std::borrow::Cow;

fn want(func: Func, args: &[Val], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(format!(
            "wrong number of args for {}: want {n} got {}",
            func.name(),
            args.len()
        ))
    }
}

/// Calls a builtin function; the error is Go's text after `error calling NAME: ` where Go adds it.
pub(super) fn call<'a>(func: Func, args: &[Val<'a>]) -> Result<Val<'a>, String> {
    let at_least_one = || {
        if args.is_empty() {
            Err(format!(
                "wrong number of args for {}: want at least 1 got 0",
                func.name()
            ))
        } else {
            Ok(())
        }
    };
    let calling = |e: String| format!("error calling {}: {e}", func.name());
    let owned = |v: Value| Some(Cow::Owned(v));
    match func {
        Func::Not => {
            want(func, args, 1)?;
            Ok(owned(Value::Bool(!truth(&args[0]))))
        }
        Func::And => {
            at_least_one()?;
            Ok(args
                .iter()
                .find(|a| !truth(a))
                .unwrap_or(&args[args.len() - 1])
                .clone())
        }
        Func::Or => {
            at_least_one()?;
            Ok(args
                .iter()
                .find(|a| truth(a))
                .unwrap_or(&args[args.len() - 1])
                .clone())
        }
        Func::Len => {
            want(func, args, 1)?;
            let n = match args[0].as_deref() {
                None | Some(Value::Null) => return Err(calling("len of nil pointer".into())),
                Some(Value::String(s)) => s.len(),
                Some(Value::Array(a)) => a.len(),
                Some(Value::Object(m)) => m.len(),
                Some(other) => return Err(calling(format!("len of type {}", go_type_name(other)))),
            };
            Ok(owned(Value::from(n)))
        }
        Func::Index => {
            at_least_one()?;
            let mut cur = args[0].clone();
            for key in &args[1..] {
                cur = index(cur, key).map_err(calling)?;
            }
            Ok(cur)
        }
        Func::Eq | Func::Ne => {
            if args.len() < 2 {
                return Err(calling("missing argument for comparison".into()));
            }
            let mut equal = false;
            for other in &args[1..] {
                equal |= compare(&args[0], other).map_err(calling)?;
            }
            Ok(owned(Value::Bool(equal == (func == Func::Eq))))
        }
        Func::Lt | Func::Le | Func::Gt | Func::Ge => {
            want(func, args, 2)?;
            let ord = order(&args[0], &args[1]).map_err(calling)?;
            let holds = match func {
                Func::Lt => ord.is_lt(),
                Func::Le => ord.is_le(),
                Func::Gt => ord.is_gt(),
                _ => ord.is_ge(),
            };
            Ok(owned(Value::Bool(holds)))
        }
        Func::Base64Decode => {
            want(func, args, 1)?;
            let text = match args[0].as_deref() {
                Some(Value::String(s)) => s.clone(),
                other => {
                    return Err(format!(
                        "wrong type for value; expected string; got {}",
                        other.map_or("<nil>", go_type_name)
                    ))
                }
            };
            let bytes = base64_decode(&text).map_err(|at| {
                calling(format!(
                    "base64 decode failed: illegal base64 data at input byte {at}"
                ))
            })?;
            Ok(owned(Value::String(
                String::from_utf8_lossy(&bytes).into_owned(),
            )))
        }
        Func::Print | Func::Println => {
            Ok(owned(Value::String(sprint(args, func == Func::Println))))
        }
        Func::Printf => {
            at_least_one()?;
            let format = match args[0].as_deref() {
                Some(Value::String(s)) => s.clone(),
                other => {
                    return Err(format!(
                        "wrong type for value; expected string; got {}",
                        other.map_or("<nil>", go_type_name)
                    ))
                }
            };
            Ok(owned(Value::String(sprintf(&format, &args[1..]))))
        }
    }
}

fn index<'a>(item: Val<'a>, key: &Val) -> Result<Val<'a>, String> {
    let Some(item) = item.filter(|v| !v.is_null()) else {
        return Err("index of untyped nil".to_string());
    };
    match (item, key.as_deref()) {
        (Cow::Borrowed(Value::Object(m)), Some(Value::String(k))) => {
            Ok(m.get(k).map(Cow::Borrowed))
        }
        (Cow::Owned(Value::Object(mut m)), Some(Value::String(k))) => {
            Ok(m.remove(k).map(Cow::Owned))
        }
        (item, Some(Value::Number(n))) if item.is_array() => {
            let len = item.as_array().map_or(0, Vec::len);
            let i = n
                .as_i64()
                .filter(|i| (0..len as i64).contains(i))
                .ok_or_else(|| format!("index out of range: {n}"))? as usize;
            Ok(match item {
                Cow::Borrowed(v) => v.get(i).map(Cow::Borrowed),
                Cow::Owned(mut v) => v.get_mut(i).map(|x| Cow::Owned(x.take())),
            })
        }
        (item, k) => Err(format!(
            "cannot index {} with {}",
            go_type_name(&item),
            k.map_or("<nil>", go_type_name)
        )),
    }
}

/// Go's `eq` on basic values (`lt`-style kinds must match).
fn compare(a: &Val, b: &Val) -> Result<bool, String> {
    match (a.as_deref(), b.as_deref()) {
        (None, _) | (_, None) | (Some(Value::Null), _) | (_, Some(Value::Null)) => {
            Err("invalid type for comparison".to_string())
        }
        (Some(Value::Array(_) | Value::Object(_)), _)
        | (_, Some(Value::Array(_) | Value::Object(_))) => Err("non-comparable type".to_string()),
        (Some(x), Some(y)) if go_type_name(x) != go_type_name(y) => {
            Err("incompatible types for comparison".to_string())
        }
        (Some(x), Some(y)) => Ok(x == y),
    }
}

/// Go's `lt` family on basic values: strings with strings, numbers of one Go type.
fn order(a: &Val, b: &Val) -> Result<std::cmp::Ordering, String> {
    let invalid = || "invalid type for comparison".to_string();
    match (a.as_deref(), b.as_deref()) {
        (Some(Value::String(x)), Some(Value::String(y))) => Ok(x.cmp(y)),
        (Some(x @ Value::Number(n)), Some(y @ Value::Number(m))) => {
            if go_type_name(x) != go_type_name(y) {
                return Err("incompatible types for comparison".to_string());
            }
            n.as_f64()
                .zip(m.as_f64())
                .and_then(|(n, m)| n.partial_cmp(&m))
                .ok_or_else(invalid)
        }
        (Some(Value::String(_) | Value::Number(_)), Some(Value::String(_) | Value::Number(_))) => {
            Err("incompatible types for comparison".to_string())
        }
        _ => Err(invalid()),
    }
}

/// Go's `base64.StdEncoding.DecodeString`; the error is the offset of the first bad byte.
pub(super) fn base64_decode(text: &str) -> Result<Vec<u8>, usize> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let (mut acc, mut n) = (0u32, 0usize);
    for (i, &c) in bytes.iter().enumerate() {
        if c == b'=' {
            // Padding completes a quantum of two or three characters and ends the input.
            if n < 2 {
                return Err(i);
            }
            let end = i + 4 - n;
            if let Some(bad) = (i..end).find(|&k| bytes.get(k) != Some(&b'=')) {
                // Input that ends early is refused at its end, a wrong character at the padding.
                return Err(if bad >= bytes.len() { bad } else { i });
            }
            if bytes.len() > end {
                return Err(end);
            }
            break;
        }
        acc = (acc << 6) | u32::from(value(c).ok_or(i)?);
        n += 1;
        if n == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            (acc, n) = (0, 0);
        }
    }
    // A last quantum without its padding is refused at its start.
    if n > 0 && !text.ends_with('=') {
        return Err(bytes.len() - n);
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => {}
    }
    Ok(out)
}

fn value_text(v: &Val) -> String {
    v.as_deref().map_or_else(|| "<nil>".to_string(), go_sprint)
}

/// Go's `fmt.Sprint` (spaces between operands when neither is a string) or `fmt.Sprintln`.
fn sprint(args: &[Val], ln: bool) -> String {
    let mut out = String::new();
    for (i, a) in args.iter().enumerate() {
        let is_str = |v: &Val| matches!(v.as_deref(), Some(Value::String(_)));
        if i > 0 && (ln || (!is_str(a) && !is_str(&args[i - 1]))) {
            out.push(' ');
        }
        out.push_str(&value_text(a));
    }
    if ln {
        out.push('\n');
    }
    out
}

/// Go's `fmt.Sprintf` for the verbs `%v %s %d %q %t %f %%`, with `-`/`0` flags, width and
/// precision; a wrong type prints `%!d(string=x)`, a missing operand `%!d(MISSING)`, extra
/// operands `%!(EXTRA type=value)`.
fn sprintf(format: &str, args: &[Val]) -> String {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let (mut left, mut zero) = (false, false);
        while let Some(&f) = chars.peek() {
            match f {
                '-' => left = true,
                '0' => zero = true,
                '+' | ' ' | '#' => {}
                _ => break,
            }
            chars.next();
        }
        let mut width = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(*d);
            chars.next();
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                p.push(*d);
                chars.next();
            }
            precision = Some(p.parse().unwrap_or(0).min(MAX_WIDTH));
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        let Some(arg) = args.get(next) else {
            out.push_str(&format!("%!{verb}(MISSING)"));
            continue;
        };
        next += 1;
        let text = match (verb, arg.as_deref()) {
            ('v', _) => Some(value_text(arg)),
            ('s', Some(Value::String(s))) => Some(s.clone()),
            ('s', Some(v @ (Value::Array(_) | Value::Object(_)))) => Some(go_sprint(v)),
            ('q', Some(Value::String(s))) => Some(go_quote(s)),
            ('t', Some(Value::Bool(b))) => Some(b.to_string()),
            ('d', Some(Value::Number(n))) if !n.is_f64() => Some(n.to_string()),
            ('f', Some(Value::Number(n))) => n
                .as_f64()
                .map(|f| format!("{f:.prec$}", prec = precision.unwrap_or(6))),
            _ => None,
        };
        let text = match text {
            Some(t) => t,
            None => {
                out.push_str(&format!("%!{verb}({})", typed(arg)));
                continue;
            }
        };
        let width: usize = width.parse().unwrap_or(0).min(MAX_WIDTH);
        let pad = width.saturating_sub(text.chars().count());
        if left {
            out.push_str(&text);
            out.push_str(&" ".repeat(pad));
        } else {
            out.push_str(&(if zero { "0" } else { " " }).repeat(pad));
            out.push_str(&text);
        }
    }
    if next < args.len() {
        let extra: Vec<String> = args[next..].iter().map(typed).collect();
        out.push_str(&format!("%!(EXTRA {})", extra.join(", ")));
    }
    out
}

/// The widest `printf` padding honoured (a hostile `%999999999d` would allocate gigabytes).
pub(super) const MAX_WIDTH: usize = 4096;

/// `type=value`, as Go's `fmt` shows a bad or extra operand.
fn typed(v: &Val) -> String {
    match v.as_deref() {
        None | Some(Value::Null) => "<nil>".to_string(),
        Some(v) => format!("{}={}", go_type_name(v), go_sprint(v)),
    }
}
