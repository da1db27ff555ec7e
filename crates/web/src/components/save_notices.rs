//! The banners about where the session is kept: the offer to restore the session a link set
//! aside, and autosave trouble (storage full, another tab saving).

use crate::hooks::autosave::AutosaveStatus;
use yew::prelude::*;

/// Props of [`SaveNotices`].
#[derive(Properties, PartialEq)]
pub struct SaveNoticesProps {
    /// Whether this tab saves.
    pub status: AutosaveStatus,
    /// Make this tab the one that saves.
    pub on_take_over: Callback<()>,
    /// A link replaced the session; the previous one can be restored.
    pub previous_session: bool,
    /// It was a lesson (not a link) that replaced it.
    #[prop_or_default]
    pub by_lesson: bool,
    /// Restore the previous session.
    pub on_restore: Callback<()>,
    /// Hide the restore offer.
    pub on_dismiss: Callback<()>,
}

/// The banners (nothing when all is well).
#[function_component(SaveNotices)]
pub fn save_notices(props: &SaveNoticesProps) -> Html {
    let status = match &props.status {
        AutosaveStatus::Saving => html! {},
        AutosaveStatus::Failed(reason) => html! {
            <div class="notice save-failed" role="alert">
                <span>{format!("Autosave failed ({reason}): the browser's storage is full or disabled. \
                    Your session goes on here, and the last save is kept; use Share or Export to keep the rest.")}</span>
            </div>
        },
        AutosaveStatus::OtherTab => html! {
            <div class="notice other-tab" role="alert">
                <span>{"This playground is also open in another tab, which now saves the session. \
                    Commands you run here are not saved."}</span>
                <button class="btn small" onclick={props.on_take_over.reform(|_| ())}>{"Save this tab instead"}</button>
            </div>
        },
    };
    html! {
        <>
            if props.previous_session {
                <div class="notice previous-session" role="status">
                    <span>{if props.by_lesson {
                        "The lesson runs in a fresh session; your previous session is kept."
                    } else {
                        "This link opened in a fresh session; your previous session is kept."
                    }}</span>
                    <button class="btn small" onclick={props.on_restore.reform(|_| ())}>{"Restore your previous session"}</button>
                    <button class="btn small" aria-label="Dismiss" onclick={props.on_dismiss.reform(|_| ())}>{"×"}</button>
                </div>
            }
            {status}
        </>
    }
}
