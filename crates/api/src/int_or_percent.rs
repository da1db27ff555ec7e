//! `intstr.IntOrString` scaling as the DaemonSet rolling update uses it (`GetScaledValueFromIntOrPercent`).

use crate::types::IntOrString;

/// Scales an int-or-percent against `total`; percentages round up when `round_up` (as the DS controller
/// asks). Returns an error text for a malformed percent string.
pub fn scaled_value(value: &IntOrString, total: i32, round_up: bool) -> Result<i32, String> {
    match value {
        IntOrString::Int(i) => Ok(*i),
        IntOrString::String(s) => {
            let percent = parse_percent(s).ok_or_else(|| {
                "invalid value for IntOrString: invalid type: string is not a percentage"
                    .to_string()
            })?;
            let scaled = i64::from(percent) * i64::from(total);
            let value = if round_up {
                (scaled + 99) / 100
            } else {
                scaled / 100
            };
            Ok(i32::try_from(value).unwrap_or(i32::MAX))
        }
    }
}

/// `"25%"` → 25; anything else → None.
pub fn parse_percent(s: &str) -> Option<i32> {
    let digits = s.strip_suffix('%')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// `1` or `25%`, as apimachinery's `IntOrString.String()` prints it.
pub fn format(value: &IntOrString) -> String {
    match value {
        IntOrString::Int(i) => i.to_string(),
        IntOrString::String(s) => s.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_up() {
        // Upstream: apimachinery/pkg/util/intstr/intstr.go GetScaledValueFromIntOrPercent, as
        // pkg/controller/daemon/util/daemonset_util.go UnavailableCount / SurgeCount round it.
        let cases = [
            ("50%", 3, 2),
            ("20%", 5, 1),
            ("20%", 6, 2),
            ("1%", 1, 1),
            ("0%", 10, 0),
            ("100%", 7, 7),
        ];
        for (pct, total, want) in cases {
            assert_eq!(
                scaled_value(&IntOrString::String(pct.into()), total, true).unwrap(),
                want,
                "{pct} of {total}"
            );
        }
        assert_eq!(scaled_value(&IntOrString::Int(3), 100, true).unwrap(), 3);
        assert!(scaled_value(&IntOrString::String("abc".into()), 3, true).is_err());
    }
}
