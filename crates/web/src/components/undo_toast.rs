//! The one-click Undo after a destructive action (deleting from a node card, Reset): the session as
//! it was just before is kept, and Undo loads it back (the fork at the instant before). The offer
//! lasts until the next command or Apply, or until it is dismissed.

use crate::persist::Saved;
use std::rc::Rc;
use yew::prelude::*;

/// What Undo restores.
#[derive(Clone, Debug, PartialEq)]
pub struct UndoOffer {
    /// What was done, e.g. `Ran kubectl delete node kind-worker`.
    pub what: Rc<str>,
    /// The session just before it.
    pub before: Rc<Saved>,
}

/// A command from a card button that destroys something (it gets an Undo toast).
pub fn is_destructive(command: &str) -> bool {
    command.starts_with("kubectl delete ")
}

/// Props of [`UndoToast`].
#[derive(Properties, PartialEq)]
pub struct UndoToastProps {
    /// The offer.
    pub offer: UndoOffer,
    /// Restore `offer.before`.
    pub on_undo: Callback<Rc<Saved>>,
    /// Drop the offer.
    pub on_dismiss: Callback<()>,
}

/// The toast: what was done, Undo, ×. When the action takes the focus away with it (the deleted
/// card's button, or the page's start once it is gone), the focus moves to Undo.
#[function_component(UndoToast)]
pub fn undo_toast(props: &UndoToastProps) -> Html {
    let undo = use_node_ref();
    {
        let undo = undo.clone();
        use_effect_with(props.offer.clone(), move |_| {
            let lost = gloo::utils::document().active_element().is_none_or(|el| {
                el.tag_name() == "BODY" || el.closest(".node-actions").ok().flatten().is_some()
            });
            if let Some(button) = undo.cast::<web_sys::HtmlElement>().filter(|_| lost) {
                let _ = button.focus();
            }
        });
    }
    let before = props.offer.before.clone();
    html! {
        <div class="undo-toast" role="status">
            <span>{props.offer.what.to_string()}</span>
            <button ref={undo} class="btn small primary" onclick={props.on_undo.reform(move |_: MouseEvent| before.clone())}>{"Undo"}</button>
            <button class="btn small" aria-label="Dismiss undo" onclick={props.on_dismiss.reform(|_: MouseEvent| ())}>{"×"}</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deletes_are_destructive() {
        assert!(is_destructive("kubectl delete node kind-worker"));
        assert!(!is_destructive("kubectl cordon kind-worker"));
        assert!(!is_destructive("sim node fail kind-worker"));
    }
}
