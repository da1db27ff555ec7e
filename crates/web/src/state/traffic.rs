//! The reducer's side of request animations: after a command, the `sim curl` answers become
//! flights, numbered on from the last ones so a repeated request animates again.

use super::State;
use crate::model::traffic::flights;
use std::rc::Rc;

impl State {
    /// After a command: its `sim curl` requests (if any) replace the flights shown.
    pub(super) fn take_flights(&mut self) {
        let mut session = self.session.borrow_mut();
        let requests = session.take_requests();
        if requests.is_empty() {
            return;
        }
        let next_id = self.flights.last().map_or(0, |f| f.id + 1);
        self.flights = Rc::new(flights(requests, session.cluster().store(), next_id));
    }
}
