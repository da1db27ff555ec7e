//! The served state: one `Session` (its cluster and the `sim` commands), the watch journal, and the
//! lock and condition variable every request thread shares.
//!
//! The journal turns the store's watch log into watch events with object snapshots. It is the
//! cluster's [`ClockObserver`], so it looks at every instant the clock passes through (one `sim
//! settle` is many instants) and after every request ([`Shared::with`]): the objects written since
//! its previous look are recorded once each, in (kind, namespace, name) order, deleted ones with
//! their last recorded state — the events the in-process `get -w` prints, instant by instant.

use dsplay_api::{Kind, Object};
use dsplay_kubectl::Session;
use dsplay_sim::store::WatchEventType;
use dsplay_sim::{ClockObserver, Cluster};
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::clock::ClockMode;

/// (kind, namespace, name) of a stored object.
pub type ObjectKey = (Kind, String, String);

/// One recorded watch event.
#[derive(Clone, Debug)]
pub struct Journaled {
    /// The store's resourceVersion when it was recorded.
    pub resource_version: u64,
    /// ADDED / MODIFIED / DELETED.
    pub event: WatchEventType,
    /// The object as it was then.
    pub object: Object,
}

/// The watch journal (see the module docs), installed as the cluster's observer.
#[derive(Clone, Debug)]
struct Journal {
    entries: Vec<Journaled>,
    log_cursor: usize,
    last_seen: BTreeMap<ObjectKey, Object>,
}

impl Journal {
    /// An empty journal that knows the cluster's current objects.
    fn new(cluster: &Cluster) -> Journal {
        let store = cluster.store();
        let mut last_seen = BTreeMap::new();
        for kind in Kind::ALL {
            for object in store.list(kind) {
                last_seen.insert(key_of(&object), object);
            }
        }
        Journal {
            entries: Vec::new(),
            log_cursor: store.watch_log().len(),
            last_seen,
        }
    }

    /// Records the objects written since the previous call.
    fn record(&mut self, cluster: &Cluster) {
        let store = cluster.store();
        let log = store.watch_log();
        let mut added = BTreeSet::new();
        let mut touched = BTreeSet::new();
        for entry in &log[self.log_cursor.min(log.len())..] {
            let key = (entry.kind, entry.namespace.clone(), entry.name.clone());
            if entry.event_type == WatchEventType::Added && !self.last_seen.contains_key(&key) {
                added.insert(key.clone());
            }
            touched.insert(key);
        }
        self.log_cursor = log.len();
        let resource_version = store.resource_version();
        let mut deleted = Vec::new();
        for key in touched {
            match store.get(key.0, &key.1, &key.2) {
                Some(object) => {
                    let event = if added.contains(&key) {
                        WatchEventType::Added
                    } else {
                        WatchEventType::Modified
                    };
                    self.last_seen.insert(key, object.clone());
                    self.entries.push(Journaled {
                        resource_version,
                        event,
                        object,
                    });
                }
                None => {
                    if let Some(object) = self.last_seen.remove(&key) {
                        deleted.push(Journaled {
                            resource_version,
                            event: WatchEventType::Deleted,
                            object,
                        });
                    }
                }
            }
        }
        self.entries.extend(deleted);
    }
}

impl ClockObserver for Journal {
    fn observe(&mut self, cluster: &Cluster) {
        self.record(cluster);
    }

    fn box_clone(&self) -> Box<dyn ClockObserver> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The session; its cluster carries the journal.
pub struct State {
    session: Session,
    /// Realtime or manual.
    pub clock: ClockMode,
}

impl State {
    fn new(session: Session, clock: ClockMode) -> State {
        let mut state = State { session, clock };
        state.install_journal();
        state
    }

    fn install_journal(&mut self) {
        let journal = Journal::new(self.cluster());
        self.cluster_mut().set_observer(Some(Box::new(journal)));
    }

    fn journal(&self) -> Option<&Journal> {
        self.cluster()
            .observer()
            .and_then(|o| o.as_any().downcast_ref::<Journal>())
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

    /// A copy of the cluster without the journal, for a dry run.
    pub fn scratch_cluster(&mut self) -> Cluster {
        let journal = self.cluster_mut().take_observer();
        let copy = self.cluster().clone();
        self.cluster_mut().set_observer(journal);
        copy
    }

    /// Journal entries after `resource_version`.
    pub fn journal_since(&self, resource_version: u64) -> &[Journaled] {
        let Some(journal) = self.journal() else {
            return &[];
        };
        let start = journal
            .entries
            .partition_point(|j| j.resource_version <= resource_version);
        &journal.entries[start..]
    }

    /// Records the objects written since the journal last looked.
    pub fn record(&mut self) {
        let log_len = self.cluster().store().watch_log().len();
        match self.journal() {
            // `sim reset`: a new cluster (and no journal); earlier events describe objects that no
            // longer exist.
            Some(journal) if journal.log_cursor <= log_len => self.cluster_mut().observe_now(),
            _ => self.install_journal(),
        }
    }
}

/// The key of an object.
pub fn key_of(object: &Object) -> ObjectKey {
    (
        object.kind(),
        object.metadata().namespace.clone().unwrap_or_default(),
        object.name().to_string(),
    )
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
