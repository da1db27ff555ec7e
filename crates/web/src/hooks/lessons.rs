//! Lessons' browser side: the catalogue fetched when first needed, a lesson opened from a link
//! (`#lesson=<id>`, also followed while the app is open; `?lesson=<url>`) or resumed from the
//! saved progress on load, the free-play session set aside (to restore) when a lesson starts, and
//! the progress saved whenever it changes.

use crate::browser::{drop_link_params, location_search_and_hash, storage_get, storage_set};
use crate::lesson_loader::{fetch_catalogue, fetch_lesson, inline_source};
use crate::lesson_progress::{Current, LessonProgress, Progress, PROGRESS_KEY};
use crate::lesson_state::LoadedLesson;
use crate::persist::{PageParams, PREVIOUS_KEY, STORAGE_KEY};
use crate::state::{Action, State};
use std::rc::Rc;
use yew::platform::spawn_local;
use yew::prelude::*;

/// The built-in lessons, once asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Catalogue {
    /// Being fetched.
    Loading,
    /// Fetched and parsed.
    Loaded(Rc<Vec<LoadedLesson>>),
    /// Fetching or parsing failed.
    Failed(String),
}

/// What the hook gives the app.
pub struct Lessons {
    /// The catalogue (`None` until first asked for).
    pub catalogue: Option<Catalogue>,
    /// Fetch the catalogue (once).
    pub load_catalogue: Callback<()>,
    /// Take a lesson from its first step (keeping the steps done on an earlier visit).
    pub start: Callback<LoadedLesson>,
    /// Take the built-in lesson with this id (`None`: the first one).
    pub start_built_in: Callback<Option<String>>,
    /// Start the current lesson over, forgetting its steps done.
    pub restart: Callback<()>,
    /// A lesson that could not be opened: why (with the file, line and column of a parse error).
    pub error: Option<String>,
    /// Hide the error.
    pub dismiss_error: Callback<()>,
}

/// The saved progress.
pub fn load_progress() -> Progress {
    storage_get(PROGRESS_KEY)
        .map(|text| Progress::from_json(&text))
        .unwrap_or_default()
}

/// Takes `loaded` at `step` with `earlier` records, setting the free-play session aside first.
fn begin(
    state: &UseReducerHandle<State>,
    loaded: LoadedLesson,
    step: usize,
    earlier: Vec<Option<dsplay_lesson::StepRecord>>,
) {
    let previous_kept = state.lesson.is_none()
        && storage_get(STORAGE_KEY).is_some_and(|text| storage_set(PREVIOUS_KEY, &text).is_ok());
    state.dispatch(Action::StartLesson {
        loaded,
        step,
        earlier,
        previous_kept,
    });
}

/// The records saved for lesson `id`.
fn earlier_records(id: &str) -> Vec<Option<dsplay_lesson::StepRecord>> {
    load_progress()
        .lessons
        .remove(id)
        .map(|p| p.done)
        .unwrap_or_default()
}

/// Wires lessons to the state (see the module docs).
#[hook]
pub fn use_lessons(state: &UseReducerHandle<State>, params: &PageParams) -> Lessons {
    let catalogue = use_state(|| None::<Catalogue>);
    let error = use_state(|| None::<String>);
    let load_catalogue = {
        let catalogue = catalogue.clone();
        Callback::from(move |_| {
            if matches!(*catalogue, None | Some(Catalogue::Failed(_))) {
                catalogue.set(Some(Catalogue::Loading));
                let catalogue = catalogue.clone();
                spawn_local(async move {
                    catalogue.set(Some(match fetch_catalogue().await {
                        Ok(lessons) => Catalogue::Loaded(Rc::new(lessons)),
                        Err(e) => Catalogue::Failed(e),
                    }));
                });
            }
        })
    };
    let start = {
        let state = state.clone();
        Callback::from(move |loaded: LoadedLesson| {
            let earlier = earlier_records(&loaded.lesson.id);
            begin(&state, loaded, 0, earlier);
        })
    };
    let start_built_in = {
        let (state, error) = (state.clone(), error.setter());
        Callback::from(move |id: Option<String>| {
            let (state, error) = (state.clone(), error.clone());
            spawn_local(async move {
                let lessons = match fetch_catalogue().await {
                    Ok(lessons) => lessons,
                    Err(e) => return error.set(Some(e)),
                };
                let found = lessons
                    .into_iter()
                    .find(|l| id.as_ref().is_none_or(|id| &l.lesson.id == id));
                match found {
                    Some(loaded) => {
                        let earlier = earlier_records(&loaded.lesson.id);
                        begin(&state, loaded, 0, earlier);
                    }
                    None => error.set(Some(format!(
                        "There is no built-in lesson \"{}\".",
                        id.unwrap_or_default()
                    ))),
                }
            });
        })
    };
    let restart = {
        let state = state.clone();
        Callback::from(move |_| {
            if let Some(lesson) = &state.lesson {
                begin(&state, lesson.loaded.clone(), 0, Vec::new());
            }
        })
    };
    // On load: a lesson link, else the lesson being taken when the page was left.
    {
        let (state, params, error, start_built_in) = (
            state.clone(),
            params.clone(),
            error.setter(),
            start_built_in.clone(),
        );
        use_effect_with((), move |_| {
            if !params.embed {
                let from_link = params.lesson_url.is_some()
                    || params.lesson_id.is_some()
                    || params.lesson_text.is_some();
                if from_link {
                    drop_link_params();
                }
                let url = params
                    .lesson_url
                    .or_else(|| params.lesson_text.as_deref().map(inline_source));
                if let Some(url) = url {
                    spawn_local(async move {
                        match fetch_lesson(&url).await {
                            Ok(loaded) => {
                                let earlier = earlier_records(&loaded.lesson.id);
                                begin(&state, loaded, 0, earlier);
                            }
                            Err(e) => error.set(Some(e)),
                        }
                    });
                } else if params.lesson_id.is_some() {
                    start_built_in.emit(params.lesson_id);
                } else if let (None, None, Some(current)) =
                    (&params.shared, &params.script, load_progress().current)
                {
                    spawn_local(async move {
                        match fetch_lesson(&current.source).await {
                            Ok(loaded) => {
                                let earlier = earlier_records(&loaded.lesson.id);
                                begin(&state, loaded, current.step, earlier);
                            }
                            Err(e) => {
                                // Not again on every load: free play it is.
                                let mut progress = load_progress();
                                progress.current = None;
                                let _ = storage_set(PROGRESS_KEY, &progress.to_json());
                                error.set(Some(e));
                            }
                        }
                    });
                }
            }
        });
    }
    // A `#lesson=` link followed while the app is open changes the hash only (no reload).
    {
        let start_built_in = start_built_in.clone();
        use_effect_with(params.embed, move |embed| {
            let listener = (!*embed).then(web_sys::window).flatten().map(|window| {
                gloo::events::EventListener::new(&window, "hashchange", move |_| {
                    let (search, hash) = location_search_and_hash();
                    if let Some(id) = PageParams::parse(&search, &hash).lesson_id {
                        drop_link_params();
                        start_built_in.emit(Some(id));
                    }
                })
            });
            move || drop(listener)
        });
    }
    use_progress_saving(state);
    Lessons {
        catalogue: (*catalogue).clone(),
        load_catalogue,
        start,
        start_built_in,
        restart,
        error: (*error).clone(),
        dismiss_error: {
            let error = error.setter();
            Callback::from(move |_| error.set(None))
        },
    }
}

/// Saves the progress whenever the lesson, its step or its records change; leaving a lesson
/// clears the current one (its records stay).
#[hook]
fn use_progress_saving(state: &UseReducerHandle<State>) {
    let had_lesson = use_mut_ref(|| false);
    use_effect_with(state.lesson.clone(), move |lesson| {
        let mut progress = load_progress();
        match lesson {
            Some(lesson) => {
                progress.current = Some(Current {
                    source: lesson.loaded.source.to_string(),
                    step: lesson.step,
                });
                progress.lessons.insert(
                    lesson.lesson().id.clone(),
                    LessonProgress {
                        done: lesson.records.to_vec(),
                    },
                );
            }
            None if *had_lesson.borrow() => progress.current = None,
            None => return,
        }
        *had_lesson.borrow_mut() = lesson.is_some();
        let _ = storage_set(PROGRESS_KEY, &progress.to_json());
    });
}
