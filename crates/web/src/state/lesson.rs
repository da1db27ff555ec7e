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
