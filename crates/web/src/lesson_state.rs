//! The lesson being taken, as part of the app's state: the lesson, its [`LessonRun`] (shared by the
//! state's clones, like the session), the current step's goals as last evaluated, and when each
//! step was done (first done: a record saved by an earlier visit, else this run's).
//!
//! A lesson starts on a fresh session from `start_session` (its setup hidden from the terminal and
//! the timeline); resuming at a later step first runs the earlier steps' solutions, hidden too.

use dsplay_kubectl::{CommandOutput, Session};
use dsplay_lesson::{start_session, Lesson, LessonRun, StepRecord};
use std::cell::RefCell;
use std::rc::Rc;

/// A lesson file fetched and parsed, with where it came from.
#[derive(Clone, Debug)]
pub struct LoadedLesson {
    /// The lesson.
    pub lesson: Rc<Lesson>,
    /// Where its file was fetched from (saved with the progress, to fetch it again).
    pub source: Rc<str>,
}

impl PartialEq for LoadedLesson {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.lesson, &other.lesson) && self.source == other.source
    }
}

/// The lesson being taken (see the module docs).
#[derive(Clone, Debug)]
pub struct ActiveLesson {
    /// The lesson and its source.
    pub loaded: LoadedLesson,
    run: Rc<RefCell<LessonRun>>,
    /// The session as the learner got it (after setup), to replay the log on for rewinds.
    base: Rc<Session>,
    /// The current step.
    pub step: usize,
    /// The current step's goals: met?
    pub goals: Rc<Vec<bool>>,
    /// Per step: when it was done.
    pub records: Rc<Vec<Option<StepRecord>>>,
    /// Records saved by an earlier visit (they take precedence: a step counts when first done).
    earlier: Rc<Vec<Option<StepRecord>>>,
}

impl PartialEq for ActiveLesson {
    fn eq(&self, other: &Self) -> bool {
        self.loaded == other.loaded
            && self.step == other.step
            && self.goals == other.goals
            && self.records == other.records
    }
}

impl ActiveLesson {
    /// A fresh session for `loaded` at `step` (see the module docs), and the
    /// lesson on it; `earlier` are the records of a previous visit. `Err`: a setup or solution
    /// command failed, with its output.
    pub fn start(
        loaded: LoadedLesson,
        step: usize,
        earlier: Vec<Option<StepRecord>>,
    ) -> Result<(ActiveLesson, Session), String> {
        let lesson = &loaded.lesson;
        let step = step.min(lesson.steps.len().saturating_sub(1));
        let mut earlier = earlier;
        earlier.resize(lesson.steps.len(), None);
        let mut session = start_session(lesson)
            .map_err(|e| format!("the setup command `{}` failed: {}", e.command, e.output))?;
        // The cluster as the steps before left it, and as this one left it if it was done.
        let through = if earlier[step].is_some() {
            step + 1
        } else {
            step
        };
        for done in &lesson.steps[..through] {
            if let Some(failed) = session.execute(&done.solution).iter().find(|o| !o.success) {
                return Err(format!(
                    "the solution command `{}` failed: {}",
                    failed.command,
                    failed.text()
                ));
            }
        }
        let base = Rc::new(session.clone());
        let mut run = LessonRun::new((**lesson).clone(), &mut session);
        if step > 0 {
            run.go_to(step, &mut session);
        }
        let mut active = ActiveLesson {
            loaded,
            run: Rc::new(RefCell::new(run)),
            base,
            step,
            goals: Rc::default(),
            records: Rc::new(earlier.clone()),
            earlier: Rc::new(earlier),
        };
        active.update(&session);
        Ok((active, session))
    }

    /// The session the lesson started from (for replaying the log on).
    pub fn base_session(&self) -> Session {
        (*self.base).clone()
    }

    /// The lesson.
    pub fn lesson(&self) -> &Lesson {
        &self.loaded.lesson
    }

    /// Runs the learner's line through the lesson (so `ran:` goals see it).
    pub fn execute(&self, session: &mut Session, line: &str) -> Vec<CommandOutput> {
        self.run.borrow_mut().execute(session, line)
    }

    /// Keeps a command run in slices (a long `sim advance`/`sim settle`) once it is done.
    pub fn ran(&self, command: &str) {
        self.run.borrow_mut().ran(command);
    }

    /// Evaluates the current step's goals (recording the step when they all hold).
    pub fn update(&mut self, session: &Session) {
        let state = self.run.borrow_mut().update(session);
        if *self.goals != state.goals {
            self.goals = Rc::new(state.goals);
        }
        let records: Vec<Option<StepRecord>> = {
            let run = self.run.borrow();
            run.records()
                .iter()
                .zip(self.earlier.iter())
                .map(|(mine, earlier)| earlier.clone().or_else(|| mine.clone()))
                .collect()
        };
        if *self.records != records {
            self.records = Rc::new(records);
        }
    }

    /// Moves to step `index` (its history goals start over from now).
    pub fn go_to(&mut self, index: usize, session: &mut Session) {
        self.run.borrow_mut().go_to(index, session);
        self.step = self.run.borrow().step();
        self.update(session);
    }

    /// The current step is done.
    pub fn step_done(&self) -> bool {
        self.records.get(self.step).is_some_and(Option::is_some)
    }

    /// Every step done.
    pub fn finished(&self) -> bool {
        self.records.iter().all(Option::is_some)
    }

    /// A short result summary to share: the lesson, each step done with its instant, and the
    /// commands used.
    pub fn summary(&self, language: &str) -> String {
        let lesson = self.lesson();
        let done = self.records.iter().filter(|r| r.is_some()).count();
        let mut text = format!(
            "DaemonSet Playground lesson \"{}\" ({}): {done}/{} steps done\n",
            lesson.title.get(language),
            lesson.id,
            lesson.steps.len()
        );
        for (index, (step, record)) in lesson.steps.iter().zip(self.records.iter()).enumerate() {
            let title = step.title.get(language);
            match record {
                Some(r) => {
                    text.push_str(&format!(
                        "{}. {title}: done at +{}s\n",
                        index + 1,
                        r.after_ms / 1000
                    ));
                    for command in &r.commands {
                        text.push_str(&format!("   $ {command}\n"));
                    }
                }
                None => text.push_str(&format!("{}. {title}: not done\n", index + 1)),
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = r#"
id: tiny
title: {en: Tiny, zh: 小}
level: beginner
minutes: 2
languages: [en, zh]
intro: {en: Hi, zh: 你好}
steps:
- title: {en: Label, zh: 标签}
  text: {en: "Run `kubectl label node kind-worker a=b`", zh: "运行 `kubectl label node kind-worker a=b`"}
  goals:
  - text: {en: labelled, zh: 已标记}
    get: nodes -l a=b
    count: 1
  solution: kubectl label node kind-worker a=b
- title: {en: Look, zh: 看}
  text: {en: "Run `kubectl get nodes`", zh: "运行 `kubectl get nodes`"}
  goals:
  - text: {en: looked, zh: 看了}
    ran: '^kubectl get nodes'
  solution: kubectl get nodes
"#;

    fn loaded() -> LoadedLesson {
        LoadedLesson {
            lesson: Rc::new(dsplay_lesson::parse("tiny.yaml", LESSON).unwrap()),
            source: Rc::from("tiny.yaml"),
        }
    }

    #[test]
    fn goals_follow_commands_and_steps_are_recorded() {
        let (mut active, mut session) = ActiveLesson::start(loaded(), 0, Vec::new()).unwrap();
        assert_eq!(*active.goals, [false]);
        active.execute(&mut session, "kubectl label node kind-worker a=b");
        active.update(&session);
        assert_eq!(*active.goals, [true]);
        assert!(active.step_done());
        active.go_to(1, &mut session);
        assert_eq!(*active.goals, [false]);
        active.execute(&mut session, "kubectl get nodes");
        active.update(&session);
        assert!(active.finished());
        let summary = active.summary("en");
        assert!(
            summary.contains("\"Tiny\" (tiny): 2/2 steps done"),
            "{summary}"
        );
        assert!(
            summary.contains("$ kubectl label node kind-worker a=b"),
            "{summary}"
        );
    }

    #[test]
    fn resuming_runs_earlier_solutions_and_keeps_earlier_records() {
        let earlier = vec![Some(StepRecord {
            after_ms: 2000,
            commands: vec!["x".into()],
        })];
        let (active, session) = ActiveLesson::start(loaded(), 1, earlier).unwrap();
        assert_eq!(active.step, 1);
        assert!(active.records[0].is_some());
        assert!(!active.finished());
        let labelled = session.clone().execute("kubectl get nodes -l a=b -o name");
        assert!(labelled[0].text().contains("node/kind-worker"));
    }
}
