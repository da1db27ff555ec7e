//! Play/Pause, Step, Reset, the speed selector and the virtual clock.

use crate::state::SPEEDS;
use crate::timeline::format_elapsed;
use chrono::{DateTime, Utc};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`TimeControls`].
#[derive(Properties, PartialEq)]
pub struct TimeControlsProps {
    /// The clock runs.
    pub playing: bool,
    /// Current speed multiplier.
    pub speed: f64,
    /// Virtual time now.
    pub now: DateTime<Utc>,
    /// Virtual time the session started.
    pub started: DateTime<Utc>,
    /// Play ↔ pause.
    pub on_toggle: Callback<()>,
    /// Step to the next event.
    pub on_step: Callback<()>,
    /// Reset the cluster.
    pub on_reset: Callback<()>,
    /// New speed.
    pub on_speed: Callback<f64>,
}

/// The time controls in the header.
#[function_component(TimeControls)]
pub fn time_controls(props: &TimeControlsProps) -> Html {
    let read_only = crate::read_only::use_read_only();
    let elapsed_text = format_elapsed((props.now - props.started).num_milliseconds());
    let on_speed = {
        let cb = props.on_speed.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(v) = select.value().parse::<f64>() {
                cb.emit(v);
            }
        })
    };
    let (label, icon) = if props.playing {
        ("Pause", "❚❚")
    } else {
        ("Play", "▶")
    };
    html! {
        <div class="time-controls" role="group" aria-label="Time controls">
            <button class="btn primary play" onclick={props.on_toggle.reform(|_| ())} title="Play/pause (Space)">
                <span aria-hidden="true" class="icon">{icon}</span>{label}
            </button>
            <button class="btn" onclick={props.on_step.reform(|_| ())} title="Advance to the next event (→)">
                <span aria-hidden="true" class="icon">{"→"}</span>{"Step"}
            </button>
            if !read_only {
                <button class="btn" onclick={props.on_reset.reform(|_| ())} title="A fresh default cluster with the demo DaemonSet">
                    <span aria-hidden="true" class="icon">{"↺"}</span>{"Reset"}
                </button>
            }
            <label class="speed">
                <span class="visually-hidden">{"Speed"}</span>
                <select onchange={on_speed} aria-label="Speed">
                    { for SPEEDS.iter().map(|s| html! {
                        <option value={s.to_string()} selected={*s == props.speed}>{format!("{s}×")}</option>
                    }) }
                </select>
            </label>
            <time class="clock" aria-label="Clock" datetime={props.now.to_rfc3339()}>
                <span class="clock-time">{props.now.format("%H:%M:%S").to_string()}</span>
                <span class="clock-elapsed">{elapsed_text}</span>
            </time>
        </div>
    }
}
