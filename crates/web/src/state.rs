//! The app state and its one reducer. Every user action becomes an [`Action`]; every change to the
//! cluster goes through `Session::execute` (so it is echoed in the terminal) or the virtual clock.

use crate::demo::{apply_command, DEMO_DAEMON_SET};
use crate::drift::{applied, Applied};
pub use crate::embed_request::{ReplyKind, Request};
use crate::export::{push_step, ReplayStep};
use crate::lesson_state::{ActiveLesson, LoadedLesson};
use crate::long_run::SLICE_BUDGET_MS;
use crate::model::node_views::NodeViews;
use crate::model::pod_details::PodDetails;
use crate::model::rollout::Rollouts;
use crate::model::traffic::Flight;
use crate::model::warnings::WarningMarks;
use crate::model::{ClusterModel, DsExplanation};
use crate::persist::{advance_entry, parse_advance_entry, Saved};
use crate::timeline::{cut_log, Mark};
use chrono::{DateTime, Utc};
use dsplay_kubectl::tokenizer::split_script;
use dsplay_kubectl::{CommandOutput, Session};
use dsplay_lesson::StepRecord;
pub use editor::Editing;
pub use running::{LongRun, Replay};
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
    /// Show the pod panel for `(namespace, name)` (or close it).
    SelectPod(Option<(String, String)>),
    /// Show a message above the cluster (or hide it).
    Notice(Option<String>),
    /// A command from the host page (postMessage API); `id` is the request's id as JSON.
    Remote {
        /// The request id, JSON-encoded.
        id: String,
        /// The command line.
        command: String,
        /// Which message answers it.
        kind: ReplyKind,
    },
    /// Another request of the host page (`dsplay:request`), always answered.
    Request {
        /// The request id, JSON-encoded.
        id: String,
        /// What it asks.
        request: Request,
    },
    /// Show the session as it was this many virtual milliseconds after it started (pauses the
    /// clock; the latest instant or later goes back to now).
    Rewind(i64),
    /// Replace the session with a saved one (the previous session a link set aside).
    LoadSaved(Saved),
    /// The editor now holds the live manifest of this DaemonSet (namespace, name): no drift.
    LoadedLive(String, String),
    /// Hide the offer to restore the previous session.
    DismissPrevious,
    /// Run the next slice of the long command.
    LongRunSlice,
    /// Stop the long command where it got to.
    CancelLongRun,
    /// Leave the past: the latest state, exactly as it was.
    BackToNow,
    /// Fork at the instant shown: later log entries are dropped and the clock plays.
    ContinueHere,
    /// Take a lesson on a fresh session, at `step`, with `earlier` records of a previous visit.
    StartLesson {
        /// The lesson.
        loaded: LoadedLesson,
        /// The step to begin at.
        step: usize,
        /// When each step was done on an earlier visit.
        earlier: Vec<Option<StepRecord>>,
        /// The free-play session was set aside, to offer restoring it.
        previous_kept: bool,
    },
    /// Show another step of the lesson (its history goals start over).
    LessonStep(usize),
    /// Run the current step's solution as if typed.
    RunSolution,
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
    /// Which message carries it.
    pub kind: ReplyKind,
    /// The result as JSON (`state()`'s data), if any.
    pub data: Option<Rc<str>>,
}

/// A postMessage request waiting for its line to finish.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingReply {
    /// The request id, JSON-encoded.
    pub id: String,
    /// The output so far.
    pub output: String,
    /// Every command so far succeeded.
    pub success: bool,
    /// Which message answers it.
    pub kind: ReplyKind,
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
    /// The DaemonSets the editor last applied, to spot a later change by a command (drift).
    editor_applied: Rc<Vec<Applied>>,
    /// The object `kubectl edit` opened in the editor, until an Apply saves it.
    pub editing: Option<Rc<Editing>>,
    /// Node cards, pods, events.
    pub model: Rc<ClusterModel>,
    /// The node views `model` was read from, shared by the states of one session (see
    /// `model::node_views`).
    node_views: Rc<RefCell<NodeViews>>,
    /// The text of `kubectl get ds -A`.
    pub ds_table: Rc<str>,
    /// `kubectl get deploy -A` / `get svc -A` (command, output) once the learner has their own.
    pub workload_tables: Rc<Vec<(String, String)>>,
    /// kube-system pods are drawn.
    pub show_system: bool,
    /// The seed the session started with.
    pub seed: u64,
    /// The replayable log: every command and every clock advance, in order.
    pub log: Rc<Vec<String>>,
    /// Where each log entry ended: virtual ms since `started`, one per entry of `log`.
    ends: Rc<Vec<i64>>,
    /// What the export's `replay.sh` repeats: the commands that succeeded and the waits.
    pub replay: Rc<Vec<ReplayStep>>,
    /// Every command of `log` on the timeline.
    pub marks: Rc<Vec<Mark>>,
    /// Every Warning event in the store on the timeline.
    pub warnings: Rc<Vec<Mark>>,
    /// The store's events version `warnings` was read at.
    warnings_read_at: Option<u64>,
    /// The marks `warnings` was read from, shared like `node_views`.
    warning_marks: Rc<RefCell<WarningMarks>>,
    /// When the slow views were read, and which are behind the store (`state::refresh`).
    slow_views: SlowViews,
    /// The last log entry was written by the clock (so the next tick may be merged into it).
    last_is_tick: bool,
    /// While the timeline shows the past, the latest state (kept whole, so "Back to now" is
    /// exact and needs no replay); `None` when showing now.
    present: Option<Rc<State>>,
    /// A link opened this session and set the previous one aside: offer to restore it.
    pub previous_session: bool,
    /// A message for the user (corrupted storage or link, ...).
    pub notice: Option<Rc<str>>,
    /// A long `sim advance`/`sim settle` running in slices.
    pub long_run: Option<Rc<LongRun>>,
    /// A large restored session's log being replayed in slices.
    pub replaying: Option<Rc<Replay>>,
    /// The answer to the last postMessage command.
    pub reply: Option<Rc<Reply>>,
    /// The node whose Explain panel is open.
    pub selected: Option<String>,
    /// Per DaemonSet, the verdict for the selected node.
    pub explanations: Rc<Vec<DsExplanation>>,
    /// The pod whose panel is open (describe and logs), read again on every refresh.
    pub pod_panel: Option<Rc<PodDetails>>,
    /// DaemonSets being updated or stuck, with the diagnosis.
    pub rollouts: Rc<Rollouts>,
    /// (store resourceVersion, whole virtual second) the views were last computed at.
    refreshed_at: (u64, i64),
    /// The lesson being taken, if any.
    pub lesson: Option<ActiveLesson>,
    /// The embed's `script=`: Reset runs it again.
    pub reset_script: Option<Rc<str>>,
    /// The requests the last command made (`sim curl`), for the cluster view to animate.
    pub flights: Rc<Vec<Flight>>,
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
    /// The current context's namespace (`kubectl config set-context --current --namespace X`).
    pub fn namespace(&self) -> yew::AttrValue {
        yew::AttrValue::from(self.session.borrow().namespace().to_string())
    }

    /// The default cluster with the demo DaemonSet applied; the clock plays.
    pub fn new() -> State {
        State::restore(&State::default_saved())
    }

    /// What [`State::new`] replays.
    pub fn default_saved() -> Saved {
        Saved {
            seed: crate::default_cluster::DEFAULT_SEED,
            log: vec![apply_command(DEMO_DAEMON_SET)],
            playing: true,
        }
    }

    /// A new session with `saved.seed`, with every entry of `saved.log` replayed (determinism makes
    /// the result exact). Commands are echoed in the terminal; clock advances are not.
    pub fn restore(saved: &Saved) -> State {
        let session = Session::on(crate::default_cluster::default_cluster(saved.seed));
        State::restore_on(session, saved)
    }

    /// [`State::restore`] on `session` rather than a new default one.
    fn restore_on(mut session: Session, saved: &Saved) -> State {
        session.enable_editor();
        session.enable_request_log();
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
            editor_applied: Rc::default(),
            editing: None,
            model: Rc::default(),
            node_views: Rc::default(),
            ds_table: Rc::from(""),
            workload_tables: Rc::default(),
            show_system: true,
            seed: saved.seed,
            log: Rc::new(Vec::new()),
            ends: Rc::default(),
            replay: Rc::default(),
            marks: Rc::default(),
            warnings: Rc::default(),
            warnings_read_at: None,
            warning_marks: Rc::default(),
            slow_views: SlowViews::default(),
            last_is_tick: false,
            present: None,
            previous_session: false,
            notice: None,
            long_run: None,
            replaying: None,
            reply: None,
            selected: None,
            explanations: Rc::default(),
            pod_panel: None,
            rollouts: Rc::default(),
            refreshed_at: (u64::MAX, i64::MIN),
            lesson: None,
            reset_script: None,
            flights: Rc::default(),
        };
        for entry in &saved.log {
            state.replay_entry(entry);
        }
        // Replayed requests are not new: nothing flies when a session is restored.
        state.flights = Rc::default();
        state.refresh();
        state
    }

    /// The log to save or share: the latest one, also while the timeline shows the past (until
    /// the user forks, the later entries are still the session).
    pub fn saved(&self) -> Saved {
        let latest = self.latest();
        Saved {
            seed: latest.seed,
            // While a restored log is replayed, the session is that whole log.
            log: match &latest.replaying {
                Some(replay) => replay.log().to_vec(),
                None => latest.log.to_vec(),
            },
            playing: self.playing,
        }
    }

    /// The state at the latest instant: this one, or the one kept while showing the past.
    pub fn latest(&self) -> &State {
        self.present.as_deref().unwrap_or(self)
    }

    /// The one-line commands of the log (a script's lines one by one), oldest first, without
    /// repeats in a row: the terminal's ↑/↓ history after a reload.
    pub fn command_history(&self) -> Vec<String> {
        let mut history: Vec<String> = Vec::new();
        let commands = self
            .latest()
            .log
            .iter()
            .filter(|entry| parse_advance_entry(entry).is_none())
            .flat_map(|entry| split_script(entry).into_iter().flatten());
        for command in commands {
            if !command.echo.contains('\n') && history.last() != Some(&command.echo) {
                history.push(command.echo);
            }
        }
        history
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
        let saved = Saved {
            seed: latest.seed,
            log,
            playing: false,
        };
        // A large session's past replays in slices, as its restore does (the page keeps answering).
        let mut past = match &latest.lesson {
            Some(lesson) => State::restore_on(lesson.base_session(), &saved),
            None => State::restore_as_fits(&saved),
        };
        past.lesson = latest.lesson.clone();
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
        self.previous_session = from.previous_session;
        self.selected = from.selected.clone();
        self.notice = from.notice.clone();
        self.reply = from.reply.clone();
        self.refreshed_at = (u64::MAX, i64::MIN);
    }

    /// Virtual milliseconds since the session started, read from the session's clock.
    fn clock_ms(&self) -> i64 {
        (self.session.borrow().cluster().now() - self.started).num_milliseconds()
    }

    /// Runs `line` through the interpreter and echoes it in the terminal.
    fn run(&mut self, line: &str) -> bool {
        Rc::make_mut(&mut self.log).push(line.to_string());
        let start = self.clock_ms();
        Rc::make_mut(&mut self.marks).push(Mark::new(start, line));
        self.last_is_tick = false;
        let outputs = match &self.lesson {
            Some(lesson) => lesson.execute(&mut self.session.borrow_mut(), line),
            None => self.session.borrow_mut().execute(line),
        };
        self.take_edit();
        self.take_flights();
        let end = self.clock_ms();
        Rc::make_mut(&mut self.ends).push(end);
        let success = outputs.iter().all(|o| o.success);
        let replay = Rc::make_mut(&mut self.replay);
        for output in outputs.iter().filter(|o| o.success) {
            push_step(replay, ReplayStep::Ran(output.command.clone()));
        }
        self.push_terminal(outputs);
        success
    }

    /// Shows outputs in the terminal (keeping the last [`MAX_TERMINAL`]).
    fn push_terminal(&mut self, outputs: Vec<CommandOutput>) {
        let terminal = Rc::make_mut(&mut self.terminal);
        terminal.extend(outputs);
        if terminal.len() > MAX_TERMINAL {
            terminal.drain(..terminal.len() - MAX_TERMINAL);
        }
    }

    fn apply(&mut self, yaml: &str) {
        let before = self.terminal.len();
        if self.run(&apply_command(yaml)) {
            self.editor_error = None;
            self.editing = None;
            self.editor_applied = Rc::new(applied(yaml, self.session.borrow().cluster().store()));
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
        push_step(Rc::make_mut(&mut self.replay), ReplayStep::Waited(ms));
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
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        let (tick, slice) = (
            matches!(action, Action::Tick(_)),
            matches!(action, Action::LongRunSlice),
        );
        // One slice of a long command (and the first one of a line that starts it) may take this
        // much wall-clock time.
        let started = crate::browser::wall_ms();
        let mut over_budget = || crate::browser::wall_ms() - started > SLICE_BUDGET_MS;
        if self.is_running() {
            match action {
                Action::Run(line) => {
                    next.busy(&line);
                    next.generation += 1;
                    return Rc::new(next);
                }
                Action::Apply(_) => {
                    next.editor_error = Some(next.busy("kubectl apply -f -"));
                    next.generation += 1;
                    return Rc::new(next);
                }
                Action::Remote { id, command, kind } => {
                    let before = next.terminal.len();
                    next.busy(&command);
                    let output = next.terminal[before..]
                        .iter()
                        .map(CommandOutput::text)
                        .collect();
                    next.send_reply(Some(PendingReply {
                        id,
                        output,
                        success: false,
                        kind,
                    }));
                    next.generation += 1;
                    return Rc::new(next);
                }
                // A past still being replayed can be left for another instant or for now.
                Action::Rewind(_) | Action::BackToNow if self.viewing_past() => {}
                Action::Tick(_)
                | Action::Step
                | Action::Rewind(_)
                | Action::BackToNow
                | Action::ContinueHere => return self,
                _ => {}
            }
        }
        // Changing the cluster while the timeline shows the past forks there: the later entries
        // are dropped with the kept present (and a lesson's step starts over on the fork).
        if matches!(
            action,
            Action::Run(_)
                | Action::Apply(_)
                | Action::Step
                | Action::Remote { .. }
                | Action::LessonStep(_)
                | Action::RunSolution
        ) && next.present.take().is_some()
        {
            next.restart_lesson_step();
        }
        match action {
            // Answered from this state: the action it stands for goes through this reducer.
            Action::Request { id, request } => return self.answer(id, request),
            Action::Run(line) => {
                if line.trim().is_empty() {
                    return self;
                }
                next.start_line(&line, None, &mut over_budget);
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
                next.reset_script = self.reset_script.clone();
                if let Some(script) = self.reset_script.as_deref() {
                    next.run_script(script);
                }
            }
            Action::LoadSaved(saved) => {
                next = State::restore_as_fits(&saved);
                next.keep_settings(&self);
                next.notice = None;
            }
            Action::DismissPrevious => next.previous_session = false,
            Action::LoadedLive(namespace, name) => {
                if let Some(yaml) = next.live_manifest(&namespace, &name) {
                    let found = applied(&yaml, next.session.borrow().cluster().store());
                    next.editor_applied = Rc::new(found);
                }
            }
            Action::ToggleSystem => next.show_system = !next.show_system,
            Action::SelectNode(node) => {
                next.selected = node;
                next.refreshed_at = (u64::MAX, i64::MIN);
            }
            Action::SelectPod(pod) => {
                let read = |(ns, name): (String, String)| {
                    Rc::new(PodDetails::read(
                        next.session.borrow().cluster(),
                        &ns,
                        &name,
                    ))
                };
                next.pod_panel = pod.map(read);
            }
            Action::Notice(text) => next.notice = text.map(Rc::from),
            Action::Remote { id, command, kind } => {
                let reply = PendingReply {
                    id,
                    output: String::new(),
                    success: true,
                    kind,
                };
                next.start_line(&command, Some(reply), &mut over_budget);
            }
            Action::LongRunSlice => {
                if !self.is_running() && !self.views_behind() {
                    return self;
                }
                next.long_run_slice(&mut over_budget);
            }
            Action::CancelLongRun => {
                // A node add is not cancelled: half of it could not be replayed from the log.
                if !next.long_run.as_ref().is_some_and(|r| r.cancellable()) {
                    return self;
                }
                next.finish_long_run(true, &mut over_budget);
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
                next.restart_lesson_step();
            }
            Action::StartLesson {
                loaded,
                step,
                earlier,
                previous_kept,
            } => {
                next.start_lesson(loaded, step, earlier, &self);
                next.previous_session |= previous_kept;
            }
            Action::LessonStep(index) => next.lesson_step(index),
            Action::RunSolution => {
                let Some(solution) = next.solution() else {
                    return self;
                };
                next.start_line(&solution, None, &mut over_budget);
            }
        }
        // A slice, or an action taken while nothing ran: it may have started a long command
        // and run its first slice.
        next.refresh_after(tick, slice || !self.is_running());
        next.generation = self.generation + 1;
        Rc::new(next)
    }
}

mod editor;
mod lesson;
mod refresh;
use refresh::SlowViews;
mod requests;
mod running;
#[cfg(test)]
mod tests;
mod traffic;
