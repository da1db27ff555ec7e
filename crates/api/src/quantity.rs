//! Resource quantities (`100m`, `200Mi`, `1.5`, `2e3`) as exact milli-units.
//!
//! Hand-rolled: k8s-openapi keeps `Quantity` as a string and no maintained crate parses the apimachinery
//! grammar into exact integers. Milli-units in an `i128` are exact for every value the scheduler compares.

use crate::types::Quantity;

/// Parses a quantity into milli-units (`"100m"` → 100, `"1"` → 1000, `"1Ki"` → 1_024_000), rounding
/// sub-milli values up as `Quantity.MilliValue` does. Returns None for malformed text.
pub fn parse_milli(text: &str) -> Option<i128> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let (number, suffix) = split_number(text)?;
    let (mantissa, scale) = parse_decimal(number)?;
    // value = mantissa * 10^-scale * multiplier; we want value * 1000.
    let (num, den): (i128, i128) = match suffix {
        "" => (1000, 1),
        "n" => (1, 1_000_000),
        "u" => (1, 1000),
        "m" => (1, 1),
        "k" => (1_000_000, 1),
        "M" => (1_000_000_000, 1),
        "G" => (1_000_000_000_000, 1),
        "T" => (1_000_000_000_000_000, 1),
        "P" => (1_000_000_000_000_000_000, 1),
        "E" => (1_000_000_000_000_000_000_000, 1),
        "Ki" => (1024 * 1000, 1),
        "Mi" => (1024i128.pow(2) * 1000, 1),
        "Gi" => (1024i128.pow(3) * 1000, 1),
        "Ti" => (1024i128.pow(4) * 1000, 1),
        "Pi" => (1024i128.pow(5) * 1000, 1),
        "Ei" => (1024i128.pow(6) * 1000, 1),
        exp if exp.starts_with(['e', 'E']) => {
            let e: i32 = exp[1..].parse().ok()?;
            if !(-30..=30).contains(&e) {
                return None;
            }
            if e >= 0 {
                (1000 * 10i128.pow(e as u32), 1)
            } else {
                (1000, 10i128.pow((-e) as u32))
            }
        }
        _ => return None,
    };
    let den = den.checked_mul(10i128.checked_pow(scale)?)?;
    let product = mantissa.checked_mul(num)?;
    // Whole milli-units (most quantities: "100m", "8Gi", "110"): no 128-bit division.
    if den == 1 {
        return Some(product);
    }
    // Round up (away from zero for positives), like MilliValue; no `product + den - 1`, which
    // overflows for values near i128::MAX.
    let quotient = product / den;
    Some(if product > 0 && product % den != 0 {
        quotient + 1
    } else {
        quotient
    })
}

/// Parses a `Quantity`.
pub fn milli(q: &Quantity) -> Option<i128> {
    parse_milli(&q.0)
}

fn split_number(text: &str) -> Option<(&str, &str)> {
    let idx = text
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || *c == '.' || ((*c == '+' || *c == '-') && *i == 0)))
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    if idx == 0 {
        return None;
    }
    Some((&text[..idx], &text[idx..]))
}

fn parse_decimal(number: &str) -> Option<(i128, u32)> {
    let (negative, digits) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    };
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part
        .bytes()
        .chain(frac_part.bytes())
        .all(|b| b.is_ascii_digit())
        || frac_part.len() > 18
        || int_part.len() > 20
    {
        return None;
    }
    // The digits of both parts as one integer (at most 38 digits, so this cannot overflow).
    let mantissa = int_part
        .bytes()
        .chain(frac_part.bytes())
        .try_fold(0i128, |m, b| {
            m.checked_mul(10)?.checked_add(i128::from(b - b'0'))
        })?;
    Some((
        if negative { -mantissa } else { mantissa },
        frac_part.len() as u32,
    ))
}

/// Formats milli-cpu as kubectl shows requests (`100m`, `1`, `1500m`).
pub fn format_cpu_milli(milli: i128) -> String {
    if milli % 1000 == 0 {
        (milli / 1000).to_string()
    } else {
        format!("{milli}m")
    }
}

/// Formats a byte count (given in milli-units) in the largest exact binary suffix (`200Mi`, `8Gi`, `0`).
pub fn format_bytes_milli(milli: i128) -> String {
    let bytes = milli / 1000;
    if bytes == 0 {
        return "0".to_string();
    }
    for (suffix, factor) in [
        ("Ei", 1i128 << 60),
        ("Pi", 1 << 50),
        ("Ti", 1 << 40),
        ("Gi", 1 << 30),
        ("Mi", 1 << 20),
        ("Ki", 1 << 10),
    ] {
        if bytes % factor == 0 {
            return format!("{}{suffix}", bytes / factor);
        }
    }
    bytes.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_table() {
        let cases = [
            ("100m", Some(100)),
            ("1", Some(1000)),
            ("1.5", Some(1500)),
            ("2e3", Some(2_000_000)),
            ("200Mi", Some(200 * 1024 * 1024 * 1000)),
            ("8Gi", Some(8 * 1024i128.pow(3) * 1000)),
            ("1k", Some(1_000_000)),
            ("1n", Some(1)),
            ("0", Some(0)),
            ("", None),
            ("abc", None),
            ("1Xi", None),
            ("1..2", None),
            // Near i128::MAX after scaling: rounds up without overflowing.
            (
                "170141183460469231.731687303715884105",
                Some(170_141_183_460_469_231_732),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse_milli(text), want, "{text:?}");
        }
    }

    #[test]
    fn formats() {
        assert_eq!(format_cpu_milli(100), "100m");
        assert_eq!(format_cpu_milli(4000), "4");
        assert_eq!(format_bytes_milli(parse_milli("200Mi").unwrap()), "200Mi");
        assert_eq!(format_bytes_milli(0), "0");
    }
}
