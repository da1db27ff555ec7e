//! The session's timeline, as plain data: where each log entry sits in virtual time, the log cut
//! at an instant (what rewinding replays), and the stops the Timeline slider's arrow keys move
//! between.
//!
//! Positions are virtual milliseconds since the session started. `ends[i]` is where log entry `i`
//! ended (a command that moves the clock, like `kubectl rollout status`, ends later than it
//! started). **Architecture Invariant:** no Yew or DOM here, so it is unit-tested natively; the
//! replay itself is [`crate::state::State::restore`].

use crate::persist::{advance_entry, parse_advance_entry};

/// A point on the timeline: a command (clock advances are not marked) or a Warning event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Virtual milliseconds since the session started when the command ran.
    pub at_ms: i64,
    /// What happened: the command's first line (a here-document's body is left out), or the
    /// event.
    pub label: String,
}

impl Mark {
    /// The mark of `command` (or event text), at `at_ms`.
    pub fn new(at_ms: i64, command: &str) -> Mark {
        Mark {
            at_ms,
            label: command.lines().next().unwrap_or_default().to_string(),
        }
    }
}

/// The prefix of `log` that replays the session up to `at_ms`: every entry ending at or before
/// that instant (so a command run exactly then is included), then the clock advance straddling
/// it, cut to end exactly at it. A command that straddles the instant (one that moves the clock
/// itself) is left out, as it cannot be cut.
pub fn cut_log(log: &[String], ends: &[i64], at_ms: i64) -> Vec<String> {
    let kept = ends.partition_point(|&end| end <= at_ms).min(log.len());
    let mut cut = log[..kept].to_vec();
    let start = kept.checked_sub(1).map_or(0, |i| ends[i]);
    if let Some(next) = log.get(kept) {
        if parse_advance_entry(next).is_some() && at_ms > start {
            cut.push(advance_entry((at_ms - start) as u64));
        }
    }
    cut
}

/// Where the slider's arrow keys go from `from_ms`: the nearest command mark or whole second in
/// that direction, within `0..=latest_ms`.
pub fn neighbour_stop(marks: &[Mark], latest_ms: i64, from_ms: i64, forward: bool) -> i64 {
    let from = from_ms.clamp(0, latest_ms);
    if forward {
        let second = (from.div_euclid(1000) + 1) * 1000;
        let mark = marks.iter().map(|m| m.at_ms).find(|&at| at > from);
        second.min(mark.unwrap_or(i64::MAX)).min(latest_ms)
    } else {
        let second = (from - 1).div_euclid(1000) * 1000;
        let mark = marks.iter().rev().map(|m| m.at_ms).find(|&at| at < from);
        second.max(mark.unwrap_or(i64::MIN)).max(0)
    }
}

/// One mark drawn under the track: every command and Warning event of one instant together, so
/// marks at the same instant cannot hide each other (commands run without moving the clock all
/// share one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnMark {
    /// Virtual milliseconds since the session started.
    pub at_ms: i64,
    /// The commands' labels, then the warnings', one per line.
    pub label: String,
    /// A Warning event happened at this instant (drawn red).
    pub warning: bool,
}

/// The marks to draw: `commands` and `warnings` grouped by instant, in time order.
pub fn drawn_marks(commands: &[Mark], warnings: &[Mark]) -> Vec<DrawnMark> {
    let mut by_instant: std::collections::BTreeMap<i64, DrawnMark> = Default::default();
    let tagged = commands
        .iter()
        .map(|m| (m, false))
        .chain(warnings.iter().map(|m| (m, true)));
    for (mark, warning) in tagged {
        let drawn = by_instant.entry(mark.at_ms).or_insert_with(|| DrawnMark {
            at_ms: mark.at_ms,
            label: String::new(),
            warning: false,
        });
        if !drawn.label.is_empty() {
            drawn.label.push('\n');
        }
        drawn.label.push_str(&mark.label);
        drawn.warning |= warning;
    }
    by_instant.into_values().collect()
}

/// Time since the session started as the clock shows it: `T+m:ss.d`.
pub fn format_elapsed(ms: i64) -> String {
    let ms = ms.max(0);
    format!(
        "T+{}:{:02}.{}",
        ms / 60_000,
        ms / 1000 % 60,
        ms % 1000 / 100
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> (Vec<String>, Vec<i64>) {
        let log = [
            "kubectl apply -f - <<EOF\nkind: DaemonSet\nEOF",
            "sim advance 5000ms",
            "kubectl set image ds/demo demo=busybox:new",
            "kubectl rollout status ds/demo",
            "sim advance 2500ms",
        ];
        let ends = vec![0, 5000, 5000, 9000, 11_500];
        (log.iter().map(|s| s.to_string()).collect(), ends)
    }

    #[test]
    fn marks_of_one_instant_are_drawn_as_one_listing_them_all() {
        let commands = [
            Mark::new(0, "kubectl apply -f ds.yaml"),
            Mark::new(0, "kubectl get pods"),
            Mark::new(5000, "kubectl get ds"),
        ];
        let warnings = [Mark::new(5000, "BackOff: pod/x"), Mark::new(9000, "Failed")];
        assert_eq!(
            drawn_marks(&commands, &warnings),
            [
                DrawnMark {
                    at_ms: 0,
                    label: "kubectl apply -f ds.yaml\nkubectl get pods".into(),
                    warning: false,
                },
                DrawnMark {
                    at_ms: 5000,
                    label: "kubectl get ds\nBackOff: pod/x".into(),
                    warning: true,
                },
                DrawnMark {
                    at_ms: 9000,
                    label: "Failed".into(),
                    warning: true,
                },
            ]
        );
    }

    #[test]
    fn cutting_keeps_what_ended_before_and_cuts_the_straddling_advance() {
        let (log, ends) = log();
        assert_eq!(cut_log(&log, &ends, 0), log[..1]);
        assert_eq!(
            cut_log(&log, &ends, 1200),
            vec![log[0].clone(), "sim advance 1200ms".to_string()]
        );
        // A command run exactly at the instant is included.
        assert_eq!(cut_log(&log, &ends, 5000), log[..3]);
        // A command that moved the clock past the instant cannot be cut: it is left out.
        assert_eq!(cut_log(&log, &ends, 7000), log[..3]);
        assert_eq!(
            cut_log(&log, &ends, 10_000),
            [&log[..4], &["sim advance 1000ms".to_string()]].concat()
        );
        assert_eq!(cut_log(&log, &ends, 11_500), log);
        assert_eq!(cut_log(&log, &ends, 99_999), log);
    }

    #[test]
    fn cutting_tolerates_an_empty_log_and_a_short_end_list() {
        assert!(cut_log(&[], &[], 100).is_empty());
        let (log, ends) = log();
        assert_eq!(cut_log(&log, &ends[..2], 99_999), log[..2]);
    }

    #[test]
    fn arrow_keys_stop_at_every_command_and_every_second() {
        let marks = vec![Mark::new(0, "apply"), Mark::new(5300, "set image")];
        let latest = 7250;
        assert_eq!(neighbour_stop(&marks, latest, 4000, true), 5000);
        assert_eq!(neighbour_stop(&marks, latest, 5000, true), 5300);
        assert_eq!(neighbour_stop(&marks, latest, 5300, true), 6000);
        assert_eq!(neighbour_stop(&marks, latest, 7000, true), 7250);
        assert_eq!(neighbour_stop(&marks, latest, 7250, true), 7250);
        assert_eq!(neighbour_stop(&marks, latest, 7250, false), 7000);
        assert_eq!(neighbour_stop(&marks, latest, 6000, false), 5300);
        assert_eq!(neighbour_stop(&marks, latest, 5300, false), 5000);
        assert_eq!(neighbour_stop(&marks, latest, 400, false), 0);
        assert_eq!(neighbour_stop(&marks, latest, 0, false), 0);
    }

    #[test]
    fn marks_keep_the_first_line_and_elapsed_time_reads_like_the_clock() {
        assert_eq!(
            Mark::new(1, "kubectl apply -f - <<EOF\nkind: X\nEOF").label,
            "kubectl apply -f - <<EOF"
        );
        assert_eq!(format_elapsed(0), "T+0:00.0");
        assert_eq!(format_elapsed(83_456), "T+1:23.4");
        assert_eq!(format_elapsed(-5), "T+0:00.0");
    }
}
