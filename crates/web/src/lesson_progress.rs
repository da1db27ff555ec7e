//! Lesson progress kept in `localStorage` (under [`PROGRESS_KEY`]): the lesson being taken (where
//! its file is and which step) and, per lesson id, which steps are done, when and with which
//! commands. Reading never fails: unreadable progress is no progress.

use dsplay_lesson::StepRecord;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The `localStorage` key of the lesson progress.
pub const PROGRESS_KEY: &str = "dsplay:lessons";

/// The lesson being taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Current {
    /// Where its file is fetched from (`lessons/<file>` for a built-in one, or a URL).
    pub source: String,
    /// The step shown.
    pub step: usize,
}

/// How far a learner got in one lesson.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonProgress {
    /// Per step: when it was done (`None`: not yet).
    pub done: Vec<Option<StepRecord>>,
}

impl LessonProgress {
    /// Every step done.
    pub fn finished(&self) -> bool {
        !self.done.is_empty() && self.done.iter().all(Option::is_some)
    }
}

/// Everything saved about lessons.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The lesson being taken, if any.
    pub current: Option<Current>,
    /// Per lesson id.
    pub lessons: BTreeMap<String, LessonProgress>,
}

/// A catalogue entry's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Never started.
    New,
    /// Some steps done, or being taken.
    InProgress,
    /// Every step done.
    Done,
}

impl Progress {
    /// The catalogue mark of lesson `id`.
    pub fn mark(&self, id: &str) -> Mark {
        match self.lessons.get(id) {
            Some(p) if p.finished() => Mark::Done,
            Some(_) => Mark::InProgress,
            None => Mark::New,
        }
    }

    /// The JSON text stored.
    pub fn to_json(&self) -> String {
        let lessons: Map<String, Value> = self
            .lessons
            .iter()
            .map(|(id, p)| {
                let done: Vec<Value> = p
                    .done
                    .iter()
                    .map(|r| match r {
                        Some(r) => json!({ "after_ms": r.after_ms, "commands": r.commands }),
                        None => Value::Null,
                    })
                    .collect();
                (id.clone(), json!({ "done": done }))
            })
            .collect();
        let current = self
            .current
            .as_ref()
            .map(|c| json!({ "source": c.source, "step": c.step }));
        json!({ "v": 1, "current": current, "lessons": lessons }).to_string()
    }

    /// Reads [`Progress::to_json`]'s text; anything unreadable is left out.
    pub fn from_json(text: &str) -> Progress {
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return Progress::default();
        };
        if value.get("v").and_then(Value::as_u64) != Some(1) {
            return Progress::default();
        }
        let current = value.get("current").and_then(|c| {
            Some(Current {
                source: c.get("source")?.as_str()?.to_string(),
                step: usize::try_from(c.get("step")?.as_u64()?).ok()?,
            })
        });
        let lessons = value
            .get("lessons")
            .and_then(Value::as_object)
            .map(|lessons| {
                lessons
                    .iter()
                    .map(|(id, p)| (id.clone(), lesson_progress(p)))
                    .collect()
            })
            .unwrap_or_default();
        Progress { current, lessons }
    }
}

fn lesson_progress(value: &Value) -> LessonProgress {
    let record = |r: &Value| {
        Some(StepRecord {
            after_ms: r.get("after_ms")?.as_i64()?,
            commands: r
                .get("commands")?
                .as_array()?
                .iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect(),
        })
    };
    LessonProgress {
        done: value
            .get("done")
            .and_then(Value::as_array)
            .map(|done| done.iter().map(record).collect())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_marks() {
        let mut progress = Progress {
            current: Some(Current {
                source: "lessons/01-a.yaml".into(),
                step: 1,
            }),
            lessons: BTreeMap::new(),
        };
        progress.lessons.insert(
            "a".into(),
            LessonProgress {
                done: vec![
                    Some(StepRecord {
                        after_ms: 1500,
                        commands: vec!["kubectl get ds".into()],
                    }),
                    None,
                ],
            },
        );
        progress.lessons.insert(
            "b".into(),
            LessonProgress {
                done: vec![Some(StepRecord {
                    after_ms: 0,
                    commands: vec![],
                })],
            },
        );
        let back = Progress::from_json(&progress.to_json());
        assert_eq!(back, progress);
        assert_eq!(back.mark("a"), Mark::InProgress);
        assert_eq!(back.mark("b"), Mark::Done);
        assert_eq!(back.mark("c"), Mark::New);
    }

    #[test]
    fn unreadable_progress_is_none() {
        assert_eq!(Progress::from_json("{"), Progress::default());
        assert_eq!(Progress::from_json(r#"{"v":2}"#), Progress::default());
        let partial = Progress::from_json(
            r#"{"v":1,"current":{"source":3},"lessons":{"a":{"done":[null,{"after_ms":"x"}]}}}"#,
        );
        assert_eq!(partial.current, None);
        assert_eq!(partial.lessons["a"].done, vec![None, None]);
    }
}
