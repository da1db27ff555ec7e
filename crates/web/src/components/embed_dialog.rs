//! The Embed dialog: the `<dsplay-embed>` snippet (and an iframe fallback) for this session.

use yew::prelude::*;

/// Props of [`EmbedDialog`].
#[derive(Properties, PartialEq)]
pub struct EmbedDialogProps {
    /// The snippet to copy.
    pub text: String,
    /// Close the dialog.
    pub on_close: Callback<()>,
}

/// The snippet to paste into a documentation page.
#[function_component(EmbedDialog)]
pub fn embed_dialog(props: &EmbedDialogProps) -> Html {
    html! {
        <div class="modal-backdrop">
            <div class="modal export" role="dialog" aria-modal="true" aria-label="Embed">
                <h2>{"Embed this session in a page"}</h2>
                <p class="export-help">{"Paste this into an HTML page: the playground replays this session's commands. embed.js adds the <dsplay-embed> element; the iframe works without it."}</p>
                <textarea readonly=true aria-label="Embed code" value={props.text.clone()} spellcheck="false" />
                <div class="modal-actions">
                    <button class="btn primary" onclick={props.on_close.reform(|_| ())}>{"Close"}</button>
                </div>
            </div>
        </div>
    }
}
