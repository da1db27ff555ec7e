//! The lesson file: YAML, one lesson per file, parsed with `file:line:column` errors.
//!
//! YAML rather than Markdown with front matter because goals are structured data, and one format
//! for the whole file gives every mistake a line number (serde_yaml reports where a value failed,
//! including the goal checks validated while parsing). `docs/lessons.md` is the instructor's guide.

use crate::goal::Goal;
use crate::text::Text;
use serde::{Deserialize, Deserializer};
use std::fmt;

/// A lesson (see `docs/lessons.md` for every field).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Stable id: lowercase letters, digits and `-` (used in `#lesson=<id>` links and saved progress).
    #[serde(deserialize_with = "lesson_id")]
    pub id: String,
    /// Title.
    pub title: Text,
    /// Difficulty.
    pub level: Level,
    /// Estimated minutes.
    pub minutes: u32,
    /// The languages every text must have (default: English only).
    #[serde(default = "english")]
    pub languages: Vec<String>,
    /// The starting cluster.
    #[serde(default)]
    pub start: Start,
    /// RNG seed of the session (default 1).
    #[serde(default = "one")]
    pub seed: u64,
    /// `kubectl` / `sim` commands run before the learner starts, hidden from them.
    #[serde(default)]
    pub setup: String,
    /// Introduction shown before the first step.
    pub intro: Text,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// How hard a lesson is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// No Kubernetes knowledge needed beyond pods.
    Beginner,
    /// Knows DaemonSets.
    Intermediate,
    /// Knows scheduling and rollouts.
    Advanced,
}

impl Level {
    /// The word as written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
        }
    }
}

/// The cluster a lesson starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Start {
    /// The kind-like default cluster (a control-plane node and two workers).
    #[default]
    Default,
    /// No nodes at all.
    Empty,
}

/// One step of a lesson.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Short title.
    pub title: Text,
    /// What to do and why (Markdown; code in backticks or fenced blocks can be clicked to run).
    pub text: Text,
    /// What the learner must achieve; the step is done when all hold at once.
    #[serde(deserialize_with = "some_goals")]
    pub goals: Vec<Goal>,
    /// Progressive hints, revealed one at a time.
    #[serde(default)]
    pub hints: Vec<Text>,
    /// Commands that reach the goals (the "Run solution" button, and what the checker runs).
    pub solution: String,
}

fn english() -> Vec<String> {
    vec!["en".into()]
}

fn one() -> u64 {
    1
}

fn lesson_id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let id = String::deserialize(deserializer)?;
    let valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if valid {
        Ok(id)
    } else {
        Err(serde::de::Error::custom(format!(
            "lesson id \"{id}\" must be lowercase letters, digits and -"
        )))
    }
}

fn some_goals<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Goal>, D::Error> {
    let goals = Vec::<Goal>::deserialize(deserializer)?;
    if goals.is_empty() {
        return Err(serde::de::Error::custom("a step needs at least one goal"));
    }
    Ok(goals)
}

/// A lesson file that does not parse, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The file (or URL) name given to `parse`.
    pub source: String,
    /// 1-based line and column, when known.
    pub position: Option<(usize, usize)>,
    /// What is wrong (with the field path, e.g. `steps[1].goals[0]: …`).
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.position {
            Some((line, column)) => {
                write!(f, "{}:{line}:{column}: {}", self.source, self.message)
            }
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

/// Parses a lesson file; `source` names it in errors.
pub fn parse(source: &str, text: &str) -> Result<Lesson, FormatError> {
    let lesson: Lesson = serde_yaml::from_str(text).map_err(|e| {
        let position = e.location().map(|l| (l.line(), l.column()));
        let mut message = e.to_string();
        // serde_yaml appends " at line L column C"; the position leads instead.
        if let Some(at) = message.rfind(" at line ") {
            message.truncate(at);
        }
        FormatError {
            source: source.to_string(),
            position,
            message,
        }
    })?;
    if lesson.steps.is_empty() {
        return Err(FormatError {
            source: source.to_string(),
            position: None,
            message: "a lesson needs at least one step".into(),
        });
    }
    Ok(lesson)
}
