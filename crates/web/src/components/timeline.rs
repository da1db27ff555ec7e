//! The Timeline: a slider from the session's start to its latest instant, with a mark per command.
//! Choosing a past instant shows the cluster as it was then (the state replays the log cut there);
//! a banner then offers "Continue from here" (fork) and "Back to now".

use crate::timeline::{drawn_marks, format_elapsed, neighbour_stop, DrawnMark, Mark};
use chrono::{DateTime, Duration, Utc};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// Virtual time the session started (the slider's left end).
    pub started: DateTime<Utc>,
    /// The instant shown, in virtual ms since `started`.
    pub at_ms: i64,
    /// The latest instant (the slider's right end), in virtual ms since `started`.
    pub latest_ms: i64,
    /// Every command, drawn as a mark under the track (the arrow keys stop at them).
    pub marks: Rc<Vec<Mark>>,
    /// Every Warning event, drawn as a red mark under the track.
    pub warnings: Rc<Vec<Mark>>,
    /// The instant shown is in the past (the banner is shown).
    pub viewing_past: bool,
    /// Show the instant this many ms after `started`.
    pub on_seek: Callback<i64>,
    /// Leave the past for the latest state.
    pub on_back: Callback<()>,
    /// Fork at the instant shown.
    pub on_continue: Callback<()>,
}

/// The timeline strip, and the banner while the past is shown.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let latest = props.latest_ms.max(1);
    let at = props.at_ms.clamp(0, latest);
    let moment = |ms: i64| {
        let time = props.started + Duration::milliseconds(ms);
        format!("{} ({})", time.format("%H:%M:%S"), format_elapsed(ms))
    };
    let oninput = {
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(ms) = input.value().parse::<f64>() {
                on_seek.emit(ms.round() as i64);
            }
        })
    };
    let onkeydown = {
        let (on_seek, marks) = (props.on_seek.clone(), props.marks.clone());
        Callback::from(move |e: KeyboardEvent| {
            let forward = match e.key().as_str() {
                "ArrowRight" | "ArrowUp" => true,
                "ArrowLeft" | "ArrowDown" => false,
                _ => return,
            };
            e.prevent_default();
            on_seek.emit(neighbour_stop(&marks, latest, at, forward));
        })
    };
    let percent = |ms: i64| ms as f64 * 100.0 / latest as f64;
    // A mark under the track: hover shows what happened, a click goes there.
    let mark = |m: &DrawnMark| {
        let (on_seek, at) = (props.on_seek.clone(), m.at_ms);
        let kind = if m.warning { "warning" } else { "command" };
        html! {
            <span class={classes!("tl-mark", kind)} data-at={at.to_string()}
                title={format!("{}  {}", format_elapsed(at), m.label)}
                style={format!("left: {:.3}%", percent(at))}
                onclick={Callback::from(move |_| on_seek.emit(at))}></span>
        }
    };
    html! {
        <>
            <div class={classes!("timeline", props.viewing_past.then_some("past"))}>
                <span class="tl-edge" aria-hidden="true">{format_elapsed(0)}</span>
                <div class="tl-track">
                    <div class="tl-marks" aria-hidden="true">
                        { for drawn_marks(&props.marks, &props.warnings).iter().map(mark) }
                    </div>
                    <input type="range" class="tl-slider" aria-label="Timeline" min="0" max={latest.to_string()} step="1"
                        value={at.to_string()} aria-valuetext={moment(at)} style={format!("--tl-pct: {:.3}%", percent(at))} title="Drag to see the cluster at an earlier instant (← / →: one command or second)"
                        {oninput} {onkeydown} />
                </div>
                <span class="tl-edge" aria-hidden="true">{format_elapsed(props.latest_ms)}</span>
            </div>
            if props.viewing_past {
                <div class="rewind-banner" role="status">
                    <span class="rewind-text">
                        <strong>{format!("Viewing the past at {}", moment(at))}</strong>
                        {" — running a command or pressing Play continues from here and drops what came later."}
                    </span>
                    <button class="btn small primary" onclick={props.on_continue.reform(|_| ())}>{"Continue from here"}</button>
                    <button class="btn small" onclick={props.on_back.reform(|_| ())}>{"Back to now"}</button>
                </div>
            }
        </>
    }
}
