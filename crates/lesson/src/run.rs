//! A lesson being taken: which step, its goals met or not, and when each step was done.
//!
//! Goals are evaluated after every command and, for `always:` / `never:` / `ever:`, at every instant the clock
//! passes through: the run installs a `GoalWatch` as the cluster's `ClockObserver` when a step
//! begins, and `Session::execute` notifies it after each command. Nothing is printed and the clock
//! never moves for a check. The learner's commands go through `LessonRun::execute`, which keeps
//! the step's commands for `ran:` goals and the result summary (the hidden setup is not among them).

use crate::format::{Lesson, Start};
use crate::goal::{Check, Condition};
use dsplay_kubectl::{CommandOutput, Session, SessionOptions};
use dsplay_sim::{ClockObserver, Cluster};
use std::any::Any;

/// A setup command that failed: the lesson cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The command as echoed.
    pub command: String,
    /// Its output.
    pub output: String,
}

/// A new session for the lesson: its starting cluster, and its setup run (output discarded).
pub fn start_session(lesson: &Lesson) -> Result<Session, SetupError> {
    let mut session = Session::new(SessionOptions {
        seed: lesson.seed,
        empty: lesson.start == Start::Empty,
    });
    for output in session.execute(&lesson.setup) {
        if !output.success {
            return Err(SetupError {
                command: output.command.clone(),
                output: output.text(),
            });
        }
    }
    Ok(session)
}

/// When a step was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRecord {
    /// Virtual milliseconds since the lesson began.
    pub after_ms: i64,
    /// The commands the learner ran in the step.
    pub commands: Vec<String>,
}

/// The current step's goals, evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepState {
    /// Per goal, in order: met?
    pub goals: Vec<bool>,
    /// Every goal met (now, or at an earlier moment of the step: a done step stays done).
    pub done: bool,
}

/// A lesson being taken (see the module docs).
#[derive(Clone, Debug)]
pub struct LessonRun {
    lesson: Lesson,
    step: usize,
    began_ms: i64,
    /// The commands run in the current step, as echoed.
    commands: Vec<String>,
    records: Vec<Option<StepRecord>>,
}

impl LessonRun {
    /// Begins the lesson's first step on `session` (made by `start_session`).
    pub fn new(lesson: Lesson, session: &mut Session) -> LessonRun {
        let steps = lesson.steps.len();
        let mut run = LessonRun {
            lesson,
            step: 0,
            began_ms: session.cluster().now_ms(),
            commands: Vec::new(),
            records: vec![None; steps],
        };
        run.begin_step(session);
        run
    }

    /// The lesson.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The current step's index.
    pub fn step(&self) -> usize {
        self.step
    }

    /// When each step was done (`None`: not yet).
    pub fn records(&self) -> &[Option<StepRecord>] {
        &self.records
    }

    /// Every step done.
    pub fn finished(&self) -> bool {
        self.records.iter().all(Option::is_some)
    }

    /// Evaluates the current step's goals and records the step as done the first time all hold.
    pub fn update(&mut self, session: &Session) -> StepState {
        let goals = self.goals_met(session);
        if self.records[self.step].is_none() && goals.iter().all(|m| *m) {
            self.records[self.step] = Some(StepRecord {
                after_ms: session.cluster().now_ms() - self.began_ms,
                commands: self.commands.clone(),
            });
        }
        StepState {
            done: self.records[self.step].is_some(),
            goals,
        }
    }

    /// Runs the learner's commands on the session, keeping them for the step's `ran:` goals.
    pub fn execute(&mut self, session: &mut Session, script: &str) -> Vec<CommandOutput> {
        let outputs = session.execute(script);
        self.commands
            .extend(outputs.iter().map(|o| o.command.clone()));
        outputs
    }

    /// Keeps a command the caller ran on the session by other means (the web app runs a long
    /// `sim advance` in slices), as if it had gone through [`LessonRun::execute`].
    pub fn ran(&mut self, command: &str) {
        self.commands.push(command.to_string());
    }

    /// Moves to step `index` (next, previous, or the same one to retry it); its history goals start
    /// over from now.
    pub fn go_to(&mut self, index: usize, session: &mut Session) {
        self.step = index.min(self.lesson.steps.len() - 1);
        self.begin_step(session);
    }

    fn begin_step(&mut self, session: &mut Session) {
        self.commands.clear();
        let watched = self.lesson.steps[self.step]
            .goals
            .iter()
            .map(|g| match &g.check {
                Check::Always(c) => Some((true, c.clone())),
                Check::Never(c) | Check::Ever(c) => Some((false, c.clone())),
                Check::Now(_) | Check::Ran(_) => None,
            })
            .collect::<Vec<_>>();
        let mut watch = GoalWatch {
            flipped: vec![false; watched.len()],
            watched,
        };
        watch.observe(session.cluster());
        session.cluster_mut().set_observer(Some(Box::new(watch)));
    }

    fn goals_met(&self, session: &Session) -> Vec<bool> {
        let cluster = session.cluster();
        let watch = cluster
            .observer()
            .and_then(|o| o.as_any().downcast_ref::<GoalWatch>());
        self.lesson.steps[self.step]
            .goals
            .iter()
            .enumerate()
            .map(|(i, goal)| match &goal.check {
                Check::Now(c) => c.holds(cluster),
                // Without its watch (someone replaced the observer) a history goal cannot be vouched for.
                Check::Always(_) | Check::Never(_) => watch.is_some_and(|w| !w.flipped[i]),
                Check::Ever(_) => watch.is_some_and(|w| w.flipped[i]),
                Check::Ran(p) => self.commands.iter().any(|c| p.is_match(c)),
            })
            .collect()
    }
}

/// The current step's history goals, looked at every instant (see the module docs).
#[derive(Clone, Debug)]
struct GoalWatch {
    /// Per goal: `(true, c)` for `always: c`, `(false, c)` for `never: c` and `ever: c`, `None` for
    /// the other goals.
    watched: Vec<Option<(bool, Condition)>>,
    /// Per goal: the condition differed from its expected value at some instant since the step
    /// began (`always` / `never` broken, `ever` reached).
    flipped: Vec<bool>,
}

impl ClockObserver for GoalWatch {
    fn observe(&mut self, cluster: &Cluster) {
        for (watched, flipped) in self.watched.iter().zip(self.flipped.iter_mut()) {
            if let Some((expected, condition)) = watched {
                if !*flipped && condition.holds(cluster) != *expected {
                    *flipped = true;
                }
            }
        }
    }

    fn box_clone(&self) -> Box<dyn ClockObserver> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
