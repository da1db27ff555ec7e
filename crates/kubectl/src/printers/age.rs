//! Ages as kubectl prints them: apimachinery's `duration.HumanDuration`, and the event-age form
//! of `describe` (`3m (x5 over 10m)`).

use chrono::{DateTime, Utc};

/// Formats a duration (in whole and fractional seconds, may be negative) as `HumanDuration`.
///
/// `< -1s` → `<invalid>`; `[-1s, 0)` → `0s`; then `Ns` below 2 minutes, `XmYs` below 10 minutes,
/// `Xm` below 3 hours, `XhYm` below 8 hours, `Xh` below 2 days, `XdYh` below 8 days, `Xd` below
/// 2 years, `XyYd` below 8 years, else `Xy`. Zero sub-units are dropped (`5m`, `3h`, `4d`, `2y`).
#[doc(alias = "HumanDuration")]
pub fn human_duration(d: chrono::Duration) -> String {
    // Go truncates toward zero: int(d.Seconds()).
    let secs = d.num_seconds();
    if secs < -1 {
        return "<invalid>".to_string();
    } else if secs < 0 {
        return "0s".to_string();
    } else if secs < 60 * 2 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        let s = secs % 60;
        if s == 0 {
            return format!("{minutes}m");
        }
        return format!("{minutes}m{s}s");
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        let m = minutes % 60;
        if m == 0 {
            return format!("{hours}h");
        }
        return format!("{hours}h{m}m");
    } else if hours < 48 {
        return format!("{hours}h");
    } else if hours < 24 * 8 {
        let h = hours % 24;
        if h == 0 {
            return format!("{}d", hours / 24);
        }
        return format!("{}d{}h", hours / 24, h);
    } else if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        if dy == 0 {
            return format!("{}y", hours / 24 / 365);
        }
        return format!("{}y{}d", hours / 24 / 365, dy);
    }
    format!("{}y", hours / 24 / 365)
}

/// `translateTimestampSince`: the age of `t` at `now`, or `<unknown>` when there is no timestamp.
#[doc(alias = "translateTimestampSince")]
pub fn age_since(t: Option<&DateTime<Utc>>, now: DateTime<Utc>) -> String {
    match t {
        Some(t) => human_duration(now.signed_duration_since(*t)),
        None => "<unknown>".to_string(),
    }
}

/// The AGE cell of `describe`'s Events table (`DescribeEvents`).
///
/// * `first`: eventTime, else firstTimestamp;
/// * a series or `count > 1`: `<age of last> (x<count> over <age of first>)`;
/// * otherwise the age of `first`.
pub fn event_age(
    first: Option<&DateTime<Utc>>,
    last: Option<&DateTime<Utc>>,
    count: i32,
    now: DateTime<Utc>,
) -> String {
    let first_since = age_since(first, now);
    if count > 1 {
        format!("{} (x{} over {})", age_since(last, now), count, first_since)
    } else {
        first_since
    }
}

/// The `Ns`/`Nm`… age of a restart, for `RESTARTS` cells: `N (Xm ago)`.
pub fn restarts_cell(
    restarts: i64,
    last_restart: Option<&DateTime<Utc>>,
    now: DateTime<Utc>,
) -> String {
    match last_restart {
        Some(t) if restarts != 0 => format!("{restarts} ({} ago)", age_since(Some(t), now)),
        _ => restarts.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    #[test]
    fn human_duration_boundaries() {
        let s = Duration::seconds;
        let ms = Duration::milliseconds;
        let cases: &[(Duration, &str)] = &[
            (s(-3), "<invalid>"),
            (s(-2), "<invalid>"),
            (ms(-1999), "0s"),
            (s(-1), "0s"),
            (ms(-500), "0s"),
            (s(0), "0s"),
            (ms(999), "0s"),
            (s(1), "1s"),
            (s(119), "119s"),
            (s(120), "2m"),
            (s(121), "2m1s"),
            (s(599), "9m59s"),
            (s(600), "10m"),
            (s(659), "10m"),
            (s(3 * 3600 - 1), "179m"),
            (s(3 * 3600), "3h"),
            (s(3 * 3600 + 60), "3h1m"),
            (s(8 * 3600 - 1), "7h59m"),
            (s(8 * 3600), "8h"),
            (s(48 * 3600 - 1), "47h"),
            (s(48 * 3600), "2d"),
            (s(49 * 3600), "2d1h"),
            (s(8 * 86400 - 1), "7d23h"),
            (s(8 * 86400), "8d"),
            (s(2 * 365 * 86400 - 1), "729d"),
            (s(2 * 365 * 86400), "2y"),
            (s(2 * 365 * 86400 + 86400), "2y1d"),
            (s(8 * 365 * 86400 - 1), "7y364d"),
            (s(8 * 365 * 86400), "8y"),
            (s(20 * 365 * 86400), "20y"),
        ];
        for (d, want) in cases {
            assert_eq!(human_duration(*d), *want, "{d:?}");
        }
    }

    #[test]
    fn event_ages() {
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 1, 0, 0).unwrap();
        let first = now - Duration::minutes(10);
        let last = now - Duration::minutes(3);
        assert_eq!(
            event_age(Some(&first), Some(&last), 5, now),
            "3m (x5 over 10m)"
        );
        assert_eq!(event_age(Some(&first), Some(&first), 1, now), "10m");
        assert_eq!(
            event_age(Some(&(now - Duration::minutes(42))), None, 0, now),
            "42m"
        );
        assert_eq!(event_age(None, None, 1, now), "<unknown>");
        assert_eq!(restarts_cell(0, Some(&last), now), "0");
        assert_eq!(restarts_cell(3, Some(&last), now), "3 (3m ago)");
        assert_eq!(restarts_cell(3, None, now), "3");
    }
}
