//! The play clock: a wall-clock interval that moves virtual time while playing.

use crate::browser::wall_ms;
use crate::state::{Action, State};
use yew::prelude::*;

/// How often the clock ticks while playing (wall-clock milliseconds).
const TICK_MS: u32 = 100;

/// While `playing`, dispatches [`Action::Tick`] with the wall-clock time since the last tick.
#[hook]
pub fn use_clock(playing: bool, dispatcher: UseReducerDispatcher<State>) {
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
