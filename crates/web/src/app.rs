//! The root component: owns the state and lays out the panels; the hooks in [`crate::hooks`] wire
//! it to the clock, the keyboard, storage, `postMessage` and the lessons' files.

use crate::browser::{
    page_folder, set_document_language, share_url, storage_get, storage_remove, storage_set,
};
use crate::components::cluster_view::ClusterView;
use crate::components::editor::Editor;
use crate::components::events::Events;
use crate::components::explain_panel::ExplainPanel;
use crate::components::layout::Workbench;
use crate::components::lesson_catalogue::LessonCatalogue;
use crate::components::lesson_panel::LessonPanel;
use crate::components::long_run_bar::LongRunBar;
use crate::components::node_dialog::NodeDialog;
use crate::components::pod_panel::{PodPanel, PodSelect};
use crate::components::rollout_panel::RolloutPanel;
use crate::components::save_notices::SaveNotices;
use crate::components::shortcuts::ShortcutsSheet;
use crate::components::status_bar::StatusBar;
use crate::components::terminal::Terminal;
use crate::components::text_dialog::TextDialog;
use crate::components::time_controls::TimeControls;
use crate::components::timeline::Timeline;
use crate::components::undo_toast::{is_destructive, UndoOffer, UndoToast};
use crate::components::welcome::Welcome;
use crate::demo::DEMO_DAEMON_SET;
use crate::hooks::{
    autosave::use_autosave,
    clock::use_clock,
    lessons::{load_progress, use_lessons, Catalogue},
    long_run::use_long_run,
    message_api::use_message_api,
    shortcuts::use_shortcuts,
};
use crate::labels::{labels, LANGUAGE_KEY, WELCOMED_KEY};
use crate::lesson_progress::PROGRESS_KEY;
use crate::persist::{Saved, HASH_KEY, LONG_URL, PREVIOUS_KEY, STORAGE_KEY};
use crate::read_only::ReadOnly;
use crate::startup::{initial_state, page_params, Start};
use crate::state::Action;
use std::rc::Rc;
use yew::prelude::*;

/// The app's properties.
#[derive(Clone, Default, PartialEq, Properties)]
pub struct AppProps {
    /// The page's parameters and first state, when made before the app mounts; else the app
    /// makes them.
    #[prop_or_default]
    pub start: Option<Start>,
}

/// The playground.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let params = use_memo((), {
        let start = props.start.clone();
        move |_| start.map_or_else(page_params, |start| start.params.clone())
    });
    let state = use_reducer({
        let params = (*params).clone();
        let start = props.start.clone();
        move || {
            start
                .and_then(|start| start.take_state())
                .unwrap_or_else(|| initial_state(&params))
        }
    });
    // A restored session shows the manifest it last applied; "Load live manifest" replaces it.
    let editor_initial = use_state({
        let state = state.clone();
        move || {
            AttrValue::from(
                state
                    .last_applied_yaml()
                    .unwrap_or_else(|| DEMO_DAEMON_SET.to_string()),
            )
        }
    });
    // `kubectl edit` in the terminal: the object opens in the editor.
    use_effect_with(state.editing.clone(), {
        let editor_initial = editor_initial.setter();
        move |editing| {
            if let Some(editing) = editing {
                editor_initial.set(AttrValue::from(editing.yaml.clone()));
            }
        }
    });
    let drift = state.editor_drift();
    let on_load_live = {
        let (state, editor_initial, drift) =
            (state.clone(), editor_initial.setter(), drift.clone());
        Callback::from(move |_: ()| {
            let Some((namespace, name)) = drift.clone() else {
                return;
            };
            if let Some(yaml) = state.live_manifest(&namespace, &name) {
                editor_initial.set(AttrValue::from(yaml));
                state.dispatch(Action::LoadedLive(namespace, name));
            }
        })
    };
    let dialog_open = use_state(|| false);
    let shortcuts_open = use_state(|| false);
    let export_open = use_state(|| false);
    let embed_open = use_state(|| false);
    let share_link = use_state(|| None::<String>);
    let catalogue_open = use_state(|| false);
    let language = use_state(|| storage_get(LANGUAGE_KEY).unwrap_or_else(|| "en".into()));
    let labels = labels(&language);
    use_effect_with(labels.code, |code| set_document_language(code));
    // A first visit: nothing saved, no link.
    let welcome = use_state({
        let params = params.clone();
        move || {
            !params.embed
                && params.shared.is_none()
                && params.script.is_none()
                && params.lesson_url.is_none()
                && params.lesson_id.is_none()
                && [STORAGE_KEY, PROGRESS_KEY, WELCOMED_KEY]
                    .iter()
                    .all(|key| storage_get(key).is_none())
        }
    });
    {
        // Answered by taking a lesson, however it was opened.
        let welcome = welcome.setter();
        use_effect_with(state.lesson.is_some(), move |in_lesson| {
            if *in_lesson {
                welcome.set(false);
            }
        });
    }
    // A command clicked in the lesson, for the terminal's input (numbered: the same one twice
    // fills it twice).
    let fill = use_state(|| None::<(u32, AttrValue)>);
    use_clock(state.playing, state.dispatcher());
    // Callbacks handed to components are memoized: a new Callback every render would make every
    // node card (and the keyboard listener) re-render or re-register on every clock tick.
    let on_key = use_callback(
        (
            state.dispatcher(),
            shortcuts_open.clone(),
            catalogue_open.setter(),
        ),
        |key: &'static str, (d, shortcuts_open, catalogue_open)| match key {
            "?" => shortcuts_open.set(!**shortcuts_open),
            _ => {
                shortcuts_open.set(false);
                catalogue_open.set(false);
                d.dispatch(Action::SelectNode(None));
            }
        },
    );
    use_shortcuts(state.dispatcher(), on_key);
    let autosave = use_autosave(&state, params.embed);
    use_long_run(&state);
    crate::hooks::explain_data::use_explain_data();
    use_message_api(&state, &params);
    let lessons = use_lessons(&state, &params);
    // The catalogue's marks: read when it opens, not on every clock tick while it is open.
    let progress = use_memo(*catalogue_open, |_| load_progress());

    let dispatch = |f: fn(()) -> Action| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(f(())))
    };
    let undo = use_state(|| None::<UndoOffer>);
    let on_command = {
        let (d, undo) = (state.dispatcher(), undo.setter());
        Callback::from(move |line: String| {
            undo.set(None);
            d.dispatch(Action::Run(line))
        })
    };
    // Node card buttons: a delete offers Undo.
    let on_card_command = {
        let (state, undo) = (state.clone(), undo.setter());
        Callback::from(move |line: String| {
            let offer = is_destructive(&line).then(|| UndoOffer {
                what: Rc::from(format!("Ran {line}")),
                before: Rc::new(state.saved()),
            });
            undo.set(offer);
            state.dispatch(Action::Run(line))
        })
    };
    let on_undo = {
        let (d, undo) = (state.dispatcher(), undo.setter());
        Callback::from(move |before: Rc<Saved>| {
            undo.set(None);
            d.dispatch(Action::LoadSaved((*before).clone()))
        })
    };
    let on_apply = {
        let (d, undo) = (state.dispatcher(), undo.setter());
        Callback::from(move |yaml: String| {
            undo.set(None);
            d.dispatch(Action::Apply(yaml))
        })
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
        let (state, undo) = (state.clone(), undo.setter());
        Callback::from(move |_| {
            undo.set(Some(UndoOffer {
                what: Rc::from("Started again with a fresh cluster"),
                before: Rc::new(state.saved()),
            }));
            storage_remove(STORAGE_KEY);
            share_link.set(None);
            d.dispatch(Action::Reset);
            d.dispatch(Action::Notice(None));
        })
    };
    let on_share = {
        let state = state.clone();
        let share_link = share_link.clone();
        Callback::from(move |_: MouseEvent| {
            let link = share_url(&format!("{HASH_KEY}={}", state.saved().to_hash()));
            share_link.set(Some(link));
        })
    };
    let on_restore = {
        let d = state.dispatcher();
        Callback::from(move |_: ()| {
            let previous = storage_get(PREVIOUS_KEY).map(|text| Saved::from_json(&text));
            match previous {
                Some(Ok(saved)) => {
                    storage_remove(PREVIOUS_KEY);
                    d.dispatch(Action::LoadSaved(saved));
                }
                _ => {
                    d.dispatch(Action::DismissPrevious);
                    d.dispatch(Action::Notice(Some(
                        "The previous session is no longer in this browser's storage.".into(),
                    )));
                }
            }
        })
    };
    let on_exit_lesson = {
        let d = state.dispatcher();
        Callback::from(move |_: ()| {
            // The free-play autosave was left as it was during the lesson.
            storage_remove(PREVIOUS_KEY);
            d.dispatch(Action::DismissPrevious);
            match storage_get(STORAGE_KEY).map(|text| Saved::from_json(&text)) {
                Some(Ok(saved)) => d.dispatch(Action::LoadSaved(saved)),
                _ => d.dispatch(Action::Reset),
            }
        })
    };
    let open_catalogue = {
        let (open, load) = (catalogue_open.setter(), lessons.load_catalogue.clone());
        Callback::from(move |_: MouseEvent| {
            load.emit(());
            open.set(true);
        })
    };
    let pick_lesson = {
        let (open, start) = (catalogue_open.setter(), lessons.start.clone());
        Callback::from(move |loaded| {
            open.set(false);
            start.emit(loaded);
        })
    };
    let toggle_language = {
        let language = language.clone();
        Callback::from(move |_: MouseEvent| {
            let next = if *language == "zh" { "en" } else { "zh" };
            let _ = storage_set(LANGUAGE_KEY, next);
            language.set(next.to_string());
        })
    };
    let close_welcome = {
        let welcome = welcome.setter();
        move || {
            let _ = storage_set(WELCOMED_KEY, "1");
            welcome.set(false);
        }
    };
    let on_first_lesson = {
        let (close, start) = (close_welcome.clone(), lessons.start_built_in.clone());
        Callback::from(move |_: ()| {
            close();
            start.emit(None);
        })
    };
    let on_free_play = Callback::from(move |_: ()| close_welcome());
    let on_fill = {
        let fill = fill.clone();
        Callback::from(move |text: String| {
            let n = fill.as_ref().map_or(0, |(n, _)| n + 1);
            fill.set(Some((n, AttrValue::from(text))));
        })
    };
    // The terminal's ↑ history starts from the restored session's commands.
    let history = use_memo((), {
        let state = state.clone();
        move |_| state.command_history()
    });
    let model = state.model.clone();
    // Completion names are read from the latest model when Tab is pressed (not on each refresh:
    // thousands of pods); the callback stays the same, so the Terminal skips re-rendering.
    let latest_model = use_mut_ref(Rc::<crate::model::ClusterModel>::default);
    *latest_model.borrow_mut() = model.clone();
    let names = use_callback((), {
        let latest_model = latest_model.clone();
        move |(), _| {
            let model = latest_model.borrow();
            model
                .nodes
                .iter()
                .flat_map(|n| {
                    std::iter::once(n.name.clone()).chain(n.pods.iter().map(|p| p.name.clone()))
                })
                .chain(std::iter::once("demo".to_string()))
                .collect()
        }
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
    let explain_panel = state.selected.clone().map(|node| {
        html! {
            <ExplainPanel node={node} explanations={state.explanations.clone()}
                on_close={dispatch(|_| Action::SelectNode(None))} />
        }
    });
    let pod_panel = state.pod_panel.clone().map(|details| {
        html! { <PodPanel {details} on_close={dispatch(|_| Action::SelectPod(None))} /> }
    });
    let pod_select = {
        let d = state.dispatcher();
        PodSelect(Callback::from(move |pod| {
            d.dispatch(Action::SelectPod(Some(pod)))
        }))
    };
    let rollout_panel = (!state.rollouts.is_empty())
        .then(|| html! { <RolloutPanel rollouts={state.rollouts.clone()} /> });
    let embed = params.embed;
    html! {
        <ContextProvider<ReadOnly> context={ReadOnly(params.readonly)}>
        <ContextProvider<PodSelect> context={pod_select}>
        <div class={classes!("app", embed.then_some("embed"), embed.then_some(params.view).flatten())}>
            if embed {
                <div class="embed-bar">{time_controls}</div>
            } else {
                <header class="topbar">
                    <h1><span class="logo" aria-hidden="true">{"◈"}</span>{"DaemonSet Playground"}</h1>
                    <div class="tools" role="group" aria-label="Session">
                        <button class="btn" aria-haspopup="dialog" onclick={open_catalogue}>{labels.lessons}</button>
                        <button class="btn" lang={if labels.code == "zh" { "en" } else { "zh" }}
                            onclick={toggle_language}>{labels.other_language}</button>
                        <button class="btn" onclick={on_share} title="Copy a link that restores this session">{"Share"}</button>
                        <button class="btn" onclick={toggle(&export_open)} title="A kind config and a kubectl script for a real cluster">{"Export"}</button>
                        <button class="btn" aria-haspopup="dialog" onclick={toggle(&embed_open)} title="The code to embed this session in a documentation page">{"Embed"}</button>
                        <button class="btn" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onclick={toggle(&shortcuts_open)}>{"?"}</button>
                    </div>
                    {time_controls}
                </header>
            }
            {timeline}
            if let Some((done, total)) = state.replay_progress() {
                <div class="notice long-run" role="status">
                    <span>{if state.viewing_past() {
                        format!("Rewinding: {done} of {total} log entries replayed")
                    } else {
                        format!("Restoring the session: {done} of {total} log entries replayed")
                    }}</span>
                    <progress max={total.to_string()} value={done.to_string()} aria-label="Progress of the restore" />
                </div>
            }
            if let Some(run) = state.long_run.clone() {
                <LongRunBar {run} now_ms={state.now.timestamp_millis()}
                    on_cancel={dispatch(|_| Action::CancelLongRun)} />
            }
            if let Some(text) = state.notice.clone() {
                <div class="notice" role="alert">
                    <span>{text.to_string()}</span>
                    <button class="btn small" aria-label="Dismiss message" onclick={dispatch(|_| Action::Notice(None)).reform(|_: MouseEvent| ())}>{"×"}</button>
                </div>
            }
            if let Some(offer) = (*undo).clone() {
                <UndoToast {offer} {on_undo} on_dismiss={let u = undo.setter(); Callback::from(move |_| u.set(None))} />
            }
            if let Some(error) = lessons.error.clone() {
                <div class="notice lesson-error" role="alert">
                    <span><strong>{labels.lesson_error}</strong><pre>{error}</pre></span>
                    <button class="btn small" aria-label="Dismiss message" onclick={lessons.dismiss_error.reform(|_: MouseEvent| ())}>{"×"}</button>
                </div>
            }
            if *welcome {
                <Welcome {labels} {on_first_lesson} {on_free_play} />
            }
            if !embed {
                <SaveNotices status={autosave.status.clone()} on_take_over={autosave.take_over.clone()}
                    previous_session={state.previous_session} by_lesson={state.lesson.is_some()} {on_restore}
                    on_dismiss={dispatch(|_| Action::DismissPrevious).reform(|_: ()| ())} />
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
            <Workbench {embed}
                lesson={state.lesson.clone().map(|lesson| html! {
                    <LessonPanel {lesson} {labels}
                        on_step={let d = state.dispatcher(); Callback::from(move |i| d.dispatch(Action::LessonStep(i)))}
                        on_solution={dispatch(|_| Action::RunSolution).reform(|_: ()| ())}
                        on_restart={lessons.restart.clone()} on_exit={on_exit_lesson}
                        on_fill={on_fill} on_run={on_command.reform(|line: String| line)} />
                })}
                editor={html! {
                    <Editor initial={(*editor_initial).clone()} error={state.editor_error.clone()} {on_apply}
                        drift={drift.map(|(_, name)| AttrValue::from(format!("daemonset.apps/{name}")))} {on_load_live}
                        editing={state.editing.as_ref().map(|e| AttrValue::from(e.object.clone()))} />
                }}
                panels={html! { <>{pod_panel.clone()}{explain_panel.clone()}{rollout_panel.clone()}</> }}
                cluster={html! {
                    <ClusterView model={model.clone()} show_system={state.show_system}
                        {on_toggle_system}
                        on_command={on_card_command} on_add_node={open_dialog}
                        {on_explain} selected={state.selected.clone()} flights={state.flights.clone()} />
                }}
                status={if embed {
                    // Float over the cluster (a docs column has no room for them under it);
                    // the rollout diagnosis opens on demand.
                    html! {
                        <div class="embed-overlays">
                            {pod_panel}
                            {explain_panel}
                            if let Some(panel) = rollout_panel {
                                <details class="rollout-overlay">
                                    <summary class="btn small">{"Rollout in progress"}</summary>
                                    {panel}
                                </details>
                            }
                        </div>
                    }
                } else {
                    // Full width: kubectl's table is wider than the side column.
                    html! { <StatusBar table={AttrValue::from(state.ds_table.clone())} more={state.workload_tables.clone()} /> }
                }}
                terminal={html! {
                    <Terminal entries={state.terminal.clone()} names={names} {history} on_run={on_command.clone()} readonly={params.readonly} fill={(*fill).clone()} namespace={state.namespace()} />
                }}
                events={html! { <Events rows={event_rows} /> }} />
            if *dialog_open {
                <NodeDialog suggested_name={suggested} on_command={on_command} on_close={close_dialog} />
            }
            if *catalogue_open {
                <LessonCatalogue catalogue={lessons.catalogue.clone().unwrap_or(Catalogue::Loading)}
                    progress={(*progress).clone()} {labels} on_pick={pick_lesson}
                    on_close={let o = catalogue_open.clone(); Callback::from(move |_| o.set(false))} />
            }
            if *shortcuts_open {
                <ShortcutsSheet on_close={let s = shortcuts_open.clone(); Callback::from(move |_| s.set(false))} />
            }
            if *embed_open {
                <TextDialog name="Embed" title="Embed this session in a page" text_label="Embed code"
                    help="Paste this into an HTML page: the playground replays this session's commands. embed.js adds the <dsplay-embed> element; the iframe works without it."
                    text={crate::embed_snippet::embed_snippet(&page_folder(), &state.latest().log)}
                    on_close={let s = embed_open.clone(); Callback::from(move |_| s.set(false))} />
            }
            if *export_open {
                <TextDialog name="Export" title="Export to a real cluster" text_label="Export text"
                    help="A kind cluster config reproducing the nodes, then the session as a kubectl script (sim lines are comments)."
                    text={crate::export::export_text(&state.model, &state.replay)}
                    download={AttrValue::from("dsplay-export.txt")}
                    on_close={let s = export_open.clone(); Callback::from(move |_| s.set(false))} />
            }
        </div>
        </ContextProvider<PodSelect>>
        </ContextProvider<ReadOnly>>
    }
}
