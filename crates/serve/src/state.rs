//! The served state: one `Session` (its cluster and the `sim` commands), and the lock and condition
//! variable every request thread shares.
//!
//! Watches read the store's watch log, which keeps a snapshot of every write while the cluster is
//! served ([`State::watch_events_since`]): each write is one watch event, in resourceVersion order,
//! as the API server's watch cache sends them — the same rows the in-process `get -w` prints.

use dsplay_api::Object;
use dsplay_kubectl::Session;
use dsplay_sim::store::WatchEventType;
use dsplay_sim::Cluster;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::clock::ClockMode;

/// The session; its cluster keeps a snapshot of every write for the watches.
pub struct State {
    session: Session,
    /// Realtime or manual.
    pub clock: ClockMode,
}

impl State {
    fn new(session: Session, clock: ClockMode) -> State {
        let mut state = State { session, clock };
        state.record();
        state
    }

    /// The session (for `sim` commands).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The cluster.
    pub fn cluster(&self) -> &Cluster {
        self.session.cluster()
    }

    /// The cluster, for writes and the clock.
    pub fn cluster_mut(&mut self) -> &mut Cluster {
        self.session.cluster_mut()
    }

    /// A copy of the cluster, for a dry run.
    pub fn scratch_cluster(&mut self) -> Cluster {
        self.cluster().clone()
    }

    /// The watch events after `resource_version`, oldest first: every write since then (a cluster
    /// made by `sim reset` has none from before it was served).
    pub fn watch_events_since(
        &self,
        resource_version: u64,
    ) -> impl Iterator<Item = (WatchEventType, &Object)> {
        let log = self.cluster().store().watch_log();
        let start = log.partition_point(|e| e.resource_version <= resource_version);
        log[start..]
            .iter()
            .filter_map(|e| Some((e.event_type, e.object.as_deref()?)))
    }

    /// Keeps the snapshots on (again, after `sim reset` made a new cluster).
    pub fn record(&mut self) {
        if !self.cluster().store().keeps_watch_snapshots() {
            self.cluster_mut().keep_watch_snapshots(true);
        }
    }
}

/// What request threads share.
pub struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    stopped: AtomicBool,
}

impl Shared {
    /// Serves `session`.
    pub fn new(session: Session, clock: ClockMode) -> Shared {
        Shared {
            state: Mutex::new(State::new(session, clock)),
            changed: Condvar::new(),
            stopped: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking request thread must not take the server down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the state, records what it changed and wakes the watches.
    pub fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut state = self.lock();
        let out = f(&mut state);
        state.record();
        drop(state);
        self.changed.notify_all();
        out
    }

    /// Runs `f` on the state without recording (reads).
    pub fn read<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.lock())
    }

    /// Waits (at most `timeout`) for a change, then runs `f` on the state.
    pub fn wait_then<T>(&self, timeout: Duration, f: impl FnOnce(&mut State) -> T) -> T {
        let state = self.lock();
        let (mut state, _) = self
            .changed
            .wait_timeout(state, timeout)
            .unwrap_or_else(|e| e.into_inner());
        f(&mut state)
    }

    /// Asks every thread to finish.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// Whether [`Shared::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }
}
