//! The events list, newest first.

use crate::model::EventRow;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`Events`].
#[derive(Properties, PartialEq)]
pub struct EventsProps {
    /// Rows, newest first.
    pub rows: Rc<Vec<EventRow>>,
}

/// The events list.
#[function_component(Events)]
pub fn events(props: &EventsProps) -> Html {
    html! {
        <section class="panel events" aria-label="Events">
            <h2>{"Events"}</h2>
            if props.rows.is_empty() {
                <p class="empty">{"No events yet."}</p>
            } else {
                <ol class="event-list" tabindex="0" aria-label="Events">
                    { for props.rows.iter().map(|r| html! {
                        <li class={classes!("event", (r.type_ == "Warning").then_some("warning"))}>
                            <div class="event-head">
                                <span class="age">{&r.age}</span>
                                <span class="type">{&r.type_}</span>
                                <span class="reason">{&r.reason}</span>
                                <span class="object">{&r.object}</span>
                            </div>
                            <div class="message">{&r.message}</div>
                        </li>
                    }) }
                </ol>
            }
        </section>
    }
}
