//! Drives a long command (or a large session's replay, or node views catching up with a large
//! cluster): while one runs, each render schedules the next slice as a fresh task
//! ([`crate::browser::next_task`]), so the browser paints and handles input between slices.

use crate::state::{Action, State};
use yew::prelude::*;

/// Dispatches [`Action::LongRunSlice`] after every render while a long command runs, a session
/// is being replayed or node views are behind.
#[hook]
pub fn use_long_run(state: &UseReducerHandle<State>) {
    let running = state.is_running() || state.views_behind();
    let dispatcher = state.dispatcher();
    use_effect_with((running, state.generation), move |(running, _)| {
        let next = running
            .then(|| crate::browser::next_task(move || dispatcher.dispatch(Action::LongRunSlice)))
            .flatten();
        move || drop(next)
    });
}
