//! The root component: owns the state, the clock and the global keyboard shortcuts.

use crate::components::cluster_view::ClusterView;
use crate::components::editor::Editor;
use crate::components::events::Events;
use crate::components::explain_panel::ExplainPanel;
use crate::components::node_dialog::NodeDialog;
use crate::components::rollout_panel::RolloutPanel;
use crate::components::shortcuts::ShortcutsSheet;
use crate::components::status_bar::StatusBar;
use crate::components::terminal::Terminal;
use crate::components::time_controls::TimeControls;
use crate::components::timeline::Timeline;
use crate::demo::DEMO_DAEMON_SET;
use crate::persist::{parse_advance_entry, PageParams, Saved, LONG_URL, STORAGE_KEY};
use crate::state::{Action, State};
use std::rc::Rc;
use yew::prelude::*;

/// How often the clock ticks while playing (wall-clock milliseconds).
const TICK_MS: u32 = 100;

/// The playground.
#[function_component(App)]
pub fn app() -> Html {
    let params = use_memo((), |_| page_params());
    let state = use_reducer({
        let params = (*params).clone();
        move || initial_state(&params)
    });
    // A restored session shows the manifest it last applied.
    let editor_initial = use_memo((), {
        let state = state.clone();
        move |_| {
            AttrValue::from(
                state
                    .last_applied_yaml()
                    .unwrap_or_else(|| DEMO_DAEMON_SET.to_string()),
            )
        }
    });
    let dialog_open = use_state(|| false);
    let shortcuts_open = use_state(|| false);
    let export_open = use_state(|| false);
    let share_link = use_state(|| None::<String>);
    use_clock(state.playing, state.dispatcher());
    // Callbacks handed to components are memoized: a new Callback every render would make every
    // node card (and the keyboard listener) re-render or re-register on every clock tick.
    let on_key = use_callback(
        (state.dispatcher(), shortcuts_open.clone()),
        |key: &'static str, (d, shortcuts_open)| match key {
            "?" => shortcuts_open.set(!**shortcuts_open),
            _ => {
                shortcuts_open.set(false);
                d.dispatch(Action::SelectNode(None));
            }
        },
    );
    use_shortcuts(state.dispatcher(), on_key);
    use_autosave(&state, params.embed);
    use_message_api(&state, &params);

    let dispatch = |f: fn(()) -> Action| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(f(())))
    };
    let on_command = use_callback(state.dispatcher(), |line: String, d| {
        d.dispatch(Action::Run(line))
    });
    let on_apply = {
        let d = state.dispatcher();
        Callback::from(move |yaml: String| d.dispatch(Action::Apply(yaml)))
    };
    let on_speed = {
        let d = state.dispatcher();
        Callback::from(move |s: f64| d.dispatch(Action::SetSpeed(s)))
    };
    let on_explain = use_callback(state.dispatcher(), |node: String, d| {
        d.dispatch(Action::SelectNode(Some(node)))
    });
    let on_toggle_system = use_callback(state.dispatcher(), |_: (), d| {
        d.dispatch(Action::ToggleSystem)
    });
    let on_reset = {
        let d = state.dispatcher();
        let share_link = share_link.clone();
        Callback::from(move |_| {
            storage_remove();
            share_link.set(None);
            d.dispatch(Action::Reset);
            d.dispatch(Action::Notice(None));
        })
    };
    let on_share = {
        let state = state.clone();
        let share_link = share_link.clone();
        Callback::from(move |_: MouseEvent| {
            let link = share_url(&state.saved());
            share_link.set(Some(link));
        })
    };
    let model = state.model.clone();
    // Completion names change only with the model: computed once per refresh, not per frame (the
    // same Rc also lets the Terminal skip re-rendering).
    let names: Rc<Vec<String>> = use_memo(model.clone(), |model| {
        model
            .nodes
            .iter()
            .flat_map(|n| {
                std::iter::once(n.name.clone()).chain(n.pods.iter().map(|p| p.name.clone()))
            })
            .chain(std::iter::once("demo".to_string()))
            .collect()
    });
    let suggested = (3..)
        .map(|i| format!("kind-worker{i}"))
        .find(|n| !model.nodes.iter().any(|node| &node.name == n))
        .unwrap_or_default();
    let open_dialog = use_callback(dialog_open.setter(), |_: (), open| open.set(true));
    let event_rows = use_memo(model.clone(), |model| model.events.clone());
    let close_dialog = {
        let o = dialog_open.clone();
        Callback::from(move |_| o.set(false))
    };
    let toggle = |h: &UseStateHandle<bool>| {
        let h = h.clone();
        Callback::from(move |_| h.set(!*h))
    };
    let time_controls = html! {
        <TimeControls playing={state.playing} speed={state.speed} now={state.now} started={state.started}
            on_toggle={dispatch(|_| Action::TogglePlay)} on_step={dispatch(|_| Action::Step)}
            {on_reset} {on_speed} />
    };
    let timeline = html! {
        <Timeline started={state.started} at_ms={state.elapsed_ms()} latest_ms={state.latest().elapsed_ms()}
            marks={state.latest().marks.clone()} warnings={state.latest().warnings.clone()}
            viewing_past={state.viewing_past()}
            on_seek={let d = state.dispatcher(); Callback::from(move |ms| d.dispatch(Action::Rewind(ms)))}
            on_back={dispatch(|_| Action::BackToNow)} on_continue={dispatch(|_| Action::ContinueHere)} />
    };
    let side_panels = html! {
        <>
            if let Some(node) = state.selected.clone() {
                <ExplainPanel node={node} explanations={state.explanations.clone()}
                    on_close={dispatch(|_| Action::SelectNode(None))} />
            }
            if !state.rollouts.is_empty() {
                <RolloutPanel rollouts={state.rollouts.clone()} />
            }
        </>
    };
    let embed = params.embed;
    html! {
        <div class={classes!("app", embed.then_some("embed"))}>
            if embed {
                <div class="embed-bar">{time_controls}</div>
            } else {
                <header class="topbar">
                    <h1><span class="logo" aria-hidden="true">{"◈"}</span>{"DaemonSet Playground"}</h1>
                    <div class="tools" role="group" aria-label="Session">
                        <button class="btn" onclick={on_share} title="Copy a link that restores this session">{"Share"}</button>
                        <button class="btn" onclick={toggle(&export_open)} title="A kind config and a kubectl script for a real cluster">{"Export"}</button>
                        <button class="btn" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onclick={toggle(&shortcuts_open)}>{"?"}</button>
                    </div>
                    {time_controls}
                </header>
            }
            {timeline}
            if let Some(text) = state.notice.clone() {
                <div class="notice" role="alert">
                    <span>{text.to_string()}</span>
                    <button class="btn small" aria-label="Dismiss message" onclick={dispatch(|_| Action::Notice(None)).reform(|_: MouseEvent| ())}>{"×"}</button>
                </div>
            }
            if let Some(link) = (*share_link).clone() {
                <div class="share-bar" role="status">
                    <label>{"Share link"}
                        <input readonly=true aria-label="Share link" value={link.clone()}
                            onfocus={Callback::from(|e: FocusEvent| { let i: web_sys::HtmlInputElement = e.target_unchecked_into(); i.select(); })} />
                    </label>
                    <span class="share-note">{
                        if link.len() > LONG_URL {
                            format!("Copied. This link is {} KB long: some browsers and chat apps cut links over 8 KB.", link.len() / 1024)
                        } else {
                            "Copied to the clipboard; opening it restores this exact session.".to_string()
                        }
                    }</span>
                    <button class="btn small" aria-label="Close share link" onclick={let s = share_link.clone(); Callback::from(move |_| s.set(None))}>{"×"}</button>
                </div>
            }
            <main class="layout">
                if !embed {
                    <div class="col-side">
                        <Editor initial={(*editor_initial).clone()} error={state.editor_error.clone()} {on_apply} />
                        <StatusBar table={AttrValue::from(state.ds_table.clone())} />
                        {side_panels.clone()}
                    </div>
                }
                <div class="col-main">
                    <ClusterView model={model.clone()} show_system={state.show_system}
                        {on_toggle_system}
                        on_command={on_command.clone()} on_add_node={open_dialog}
                        {on_explain} selected={state.selected.clone()} />
                    if embed { {side_panels} }
                    <div class="bottom">
                        <Terminal entries={state.terminal.clone()} names={names} on_run={on_command.clone()} readonly={params.readonly} />
                        <Events rows={event_rows} />
                    </div>
                </div>
            </main>
            if *dialog_open {
                <NodeDialog suggested_name={suggested} on_command={on_command} on_close={close_dialog} />
            }
            if *shortcuts_open {
                <ShortcutsSheet on_close={let s = shortcuts_open.clone(); Callback::from(move |_| s.set(false))} />
            }
            if *export_open {
                <ExportDialog text={crate::export::export_text(&state.model, &state.log)}
                    on_close={let s = export_open.clone(); Callback::from(move |_| s.set(false))} />
            }
        </div>
    }
}

/// Props of [`ExportDialog`].
#[derive(Properties, PartialEq)]
struct ExportDialogProps {
    text: String,
    on_close: Callback<()>,
}

/// The export: the text to copy and a download link.
#[function_component(ExportDialog)]
fn export_dialog(props: &ExportDialogProps) -> Html {
    let href = format!(
        "data:text/plain;charset=utf-8,{}",
        js_sys_encode(&props.text)
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

/// `encodeURIComponent` (or the text as is natively).
fn js_sys_encode(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::encode_uri_component(text).into()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_string()
    }
}

/// The page's parameters (`?embed`, `#s=…`, …).
fn page_params() -> PageParams {
    let location = web_sys::window().map(|w| w.location());
    let search = location
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let hash = location
        .as_ref()
        .and_then(|l| l.hash().ok())
        .unwrap_or_default();
    PageParams::parse(&search, &hash)
}

/// The first state: a share link, else the autosave, else the default; then the page's script.
fn initial_state(params: &PageParams) -> State {
    let mut notice = None;
    let mut state = match params.shared.as_deref() {
        Some(hash) => {
            if !params.embed {
                // The link has been used; later reloads restore the autosave.
                replace_hash("");
            }
            match Saved::from_hash(hash) {
                Ok(saved) => State::restore(&saved),
                Err(e) => {
                    notice = Some(format!(
                        "This share link could not be opened: {e}. Showing the default cluster."
                    ));
                    State::new()
                }
            }
        }
        None if params.embed => State::new(),
        None => match storage_get() {
            Some(text) => match Saved::from_json(&text) {
                Ok(saved) => State::restore(&saved),
                Err(e) => {
                    storage_remove();
                    notice = Some(format!(
                        "The autosaved session could not be restored ({e}). Showing the default cluster."
                    ));
                    State::new()
                }
            },
            None => State::new(),
        },
    };
    if params.embed {
        state.playing = params.autoplay;
    } else if params.autoplay {
        state.playing = true;
    }
    if let Some(script) = params.script.as_deref().filter(|s| !s.trim().is_empty()) {
        state.run_for_reply(script);
    }
    state.notice = notice.map(Rc::from);
    state
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

/// Saves the log to `localStorage` whenever it changes (not in embed mode).
#[hook]
fn use_autosave(state: &UseReducerHandle<State>, embed: bool) {
    let last = use_mut_ref(|| None::<(*const Vec<String>, bool)>);
    let key = (Rc::as_ptr(&state.log), state.playing);
    if embed || *last.borrow() == Some(key) {
        return;
    }
    let first = last.borrow().is_none();
    *last.borrow_mut() = Some(key);
    if first && state.notice.is_some() {
        // Keep the corrupted autosave's message; the default is not worth saving.
        return;
    }
    let saved = state.saved();
    if worth_saving(&saved) {
        storage_set(&saved.to_json());
    } else {
        storage_remove();
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn storage_get() -> Option<String> {
    storage()?.get_item(STORAGE_KEY).ok().flatten()
}

fn storage_set(text: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, text);
    }
}

fn storage_remove() {
    if let Some(s) = storage() {
        let _ = s.remove_item(STORAGE_KEY);
    }
}

/// Replaces the URL's hash without navigating.
fn replace_hash(hash: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let base = format!(
        "{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    let url = if hash.is_empty() {
        base
    } else {
        format!("{base}#{hash}")
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Puts `saved` in the URL hash, copies the link to the clipboard and returns it.
fn share_url(saved: &Saved) -> String {
    let hash = format!("{}={}", crate::persist::HASH_KEY, saved.to_hash());
    replace_hash(&hash);
    let Some(window) = web_sys::window() else {
        return format!("#{hash}");
    };
    let link = window.location().href().unwrap_or_default();
    copy_to_clipboard(&window, &link);
    link
}

/// Copies `text` if the page may (secure contexts only); a refusal is ignored, not thrown.
#[cfg(target_arch = "wasm32")]
fn copy_to_clipboard(window: &web_sys::Window, text: &str) {
    use wasm_bindgen::{closure::Closure, JsValue};
    let navigator = window.navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !has_clipboard {
        return;
    }
    let ignore = Closure::wrap(Box::new(|_: JsValue| {}) as Box<dyn FnMut(JsValue)>);
    let _ = navigator.clipboard().write_text(text).catch(&ignore);
    ignore.forget();
}

#[cfg(not(target_arch = "wasm32"))]
fn copy_to_clipboard(_: &web_sys::Window, _: &str) {}

/// The postMessage API: `{type: "dsplay:run", id, command}` runs `command`; the answer
/// `{type: "dsplay:output", id, output, success}` goes to the parent window (to this window when
/// not framed). Anything else is ignored, and so is every request from another origin than the
/// page's `origin=` parameter when it is given (replies then go to that origin only).
#[hook]
fn use_message_api(state: &UseReducerHandle<State>, params: &PageParams) {
    let dispatcher = state.dispatcher();
    let accepted = params.clone();
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|window| {
            gloo::events::EventListener::new(&window, "message", move |e| {
                if let Some((id, command)) = parse_message(e, &accepted) {
                    dispatcher.dispatch(Action::Remote { id, command });
                }
            })
        });
        move || drop(listener)
    });
    let reply = state.reply.clone();
    let target_origin = params.reply_origin().to_string();
    use_effect_with(reply.as_ref().map(|r| r.seq), move |_| {
        if let Some(reply) = reply {
            post_reply(&reply, &target_origin);
        }
    });
}

#[cfg(target_arch = "wasm32")]
fn parse_message(e: &web_sys::Event, params: &PageParams) -> Option<(String, String)> {
    use wasm_bindgen::JsCast;
    let event = e.dyn_ref::<web_sys::MessageEvent>()?;
    if !params.accepts_origin(&event.origin()) {
        return None;
    }
    let data = event.data();
    if !data.is_object() {
        return None;
    }
    let get = |k: &str| js_sys::Reflect::get(&data, &k.into()).ok();
    if get("type")?.as_string()? != "dsplay:run" {
        return None;
    }
    let command = get("command")?.as_string()?;
    let id = js_sys::JSON::stringify(&get("id").unwrap_or(wasm_bindgen::JsValue::NULL))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "null".into());
    Some((id, command))
}

#[cfg(not(target_arch = "wasm32"))]
fn parse_message(_: &web_sys::Event, _: &PageParams) -> Option<(String, String)> {
    None
}

#[cfg(target_arch = "wasm32")]
fn post_reply(reply: &crate::state::Reply, target_origin: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let message = js_sys::Object::new();
    let set = |k: &str, v: wasm_bindgen::JsValue| {
        let _ = js_sys::Reflect::set(&message, &k.into(), &v);
    };
    set("type", "dsplay:output".into());
    set(
        "id",
        js_sys::JSON::parse(&reply.id).unwrap_or(wasm_bindgen::JsValue::NULL),
    );
    set("output", reply.output.as_str().into());
    set("success", reply.success.into());
    let target = window.parent().ok().flatten().unwrap_or(window);
    let _ = target.post_message(&message, target_origin);
}

#[cfg(not(target_arch = "wasm32"))]
fn post_reply(_: &crate::state::Reply, _: &str) {}

/// While `playing`, dispatches [`Action::Tick`] with the wall-clock time since the last tick.
#[hook]
fn use_clock(playing: bool, dispatcher: UseReducerDispatcher<State>) {
    use_effect_with(playing, move |playing| {
        let interval = playing.then(|| {
            let last = std::cell::Cell::new(wall_ms());
            gloo::timers::callback::Interval::new(TICK_MS, move || {
                let now = wall_ms();
                let elapsed = if now > 0.0 {
                    now - last.replace(now)
                } else {
                    f64::from(TICK_MS)
                };
                dispatcher.dispatch(Action::Tick(elapsed));
            })
        });
        move || drop(interval)
    });
}

/// Space = play/pause, → = step, ? = the shortcuts sheet, Esc = close (unless typing in a field).
#[hook]
fn use_shortcuts(dispatcher: UseReducerDispatcher<State>, on_key: Callback<&'static str>) {
    use_effect_with(on_key.clone(), move |on_key| {
        let on_key = on_key.clone();
        let listener = gloo::utils::document_element()
            .owner_document()
            .map(|document| {
                gloo::events::EventListener::new(&document, "keydown", move |e| {
                    let Some(e) = wasm_bindgen::JsCast::dyn_ref::<web_sys::KeyboardEvent>(e) else {
                        return;
                    };
                    if e.ctrl_key() || e.meta_key() || e.alt_key() {
                        return;
                    }
                    if e.key() == "Escape" {
                        on_key.emit("Escape");
                        return;
                    }
                    let typing = e
                        .target()
                        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                        .map(|el| {
                            matches!(
                                el.tag_name().as_str(),
                                "INPUT" | "TEXTAREA" | "SELECT" | "BUTTON"
                            ) || el
                                .closest("[contenteditable='true']")
                                .ok()
                                .flatten()
                                .is_some()
                        })
                        .unwrap_or(false);
                    if typing {
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
                })
            });
        move || drop(listener)
    });
}

/// Wall-clock milliseconds (`performance.now()`), or 0 where there is none.
fn wall_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
