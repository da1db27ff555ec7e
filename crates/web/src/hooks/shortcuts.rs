//! The global keyboard shortcuts.

use crate::state::{Action, State};
use yew::prelude::*;

/// Space = play/pause, → = step, ? = the shortcuts sheet, Esc = close (unless typing in a field).
#[hook]
pub fn use_shortcuts(dispatcher: UseReducerDispatcher<State>, on_key: Callback<&'static str>) {
    use_effect_with(on_key.clone(), move |on_key| {
        let on_key = on_key.clone();
        let listener = gloo::utils::document_element()
            .owner_document()
            .map(|document| {
                // Not passive: Space and → must prevent the page from scrolling.
                let options = gloo::events::EventListenerOptions::enable_prevent_default();
                gloo::events::EventListener::new_with_options(
                    &document,
                    "keydown",
                    options,
                    move |e| {
                        let Some(e) = wasm_bindgen::JsCast::dyn_ref::<web_sys::KeyboardEvent>(e)
                        else {
                            return;
                        };
                        if e.ctrl_key() || e.meta_key() || e.alt_key() {
                            return;
                        }
                        if e.key() == "Escape" {
                            on_key.emit("Escape");
                            return;
                        }
                        if is_typing_target(e.target()) {
                            return;
                        }
                        match e.key().as_str() {
                            " " => {
                                e.prevent_default();
                                dispatcher.dispatch(Action::TogglePlay);
                            }
                            "ArrowRight" => {
                                e.prevent_default();
                                dispatcher.dispatch(Action::Step);
                            }
                            "?" => {
                                e.prevent_default();
                                on_key.emit("?");
                            }
                            _ => {}
                        }
                    },
                )
            });
        move || drop(listener)
    });
}

/// The key went to a form field, an editable element (where keys type, not command) or a splitter
/// (where the arrow keys resize).
fn is_typing_target(target: Option<web_sys::EventTarget>) -> bool {
    target
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .map(|el| {
            matches!(
                el.tag_name().as_str(),
                "INPUT" | "TEXTAREA" | "SELECT" | "BUTTON"
            ) || el.get_attribute("role").as_deref() == Some("separator")
                || el
                    .closest("[contenteditable='true']")
                    .ok()
                    .flatten()
                    .is_some()
        })
        .unwrap_or(false)
}
