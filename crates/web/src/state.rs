//! The app state and its one reducer. Every user action becomes an [`Action`]; every change to the
//! cluster goes through `Session::execute` (so it is echoed in the terminal) or the virtual clock.

use crate::demo::{apply_command, DEMO_DAEMON_SET};
use crate::model::ClusterModel;
use crate::persist::{advance_entry, parse_advance_entry, Saved};
use chrono::{DateTime, Utc};
use dsplay_kubectl::{CommandOutput, Session, SessionOptions};
use dsplay_sim::explain::{NodeExplanation, RolloutDiagnosis};
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
    /// Show the Explain panel for a node (or close it).
    SelectNode(Option<String>),
    /// Show a message above the cluster (or hide it).
    Notice(Option<String>),
    /// A command from the host page (postMessage API); `id` is the request's id as JSON.
    Remote {
        /// The request id, JSON-encoded.
        id: String,
        /// The command line.
        command: String,
    },
}

/// The answer to an [`Action::Remote`].
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// Increases with every reply (so each one is posted once).
    pub seq: u64,
    /// The request id, JSON-encoded.
    pub id: String,
    /// Everything the command printed.
    pub output: String,
    /// Every command succeeded.
    pub success: bool,
}

/// One DaemonSet's verdict for the selected node.
#[derive(Clone, Debug, PartialEq)]
pub struct DsExplanation {
    /// `namespace/name`.
    pub daemon_set: String,
    /// The explanation, or the error text.
    pub result: Result<NodeExplanation, String>,
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
    /// The seed the session started with.
    pub seed: u64,
    /// The replayable log: every command and every clock advance, in order.
    pub log: Rc<Vec<String>>,
    /// The last log entry was written by the clock (so the next tick may be merged into it).
    last_is_tick: bool,
    /// A message for the user (corrupted storage or link, ...).
    pub notice: Option<Rc<str>>,
    /// The answer to the last postMessage command.
    pub reply: Option<Rc<Reply>>,
    /// The node whose Explain panel is open.
    pub selected: Option<String>,
    /// Per DaemonSet, the verdict for the selected node.
    pub explanations: Rc<Vec<DsExplanation>>,
    /// DaemonSets being updated or stuck, with the diagnosis.
    pub rollouts: Rc<Vec<(String, RolloutDiagnosis)>>,
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
        State::restore(&State::default_saved())
    }

    /// What [`State::new`] replays.
    pub fn default_saved() -> Saved {
        Saved {
            seed: 1,
            log: vec![apply_command(DEMO_DAEMON_SET)],
            playing: true,
        }
    }

    /// A new session with `saved.seed`, with every entry of `saved.log` replayed (determinism makes
    /// the result exact). Commands are echoed in the terminal; clock advances are not.
    pub fn restore(saved: &Saved) -> State {
        let session = Session::new(SessionOptions {
            seed: saved.seed,
            empty: false,
        });
        let now = session.cluster().now();
        let mut state = State {
            session: Rc::new(RefCell::new(session)),
            generation: 0,
            playing: saved.playing,
            speed: 1.0,
            now,
            started: now,
            terminal: Rc::new(Vec::new()),
            editor_error: None,
            model: Rc::default(),
            ds_table: Rc::from(""),
            show_system: true,
            seed: saved.seed,
            log: Rc::new(Vec::new()),
            last_is_tick: false,
            notice: None,
            reply: None,
            selected: None,
            explanations: Rc::default(),
            rollouts: Rc::default(),
            refreshed_at: (u64::MAX, i64::MIN),
        };
        for entry in &saved.log {
            match parse_advance_entry(entry) {
                Some(ms) => state.advance(Duration::from_millis(ms)),
                None => {
                    state.run(entry);
                }
            }
        }
        state.refresh();
        state
    }

    /// The manifest of the last `kubectl apply -f - <<EOF` in the log (what the editor showed).
    pub fn last_applied_yaml(&self) -> Option<String> {
        self.log.iter().rev().find_map(|entry| {
            let rest = entry.strip_prefix("kubectl apply -f - <<")?;
            let (terminator, body) = rest.split_once('\n')?;
            let body = body.strip_suffix(terminator)?;
            Some(format!("{}\n", body.trim_end_matches('\n')))
        })
    }

    /// The log to save or share.
    pub fn saved(&self) -> Saved {
        Saved {
            seed: self.seed,
            log: self.log.to_vec(),
            playing: self.playing,
        }
    }

    /// Runs `line` and returns the outputs' text and whether every command succeeded (the
    /// postMessage API); the command is logged and echoed like a typed one.
    pub fn run_for_reply(&mut self, line: &str) -> (String, bool) {
        let before = self.terminal.len();
        let success = self.run(line);
        let text = self.terminal[before.min(self.terminal.len())..]
            .iter()
            .map(CommandOutput::text)
            .collect();
        self.refresh();
        (text, success)
    }

    /// Runs `line` through the interpreter and echoes it in the terminal.
    fn run(&mut self, line: &str) -> bool {
        Rc::make_mut(&mut self.log).push(line.to_string());
        self.last_is_tick = false;
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
        let ms = d.as_millis() as u64;
        let log = Rc::make_mut(&mut self.log);
        match log.last().and_then(|e| parse_advance_entry(e)) {
            Some(previous) if self.last_is_tick => {
                *log.last_mut().expect("just seen") = advance_entry(previous + ms)
            }
            _ => log.push(advance_entry(ms)),
        }
        self.last_is_tick = true;
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
        let mut names: Vec<(String, String)> = cluster
            .store()
            .daemon_sets()
            .map(|d| {
                (
                    d.metadata.namespace.clone().unwrap_or_default(),
                    d.metadata.name.clone().unwrap_or_default(),
                )
            })
            .collect();
        names.sort();
        self.rollouts = Rc::new(
            names
                .iter()
                .filter_map(|(ns, name)| {
                    let d = dsplay_sim::explain::diagnose_rollout(cluster, ns, name).ok()?;
                    // An update in progress (pods of an older revision left) or anything stuck;
                    // not the first creation of pods.
                    let busy = d.updated < d.desired || !d.problems.is_empty();
                    busy.then(|| (format!("{ns}/{name}"), d))
                })
                .collect(),
        );
        self.explanations = Rc::new(match &self.selected {
            Some(node) => names
                .iter()
                .map(|(ns, name)| DsExplanation {
                    daemon_set: format!("{ns}/{name}"),
                    result: dsplay_sim::explain::explain(cluster, ns, name, Some(node))
                        .map_err(|e| e.to_string())
                        .and_then(|mut v| v.pop().ok_or_else(|| "no such node".to_string())),
                })
                .collect(),
            None => Vec::new(),
        });
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
                    selected: self.selected.clone(),
                    ..fresh
                };
                next.refreshed_at = (u64::MAX, i64::MIN);
            }
            Action::ToggleSystem => next.show_system = !next.show_system,
            Action::SelectNode(node) => {
                next.selected = node;
                next.refreshed_at = (u64::MAX, i64::MIN);
            }
            Action::Notice(text) => next.notice = text.map(Rc::from),
            Action::Remote { id, command } => {
                let (output, success) = next.run_for_reply(&command);
                let seq = self.reply.as_ref().map_or(0, |r| r.seq) + 1;
                next.reply = Some(Rc::new(Reply {
                    seq,
                    id,
                    output,
                    success,
                }));
            }
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
    fn replaying_the_log_restores_the_same_cluster() {
        let mut state = Rc::new(State::new());
        state = state.reduce(Action::Run("sim node add kind-worker3".into()));
        for _ in 0..30 {
            state = state.reduce(Action::Tick(100.0));
        }
        state = state.reduce(Action::Step);
        state = state.reduce(Action::Run("kubectl cordon kind-worker".into()));
        state = state.reduce(Action::Tick(250.0));
        let ticks = state
            .log
            .iter()
            .filter(|e| e.starts_with("sim advance"))
            .count();
        assert_eq!(
            ticks, 2,
            "consecutive clock advances are merged: {:?}",
            state.log
        );
        let restored = State::restore(&state.saved());
        assert_eq!(restored.now, state.now);
        let pods = |s: &State| -> Vec<(String, String, String)> {
            s.model
                .nodes
                .iter()
                .flat_map(|n| {
                    n.pods
                        .iter()
                        .map(|p| (n.name.clone(), p.name.clone(), p.phase.clone()))
                })
                .collect()
        };
        assert_eq!(pods(&restored), pods(&state));
        assert_eq!(restored.ds_table, state.ds_table);
    }

    #[test]
    fn explain_and_rollout_views_follow_the_cluster() {
        let state =
            Rc::new(State::new()).reduce(Action::SelectNode(Some("kind-control-plane".into())));
        let demo = state
            .explanations
            .iter()
            .find(|e| e.daemon_set == "default/demo")
            .expect("the demo DaemonSet is explained");
        let e = demo.result.as_ref().expect("explained");
        assert!(!e.placement.should_run);
        assert!(
            e.reasons.iter().any(|r| r
                .contains("taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated")),
            "{:?}",
            e.reasons
        );
        assert!(
            state.rollouts.is_empty(),
            "creating the first pods is not a rollout"
        );
        let mut state = state
            .reduce(Action::Run("sim image busybox:new --ready never".into()))
            .reduce(Action::Run(
                "kubectl set image ds/demo demo=busybox:new".into(),
            ));
        for _ in 0..10 {
            state = state.reduce(Action::Step);
        }
        let (_, d) = state
            .rollouts
            .iter()
            .find(|(n, _)| n == "default/demo")
            .expect("the stuck rollout is listed");
        assert!(
            d.problems
                .iter()
                .any(|(p, _)| p.contains("new pods not ready")),
            "{:?}",
            d.problems
        );
    }

    #[test]
    fn the_editor_gets_back_the_last_applied_manifest() {
        let state = Rc::new(State::new());
        assert_eq!(state.last_applied_yaml().as_deref(), Some(DEMO_DAEMON_SET));
        let edited = DEMO_DAEMON_SET.replace("image: busybox", "image: busybox:1.36");
        let state = state.reduce(Action::Apply(edited.clone()));
        let restored = State::restore(&state.saved());
        assert_eq!(restored.last_applied_yaml(), Some(edited));
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
