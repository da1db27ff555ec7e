//! A dialog that shows a text to copy (and, given a file name, a download link): the Export
//! dialog (kind config and replay script) and the Embed dialog (the `<dsplay-embed>` snippet).

use crate::browser::encode_uri_component;
use yew::prelude::*;

/// Props of [`TextDialog`].
#[derive(Properties, PartialEq)]
pub struct TextDialogProps {
    /// The dialog's accessible name.
    pub name: AttrValue,
    /// Its heading.
    pub title: AttrValue,
    /// What the text is and what to do with it.
    pub help: AttrValue,
    /// The text area's accessible name.
    pub text_label: AttrValue,
    /// The text to show (and download).
    pub text: String,
    /// Offer the text as a download under this file name.
    #[prop_or_default]
    pub download: Option<AttrValue>,
    /// Close the dialog.
    pub on_close: Callback<()>,
}

/// The text, read-only, with Download (optional) and Close.
#[function_component(TextDialog)]
pub fn text_dialog(props: &TextDialogProps) -> Html {
    let download = props.download.clone().map(|file| {
        let href = format!(
            "data:text/plain;charset=utf-8,{}",
            encode_uri_component(&props.text)
        );
        html! { <a class="btn" href={href} download={file}>{"Download"}</a> }
    });
    html! {
        <div class="modal-backdrop">
            <div class="modal export" role="dialog" aria-modal="true" aria-label={props.name.clone()}>
                <h2>{props.title.clone()}</h2>
                <p class="export-help">{props.help.clone()}</p>
                <textarea readonly=true aria-label={props.text_label.clone()} value={props.text.clone()} spellcheck="false" />
                <div class="modal-actions">
                    {download}
                    <button class="btn primary" onclick={props.on_close.reform(|_| ())}>{"Close"}</button>
                </div>
            </div>
        </div>
    }
}
