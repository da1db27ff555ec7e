//! The progress of a long command (`sim advance`/`sim settle`, with its Cancel button; a
//! `sim node add` of many nodes).

use crate::long_run::{progress, Goal};
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
    let done = progress(&run.goal, run.started_ms, props.now_ms);
    let so_far = match &run.goal {
        Goal::AddNodes { add, .. } => format!("{} of {} nodes added", add.added(), add.count()),
        _ => {
            let advanced = chrono::Duration::milliseconds(props.now_ms - run.started_ms);
            format!("{} of virtual time so far", human_duration(advanced))
        }
    };
    html! {
        <div class="notice long-run" role="status">
            <span>{format!("Running {}: {so_far}", run.echo)}</span>
            <progress max="1" value={format!("{done:.4}")} aria-label="Progress of the long command" />
            if run.cancellable() {
                <button class="btn small" onclick={props.on_cancel.reform(|_| ())}>{"Cancel"}</button>
            }
        </div>
    }
}
