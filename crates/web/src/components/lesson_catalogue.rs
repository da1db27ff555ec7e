//! The lesson catalogue: a modal list of the built-in lessons (title, level, minutes, and a done
//! or in-progress mark from the saved progress); picking one starts it. Esc closes it (the app's
//! keyboard shortcuts).

use crate::hooks::lessons::Catalogue;
use crate::labels::Labels;
use crate::lesson_progress::{Mark, Progress};
use crate::lesson_state::LoadedLesson;
use yew::prelude::*;

/// Props of [`LessonCatalogue`].
#[derive(Properties, PartialEq)]
pub struct LessonCatalogueProps {
    /// The lessons (or why they are not there yet).
    pub catalogue: Catalogue,
    /// The saved progress (for the marks).
    pub progress: Progress,
    /// The labels' and lessons' language.
    pub labels: &'static Labels,
    /// Takes a lesson.
    pub on_pick: Callback<LoadedLesson>,
    /// Closes the catalogue.
    pub on_close: Callback<()>,
}

/// The catalogue dialog.
#[function_component(LessonCatalogue)]
pub fn lesson_catalogue(props: &LessonCatalogueProps) -> Html {
    let labels = props.labels;
    let first = use_node_ref();
    {
        let first = first.clone();
        let loaded = matches!(props.catalogue, Catalogue::Loaded(_));
        use_effect_with(loaded, move |_| {
            if let Some(button) = first.cast::<web_sys::HtmlElement>() {
                let _ = button.focus();
            }
        });
    }
    let body = match &props.catalogue {
        Catalogue::Loading => html! { <p class="muted" role="status">{labels.loading}</p> },
        Catalogue::Failed(e) => html! { <p class="lesson-error" role="alert">{e.clone()}</p> },
        Catalogue::Loaded(lessons) => html! {
            <ul class="catalogue-list">
                { for lessons.iter().enumerate().map(|(i, loaded)| {
                    let lesson = &loaded.lesson;
                    let mark = props.progress.mark(&lesson.id);
                    let (mark_class, mark_text) = match mark {
                        Mark::Done => ("mark done", labels.done),
                        Mark::InProgress => ("mark in-progress", labels.in_progress),
                        Mark::New => ("mark", ""),
                    };
                    let onclick = {
                        let (on_pick, loaded) = (props.on_pick.clone(), loaded.clone());
                        Callback::from(move |_: MouseEvent| on_pick.emit(loaded.clone()))
                    };
                    let reference = if i == 0 { first.clone() } else { NodeRef::default() };
                    html! {
                        <li>
                            <button class="catalogue-entry" data-lesson={lesson.id.clone()}
                                data-mark={match mark { Mark::Done => "done", Mark::InProgress => "in-progress", Mark::New => "new" }}
                                ref={reference} {onclick}>
                                <span class="entry-title">{lesson.title.get(labels.code)}</span>
                                <span class="entry-meta">
                                    <span class={classes!("level", lesson.level.as_str())}>{labels.level(lesson.level)}</span>
                                    <span class="minutes">{format!("{} {}", lesson.minutes, labels.minutes)}</span>
                                    if !mark_text.is_empty() { <span class={mark_class}>{mark_text}</span> }
                                </span>
                            </button>
                        </li>
                    }
                }) }
            </ul>
        },
    };
    html! {
        <div class="modal-backdrop" onclick={props.on_close.reform(|_| ())}>
            <div class="modal catalogue" role="dialog" aria-modal="true" aria-label={labels.lessons}
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2>{labels.lessons}</h2>
                {body}
                <div class="modal-actions">
                    <button class="btn" onclick={props.on_close.reform(|_| ())}>{labels.close}</button>
                </div>
            </div>
        </div>
    }
}
