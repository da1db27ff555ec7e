//! The reducer's side of the embed API's `dsplay:request` messages: each [`Request`] becomes the
//! action a control would dispatch, and every one of them is answered (the host's promise never
//! waits forever), in the order they came.

use super::{Action, Reply, ReplyKind, Request, State};
use crate::embed_request::state_data;
use dsplay_kubectl::CommandOutput;
use std::rc::Rc;
use yew::Reducible;

impl State {
    /// Does what `request` asks and posts the answer; a `run` is answered when its line finishes
    /// (a long `sim settle` runs in slices first).
    pub(super) fn answer(self: Rc<Self>, id: String, request: Request) -> Rc<State> {
        let action = match request {
            Request::Run(command) => {
                let kind = ReplyKind::Response;
                return self.reduce(Action::Remote { id, command, kind });
            }
            Request::Apply(yaml) => Some(Action::Apply(yaml)),
            Request::Play => (!self.playing || self.viewing_past()).then_some(Action::TogglePlay),
            Request::Pause => self.playing.then_some(Action::TogglePlay),
            Request::Step => Some(Action::Step),
            Request::Seek(ms) => Some(Action::Rewind(ms)),
            Request::Reset => Some(Action::Reset),
            Request::State => None,
        };
        let is_state = action.is_none();
        let before = self.terminal.len();
        let done = match action {
            Some(action) => self.clone().reduce(action),
            None => self.clone(),
        };
        let mut next = (*done).clone();
        // What the action printed (nothing after a reset: a new session, a new terminal).
        let output: String = match next.terminal.get(before..) {
            Some(new) if Rc::ptr_eq(&next.session, &self.session) => {
                new.iter().map(CommandOutput::text).collect()
            }
            _ => String::new(),
        };
        let data = is_state.then(|| {
            let session = next.session.borrow();
            Rc::from(state_data(&next.model, session.cluster().store()).to_string())
        });
        next.post(Reply {
            seq: 0,
            id,
            output,
            success: next.editor_error.is_none(),
            kind: ReplyKind::Response,
            data,
        });
        next.generation = self.generation + 1;
        Rc::new(next)
    }

    /// Makes `reply` the next answer to post (its `seq` follows the last one).
    pub(super) fn post(&mut self, reply: Reply) {
        let seq = self.reply.as_ref().map_or(0, |r| r.seq) + 1;
        self.reply = Some(Rc::new(Reply { seq, ..reply }));
    }
}
