//! The manifest editor: CodeMirror 6 (YAML highlighting, inline lint marks from our own
//! diagnostics, debounced) with the diagnostics list under it and the Apply button.
//! Ctrl/Cmd+Enter applies. When a command changed the applied DaemonSet since (drift), a banner
//! says so and offers the live manifest.

mod code_mirror;

use crate::diagnostics::{check, Diagnostic};
use code_mirror::CodeMirror;
use gloo::timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// How long typing must pause before the text is checked again (milliseconds).
const DEBOUNCE_MS: u32 = 300;

/// Props of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The text the editor starts with; a new value replaces the text.
    pub initial: AttrValue,
    /// The error of the last Apply (kubectl's text), if it failed.
    pub error: Option<Rc<str>>,
    /// Apply the text.
    pub on_apply: Callback<String>,
    /// The applied DaemonSet a command changed since (`daemonset.apps/demo`): the text is stale.
    #[prop_or_default]
    pub drift: Option<AttrValue>,
    /// Replace the text with the live manifest.
    #[prop_or_default]
    pub on_load_live: Callback<()>,
    /// The object `kubectl edit` opened in the editor (`daemonset.apps/demo`): Apply saves it.
    #[prop_or_default]
    pub editing: Option<AttrValue>,
}

thread_local! {
    /// The text of an editor the layout unmounted (a window crossing the phone breakpoint moves
    /// the panels), with the `initial` it had: the next editor mounts with it, so no typing is lost.
    static DRAFT: RefCell<Option<(AttrValue, String)>> = const { RefCell::new(None) };
}

/// The mounted CodeMirror, shared by the effects and the callbacks JS calls.
type Slot = Rc<RefCell<Option<CodeMirror>>>;

/// The editor panel.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let host = use_node_ref();
    let slot: Slot = use_mut_ref(|| None);
    let diagnostics = use_state(|| check(&props.initial));
    // JS keeps its callbacks across renders: they read the latest `on_apply` from here.
    let on_apply = use_mut_ref(|| props.on_apply.clone());
    *on_apply.borrow_mut() = props.on_apply.clone();
    let apply: Rc<dyn Fn()> = {
        let slot = slot.clone();
        Rc::new(move || {
            let text = slot.borrow().as_ref().map(CodeMirror::text);
            let callback = on_apply.borrow().clone();
            if let Some(text) = text {
                callback.emit(text);
            }
        })
    };
    // The text to mount with when the bundle arrives (the latest, not the first render's).
    let latest = use_mut_ref(|| props.initial.clone());
    *latest.borrow_mut() = props.initial.clone();
    let loaded = use_state(|| false);
    {
        let (host, slot, apply) = (host.clone(), slot.clone(), apply.clone());
        let on_change = recheck_later(slot.clone(), diagnostics.setter());
        let (found_setter, loaded) = (diagnostics.setter(), loaded.setter());
        use_effect_with((), move |_| {
            let mounted = Rc::new(Cell::new(true));
            let still_mounted = mounted.clone();
            let slot_for_mount = slot.clone();
            let latest_for_draft = latest.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if let Err(e) = code_mirror::load().await {
                    gloo::console::error!(format!("the manifest editor failed to load: {e}"));
                    return;
                }
                let Some(parent) = host.cast::<Element>().filter(|_| still_mounted.get()) else {
                    return;
                };
                let initial = latest.borrow().clone();
                let text = DRAFT
                    .with(|draft| draft.borrow_mut().take())
                    .filter(|(draft_initial, _)| *draft_initial == initial)
                    .map_or_else(|| initial.to_string(), |(_, text)| text);
                match CodeMirror::create(&parent, &text, on_change, move || apply()) {
                    Ok(editor) => {
                        let found = check(&text);
                        editor.set_diagnostics(&found);
                        *slot_for_mount.borrow_mut() = Some(editor);
                        found_setter.set(found);
                        loaded.set(true);
                    }
                    Err(e) => gloo::console::error!(format!("the manifest editor failed: {e}")),
                }
            });
            // Dropping the editor unmounts it (and breaks the slot ↔ closure cycle).
            move || {
                mounted.set(false);
                if let Some(editor) = slot.borrow_mut().take() {
                    let draft = (latest_for_draft.borrow().clone(), editor.text());
                    DRAFT.with(|slot| *slot.borrow_mut() = Some(draft));
                }
            }
        });
    }
    {
        let slot = slot.clone();
        use_effect_with(props.initial.clone(), move |initial| {
            if let Some(editor) = slot.borrow().as_ref() {
                if editor.text() != initial.as_str() {
                    editor.set_text(initial);
                }
            }
        });
    }
    let onclick = Callback::from(move |_: MouseEvent| apply());
    html! {
        <section class="panel editor" aria-label="Manifest editor">
            <header class="panel-head">
                <h2>{"Manifest"}</h2>
                <button class="btn primary" {onclick} title="Apply (Ctrl+Enter)">{"Apply"}</button>
            </header>
            if let Some(object) = &props.editing {
                <div class="drift editing" role="status">
                    <span>{format!("kubectl edit: {object} is open here. Change it and press Apply to save it.")}</span>
                </div>
            }
            if let Some(object) = &props.drift {
                <div class="drift" role="status">
                    <span>{format!("{object} changed since this was applied (e.g. kubectl set image): Apply would undo that.")}</span>
                    <button class="btn small" onclick={props.on_load_live.reform(|_: MouseEvent| ())}>{"Load live manifest"}</button>
                </div>
            }
            <div class="yaml code-editor" ref={host} hidden={!*loaded} />
            if !*loaded {
                // Until the editor's bundle arrives: the text, read-only.
                <pre class="yaml code-editor-loading">{props.initial.to_string()}</pre>
            }
            if !diagnostics.is_empty() {
                <ul class="diagnostics" aria-label="Diagnostics">
                    { for diagnostics.iter().map(|Diagnostic { severity, message, line }| html! {
                        <li class={classes!("diagnostic", *severity)} title={format!("line {line}")}>{message}</li>
                    }) }
                </ul>
            }
            if let Some(error) = &props.error {
                <pre class="apply-error" role="alert">{error.to_string()}</pre>
            }
        </section>
    }
}

/// The editor's change handler: (re)starts a timer that checks the text, marks the problems
/// inline and lists them. Only arms a timer, because CodeMirror is mid-update when it runs.
fn recheck_later(slot: Slot, diagnostics: UseStateSetter<Vec<Diagnostic>>) -> impl FnMut() {
    let mut pending = None::<Timeout>;
    move || {
        let (slot, diagnostics) = (slot.clone(), diagnostics.clone());
        let timer = Timeout::new(DEBOUNCE_MS, move || {
            let found = match slot.borrow().as_ref() {
                Some(editor) => {
                    let found = check(&editor.text());
                    editor.set_diagnostics(&found);
                    found
                }
                None => return,
            };
            diagnostics.set(found);
        });
        if let Some(previous) = pending.replace(timer) {
            previous.cancel();
        }
    }
}
