//! Lessons: guided exercises whose goals the simulator checks itself.
//!
//! A lesson is one YAML file (`docs/lessons.md` documents it for instructors): a starting cluster and
//! a hidden setup script, then ordered steps with text, goals, hints and a solution. Goals are
//! declarative checks over the cluster (`goal.rs`), evaluated after every command and at every
//! instant the clock passes through (`run.rs` installs a `dsplay_sim::ClockObserver`), without
//! printing anything or moving the clock. `check.rs` is the checker behind `dsplay lesson check`:
//! setup runs, no step is complete before the learner acts, every solution reaches its goals.
//!
//! Plain Rust: no web or I/O dependencies, so the CLI and the browser run the same engine.

pub mod check;
pub mod format;
pub mod goal;
pub mod link;
pub mod run;
pub mod text;

pub use check::{check_lesson, LessonReport};
pub use format::{parse, FormatError, Lesson, Level, Start, Step};
pub use goal::{Check, Condition, Goal};
pub use run::{start_session, LessonRun, StepRecord, StepState};
pub use text::Text;
