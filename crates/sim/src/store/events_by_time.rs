//! [`EventsByTime`]: the stored events ordered by when they last happened, so the newest of a long
//! session's tens of thousands are read without visiting them all.
//!
//! The playground's events list shows the newest events and reads them again every second while
//! the clock plays. Picking them from the hashed table visited every event (one cache miss each,
//! then string comparisons among the thousands that share a second): ~15 ms natively with the
//! 30 000 events of a 5 000-node cluster, several times that in the browser. Here a write or an
//! expiry moves one entry of a B-tree, and the newest are its last entries.

use dsplay_api::types::Event;
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::sync::Arc;

/// When an event last happened: `lastTimestamp`, else `eventTime`, else its creation.
pub fn last_seen(event: &Event) -> Option<chrono::DateTime<chrono::Utc>> {
    event
        .last_timestamp
        .as_ref()
        .map(|t| t.0)
        .or_else(|| event.event_time.as_ref().map(|t| t.0))
        .or_else(|| event.metadata.creation_timestamp.as_ref().map(|t| t.0))
}

/// The stored events by [`last_seen`], then by the write that stored them (its resourceVersion: a
/// total order, every write has its own). It holds the same handles as the store's table: an
/// event stored is never changed in place, so its place here stays right until it is replaced or
/// removed. The order's two numbers sit in the entry itself: a large node add writes tens of
/// thousands of events within one second, and comparing their names, one pointer away, was a
/// twelfth of that command in the browser.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventsByTime(BTreeSet<ByTime>);

impl EventsByTime {
    /// Files a stored event (after [`EventsByTime::remove`] of the one it replaces).
    pub(crate) fn insert(&mut self, event: Arc<Event>) {
        self.0.insert(ByTime::of(event));
    }

    /// Takes out an event that was stored.
    pub(crate) fn remove(&mut self, event: &Arc<Event>) {
        self.0.remove(&ByTime::of(Arc::clone(event)));
    }

    /// Every event, the newest first (within the same second: the latest write first).
    pub(crate) fn newest_first(&self) -> impl Iterator<Item = &Event> {
        self.0.iter().rev().map(|e| &*e.event)
    }
}

#[derive(Clone, Debug)]
struct ByTime {
    /// [`last_seen`], in milliseconds since the epoch.
    at: Option<i64>,
    /// The resourceVersion the store gave the event's write.
    version: u64,
    event: Arc<Event>,
}

impl ByTime {
    fn of(event: Arc<Event>) -> Self {
        let version = event.metadata.resource_version.as_deref();
        ByTime {
            at: last_seen(&event).map(|t| t.timestamp_millis()),
            version: version.and_then(|v| v.parse().ok()).unwrap_or_default(),
            event,
        }
    }
}

impl Ord for ByTime {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.at, self.version).cmp(&(other.at, other.version))
    }
}

impl PartialOrd for ByTime {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for ByTime {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for ByTime {}

#[cfg(test)]
mod tests {
    use super::last_seen;
    use crate::store::{Key, Store};
    use dsplay_api::types::{Event, ObjectMeta, Time};
    use dsplay_api::Object;

    /// Events in two namespaces, by the name's length.
    fn key(name: &str) -> Key {
        let namespace = if name.len().is_multiple_of(2) {
            "default"
        } else {
            "kube-system"
        };
        (namespace.into(), name.into())
    }

    fn event((namespace, name): Key, second: i64) -> Object {
        Object::Event(Event {
            metadata: ObjectMeta {
                name: Some(name),
                namespace: Some(namespace),
                ..Default::default()
            },
            last_timestamp: Some(Time(chrono::DateTime::from_timestamp(second, 0).unwrap())),
            ..Default::default()
        })
    }

    /// Through writes, rewrites (a later second, or the same one, as a count bump within a second
    /// is) and removals, the index lists exactly the stored events, in the order of a full sort
    /// by when they last happened, then by their writes' resourceVersions.
    #[test]
    fn the_newest_first_are_a_full_sort_of_the_stored_events() {
        let mut store = Store::default();
        let mut state = 7u64;
        for step in 0..600 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = key(&format!("e{}", (state >> 33) % 40));
            if (state >> 40).is_multiple_of(4) {
                store.remove_event(&key, step);
            } else {
                store.put(event(key, ((state >> 20) % 5) as i64), step);
            }
            let mut all: Vec<&Event> = store.events().collect();
            all.sort_by(|a, b| {
                let order = |e: &&Event| {
                    let version = e.metadata.resource_version.as_deref().unwrap_or_default();
                    (last_seen(e), version.parse::<u64>().unwrap())
                };
                order(b).cmp(&order(a))
            });
            let newest: Vec<&Event> = store.events_newest_first().collect();
            assert_eq!(newest, all, "step {step}");
        }
        assert!(store.events().count() > 10, "the run keeps events");
    }

    /// The warnings version moves with a Warning event's write, its rewrite as Normal, and its
    /// removal; not with a Normal event's write or removal.
    #[test]
    fn the_warnings_version_moves_with_warning_events_only() {
        let mut store = Store::default();
        let typed = |key: Key, type_: &str| match event(key, 1) {
            Object::Event(e) => Object::Event(Event {
                type_: Some(type_.into()),
                ..e
            }),
            _ => unreachable!("an event"),
        };
        let normal = key("normal");
        let warning = key("warn");
        store.put(typed(normal.clone(), "Normal"), 1);
        assert_eq!(store.warnings_version(), 0);
        store.put(typed(warning.clone(), "Warning"), 2);
        let written = store.warnings_version();
        assert_eq!(written, store.resource_version());
        store.put(typed(normal.clone(), "Normal"), 3);
        store.remove_event(&normal, 4);
        assert_eq!(store.warnings_version(), written, "Normal events only");
        store.put(typed(warning.clone(), "Normal"), 5);
        let rewritten = store.warnings_version();
        assert_eq!(rewritten, store.resource_version(), "no longer a warning");
        store.put(typed(warning.clone(), "Warning"), 6);
        store.remove_event(&warning, 7);
        assert_eq!(
            store.warnings_version(),
            store.resource_version(),
            "removed"
        );
    }
}
