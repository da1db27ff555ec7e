//! The progress of a long `sim advance`/`sim settle`, with its Cancel button.

use crate::long_run::progress;
use crate::state::LongRun;
use dsplay_kubectl::printers::age::human_duration;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`LongRunBar`].
#[derive(Properties, PartialEq)]
pub struct LongRunBarProps {
    /// The running command.
    pub run: Rc<LongRun>,
    /// The cluster's clock now (virtual ms since the epoch).
    pub now_ms: i64,
    /// Stop it where it got to.
    pub on_cancel: Callback<()>,
}

/// The bar.
#[function_component(LongRunBar)]
pub fn long_run_bar(props: &LongRunBarProps) -> Html {
    let run = &props.run;
    let done = progress(run.goal, run.started_ms, props.now_ms);
    let advanced = human_duration(chrono::Duration::milliseconds(
        props.now_ms - run.started_ms,
    ));
    html! {
        <div class="notice long-run" role="status">
            <span>{format!("Running {}: {advanced} of virtual time so far", run.echo)}</span>
            <progress max="1" value={format!("{done:.4}")} aria-label="Progress of the long command" />
            <button class="btn small" onclick={props.on_cancel.reform(|_| ())}>{"Cancel"}</button>
        </div>
    }
}
