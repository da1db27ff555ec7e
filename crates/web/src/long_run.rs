//! Long commands in the browser — `sim advance`, `sim settle`, and `sim node add` of many
//! nodes — run in slices of at most [`SLICE_BUDGET_MS`] of wall-clock time (or
//! [`MAX_STEPS_PER_SLICE`] steps), yielding to the event loop between slices, so the page keeps
//! answering and can show progress (and cancel a clock advance).
//!
//! A slice steps the cluster one timer instant at a time (the way kubectl's waiting commands
//! spend time), an instant with many timers in parts (`Cluster::step_part`), or adds one node at
//! a time as the interpreter does
//! (`dsplay_kubectl::NodeAdd`), so a run cut into slices ends exactly where the same command run
//! at once would. Plain Rust: the caller passes the wall clock in.

use dsplay_kubectl::tokenizer::ScriptCommand;
use dsplay_kubectl::NodeAdd;
use dsplay_sim::Cluster;

/// Wall-clock milliseconds one slice may take before it yields.
pub const SLICE_BUDGET_MS: f64 = 50.0;

/// Timer instants one slice may run, whatever the wall clock says (natively there is none).
pub const MAX_STEPS_PER_SLICE: usize = 500;

/// Timers one part of a step fires before the slice's budget is asked again.
pub const TIMERS_PER_PART: usize = 200;

/// Nodes one slice of a `sim node add` may add, whatever the wall clock says.
pub const MAX_NODES_PER_SLICE: usize = 100;

/// The longest span sliced: the interpreter's own cap; a longer one goes to the interpreter as it
/// is, which refuses it.
pub const MAX_SLICED: std::time::Duration = dsplay_sim::cluster::MAX_ADVANCE;

/// Where a long command stops.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// `sim advance`: the clock reaches this instant (virtual ms since the epoch).
    Advance {
        /// The instant.
        until_ms: i64,
    },
    /// `sim settle`: no timer is pending up to this instant.
    Settle {
        /// The `--max` limit as an instant.
        limit_ms: i64,
    },
    /// `sim node add` of many nodes: every node is added (or adding one failed, with the error
    /// the command prints).
    AddNodes {
        /// The nodes and how many are added.
        add: NodeAdd,
        /// Why adding the next node failed.
        error: Option<String>,
    },
}

/// The goal of `command` if it is a `sim advance D` / `sim settle [--max D]` / `sim node add`
/// whose controllers react more than once ([`NodeAdd::batches`]: a slice can end between two
/// reactions, each of which may place thousands of pending pods) that may be sliced; `None` for
/// anything else, including
/// invalid flags or over-the-limit durations (those go through the interpreter, which reports
/// them).
pub fn goal_of(command: &ScriptCommand, now_ms: i64) -> Option<Goal> {
    let words: Vec<&str> = command.args.iter().map(String::as_str).collect();
    let within_limit = |text: &str| {
        dsplay_kubectl::parse_duration(text)
            .filter(|d| *d <= MAX_SLICED)
            .map(|d| now_ms.saturating_add(d.as_millis() as i64))
    };
    match words.as_slice() {
        ["sim", "advance", d] => within_limit(d).map(|until_ms| Goal::Advance { until_ms }),
        ["sim", "settle"] => Some(Goal::Settle {
            limit_ms: now_ms
                .saturating_add(dsplay_sim::cluster::DEFAULT_SETTLE_MAX.as_millis() as i64),
        }),
        ["sim", "settle", "--max", d] => within_limit(d).map(|limit_ms| Goal::Settle { limit_ms }),
        ["sim", "settle", flag] => {
            within_limit(flag.strip_prefix("--max=")?).map(|limit_ms| Goal::Settle { limit_ms })
        }
        ["sim", "node", "add", ..] => NodeAdd::parse(&command.args[3..])
            .ok()
            .filter(|add| add.batches() > 1)
            .map(|add| Goal::AddNodes { add, error: None }),
        _ => None,
    }
}

/// Runs one slice towards `goal`; `over_budget` is asked after every timer instant (or node).
/// Returns whether the goal is reached.
pub fn run_slice(
    cluster: &mut Cluster,
    goal: &mut Goal,
    mut over_budget: impl FnMut() -> bool,
) -> bool {
    match goal {
        Goal::Advance { until_ms } => {
            if !steps_due_by(cluster, *until_ms, &mut over_budget) {
                return false;
            }
            // No timer left by then: the clock moves there (as `sim advance` ends).
            cluster.advance_until(*until_ms, |_| false);
            true
        }
        Goal::Settle { limit_ms } => steps_due_by(cluster, *limit_ms, &mut over_budget),
        Goal::AddNodes { add, error } => {
            let stop_at = add.added() + MAX_NODES_PER_SLICE;
            while !add.is_done() {
                if add.added() == stop_at || over_budget() {
                    return false;
                }
                if let Err(e) = add.add_next(cluster) {
                    *error = Some(NodeAdd::error_text(&e));
                    return true;
                }
            }
            true
        }
    }
}

/// Steps the cluster while a timer is due by `limit_ms` (or a step in parts is not complete),
/// at most [`MAX_STEPS_PER_SLICE`] steps, asking `over_budget` before each step and between its
/// parts. Returns whether no step is due any more (false: stopped before that).
fn steps_due_by(
    cluster: &mut Cluster,
    limit_ms: i64,
    over_budget: &mut impl FnMut() -> bool,
) -> bool {
    let mut steps = 0;
    while cluster.step_due_by(limit_ms) {
        steps += 1;
        if steps > MAX_STEPS_PER_SLICE || over_budget() || !step_in_parts(cluster, over_budget) {
            return false;
        }
    }
    true
}

/// Runs (the rest of) one step, [`TIMERS_PER_PART`] timers (or one loop of the reconcile after
/// them) at a time, asking `over_budget` between parts: thousands of pods due at one instant do
/// not block the page. Returns whether the step is complete.
fn step_in_parts(cluster: &mut Cluster, over_budget: &mut impl FnMut() -> bool) -> bool {
    while !cluster.step_part(TIMERS_PER_PART) {
        if over_budget() {
            return false;
        }
    }
    true
}

/// How far a run from `started_ms` towards `goal` has got at `now_ms`, from 0 to 1 (a settle is
/// measured against its limit, which it usually does not need; a node add by its nodes).
pub fn progress(goal: &Goal, started_ms: i64, now_ms: i64) -> f64 {
    let end = match goal {
        Goal::Advance { until_ms } => *until_ms,
        Goal::Settle { limit_ms } => *limit_ms,
        Goal::AddNodes { add, .. } => return add.added() as f64 / add.count().max(1) as f64,
    };
    if end <= started_ms {
        return 1.0;
    }
    ((now_ms - started_ms) as f64 / (end - started_ms) as f64).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_kubectl::tokenizer::split_script;
    use dsplay_kubectl::{Session, SessionOptions};

    fn command(line: &str) -> ScriptCommand {
        split_script(line).remove(0).expect("one command")
    }

    #[test]
    fn only_valid_advances_and_settles_are_sliced() {
        let goal = |line: &str| goal_of(&command(line), 1_000);
        assert_eq!(
            goal("sim advance 2s"),
            Some(Goal::Advance { until_ms: 3_000 })
        );
        assert_eq!(
            goal("sim settle --max=5s"),
            Some(Goal::Settle { limit_ms: 6_000 })
        );
        assert_eq!(
            goal("sim settle --max 5s"),
            Some(Goal::Settle { limit_ms: 6_000 })
        );
        assert!(matches!(goal("sim settle"), Some(Goal::Settle { .. })));
        for other in [
            "sim advance",
            "sim advance nope",
            "sim advance 1000h",
            "sim advance 1s 2s",
            "sim settle --max",
            "kubectl get nodes",
        ] {
            assert_eq!(goal(other), None, "{other}");
        }
    }

    #[test]
    fn node_adds_of_more_than_one_batch_are_sliced() {
        let goal = |line: &str| goal_of(&command(line), 1_000);
        assert!(matches!(
            goal("sim node add --count 9 --prefix n-"),
            Some(Goal::AddNodes { ref add, error: None }) if add.count() == 9
        ));
        for other in [
            "sim node add --count 8 --prefix n-",
            "sim node add kind-worker3",
            "sim node add --count nope",
        ] {
            assert_eq!(goal(other), None, "{other}");
        }
    }

    /// A crash-looping DaemonSet on the default cluster.
    fn crash_looping() -> Session {
        let mut session = Session::new(SessionOptions::default());
        session.execute("sim image busybox:crash --crash");
        session.execute(&crate::demo::apply_command(
            &crate::demo::DEMO_DAEMON_SET.replace("image: busybox", "image: busybox:crash"),
        ));
        session
    }

    #[test]
    fn a_sliced_run_ends_where_the_command_does() {
        for line in ["sim advance 3h", "sim settle --max=2h"] {
            let mut whole = crash_looping();
            whole.execute(line);
            let mut sliced = crash_looping();
            let now = sliced.cluster().now_ms();
            let mut goal = goal_of(&command(line), now).expect("sliceable");
            let mut slices = 0;
            // Three timer instants per slice: many slices.
            let mut calls = 0;
            while !run_slice(sliced.cluster_mut(), &mut goal, || {
                calls += 1;
                calls % 3 == 0
            }) {
                slices += 1;
                let p = progress(&goal, now, sliced.cluster().now_ms());
                assert!((0.0..=1.0).contains(&p));
            }
            assert!(slices > 10, "{line}: {slices} slices");
            assert_eq!(sliced.cluster().now(), whole.cluster().now(), "{line}");
            let pods = |s: &mut Session| -> String {
                s.execute("kubectl get pods -A -o wide")
                    .iter()
                    .map(dsplay_kubectl::CommandOutput::text)
                    .collect()
            };
            assert_eq!(pods(&mut sliced), pods(&mut whole), "{line}");
        }
    }
}
