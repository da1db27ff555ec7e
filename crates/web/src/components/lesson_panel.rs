//! The lesson panel: the current step's text (commands clickable), its goals ticking live, hints
//! revealed one at a time, the solution, step navigation, retrying the step, restarting the lesson
//! and leaving it; a finished lesson says
//! so and offers its result summary to copy.

use crate::browser::copy_text;
use crate::components::lesson_text::LessonText;
use crate::labels::Labels;
use crate::lesson_state::ActiveLesson;
use yew::prelude::*;

/// Props of [`LessonPanel`].
#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// The lesson being taken.
    pub lesson: ActiveLesson,
    /// The labels' and lesson's language.
    pub labels: &'static Labels,
    /// Shows another step.
    pub on_step: Callback<usize>,
    /// Runs the step's solution.
    pub on_solution: Callback<()>,
    /// Starts the lesson over.
    pub on_restart: Callback<()>,
    /// Leaves the lesson.
    pub on_exit: Callback<()>,
    /// Puts a command in the terminal's input.
    pub on_fill: Callback<String>,
    /// Runs a block of the text as if typed.
    pub on_run: Callback<String>,
}

/// The panel.
#[function_component(LessonPanel)]
pub fn lesson_panel(props: &LessonPanelProps) -> Html {
    let labels = props.labels;
    let language = labels.code;
    let active = &props.lesson;
    let lesson = active.lesson();
    let index = active.step;
    let step = &lesson.steps[index];
    // Hints shown for the step (none again on another step).
    let hints_shown = use_state(|| 0usize);
    {
        let hints_shown = hints_shown.setter();
        use_effect_with((lesson.id.clone(), index), move |_| hints_shown.set(0));
    }
    let copied = use_state(|| false);
    let finished = active.finished();
    let copy_result = {
        let (summary, copied) = (active.summary(language), copied.setter());
        Callback::from(move |_: MouseEvent| {
            copy_text(&summary);
            copied.set(true);
        })
    };
    let go = |to: usize| props.on_step.reform(move |_: MouseEvent| to);
    let last = lesson.steps.len() - 1;
    html! {
        <section class="panel lesson" aria-label={format!("{}: {}", labels.lessons, lesson.title.get(language))}
            data-lesson={lesson.id.clone()} data-step={index.to_string()}
            data-lesson-state={if finished { "complete" } else { "in-progress" }}>
            <div class="lesson-head">
                <h2 class="lesson-title">{lesson.title.get(language)}</h2>
                <button class="btn small" aria-label={labels.exit} title={labels.exit}
                    onclick={props.on_exit.reform(|_| ())}>{"×"}</button>
            </div>
            <ol class="lesson-steps" aria-label={labels.step}>
                { for lesson.steps.iter().enumerate().map(|(i, s)| {
                    let done = active.records.get(i).is_some_and(Option::is_some);
                    html! {
                        <li class={classes!(done.then_some("done"), (i == index).then_some("current"))}>
                            <button class="step-dot" title={s.title.get(language).to_string()}
                                aria-current={(i == index).then_some("step")}
                                data-step-done={done.to_string()} onclick={go(i)}>
                                { if done { "✓".to_string() } else { (i + 1).to_string() } }
                            </button>
                        </li>
                    }
                }) }
            </ol>
            if index == 0 {
                <LessonText text={AttrValue::from(lesson.intro.get(language).to_string())} {labels}
                    on_fill={props.on_fill.clone()} on_run={props.on_run.clone()} />
            }
            <h3 class="step-title">{format!("{} {} / {}: {}", labels.step, index + 1, lesson.steps.len(), step.title.get(language))}</h3>
            <LessonText text={AttrValue::from(step.text.get(language).to_string())} {labels}
                on_fill={props.on_fill.clone()} on_run={props.on_run.clone()} />
            <h4>{labels.goals}</h4>
            <ul class="goals">
                { for step.goals.iter().enumerate().map(|(i, goal)| {
                    let met = active.goals.get(i).copied().unwrap_or(false);
                    html! {
                        <li class={classes!("goal", met.then_some("met"))} data-goal={i.to_string()}
                            data-goal-state={if met { "met" } else { "unmet" }}>
                            <span class="goal-mark" aria-hidden="true">{if met { "✓" } else { "○" }}</span>
                            <span class="visually-hidden">{format!("{}: ", if met { labels.goal_met } else { labels.goal_unmet })}</span>
                            <span>{goal.text.get(language)}
                                if let (false, Some(hint)) = (met, &goal.hint) {
                                    <span class="goal-hint">{hint.get(language)}</span>
                                }
                            </span>
                        </li>
                    }
                }) }
            </ul>
            if *hints_shown > 0 {
                <ul class="hints">
                    { for step.hints.iter().take(*hints_shown).map(|hint| html! {
                        <li><strong>{format!("{}: ", labels.hint)}</strong>
                            <LessonText text={AttrValue::from(hint.get(language).to_string())} {labels}
                                on_fill={props.on_fill.clone()} on_run={props.on_run.clone()} /></li>
                    }) }
                </ul>
            }
            if finished {
                <p class="lesson-complete" role="status">{labels.lesson_complete}</p>
            } else if active.step_done() {
                <p class="step-done" role="status">{labels.step_done}</p>
            }
            <div class="lesson-actions">
                if *hints_shown < step.hints.len() {
                    <button class="btn" onclick={let h = hints_shown.clone(); Callback::from(move |_: MouseEvent| h.set(*h + 1))}>{labels.show_hint}</button>
                }
                <button class="btn" onclick={props.on_solution.reform(|_| ())}>{labels.run_solution}</button>
                <button class="btn" disabled={index == 0} onclick={go(index.saturating_sub(1))}>{labels.previous}</button>
                <button class={classes!("btn", active.step_done().then_some("primary"))} disabled={index == last}
                    onclick={go(index + 1)}>{labels.next}</button>
                <button class="btn" onclick={go(index)}>{labels.retry_step}</button>
                <button class="btn" onclick={props.on_restart.reform(|_| ())}>{labels.restart}</button>
                <button class={classes!("btn", finished.then_some("primary"))} onclick={copy_result}>{labels.copy_result}</button>
            </div>
            if *copied {
                <p class="muted" role="status">{labels.copied}</p>
            }
        </section>
    }
}
