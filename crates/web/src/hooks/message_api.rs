//! The embed's postMessage API (embed mode only: the main app ignores every message, so a page
//! that opens it cannot drive it): `{type: "dsplay:run", id, command}` runs `command`; the answer
//! `{type: "dsplay:output", id, output, success}` goes to the parent window (to this window when
//! not framed). Anything else is ignored, and so is every request from another origin than the
//! page's `origin=` parameter when it is given (replies then go to that origin only).

use crate::browser::{parse_run_message, post_reply};
use crate::persist::PageParams;
use crate::state::{Action, State};
use yew::prelude::*;

/// In embed mode, listens for requests and posts the replies; otherwise does nothing.
#[hook]
pub fn use_message_api(state: &UseReducerHandle<State>, params: &PageParams) {
    let dispatcher = state.dispatcher();
    let accepted = params.clone();
    use_effect_with(params.embed, move |embed| {
        let listener = embed.then(web_sys::window).flatten().map(|window| {
            gloo::events::EventListener::new(&window, "message", move |e| {
                if let Some((id, command)) =
                    parse_run_message(e, |origin| accepted.accepts_origin(origin))
                {
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
