//! The app state and its one reducer. Every user action becomes an [`Action`]; every change to the
//! cluster goes through `Session::execute` (so it is echoed in the terminal) or the virtual clock.

use crate::demo::{apply_command, DEMO_DAEMON_SET};
use crate::model::{rollout_pods, warning_marks, ClusterModel, RolloutPod};
use crate::persist::{advance_entry, parse_advance_entry, Saved};
use crate::timeline::{cut_log, Mark};
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
    /// Show the session as it was this many virtual milliseconds after it started (pauses the
    /// clock; the latest instant or later goes back to now).
    Rewind(i64),
    /// Leave the past: the latest state, exactly as it was.
    BackToNow,
    /// Fork at the instant shown: later log entries are dropped and the clock plays.
    ContinueHere,
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

/// A DaemonSet being rolled out (or stuck), as the Rollout panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutView {
    /// `namespace/name`.
    pub daemon_set: String,
    /// `sim rollout`'s diagnosis: budget, nodes, problems and fixes.
    pub diagnosis: RolloutDiagnosis,
    /// Its daemon pods by node, with old/new revision and the minReadySeconds countdown.
    pub pods: Vec<RolloutPod>,
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
    /// Where each log entry ended: virtual ms since `started`, one per entry of `log`.
    ends: Rc<Vec<i64>>,
    /// Every command of `log` on the timeline.
    pub marks: Rc<Vec<Mark>>,
    /// Every Warning event in the store on the timeline.
    pub warnings: Rc<Vec<Mark>>,
    /// The last log entry was written by the clock (so the next tick may be merged into it).
    last_is_tick: bool,
    /// While the timeline shows the past, the latest state (kept whole, so "Back to now" is
    /// exact and needs no replay); `None` when showing now.
    present: Option<Rc<State>>,
    /// A message for the user (corrupted storage or link, ...).
    pub notice: Option<Rc<str>>,
    /// The answer to the last postMessage command.
    pub reply: Option<Rc<Reply>>,
    /// The node whose Explain panel is open.
    pub selected: Option<String>,
    /// Per DaemonSet, the verdict for the selected node.
    pub explanations: Rc<Vec<DsExplanation>>,
    /// DaemonSets being updated or stuck, with the diagnosis.
    pub rollouts: Rc<Vec<RolloutView>>,
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
            ends: Rc::default(),
            marks: Rc::default(),
            warnings: Rc::default(),
            last_is_tick: false,
            present: None,
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

    /// The log to save or share: the latest one, also while the timeline shows the past (until
    /// the user forks, the later entries are still the session).
    pub fn saved(&self) -> Saved {
        let latest = self.latest();
        Saved {
            seed: latest.seed,
            log: latest.log.to_vec(),
            playing: self.playing,
        }
    }

    /// The state at the latest instant: this one, or the one kept while showing the past.
    pub fn latest(&self) -> &State {
        self.present.as_deref().unwrap_or(self)
    }

    /// The timeline shows the past (and the banner offers to continue from it or go back).
    pub fn viewing_past(&self) -> bool {
        self.present.is_some()
    }

    /// Virtual milliseconds since the session started.
    pub fn elapsed_ms(&self) -> i64 {
        (self.now - self.started).num_milliseconds()
    }

    /// The session as it was `at_ms` after it started: the log cut at that instant, replayed.
    /// `None` when that is now already (nothing to change).
    fn rewound(&self, at_ms: i64) -> Option<State> {
        let latest = self.latest();
        if at_ms >= latest.elapsed_ms() {
            return self.viewing_past().then(|| self.back_to_now());
        }
        if self.viewing_past() && at_ms == self.elapsed_ms() {
            return None;
        }
        let log = cut_log(&latest.log, &latest.ends, at_ms.max(0));
        let mut past = State::restore(&Saved {
            seed: latest.seed,
            log,
            playing: false,
        });
        past.keep_settings(self);
        past.present = Some(
            self.present
                .clone()
                .unwrap_or_else(|| Rc::new(self.clone())),
        );
        Some(past)
    }

    /// The latest state, paused, with the current view settings.
    fn back_to_now(&self) -> State {
        let mut now = self.latest().clone();
        now.keep_settings(self);
        now.playing = false;
        now
    }

    /// Carries what the user set about the view (not the cluster) over to `self`.
    fn keep_settings(&mut self, from: &State) {
        self.speed = from.speed;
        self.show_system = from.show_system;
        self.selected = from.selected.clone();
        self.notice = from.notice.clone();
        self.reply = from.reply.clone();
        self.refreshed_at = (u64::MAX, i64::MIN);
    }

    /// Virtual milliseconds since the session started, read from the session's clock.
    fn clock_ms(&self) -> i64 {
        (self.session.borrow().cluster().now() - self.started).num_milliseconds()
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
        let start = self.clock_ms();
        Rc::make_mut(&mut self.marks).push(Mark::new(start, line));
        self.last_is_tick = false;
        let outputs = self.session.borrow_mut().execute(line);
        let end = self.clock_ms();
        Rc::make_mut(&mut self.ends).push(end);
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
        let end = self.clock_ms();
        let log = Rc::make_mut(&mut self.log);
        let ends = Rc::make_mut(&mut self.ends);
        match log.last().and_then(|e| parse_advance_entry(e)) {
            Some(previous) if self.last_is_tick => {
                *log.last_mut().expect("just seen") = advance_entry(previous + ms);
                *ends.last_mut().expect("one end per entry") = end;
            }
            _ => {
                log.push(advance_entry(ms));
                ends.push(end);
            }
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
        let warnings = warning_marks(cluster.store(), self.started);
        if *self.warnings != warnings {
            self.warnings = Rc::new(warnings);
        }
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
                .filter(|(ns, name)| !rollout_settled(cluster, ns, name))
                .filter_map(|(ns, name)| {
                    let d = dsplay_sim::explain::diagnose_rollout(cluster, ns, name).ok()?;
                    let pods = rollout_pods(cluster, ns, name);
                    // An update in progress (pods of an older revision left), pods still
                    // counting minReadySeconds down, or anything stuck; not the first creation
                    // of pods without minReadySeconds.
                    let busy = d.updated < d.desired
                        || !d.problems.is_empty()
                        || pods.iter().any(|p| p.available_in.is_some());
                    busy.then(|| RolloutView {
                        daemon_set: format!("{ns}/{name}"),
                        diagnosis: d,
                        pods,
                    })
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

/// A DaemonSet whose status says its rollout is complete and healthy (every desired node has an
/// updated, available pod, nothing misscheduled, the spec observed) and without minReadySeconds
/// countdowns: the Rollout panel has nothing to show, so the per-node diagnosis is skipped (it is
/// the costliest part of a refresh with many nodes).
fn rollout_settled(cluster: &dsplay_sim::Cluster, namespace: &str, name: &str) -> bool {
    let Some(ds) = cluster.store().daemon_set(namespace, name) else {
        return true;
    };
    let min_ready = ds
        .spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let Some(status) = ds.status.as_ref() else {
        return false;
    };
    let desired = status.desired_number_scheduled;
    min_ready == 0
        && status.observed_generation == ds.metadata.generation
        && status.current_number_scheduled == desired
        && status.number_ready == desired
        && status.number_available.unwrap_or(0) == desired
        && status.updated_number_scheduled.unwrap_or(0) == desired
        && status.number_misscheduled == 0
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
        // Changing the cluster while the timeline shows the past forks there: the later entries
        // are dropped with the kept present.
        if matches!(
            action,
            Action::Run(_) | Action::Apply(_) | Action::Step | Action::Remote { .. }
        ) {
            next.present = None;
        }
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
            Action::TogglePlay => next.playing = next.present.take().is_some() || !next.playing,
            Action::SetSpeed(speed) => {
                next.speed = speed.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1])
            }
            Action::Reset => {
                next = State::new();
                next.keep_settings(&self);
                next.playing = self.playing;
                next.notice = None;
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
            Action::Rewind(at_ms) => match self.rewound(at_ms) {
                Some(state) => next = state,
                None => return self,
            },
            Action::BackToNow => match self.present {
                Some(_) => next = self.back_to_now(),
                None => return self,
            },
            Action::ContinueHere => {
                if next.present.take().is_none() {
                    return self;
                }
                next.playing = true;
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
        let view = state
            .rollouts
            .iter()
            .find(|r| r.daemon_set == "default/demo")
            .expect("the stuck rollout is listed");
        let d = &view.diagnosis;
        // Both old pods were unavailable, so both were replaced by new pods that never become Ready.
        assert!(
            view.pods.len() == 2 && view.pods.iter().all(|p| p.new && !p.ready),
            "{:?}",
            view.pods
        );
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

    /// Every pod's (node, name, revision hash), the cluster as the chips show it.
    fn chips(s: &State) -> Vec<(String, String, String)> {
        s.model
            .nodes
            .iter()
            .flat_map(|n| {
                n.pods
                    .iter()
                    .map(|p| (n.name.clone(), p.name.clone(), p.revision.clone()))
            })
            .collect()
    }

    /// The demo settled, then `kubectl set image` and its rollout; returns the state and the
    /// instant of the set image.
    fn rolled_out() -> (Rc<State>, i64) {
        let mut state = Rc::new(State::new());
        for _ in 0..40 {
            state = state.reduce(Action::Tick(250.0));
        }
        let set_at = state.elapsed_ms();
        state = state.reduce(Action::Run(
            "kubectl set image ds/demo demo=busybox:new".into(),
        ));
        for _ in 0..80 {
            state = state.reduce(Action::Tick(250.0));
        }
        (state, set_at)
    }

    #[test]
    fn rewinding_shows_the_cluster_as_it_was_and_back_to_now_is_exact() {
        let (now, set_at) = rolled_out();
        let past = now.clone().reduce(Action::Rewind(set_at - 1));
        assert!(past.viewing_past() && !past.playing);
        assert_eq!(past.elapsed_ms(), set_at - 1);
        assert!(!past.log.iter().any(|e| e.contains("set image")));
        let demo = |s: &State| -> Vec<String> {
            let mut revisions: Vec<String> = chips(s)
                .into_iter()
                .filter(|(_, name, _)| name.starts_with("demo-"))
                .map(|(_, _, revision)| revision)
                .collect();
            revisions.dedup();
            revisions
        };
        let (old, new) = (demo(&past), demo(&now));
        assert_eq!((old.len(), new.len()), (1, 1), "{old:?} {new:?}");
        assert_ne!(old, new, "the past runs the old revision");
        // The past equals a fresh replay of the log cut there.
        let replayed = State::restore(&Saved {
            seed: past.seed,
            log: past.log.to_vec(),
            playing: false,
        });
        assert_eq!(chips(&replayed), chips(&past));
        // Scrubbing again inside the past keeps the present; the save is still the whole log.
        let past = past.reduce(Action::Rewind(set_at + 1500));
        assert!(past.log.iter().any(|e| e.contains("set image")));
        assert_eq!(past.saved().log, now.log.to_vec());
        let back = past.reduce(Action::BackToNow);
        assert!(!back.viewing_past());
        assert_eq!(back.now, now.now);
        assert_eq!(back.log, now.log);
        assert_eq!(chips(&back), chips(&now));
        assert_eq!(back.ds_table, now.ds_table);
    }

    #[test]
    fn continuing_or_running_a_command_in_the_past_forks_there() {
        let (now, set_at) = rolled_out();
        let forked = now
            .clone()
            .reduce(Action::Rewind(set_at - 1))
            .reduce(Action::ContinueHere);
        assert!(!forked.viewing_past() && forked.playing);
        assert_eq!(forked.elapsed_ms(), set_at - 1);
        assert!(!forked.log.iter().any(|e| e.contains("set image")));
        assert!(!forked.saved().log.iter().any(|e| e.contains("set image")));
        let old = chips(&forked);
        let mut later = forked.reduce(Action::Tick(250.0));
        for _ in 0..20 {
            later = later.reduce(Action::Tick(250.0));
        }
        let revisions = |c: Vec<(String, String, String)>| -> Vec<String> {
            c.into_iter().map(|(_, _, r)| r).collect()
        };
        assert_eq!(
            revisions(chips(&later)),
            revisions(old),
            "no rollout after the fork"
        );

        let typed = now
            .reduce(Action::Rewind(set_at - 1))
            .reduce(Action::Run("kubectl get pods".into()));
        assert!(!typed.viewing_past());
        assert_eq!(
            typed.log.last().map(String::as_str),
            Some("kubectl get pods")
        );
        assert!(!typed.log.iter().any(|e| e.contains("set image")));
        assert_eq!(
            typed.marks.len(),
            typed
                .log
                .iter()
                .filter(|e| parse_advance_entry(e).is_none())
                .count()
        );
    }

    #[test]
    fn seeking_to_now_while_live_changes_nothing() {
        let state = Rc::new(State::new());
        let same = state
            .clone()
            .reduce(Action::Rewind(state.elapsed_ms() + 10));
        assert!(Rc::ptr_eq(&state, &same));
        let same = state.clone().reduce(Action::ContinueHere);
        assert!(Rc::ptr_eq(&state, &same));
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
