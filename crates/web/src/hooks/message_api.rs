//! The embed's postMessage API (embed mode only: the main app ignores every message, so a page
//! that opens it cannot drive it). Requests: `{type: "dsplay:run", id, command}`, answered by
//! `{type: "dsplay:output", id, output, success}`, and `{type: "dsplay:request", id, method, arg}`
//! ([`Request`](crate::embed_request::Request)'s methods), answered by
//! `{type: "dsplay:response", id, output, success, result}`. Answers go to the parent window (to
//! this window when not framed). Once it listens, the app posts `{type: "dsplay:ready"}`;
//! requests that came earlier (`boot.js` queues them from the start) are answered first, and all
//! of them one at a time, in order. `{type: "dsplay:change", log}` follows every change of the
//! session's log. Anything else is ignored, and so is every request from another origin than the
//! page's `origin=` parameter when it is given (messages then go to that origin only).

use crate::browser::{parse_request, post_reply, post_to_host, take_early_messages};
use crate::persist::PageParams;
use crate::state::{Action, State};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use yew::prelude::*;

/// Requests waiting for their turn; `busy` while one is being answered.
#[derive(Default)]
struct Queue {
    waiting: VecDeque<Action>,
    busy: bool,
}

/// Queues `action` and dispatches it now if no other request is being answered.
fn enqueue(queue: &RefCell<Queue>, dispatcher: &UseReducerDispatcher<State>, action: Action) {
    let mut queue = queue.borrow_mut();
    if queue.busy {
        queue.waiting.push_back(action);
    } else {
        queue.busy = true;
        dispatcher.dispatch(action);
    }
}

/// In embed mode, listens for requests and posts the replies; otherwise does nothing.
#[hook]
pub fn use_message_api(state: &UseReducerHandle<State>, params: &PageParams) {
    let queue: Rc<RefCell<Queue>> = use_mut_ref(Queue::default);
    let target_origin = params.reply_origin().to_string();
    {
        let (dispatcher, queue) = (state.dispatcher(), queue.clone());
        let (accepted, target_origin) = (params.clone(), target_origin.clone());
        use_effect_with(params.embed, move |embed| {
            let early = take_early_messages();
            let listener = embed.then(web_sys::window).flatten().map(|window| {
                let accept = move |e: &wasm_bindgen::JsValue| {
                    parse_request(e, |origin| accepted.accepts_origin(origin))
                };
                for action in early.iter().filter_map(&accept) {
                    enqueue(&queue, &dispatcher, action);
                }
                let listener = gloo::events::EventListener::new(&window, "message", move |e| {
                    if let Some(action) = accept(e.as_ref()) {
                        enqueue(&queue, &dispatcher, action);
                    }
                });
                post_to_host("dsplay:ready", &[], &target_origin);
                listener
            });
            move || drop(listener)
        });
    }
    {
        let (reply, dispatcher) = (state.reply.clone(), state.dispatcher());
        let target_origin = target_origin.clone();
        use_effect_with(reply.as_ref().map(|r| r.seq), move |_| {
            if let Some(reply) = reply {
                post_reply(&reply, &target_origin);
                let next = {
                    let mut queue = queue.borrow_mut();
                    let next = queue.waiting.pop_front();
                    queue.busy = next.is_some();
                    next
                };
                if let Some(action) = next {
                    dispatcher.dispatch(action);
                }
            }
        });
    }
    let log_len = state.latest().log.len();
    use_effect_with((params.embed, log_len), move |(embed, log_len)| {
        if *embed {
            post_to_host(
                "dsplay:change",
                &[("log", (*log_len as f64).into())],
                &target_origin,
            );
        }
    });
}
