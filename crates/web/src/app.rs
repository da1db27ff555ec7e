//! The root component: owns the state, the clock and the global keyboard shortcuts.

use crate::components::cluster_view::ClusterView;
use crate::components::editor::Editor;
use crate::components::events::Events;
use crate::components::node_dialog::NodeDialog;
use crate::components::status_bar::StatusBar;
use crate::components::terminal::Terminal;
use crate::components::time_controls::TimeControls;
use crate::demo::DEMO_DAEMON_SET;
use crate::state::{Action, State};
use std::rc::Rc;
use yew::prelude::*;

/// How often the clock ticks while playing (wall-clock milliseconds).
const TICK_MS: u32 = 100;

/// The playground.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::new);
    let dialog_open = use_state(|| false);
    use_clock(state.playing, state.dispatcher());
    use_shortcuts(state.dispatcher());

    let dispatch = |f: fn(()) -> Action| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(f(())))
    };
    let on_command = {
        let d = state.dispatcher();
        Callback::from(move |line: String| d.dispatch(Action::Run(line)))
    };
    let on_apply = {
        let d = state.dispatcher();
        Callback::from(move |yaml: String| d.dispatch(Action::Apply(yaml)))
    };
    let on_speed = {
        let d = state.dispatcher();
        Callback::from(move |s: f64| d.dispatch(Action::SetSpeed(s)))
    };
    let model = state.model.clone();
    let names: Rc<Vec<String>> = Rc::new(
        model
            .nodes
            .iter()
            .flat_map(|n| {
                std::iter::once(n.name.clone()).chain(n.pods.iter().map(|p| p.name.clone()))
            })
            .chain(std::iter::once("demo".to_string()))
            .collect(),
    );
    let suggested = (3..)
        .map(|i| format!("kind-worker{i}"))
        .find(|n| !model.nodes.iter().any(|node| &node.name == n))
        .unwrap_or_default();
    let open_dialog = {
        let o = dialog_open.clone();
        Callback::from(move |_| o.set(true))
    };
    let close_dialog = {
        let o = dialog_open.clone();
        Callback::from(move |_| o.set(false))
    };
    html! {
        <div class="app">
            <header class="topbar">
                <h1><span class="logo" aria-hidden="true">{"◈"}</span>{"DaemonSet Playground"}</h1>
                <TimeControls playing={state.playing} speed={state.speed} now={state.now} started={state.started}
                    on_toggle={dispatch(|_| Action::TogglePlay)} on_step={dispatch(|_| Action::Step)}
                    on_reset={dispatch(|_| Action::Reset)} {on_speed} />
            </header>
            <main class="layout">
                <div class="col-side">
                    <Editor initial={DEMO_DAEMON_SET} error={state.editor_error.clone()} {on_apply} />
                    <StatusBar table={AttrValue::from(state.ds_table.clone())} />
                </div>
                <div class="col-main">
                    <ClusterView model={model.clone()} show_system={state.show_system}
                        on_toggle_system={dispatch(|_| Action::ToggleSystem)}
                        on_command={on_command.clone()} on_add_node={open_dialog} />
                    <div class="bottom">
                        <Terminal entries={state.terminal.clone()} names={names} on_run={on_command.clone()} />
                        <Events rows={Rc::new(model.events.clone())} />
                    </div>
                </div>
            </main>
            if *dialog_open {
                <NodeDialog suggested_name={suggested} on_command={on_command} on_close={close_dialog} />
            }
        </div>
    }
}

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

/// Space = play/pause, → = step (unless typing in a field or on a button).
#[hook]
fn use_shortcuts(dispatcher: UseReducerDispatcher<State>) {
    use_effect_with((), move |_| {
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
                    let typing = e
                        .target()
                        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                        .map(|el| {
                            matches!(
                                el.tag_name().as_str(),
                                "INPUT" | "TEXTAREA" | "SELECT" | "BUTTON"
                            )
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
