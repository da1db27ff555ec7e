//! The session the page opens with. A link (`#s=` share state or `?script=`) opens in a fresh
//! session: it never runs on top of the user's autosave, which is set aside (under
//! [`PREVIOUS_KEY`]) for a "restore your previous session" offer, and the link's parameters are
//! removed from the URL once used. Without a link: the autosave, else the default cluster.

use crate::browser::{
    drop_link_params, location_search_and_hash, storage_get, storage_remove, storage_set,
};
use crate::persist::{PageParams, Saved, PREVIOUS_KEY, STORAGE_KEY};
use crate::state::{State, SPEEDS};
use std::cell::RefCell;
use std::rc::Rc;

/// The page's parameters and first state, made before the app mounts (in a task of their own:
/// see [`crate::default_cluster`]), for the app to take.
#[derive(Clone)]
pub struct Start {
    /// The page's parameters, as they were before [`initial_state`] removed a link's.
    pub params: PageParams,
    state: Rc<RefCell<Option<State>>>,
}

impl Start {
    /// Reads the page's parameters and makes its first state.
    pub fn of_page() -> Start {
        let params = page_params();
        let state = initial_state(&params);
        Start {
            params,
            state: Rc::new(RefCell::new(Some(state))),
        }
    }

    /// The first state; `None` once taken.
    pub fn take_state(&self) -> Option<State> {
        self.state.borrow_mut().take()
    }
}

/// The same start.
impl PartialEq for Start {
    fn eq(&self, other: &Start) -> bool {
        Rc::ptr_eq(&self.state, &other.state)
    }
}

/// The page's parameters (`?embed`, `#s=…`, …).
pub fn page_params() -> PageParams {
    let (search, hash) = location_search_and_hash();
    PageParams::parse(&search, &hash)
}

/// The first state (see the module doc); embed mode never reads or sets aside the autosave.
pub fn initial_state(params: &PageParams) -> State {
    let script = params.script.as_deref().filter(|s| !s.trim().is_empty());
    let from_link = params.shared.is_some() || script.is_some();
    let mut notice = None;
    let mut previous_saved = false;
    if from_link && !params.embed {
        drop_link_params();
        if let Some(text) = storage_get(STORAGE_KEY) {
            previous_saved = storage_set(PREVIOUS_KEY, &text).is_ok();
        }
    }
    // A large session (thousands of nodes) is replayed in slices after the first render, unless
    // a script or an embed's host page waits for it.
    let restore = |saved: &Saved| {
        if script.is_none() && !params.embed {
            State::restore_as_fits(saved)
        } else {
            State::restore(saved)
        }
    };
    let mut state = match params.shared.as_deref() {
        Some(hash) => match Saved::from_hash(hash) {
            Ok(saved) => restore(&saved),
            Err(e) => {
                notice = Some(format!(
                    "This share link could not be opened: {e}. Showing the default cluster."
                ));
                State::new()
            }
        },
        None if params.embed || from_link => State::new(),
        None => match storage_get(STORAGE_KEY) {
            Some(text) => match Saved::from_json(&text) {
                Ok(saved) => restore(&saved),
                Err(e) => {
                    storage_remove(STORAGE_KEY);
                    notice = Some(format!(
                        "The autosaved session could not be restored ({e}). Showing the default cluster."
                    ));
                    State::new()
                }
            },
            None => State::new(),
        },
    };
    if params.embed {
        state.playing = params.autoplay;
    } else if params.autoplay {
        state.playing = true;
    }
    if let Some(script) = script {
        state.run_script(script);
        if params.embed {
            state.reset_script = Some(Rc::from(script));
        }
    }
    if let Some(speed) = params.speed {
        state.speed = speed.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1]);
    }
    state.notice = notice.map(Rc::from);
    state.previous_session = previous_saved;
    state
}
