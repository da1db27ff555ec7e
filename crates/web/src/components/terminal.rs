//! The terminal: a `kubectl …`/`sim …` prompt with history (↑/↓) and Tab completion; output is
//! shown exactly as the interpreter returned it. The prompt is a textarea, so pasted lines stay
//! lines, Shift+Enter adds one and an open here-document continues with `> ` (see [`crate::prompt`]).

use crate::completion::complete;
use crate::prompt;
use dsplay_kubectl::{CommandOutput, Stream};
use std::rc::Rc;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// Props of [`Terminal`].
#[derive(Properties, PartialEq)]
pub struct TerminalProps {
    /// Everything run so far, oldest first.
    pub entries: Rc<Vec<CommandOutput>>,
    /// Names for completion (nodes, pods, DaemonSets), read when Tab is pressed.
    pub names: Callback<(), Vec<String>>,
    /// The ↑/↓ history it starts with (the restored session's commands).
    #[prop_or_default]
    pub history: Rc<Vec<String>>,
    /// Runs a line.
    pub on_run: Callback<String>,
    /// The input is disabled (embed `readonly`).
    #[prop_or_default]
    pub readonly: bool,
    /// A command to put in the input (and focus it), numbered so the same one can be put twice.
    #[prop_or_default]
    pub fill: Option<(u32, AttrValue)>,
    /// The namespace commands default to (the current context's).
    #[prop_or(AttrValue::Static("default"))]
    pub namespace: AttrValue,
}

/// The terminal panel.
#[function_component(Terminal)]
pub fn terminal(props: &TerminalProps) -> Html {
    let input = use_node_ref();
    let scroller = use_node_ref();
    let history = use_mut_ref(|| props.history.to_vec());
    // Position while browsing history: `history.len()` means "the line being typed".
    let cursor = use_mut_ref(|| props.history.len());
    // The buffer's text, for the prompt column and the rows (kept in step on every input).
    let buffer = use_state(String::new);
    // Maximised: the terminal covers the page (for long outputs such as describe or -o yaml).
    let maximised = use_state(|| false);
    {
        let scroller = scroller.clone();
        use_effect_with(props.entries.len(), move |_| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    {
        let input = input.clone();
        let buffer = buffer.setter();
        use_effect_with(props.fill.clone(), move |fill| {
            if let (Some((_, text)), Some(el)) = (fill, input.cast::<HtmlTextAreaElement>()) {
                el.set_value(text);
                buffer.set(text.to_string());
                let _ = el.focus();
            }
        });
    }
    let oninput = {
        let buffer = buffer.setter();
        Callback::from(move |e: InputEvent| {
            if let Some(el) = e.target_dyn_into::<HtmlTextAreaElement>() {
                buffer.set(el.value());
            }
        })
    };
    let onkeydown = {
        let (input, history, cursor, on_run, names) = (
            input.clone(),
            history.clone(),
            cursor.clone(),
            props.on_run.clone(),
            props.names.clone(),
        );
        let buffer = buffer.setter();
        Callback::from(move |e: KeyboardEvent| {
            let Some(el) = input.cast::<HtmlTextAreaElement>() else {
                return;
            };
            let mut history = history.borrow_mut();
            let mut cursor = cursor.borrow_mut();
            let value = el.value();
            // ↑/↓ browse the history while the buffer is one line; in more, they move the caret.
            let one_line = !value.contains('\n');
            match e.key().as_str() {
                // Shift+Enter, or an open here-document or quote: the textarea adds a line.
                "Enter" if e.shift_key() || !prompt::runs_on_enter(&value) => {}
                "Enter" => {
                    e.prevent_default();
                    let script = prompt::script(&value);
                    if !script.trim().is_empty() {
                        if history.last() != Some(&script) {
                            history.push(script.clone());
                        }
                        on_run.emit(script);
                    }
                    *cursor = history.len();
                    el.set_value("");
                }
                "ArrowUp" if one_line && *cursor > 0 => {
                    e.prevent_default();
                    *cursor -= 1;
                    el.set_value(&history[*cursor]);
                }
                "ArrowDown" if one_line => {
                    e.prevent_default();
                    if *cursor + 1 < history.len() {
                        *cursor += 1;
                        el.set_value(&history[*cursor]);
                    } else {
                        *cursor = history.len();
                        el.set_value("");
                    }
                }
                // Tab completes; with nothing to complete it moves the focus on (no keyboard trap).
                "Tab" if one_line && !e.shift_key() => match complete(&value, &names.emit(())) {
                    Some(line) => {
                        e.prevent_default();
                        el.set_value(&line);
                    }
                    None => return,
                },
                _ => return,
            }
            buffer.set(el.value());
        })
    };
    let focus = {
        let input = input.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(el) = input.cast::<HtmlTextAreaElement>() {
                let _ = el.focus();
            }
        })
    };
    html! {
        <section class={classes!("panel", "terminal", maximised.then_some("maximised"))} aria-label="Terminal">
            <header class="term-head">
                <h2>{"Terminal"}</h2>
                <button class="btn small term-max" aria-pressed={maximised.to_string()}
                    onclick={let m = maximised.clone(); Callback::from(move |_: MouseEvent| m.set(!*m))}>
                    { if *maximised { "Restore" } else { "Maximise" } }
                </button>
                <span class="term-ns" title="The current context's namespace: kubectl config set-context --current --namespace NAME">
                    {"namespace: "}<code>{props.namespace.clone()}</code>
                </span>
            </header>
            <div class="term-scroll" ref={scroller} onclick={focus}>
                <pre class="term-output" aria-live="polite">
                    { for props.entries.iter().map(|o| html! {
                        <>
                            <span class="term-cmd"><span class="prompt">{"$ "}</span>{&o.command}{"\n"}</span>
                            { for o.chunks.iter().map(|c| html! {
                                <span class={if c.stream == Stream::Stderr { "term-err" } else { "term-out" }}>{&c.text}</span>
                            }) }
                        </>
                    }) }
                </pre>
                <div class="term-input">
                    <span class="prompt" aria-hidden="true">{prompt::prompts(&buffer)}</span>
                    <textarea ref={input} aria-label="Terminal input" placeholder="kubectl get pods -o wide"
                        rows={prompt::rows(&buffer).to_string()} spellcheck="false" autocomplete="off"
                        autocapitalize="off" disabled={props.readonly} {oninput} {onkeydown} />
                </div>
            </div>
        </section>
    }
}
