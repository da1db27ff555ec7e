//! The reducer's side of long commands ([`crate::long_run`]): a typed line, a page's `script=` or
//! a postMessage request is run command by command; a `sim advance`/`sim settle` among them starts
//! a [`LongRun`] that later [`Action::LongRunSlice`](super::Action::LongRunSlice)s continue, and
//! the rest of the line waits for it. A large restored session ([`Replay`]) replays its log
//! through the same slices.

use super::{PendingReply, Reply, State};
use crate::drift::applied;
use crate::export::{push_step, ReplayStep};
use crate::long_run::{goal_of, run_slice, Goal};
use crate::persist::{advance_entry, parse_advance_entry, Saved};
use crate::timeline::Mark;
use dsplay_kubectl::tokenizer::{split_script, ScriptCommand, TokenizeError};
use dsplay_kubectl::{Chunk, CommandOutput, Stream};
use std::rc::Rc;

/// A long command running in slices.
#[derive(Clone, Debug, PartialEq)]
pub struct LongRun {
    /// The command as the terminal echoes it.
    pub echo: String,
    /// Where it stops.
    pub goal: Goal,
    /// The cluster's clock when it started (virtual ms since the epoch).
    pub started_ms: i64,
    /// Where it started on the timeline (virtual ms since the session started).
    started_at: i64,
    /// The commands of the same line after it (as echoed), run when it is done.
    rest: Vec<String>,
    /// The postMessage request waiting for the whole line.
    reply: Option<PendingReply>,
    /// It runs as part of a restored log's replay (which a cancel would cut short).
    replayed: bool,
}

/// A restored session's log, replayed a slice at a time: entry by entry, a long one (a `sim node
/// add` of thousands of nodes) as a [`LongRun`]. Each entry goes through what
/// [`State::restore`] does with it, so the session ends as a restore at once would leave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    entries: Rc<Vec<String>>,
    next: usize,
}

impl Replay {
    /// The whole log being replayed.
    pub fn log(&self) -> &[String] {
        &self.entries
    }
}

impl LongRun {
    /// It can stop where it got to: a clock advance can, a node add cannot (the nodes added so
    /// far would be no command the log could replay), nor an entry of a restored log (the
    /// session would not be the saved one).
    pub fn cancellable(&self) -> bool {
        !self.replayed && !matches!(self.goal, Goal::AddNodes { .. })
    }
}

impl State {
    /// A long command runs or a restored log is being replayed (commands wait for it).
    pub fn is_running(&self) -> bool {
        self.long_run.is_some() || self.replaying.is_some()
    }

    /// Some node views are behind the store (a large cluster's refresh builds at most so many),
    /// or the full read after a long command is owed: slices follow, as for a long command,
    /// until they caught up; commands are not held.
    pub fn views_behind(&self) -> bool {
        self.node_views.borrow().is_behind() || self.slow_views.owed
    }

    /// While a restored log is replayed: (entries replayed, entries in all); an entry running as
    /// a long command is not replayed yet.
    pub fn replay_progress(&self) -> Option<(usize, usize)> {
        let replay = self.replaying.as_ref()?;
        let running = usize::from(self.long_run.is_some());
        Some((replay.next.saturating_sub(running), replay.entries.len()))
    }

    /// [`State::restore`], except that the log is replayed in the slices that follow (the page
    /// renders at once and keeps answering): for sessions whose log adds many nodes.
    pub fn restore_in_slices(saved: &Saved) -> State {
        let mut state = State::restore(&Saved {
            log: Vec::new(),
            ..saved.clone()
        });
        state.replaying = Some(Rc::new(Replay {
            entries: Rc::new(saved.log.clone()),
            next: 0,
        }));
        state
    }

    /// [`State::restore_in_slices`] if [`State::replays_in_slices`] says so, else
    /// [`State::restore`] (Undo, the previous session, leaving a lesson).
    pub fn restore_as_fits(saved: &Saved) -> State {
        if State::replays_in_slices(saved) {
            State::restore_in_slices(saved)
        } else {
            State::restore(saved)
        }
    }

    /// Whether [`State::restore_in_slices`] is worth it for `saved`: its log adds nodes in slices.
    pub fn replays_in_slices(saved: &Saved) -> bool {
        saved
            .log
            .iter()
            .any(|entry| matches!(sliced_goal(entry, 0), Some(Goal::AddNodes { .. })))
    }

    /// Replays one entry of a saved log: a clock advance, or a command (run as typed; an applied
    /// manifest becomes the editor's).
    pub(super) fn replay_entry(&mut self, entry: &str) {
        match parse_advance_entry(entry) {
            Some(ms) => self.advance(std::time::Duration::from_millis(ms)),
            None => {
                if self.run(entry) {
                    if let Some(yaml) = super::editor::applied_manifest(entry) {
                        let found = applied(&yaml, self.session.borrow().cluster().store());
                        self.editor_applied = Rc::new(found);
                    }
                }
            }
        }
    }

    /// Replays the next entries of a [`Replay`] until the slice's budget is spent (a long entry
    /// continues as a [`LongRun`]); ends the replay after the last one.
    pub(super) fn continue_replay(&mut self, over_budget: &mut dyn FnMut() -> bool) {
        while let Some(replay) = self.replaying.as_mut() {
            if self.long_run.is_some() || over_budget() {
                return;
            }
            let Some(entry) = replay.entries.get(replay.next).cloned() else {
                self.replaying = None;
                // Replayed requests are not new: nothing flies when a session is restored.
                self.flights = Rc::default();
                return;
            };
            Rc::make_mut(replay).next += 1;
            let now = self.session.borrow().cluster().now_ms();
            if sliced_goal(&entry, now).is_some() {
                self.start_line(&entry, None, over_budget);
            } else {
                self.replay_entry(&entry);
            }
        }
    }

    /// Runs `line` (one or more commands) like a typed one; a long `sim advance`/`sim settle`
    /// in it continues in slices, and so does the rest of the line after it.
    pub fn run_script(&mut self, line: &str) {
        self.start_line(line, None, &mut || false);
        self.refresh();
    }

    /// Starts `line`; `reply` collects the output for a postMessage request.
    pub(super) fn start_line(
        &mut self,
        line: &str,
        mut reply: Option<PendingReply>,
        over_budget: &mut dyn FnMut() -> bool,
    ) {
        let now = self.session.borrow().cluster().now_ms();
        let commands = split_script(line);
        let long = if self.session.borrow().is_watching() {
            // A watch prints while the next `sim` command moves the clock: run it as it is.
            None
        } else {
            commands
                .iter()
                .position(|c| c.as_ref().is_ok_and(|c| goal_of(c, now).is_some()))
        };
        let Some(at) = long else {
            let before = self.terminal.len();
            let success = self.run(line);
            self.collect_reply(&mut reply, before, success);
            self.send_reply(reply);
            return;
        };
        let echo = |c: &Result<ScriptCommand, TokenizeError>| match c {
            Ok(c) => c.echo.clone(),
            Err(e) => e.echo.clone(),
        };
        for command in &commands[..at] {
            let before = self.terminal.len();
            let success = self.run(&echo(command));
            self.collect_reply(&mut reply, before, success);
        }
        let Ok(command) = &commands[at] else {
            unreachable!("the long command was parsed")
        };
        let goal = goal_of(command, self.session.borrow().cluster().now_ms())
            .expect("the clock did not move the goal away");
        self.last_is_tick = false;
        self.long_run = Some(Rc::new(LongRun {
            echo: command.echo.clone(),
            goal,
            started_ms: self.session.borrow().cluster().now_ms(),
            started_at: self.clock_ms(),
            rest: commands[at + 1..].iter().map(echo).collect(),
            reply,
            replayed: self.replaying.is_some(),
        }));
        self.continue_long_run(over_budget);
        self.after_simulating();
    }

    /// Runs one more slice of the long command; finishes it when its goal is reached.
    pub(super) fn continue_long_run(&mut self, over_budget: &mut dyn FnMut() -> bool) {
        let Some(run) = self.long_run.as_mut() else {
            return;
        };
        let done = run_slice(
            self.session.borrow_mut().cluster_mut(),
            &mut Rc::make_mut(run).goal,
            &mut *over_budget,
        );
        if done {
            self.finish_long_run(false, over_budget);
        }
    }

    /// Ends the long command: done (logged as typed, then the rest of its line runs) or
    /// cancelled (the time it advanced is logged as a clock advance; the rest is not run).
    pub(super) fn finish_long_run(
        &mut self,
        cancelled: bool,
        over_budget: &mut dyn FnMut() -> bool,
    ) {
        let Some(run) = self.long_run.take() else {
            return;
        };
        let run = Rc::unwrap_or_clone(run);
        // A step left in parts is completed: the log can only say where the clock got to.
        self.session.borrow_mut().cluster_mut().complete_step();
        let advanced = self.session.borrow().cluster().now_ms() - run.started_ms;
        let end = self.clock_ms();
        let output = if cancelled {
            if advanced > 0 {
                Rc::make_mut(&mut self.log).push(advance_entry(advanced as u64));
                Rc::make_mut(&mut self.ends).push(end);
                push_step(
                    Rc::make_mut(&mut self.replay),
                    ReplayStep::Waited(advanced as u64),
                );
            }
            let mut text = format!(
                "cancelled after {} of virtual time; the clock stays there\n",
                dsplay_kubectl::printers::age::human_duration(chrono::Duration::milliseconds(
                    advanced
                ))
            );
            if !run.rest.is_empty() {
                text.push_str("the rest of the script was not run\n");
            }
            CommandOutput {
                command: run.echo,
                chunks: vec![Chunk {
                    stream: Stream::Stderr,
                    text,
                }],
                success: false,
            }
        } else {
            Rc::make_mut(&mut self.log).push(run.echo.clone());
            if let Some(lesson) = &self.lesson {
                lesson.ran(&run.echo);
            }
            Rc::make_mut(&mut self.marks).push(Mark::new(run.started_at, &run.echo));
            Rc::make_mut(&mut self.ends).push(end);
            let output = finished_output(run.echo, run.goal);
            if output.success {
                push_step(
                    Rc::make_mut(&mut self.replay),
                    ReplayStep::Ran(output.command.clone()),
                );
            }
            output
        };
        let mut reply = run.reply;
        let before = self.terminal.len();
        let success = output.success;
        self.push_terminal(vec![output]);
        self.collect_reply(&mut reply, before, success);
        if cancelled || run.rest.is_empty() {
            self.send_reply(reply);
        } else {
            self.start_line(&run.rest.join("\n"), reply, over_budget);
        }
    }

    /// Echoes `line` with an error saying a long command must finish first (nothing is run or
    /// logged).
    pub(super) fn busy(&mut self, line: &str) -> Rc<str> {
        let text = match &self.long_run {
            _ if self.replaying.is_some() => {
                "error: the session is still being restored: wait for it\n".to_string()
            }
            Some(run) if !run.cancellable() => {
                format!("error: `{}` is still running: wait for it\n", run.echo)
            }
            run => format!(
                "error: `{}` is still running: wait for it or press Cancel\n",
                run.as_ref().map_or("", |r| r.echo.as_str())
            ),
        };
        self.push_terminal(vec![CommandOutput {
            command: line.to_string(),
            chunks: vec![Chunk {
                stream: Stream::Stderr,
                text: text.clone(),
            }],
            success: false,
        }]);
        Rc::from(text.trim_end())
    }

    /// Adds the terminal output since `before` to a pending reply.
    fn collect_reply(&self, reply: &mut Option<PendingReply>, before: usize, success: bool) {
        if let Some(reply) = reply {
            let text: String = self.terminal[before.min(self.terminal.len())..]
                .iter()
                .map(CommandOutput::text)
                .collect();
            reply.output.push_str(&text);
            reply.success &= success;
        }
    }

    /// Posts a finished request's answer (the next [`Reply`]).
    pub(super) fn send_reply(&mut self, reply: Option<PendingReply>) {
        if let Some(PendingReply {
            id,
            output,
            success,
            kind,
        }) = reply
        {
            self.post(Reply {
                seq: 0,
                id,
                output,
                success,
                kind,
                data: None,
            });
        }
    }
}

/// The goal of a saved log entry that runs in slices: a command (not a clock tick) that
/// [`goal_of`] finds long.
fn sliced_goal(entry: &str, now_ms: i64) -> Option<Goal> {
    if parse_advance_entry(entry).is_some() {
        return None;
    }
    split_script(entry)
        .into_iter()
        .flatten()
        .find_map(|command| goal_of(&command, now_ms))
}

/// What a long command that ran to its end printed: nothing for a clock advance; a node add's
/// summary, and the error that stopped it if one did.
fn finished_output(command: String, goal: Goal) -> CommandOutput {
    let mut chunks = Vec::new();
    let mut success = true;
    if let Goal::AddNodes { add, error } = goal {
        if let Some(summary) = add.summary() {
            chunks.push(Chunk {
                stream: Stream::Stdout,
                text: format!("{summary}\n"),
            });
        }
        if let Some(error) = error {
            chunks.push(Chunk {
                stream: Stream::Stderr,
                text: format!("{error}\n"),
            });
            success = false;
        }
    }
    CommandOutput {
        command,
        chunks,
        success,
    }
}
