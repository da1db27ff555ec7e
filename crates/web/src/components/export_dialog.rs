//! The Export dialog: the kind config and replay script to copy, and a download link.

use crate::browser::encode_uri_component;
use yew::prelude::*;

/// Props of [`ExportDialog`].
#[derive(Properties, PartialEq)]
pub struct ExportDialogProps {
    /// The text to show and download.
    pub text: String,
    /// Close the dialog.
    pub on_close: Callback<()>,
}

/// The export: the text to copy and a download link.
#[function_component(ExportDialog)]
pub fn export_dialog(props: &ExportDialogProps) -> Html {
    let href = format!(
        "data:text/plain;charset=utf-8,{}",
        encode_uri_component(&props.text)
    );
    html! {
        <div class="modal-backdrop">
            <div class="modal export" role="dialog" aria-modal="true" aria-label="Export">
                <h2>{"Export to a real cluster"}</h2>
                <p class="export-help">{"A kind cluster config reproducing the nodes, then the session as a kubectl script (sim lines are comments)."}</p>
                <textarea readonly=true aria-label="Export text" value={props.text.clone()} spellcheck="false" />
                <div class="modal-actions">
                    <a class="btn" href={href} download="dsplay-export.txt">{"Download"}</a>
                    <button class="btn primary" onclick={props.on_close.reform(|_| ())}>{"Close"}</button>
                </div>
            </div>
        </div>
    }
}
