//! The manifest editor: a textarea with live diagnostics (debounced) and the Apply button.
//! Ctrl/Cmd+Enter applies.

use crate::diagnostics::{check, Diagnostic};
use gloo::timers::callback::Timeout;
use std::rc::Rc;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// Props of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The text the editor starts with.
    pub initial: AttrValue,
    /// The error of the last Apply (kubectl's text), if it failed.
    pub error: Option<Rc<str>>,
    /// Apply the text.
    pub on_apply: Callback<String>,
}

/// The editor panel.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let text = use_mut_ref(|| props.initial.to_string());
    let diagnostics = use_state(|| check(&props.initial));
    let debounce = use_mut_ref(|| None::<Timeout>);
    let oninput = {
        let (text, diagnostics, debounce) = (text.clone(), diagnostics.clone(), debounce.clone());
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            *text.borrow_mut() = area.value();
            let (text, diagnostics) = (text.clone(), diagnostics.clone());
            *debounce.borrow_mut() = Some(Timeout::new(300, move || {
                diagnostics.set(check(&text.borrow()))
            }));
        })
    };
    let apply = {
        let (text, on_apply) = (text.clone(), props.on_apply.clone());
        move || on_apply.emit(text.borrow().clone())
    };
    let onkeydown = {
        let apply = apply.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                apply();
            }
        })
    };
    let onclick = Callback::from(move |_: MouseEvent| apply());
    html! {
        <section class="panel editor" aria-label="Manifest editor">
            <header class="panel-head">
                <h2>{"Manifest"}</h2>
                <button class="btn primary" {onclick} title="Apply (Ctrl+Enter)">{"Apply"}</button>
            </header>
            <textarea class="yaml" spellcheck="false" aria-label="Manifest YAML" {oninput} {onkeydown}
                defaultvalue={props.initial.clone()} autocomplete="off" autocapitalize="off" />
            if !diagnostics.is_empty() {
                <ul class="diagnostics" aria-label="Diagnostics">
                    { for diagnostics.iter().map(|Diagnostic { severity, message }| html! {
                        <li class={classes!("diagnostic", *severity)}>{message}</li>
                    }) }
                </ul>
            }
            if let Some(error) = &props.error {
                <pre class="apply-error" role="alert">{error.to_string()}</pre>
            }
        </section>
    }
}
