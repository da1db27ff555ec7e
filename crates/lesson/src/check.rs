//! The lesson checker behind `dsplay lesson check`: a lesson is sound when it parses, every text has
//! every declared language, its setup runs, no step is already done when it begins, and each step's
//! solution reaches the step's goals.

use crate::format::{parse, Lesson};
use crate::run::{start_session, LessonRun};
use crate::text::Text;

/// What the checker found in one lesson file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonReport {
    /// The file name given.
    pub source: String,
    /// The lesson's id, if it parsed.
    pub id: Option<String>,
    /// Number of steps, if it parsed.
    pub steps: usize,
    /// Languages, if it parsed.
    pub languages: Vec<String>,
    /// Each problem, one line (or more for command output); empty when sound.
    pub problems: Vec<String>,
}

impl LessonReport {
    /// No problem found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks one lesson file's text; `source` names it in the report.
pub fn check_lesson(source: &str, text: &str) -> LessonReport {
    let mut report = LessonReport {
        source: source.to_string(),
        id: None,
        steps: 0,
        languages: Vec::new(),
        problems: Vec::new(),
    };
    let lesson = match parse(source, text) {
        Ok(lesson) => lesson,
        Err(e) => {
            report.problems.push(e.to_string());
            return report;
        }
    };
    report.id = Some(lesson.id.clone());
    report.steps = lesson.steps.len();
    report.languages = lesson.languages.clone();
    check_translations(&lesson, &mut report.problems);
    check_steps(&lesson, &mut report.problems);
    report
}

/// Every text in every declared language.
fn check_translations(lesson: &Lesson, problems: &mut Vec<String>) {
    let mut texts: Vec<(String, &Text)> = vec![
        ("title".into(), &lesson.title),
        ("intro".into(), &lesson.intro),
    ];
    for (s, step) in lesson.steps.iter().enumerate() {
        texts.push((format!("steps[{s}].title"), &step.title));
        texts.push((format!("steps[{s}].text"), &step.text));
        for (h, hint) in step.hints.iter().enumerate() {
            texts.push((format!("steps[{s}].hints[{h}]"), hint));
        }
        for (g, goal) in step.goals.iter().enumerate() {
            texts.push((format!("steps[{s}].goals[{g}].text"), &goal.text));
            if let Some(hint) = &goal.hint {
                texts.push((format!("steps[{s}].goals[{g}].hint"), hint));
            }
        }
    }
    for (path, text) in texts {
        let missing = text.missing(&lesson.languages);
        if !missing.is_empty() {
            problems.push(format!("{path}: no text in {}", missing.join(", ")));
        }
    }
}

/// Setup, then per step: not done at its start, done after its solution.
fn check_steps(lesson: &Lesson, problems: &mut Vec<String>) {
    let mut session = match start_session(lesson) {
        Ok(session) => session,
        Err(e) => {
            problems.push(format!(
                "setup: `{}` failed:\n{}",
                e.command,
                indent(&e.output)
            ));
            return;
        }
    };
    let mut run = LessonRun::new(lesson.clone(), &mut session);
    for (index, step) in lesson.steps.iter().enumerate() {
        let name = format!("step {} ({})", index + 1, step.title.get("en"));
        if run.update(&session).done {
            problems.push(format!(
                "{name}: every goal already holds when the step begins; the learner has nothing to do"
            ));
        }
        for output in run.execute(&mut session, &step.solution) {
            if !output.success {
                problems.push(format!(
                    "{name}: solution command `{}` failed:\n{}",
                    output.command,
                    indent(&output.text())
                ));
            }
        }
        let state = run.update(&session);
        for (goal, met) in step.goals.iter().zip(&state.goals) {
            if !met {
                problems.push(format!(
                    "{name}: the solution does not reach the goal \"{}\"",
                    goal.text.get("en")
                ));
            }
        }
        if index + 1 < lesson.steps.len() {
            run.go_to(index + 1, &mut session);
        }
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}\n"))
        .collect::<String>()
        .trim_end()
        .to_string()
}
