//! The app state and its one reducer. Every user action becomes an [`Action`]; every change to the
//! cluster goes through `Session::execute` (so it is echoed in the terminal) or the virtual clock.

use crate::demo::{apply_command, DEMO_DAEMON_SET};
use crate::model::ClusterModel;
use chrono::{DateTime, Utc};
use dsplay_kubectl::{CommandOutput, Session, SessionOptions};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use yew::Reducible;

/// How many terminal entries are kept.
const MAX_TERMINAL: usize = 200;

/// The speeds the time controls offer (virtual seconds per wall-clock second).
pub const SPEEDS: [f64; 6] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// Something the user (or the clock) did.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Run a command line typed in the terminal or built by a button.
    Run(String),
    /// Apply the editor's text.
    Apply(String),
    /// Wall-clock milliseconds passed while playing.
    Tick(f64),
    /// Advance to the next scheduled event (or one second if none is pending).
    Step,
    /// Play ↔ pause.
    TogglePlay,
    /// Set the speed multiplier.
    SetSpeed(f64),
    /// A new default cluster with the demo DaemonSet applied.
    Reset,
    /// Show or hide kube-system pods.
    ToggleSystem,
}

/// What the components render.
#[derive(Clone)]
pub struct State {
    session: Rc<RefCell<Session>>,
    /// Bumped on every change, so Yew re-renders.
    pub generation: u64,
    /// The clock runs.
    pub playing: bool,
    /// Virtual seconds per wall-clock second.
    pub speed: f64,
    /// Virtual time now.
    pub now: DateTime<Utc>,
    /// Virtual time the session started at (the clock shows time since then too).
    pub started: DateTime<Utc>,
    /// Commands and their output, oldest first.
    pub terminal: Rc<Vec<CommandOutput>>,
    /// The error of the last Apply, shown under the editor.
    pub editor_error: Option<Rc<str>>,
    /// Node cards, pods, events.
    pub model: Rc<ClusterModel>,
    /// The text of `kubectl get ds -A`.
    pub ds_table: Rc<str>,
    /// kube-system pods are drawn.
    pub show_system: bool,
    /// (store resourceVersion, whole virtual second) the views were last computed at.
    refreshed_at: (u64, i64),
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        self.generation == other.generation
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl State {
    /// The default cluster with the demo DaemonSet applied; the clock plays.
    pub fn new() -> State {
        let session = Session::new(SessionOptions {
            seed: 1,
            empty: false,
        });
        let now = session.cluster().now();
        let mut state = State {
            session: Rc::new(RefCell::new(session)),
            generation: 0,
            playing: true,
            speed: 1.0,
            now,
            started: now,
            terminal: Rc::new(Vec::new()),
            editor_error: None,
            model: Rc::default(),
            ds_table: Rc::from(""),
            show_system: true,
            refreshed_at: (u64::MAX, i64::MIN),
        };
        state.apply(DEMO_DAEMON_SET);
        state.refresh();
        state
    }

    /// Runs `line` through the interpreter and echoes it in the terminal.
    fn run(&mut self, line: &str) -> bool {
        let outputs = self.session.borrow_mut().execute(line);
        let success = outputs.iter().all(|o| o.success);
        let terminal = Rc::make_mut(&mut self.terminal);
        terminal.extend(outputs);
        if terminal.len() > MAX_TERMINAL {
            terminal.drain(..terminal.len() - MAX_TERMINAL);
        }
        success
    }

    fn apply(&mut self, yaml: &str) {
        let before = self.terminal.len();
        if self.run(&apply_command(yaml)) {
            self.editor_error = None;
        } else {
            let text: String = self.terminal[before.min(self.terminal.len())..]
                .iter()
                .filter(|o| !o.success)
                .map(CommandOutput::text)
                .collect();
            self.editor_error = Some(Rc::from(text.trim_end()));
        }
    }

    fn advance(&mut self, d: Duration) {
        self.session.borrow_mut().cluster_mut().advance(d);
    }

    /// Recomputes the views if the store or the virtual second changed.
    fn refresh(&mut self) {
        let session = self.session.borrow();
        let cluster = session.cluster();
        self.now = cluster.now();
        let key = (cluster.store().resource_version(), self.now.timestamp());
        if key == self.refreshed_at {
            return;
        }
        self.refreshed_at = key;
        self.model = Rc::new(ClusterModel::from_store(cluster.store(), self.now));
        self.ds_table = Rc::from(get_ds_all_namespaces(cluster.store(), self.now));
    }
}

/// The text `kubectl get ds -A` prints, from kubectl's own printer. Called directly rather than
/// through `Session::execute` so the read-only refresh stays out of the session's history and
/// needs no copy of the session.
pub fn get_ds_all_namespaces(store: &dsplay_sim::Store, now: DateTime<Utc>) -> String {
    use dsplay_kubectl::printers::{get::daemon_set_table, table::TableOptions};
    let mut items: Vec<_> = store.daemon_sets().collect();
    if items.is_empty() {
        return "No resources found\n".to_string();
    }
    items.sort_by(|a, b| {
        (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name))
    });
    daemon_set_table(&items, now).render(&TableOptions {
        with_namespace: true,
        ..TableOptions::default()
    })
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Run(line) => {
                if line.trim().is_empty() {
                    return self;
                }
                next.run(&line);
            }
            Action::Apply(yaml) => next.apply(&yaml),
            Action::Tick(ms) => {
                if !self.playing || ms <= 0.0 {
                    return self;
                }
                // Cap one frame's worth so a backgrounded tab does not jump minutes at once.
                let virtual_ms = (ms.min(250.0) * self.speed).round() as u64;
                next.advance(Duration::from_millis(virtual_ms));
            }
            Action::Step => {
                let (now, next_timer) = {
                    let session = next.session.borrow();
                    (session.cluster().now(), session.cluster().next_timer())
                };
                let d = next_timer
                    .and_then(|t| (t - now).to_std().ok())
                    .filter(|d| !d.is_zero())
                    .unwrap_or(Duration::from_secs(1));
                next.advance(d);
            }
            Action::TogglePlay => next.playing = !next.playing,
            Action::SetSpeed(speed) => {
                next.speed = speed.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1])
            }
            Action::Reset => {
                let fresh = State::new();
                next = State {
                    playing: self.playing,
                    speed: self.speed,
                    show_system: self.show_system,
                    ..fresh
                };
            }
            Action::ToggleSystem => next.show_system = !next.show_system,
        }
        next.refresh();
        next.generation = self.generation + 1;
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_and_speed_change_state_but_not_time() {
        let state = Rc::new(State::new());
        let start = state.now;
        let paused = state.reduce(Action::TogglePlay);
        assert!(!paused.playing);
        let ticked = paused.reduce(Action::Tick(100.0));
        assert_eq!(ticked.now, start, "a paused clock does not move");
        let fast = ticked.reduce(Action::SetSpeed(100.0));
        assert_eq!(fast.speed, 16.0, "speed is clamped to 16x");
    }

    #[test]
    fn ticks_advance_virtual_time_at_the_chosen_speed() {
        let state = Rc::new(State::new()).reduce(Action::SetSpeed(4.0));
        let start = state.now;
        let later = state.reduce(Action::Tick(100.0));
        assert_eq!((later.now - start).num_milliseconds(), 400);
    }

    #[test]
    fn the_status_table_is_what_kubectl_get_ds_all_namespaces_prints() {
        let state = State::new();
        let mut session = state.session.borrow().clone();
        let printed: String = session
            .execute("kubectl get ds -A")
            .iter()
            .map(CommandOutput::text)
            .collect();
        assert_eq!(&*state.ds_table, printed);
    }

    #[test]
    fn every_command_is_echoed_in_the_terminal() {
        let state = Rc::new(State::new());
        let before = state.terminal.len();
        let after = state.reduce(Action::Run("kubectl get nodes".into()));
        assert_eq!(after.terminal.len(), before + 1);
        assert_eq!(after.terminal.last().unwrap().command, "kubectl get nodes");
    }
}
