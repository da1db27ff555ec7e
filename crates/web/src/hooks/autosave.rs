//! Autosave: the session's log goes to `localStorage` whenever it changes, compacted (merged clock
//! advances) so that what is written always restores.
//!
//! Two tabs of the app share one save. A tab learns from the `storage` event that another tab
//! wrote it; it then stops saving (so neither tab silently overwrites the other's commands) and
//! says so, with a button to make it the saving tab again. A refused write (quota exceeded) is
//! reported, and the last good save is kept.

use crate::browser::{storage_remove, storage_set};
use crate::persist::{parse_advance_entry, Saved, STORAGE_KEY};
use crate::state::State;
use std::rc::Rc;
use yew::prelude::*;

/// Whether this tab's session is being saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutosaveStatus {
    /// Every change is saved (or there is nothing worth saving).
    Saving,
    /// The browser refused the last write (the reason it gave); the previous save is kept.
    Failed(String),
    /// Another tab saves the session; this tab's changes are not saved.
    OtherTab,
}

/// The autosave's state, and a callback that makes this tab the one that saves.
pub struct Autosave {
    /// Whether this tab saves.
    pub status: AutosaveStatus,
    /// Save from this tab again (the other tab then stops).
    pub take_over: Callback<()>,
}

/// Saves the log to `localStorage` whenever it changes (not in embed mode, nor during a lesson).
#[hook]
pub fn use_autosave(state: &UseReducerHandle<State>, embed: bool) -> Autosave {
    let status = use_state_eq(|| AutosaveStatus::Saving);
    let last = use_mut_ref(|| None::<(*const Vec<String>, bool)>);
    {
        let status = status.setter();
        use_effect_with(embed, move |embed| {
            let listener = (!*embed).then(web_sys::window).flatten().map(|window| {
                gloo::events::EventListener::new(&window, "storage", move |e| {
                    if is_about_the_autosave(e) {
                        status.set(AutosaveStatus::OtherTab);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let take_over = {
        let (status, last) = (status.setter(), last.clone());
        Callback::from(move |_| {
            // Forget what was last saved, so the next render writes this tab's session.
            *last.borrow_mut() = Some((std::ptr::null(), false));
            status.set(AutosaveStatus::Saving);
        })
    };
    let key = (Rc::as_ptr(&state.log), state.playing);
    // A lesson's session is not the free-play one: its progress is saved apart.
    // Nor a restored session still being replayed (its log is not whole yet).
    let skip = embed
        || state.lesson.is_some()
        || state.replaying.is_some()
        || *status == AutosaveStatus::OtherTab
        || *last.borrow() == Some(key);
    if !skip {
        let first = last.borrow().is_none();
        *last.borrow_mut() = Some(key);
        // On the first render, keep a corrupted autosave's message (the default is not worth
        // saving then).
        if !(first && state.notice.is_some()) {
            let saved = state.saved().compacted();
            let result = if worth_saving(&saved) {
                storage_set(STORAGE_KEY, &saved.to_json())
            } else {
                storage_remove(STORAGE_KEY);
                Ok(())
            };
            status.set(match result {
                Ok(()) => AutosaveStatus::Saving,
                Err(reason) => AutosaveStatus::Failed(reason),
            });
        }
    }
    Autosave {
        status: (*status).clone(),
        take_over,
    }
}

/// A `storage` event (another tab wrote) about the autosave's key, or clearing all storage.
fn is_about_the_autosave(e: &web_sys::Event) -> bool {
    wasm_bindgen::JsCast::dyn_ref::<web_sys::StorageEvent>(e)
        .is_some_and(|e| e.key().is_none_or(|key| key == STORAGE_KEY))
}

/// The log differs from the default one in more than the passing of time.
fn worth_saving(saved: &Saved) -> bool {
    let default = State::default_saved();
    saved.seed != default.seed
        || !saved
            .log
            .iter()
            .filter(|e| parse_advance_entry(e).is_none())
            .eq(default.log.iter())
}
