//! The reducer's side of lessons ([`crate::lesson_state`]): starting one on a fresh session,
//! moving between steps, the solution, and re-evaluating the goals after every change.

use super::State;
use crate::lesson_state::{ActiveLesson, LoadedLesson};
use crate::persist::Saved;
use dsplay_lesson::StepRecord;
use std::cell::RefCell;
use std::rc::Rc;

impl State {
    /// Replaces the session with a fresh one for the lesson (the view settings stay); a lesson
    /// that cannot start leaves the session as it was, with a notice saying why.
    pub(super) fn start_lesson(
        &mut self,
        loaded: LoadedLesson,
        step: usize,
        earlier: Vec<Option<StepRecord>>,
        from: &State,
    ) {
        let source = loaded.source.clone();
        match ActiveLesson::start(loaded, step, earlier) {
            Ok((lesson, session)) => {
                let mut next = State::restore_on(
                    session,
                    &Saved {
                        seed: lesson.lesson().seed,
                        log: Vec::new(),
                        playing: true,
                    },
                );
                next.keep_settings(from);
                next.notice = None;
                next.lesson = Some(lesson);
                *self = next;
            }
            Err(e) => {
                self.notice = Some(Rc::from(format!("The lesson {source} cannot start: {e}")));
            }
        }
    }

    /// Shows step `index` of the lesson.
    pub(super) fn lesson_step(&mut self, index: usize) {
        if let Some(lesson) = &mut self.lesson {
            lesson.go_to(index, &mut self.session.borrow_mut());
        }
    }

    /// After a fork in the past the session has no goal watch: the step starts over there.
    pub(super) fn restart_lesson_step(&mut self) {
        if let Some(step) = self.lesson.as_ref().map(|l| l.step) {
            self.lesson_step(step);
        }
    }

    /// The current step's solution, when one can run now (no long command running).
    pub(super) fn solution(&self) -> Option<String> {
        let lesson = self.lesson.as_ref().filter(|_| self.long_run.is_none())?;
        Some(lesson.lesson().steps[lesson.step].solution.clone())
    }

    /// Re-evaluates the goals (not while the timeline shows the past: the goals are the present's).
    pub(super) fn update_lesson(&mut self) {
        if self.present.is_some() {
            return;
        }
        let session: &RefCell<_> = &self.session;
        if let Some(lesson) = &mut self.lesson {
            lesson.update(&session.borrow());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson_loader::parse_lesson;
    use crate::state::Action;
    use yew::Reducible;

    const LESSON: &str = r#"
id: grow
title: Grow
level: beginner
minutes: 2
setup: sim node add hidden-setup-node
intro: Hi
steps:
- title: Add
  text: "`sim node add w3`"
  goals:
  - text: three workers and the setup node
    get: nodes -l '!node-role.kubernetes.io/control-plane'
    count: 4
  - text: kind-worker is never cordoned
    never:
      get: node/kind-worker
      jsonpath: '{.spec.unschedulable}'
      equals: 'true'
  solution: sim node add w3
- title: Wait
  text: "`sim advance 1s`"
  goals:
  - text: waited
    ran: '^sim advance'
  solution: sim advance 1s
"#;

    fn start() -> Rc<State> {
        Rc::new(State::new()).reduce(Action::StartLesson {
            loaded: parse_lesson("grow.yaml", LESSON).unwrap(),
            step: 0,
            earlier: Vec::new(),
            previous_kept: true,
        })
    }

    fn goals(state: &State) -> Vec<bool> {
        state.lesson.as_ref().unwrap().goals.to_vec()
    }

    #[test]
    fn a_lesson_starts_fresh_with_its_setup_hidden() {
        let state = start();
        assert!(state.previous_session);
        assert!(state.terminal.is_empty() && state.log.is_empty() && state.marks.is_empty());
        assert!(state
            .model
            .nodes
            .iter()
            .any(|n| n.name == "hidden-setup-node"));
        assert!(!state.model.nodes.iter().any(|n| n.name == "kind-worker3"));
        assert_eq!(goals(&state), [false, true]);
    }

    #[test]
    fn commands_and_the_clock_update_the_goals() {
        let state = start().reduce(Action::Run("kubectl cordon kind-worker".into()));
        assert_eq!(goals(&state), [false, false], "`never:` broken");
        let state = state
            .reduce(Action::Run("kubectl uncordon kind-worker".into()))
            .reduce(Action::Step)
            .reduce(Action::Run("sim node add w3".into()));
        assert_eq!(
            goals(&state),
            [true, false],
            "broken for the rest of the step"
        );
        let state = state.reduce(Action::LessonStep(0));
        assert_eq!(
            goals(&state),
            [true, true],
            "retrying the step starts it over"
        );
        assert!(state.lesson.as_ref().unwrap().step_done());
        let state = state
            .reduce(Action::LessonStep(1))
            .reduce(Action::RunSolution);
        assert!(state.lesson.as_ref().unwrap().finished());
        assert_eq!(
            state.terminal.last().map(|o| o.command.as_str()),
            Some("sim advance 1s"),
            "the solution is echoed like a typed command"
        );
        let summary = state.lesson.as_ref().unwrap().summary("en");
        assert!(
            summary.contains("$ sim advance 1s"),
            "a command run in slices counts: {summary}"
        );
    }

    #[test]
    fn rewinding_replays_on_the_lessons_session_and_a_fork_keeps_the_lesson() {
        let state = start()
            .reduce(Action::Step)
            .reduce(Action::Run("sim node add w3".into()));
        let at = state.elapsed_ms();
        let past = state.clone().reduce(Action::Rewind(at - 1));
        assert!(past
            .model
            .nodes
            .iter()
            .any(|n| n.name == "hidden-setup-node"));
        assert!(!past.model.nodes.iter().any(|n| n.name == "w3"));
        // (A state's clones share its session: each fork starts from its own rewind.)
        let typed = state
            .clone()
            .reduce(Action::Rewind(at - 1))
            .reduce(Action::Run("sim node add w3".into()));
        assert!(typed.present.is_none());
        assert_eq!(
            goals(&typed),
            [true, true],
            "a command forks, with the step's watch"
        );
        let forked = past.reduce(Action::ContinueHere);
        assert!(forked.lesson.is_some());
        assert_eq!(goals(&forked), [false, true]);
        let done = forked.reduce(Action::Run("sim node add w3".into()));
        assert_eq!(goals(&done), [true, true]);
    }

    #[test]
    fn a_lesson_whose_setup_fails_leaves_the_session_and_says_why() {
        let broken = LESSON.replace("sim node add hidden-setup-node", "kubectl delete node nope");
        let state = Rc::new(State::new()).reduce(Action::StartLesson {
            loaded: parse_lesson("broken.yaml", &broken).unwrap(),
            step: 0,
            earlier: Vec::new(),
            previous_kept: false,
        });
        assert!(state.lesson.is_none());
        assert!(state
            .notice
            .as_deref()
            .unwrap()
            .contains("kubectl delete node nope"));
    }
}
