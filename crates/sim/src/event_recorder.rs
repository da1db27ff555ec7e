//! Events: recorded the way client-go's recorder does (repeats aggregated into `count`), with the
//! source and instance a real cluster shows, and deleted by the API server an hour after their
//! last write.

use crate::cluster::{k8s_time, Cluster};
use crate::names;
use crate::store::Key;
use dsplay_api::types::*;
use dsplay_api::Object;

/// How long the API server keeps an event after its last write (kube-apiserver `--event-ttl`).
pub const EVENT_TTL_MS: i64 = 3600 * 1000;

/// The instance an event names: the kubelet's node; the scheduler's `<name>-<host>` identity
/// (it reports through events/v1); nothing for kube-controller-manager's controllers, whose
/// legacy recorder sets none — so `get events -o wide` shows `daemonset-controller` alone and
/// `default-scheduler, default-scheduler-kind-control-plane`.
///
/// Upstream: `pkg/scheduler/scheduler.go` `New` (`eventBroadcaster.NewRecorder(…, profileName)`
/// with the host's identity), `staging/src/k8s.io/client-go/tools/record/event.go` `makeEvent`.
fn reporting_instance(component: &str, host: Option<&str>) -> String {
    match host {
        Some(host) => host.to_string(),
        None if component == "default-scheduler" => {
            "default-scheduler-kind-control-plane".to_string()
        }
        None => String::new(),
    }
}

impl Cluster {
    /// Records an event the way client-go's recorder does, aggregating repeats into `count`.
    pub(crate) fn record_event(
        &mut self,
        involved: &ObjectReference,
        event_type: &str,
        reason: &str,
        message: &str,
        component: &str,
        host: Option<&str>,
    ) {
        let involved = involved.clone();
        self.record_event_about(involved, event_type, reason, message, component, host);
    }

    /// [`Cluster::record_event`] with a reference built for the event: a new event takes it
    /// over instead of a copy.
    pub(crate) fn record_event_about(
        &mut self,
        involved: ObjectReference,
        event_type: &str,
        reason: &str,
        message: &str,
        component: &str,
        host: Option<&str>,
    ) {
        let namespace = involved
            .namespace
            .clone()
            .unwrap_or_else(|| "default".to_string());
        let now = k8s_time(self.now_ms);
        // Indexed lookup of the first event with the same identity (was a linear scan of every event)
        // by the identity's hash: the index holds numbers and keys, no copy of the identity.
        let identity: IdentityParts = (
            involved.uid.as_deref(),
            involved.name.as_deref(),
            reason,
            message,
            component,
        );
        let hash = identity_hash(&identity);
        // The index follows the recorder's own writes and expiries; any other event write (an
        // event created or deleted through the API) makes it rebuild once.
        if self.event_index_version != self.store.events_version() {
            self.rebuild_event_index();
        }
        let (stale, mut existing) = self.indexed_event(hash, &identity);
        if existing.is_none() && stale {
            // The index names an event that is gone or changed: rebuild it and look again.
            self.rebuild_event_index();
            existing = self.indexed_event(hash, &identity).1;
        }
        if let Some(existing) = existing {
            let mut event = existing;
            event.count = Some(event.count.unwrap_or(1) + 1);
            event.last_timestamp = Some(now);
            let key = crate::store::key_of(&event.metadata);
            self.write(Object::Event(event));
            self.event_index_version = self.store.events_version();
            self.expire_later(key, hash);
            return;
        }
        self.event_seq += 1;
        let event = Event {
            metadata: ObjectMeta {
                name: Some(names::event_name(
                    involved.name.as_deref().unwrap_or("x"),
                    self.now_ms,
                    self.event_seq,
                )),
                namespace: Some(namespace),
                uid: Some(names::uid(&mut self.rng)),
                creation_timestamp: Some(now.clone()),
                ..Default::default()
            },
            involved_object: involved,
            reason: Some(reason.to_string()),
            message: Some(message.to_string()),
            type_: Some(event_type.to_string()),
            source: Some(EventSource {
                component: Some(component.to_string()),
                host: host.map(str::to_string),
            }),
            first_timestamp: Some(now.clone()),
            last_timestamp: Some(now),
            count: Some(1),
            reporting_component: Some(component.to_string()),
            reporting_instance: Some(reporting_instance(component, host)),
            ..Default::default()
        };
        let key = crate::store::key_of(&event.metadata);
        self.write(Object::Event(event));
        self.expire_later(key.clone(), hash);
        // No event has this identity (the lookup above found none in an index that was
        // current or just rebuilt), so the new event is the first of it.
        self.event_index.get_or_default(hash).push(key);
        self.event_index_version = self.store.events_version();
    }

    /// Deletes the events whose TTL has run out: each write of an event takes a fresh lease, so an
    /// event goes [`EVENT_TTL_MS`] after its last write (a repeated event lives on).
    ///
    /// Upstream: `pkg/registry/core/event/storage/storage.go` `NewREST` (the store's `TTLFunc`),
    /// kube-apiserver `--event-ttl` (default 1h).
    pub(crate) fn expire_events(&mut self) {
        let now = self.now_ms;
        while let Some(due) = self.event_expiry.first_entry().filter(|e| *e.key() <= now) {
            // Within an instant in the order of the writes (etcd revokes a lease's keys in no
            // particular order); a key written twice in one instant is found gone the second time.
            for (key, hash) in due.remove() {
                self.expire_event(key, hash, now);
            }
        }
    }

    /// Queues the event just written at `key`, of identity hash `hash`, to expire
    /// [`EVENT_TTL_MS`] from now.
    fn expire_later(&mut self, key: Key, hash: u64) {
        let at = self.now_ms.saturating_add(EVENT_TTL_MS);
        match self.event_expiry.last_entry() {
            Some(mut last) if *last.key() == at => last.get_mut().push((key, hash)),
            _ => self.event_expiry.entry(at).or_default().push((key, hash)),
        }
    }

    /// Deletes the event at `key` if its TTL has run out by `now`, and its place in the index
    /// under the identity hash it was written with (an event whose identity was since changed
    /// through the API leaves a key the index finds gone, and a lookup then rebuilds it).
    fn expire_event(&mut self, key: Key, hash: u64, now: i64) {
        // An entry per write: the event goes only if this was its last write.
        let expired = |e: &Event| {
            let last_write_ms = e.last_timestamp.as_ref().map(|t| t.0.timestamp_millis());
            last_write_ms.is_some_and(|w| w.saturating_add(EVENT_TTL_MS) <= now)
        };
        let index_current = self.event_index_version == self.store.events_version();
        if let Some((key, _)) = self.store.remove_event_if(key, now, expired) {
            if let Some(keys) = self.event_index.get_mut(&hash) {
                keys.retain(|k| *k != key);
                if keys.is_empty() {
                    self.event_index.remove(&hash);
                }
            }
            if index_current {
                self.event_index_version = self.store.events_version();
            }
        }
    }

    /// Rebuilds the event identity index from the store (after events were created or deleted
    /// outside `record_event`); the first event in key order wins, as the linear scan did.
    fn rebuild_event_index(&mut self) {
        self.event_index_version = self.store.events_version();
        self.event_index = Default::default();
        let events = &self.store.events;
        for (key, event) in events.sorted() {
            let parts = identity_parts(event);
            let keys = self.event_index.get_or_default(identity_hash(&parts));
            let first = |k: &Key| events.get(k).is_some_and(|e| identity_parts(e) == parts);
            if !keys.iter().any(first) {
                keys.push(key.clone());
            }
        }
    }

    /// The indexed event with this identity (a copy, to write back with a higher count), and
    /// whether the index named an event that is gone or now has an identity of another hash (the
    /// index is stale then).
    fn indexed_event(&self, hash: u64, identity: &IdentityParts) -> (bool, Option<Event>) {
        for key in self.event_index.get(&hash).into_iter().flatten() {
            match self.store.events.get(key) {
                Some(e) if identity_parts(e) == *identity => return (false, Some(Event::clone(e))),
                // Another identity with the same hash.
                Some(e) if identity_hash(&identity_parts(e)) == hash => {}
                _ => return (true, None),
            }
        }
        (false, None)
    }
}

/// An event's identity for aggregation, borrowed: involved uid and name, reason, message,
/// component. The index keeps only its [`identity_hash`].
type IdentityParts<'a> = (Option<&'a str>, Option<&'a str>, &'a str, &'a str, &'a str);

/// The identity of a stored event, borrowed from it.
fn identity_parts(e: &Event) -> IdentityParts<'_> {
    (
        e.involved_object.uid.as_deref(),
        e.involved_object.name.as_deref(),
        e.reason.as_deref().unwrap_or_default(),
        e.message.as_deref().unwrap_or_default(),
        e.source
            .as_ref()
            .and_then(|s| s.component.as_deref())
            .unwrap_or_default(),
    )
}

/// A 64-bit FNV-style hash over the parts, eight bytes at a time, each part behind its length (or
/// a marker for `None`): deterministic across runs and platforms, as everything the simulation
/// computes must be. Equal hashes of different identities only cost a comparison of the strings.
fn identity_hash(parts: &IdentityParts) -> u64 {
    let (uid, name, reason, message, component) = *parts;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |word: u64| hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3).rotate_left(23);
    for part in [uid, name, Some(reason), Some(message), Some(component)] {
        let Some(text) = part else {
            mix(u64::MAX);
            continue;
        };
        mix(text.len() as u64);
        let mut chunks = text.as_bytes().chunks_exact(8);
        for chunk in &mut chunks {
            mix(u64::from_le_bytes(
                <[u8; 8]>::try_from(chunk).unwrap_or_default(),
            ));
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        mix(u64::from_le_bytes(tail));
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WatchEventType;
    use dsplay_api::Kind;
    use std::time::Duration;

    /// Events written in one instant expire together an hour later, in the order they were
    /// written (not by key), and a repeat moves only its own event's expiry.
    #[test]
    fn events_of_one_instant_expire_in_write_order() {
        let mut c = Cluster::new_empty(1);
        let about = |name: &str| ObjectReference {
            kind: Some("Pod".into()),
            namespace: Some("default".into()),
            name: Some(name.into()),
            ..Default::default()
        };
        for name in ["b", "a", "c"] {
            c.record_event(&about(name), "Normal", "Test", name, "test", None);
        }
        c.advance(Duration::from_secs(600));
        c.record_event(&about("c"), "Normal", "Test", "c", "test", None);
        let log_len = c.store.watch_log().len();
        c.advance(Duration::from_secs(3000));
        let deleted: Vec<&str> = c.store.watch_log()[log_len..]
            .iter()
            .filter(|e| e.kind == Kind::Event && e.event_type == WatchEventType::Deleted)
            .map(|e| e.name.split('.').next().unwrap_or_default())
            .collect();
        assert_eq!(deleted, ["b", "a"], "c was written again ten minutes later");
        c.advance(Duration::from_secs(600));
        assert_eq!(c.store.events().count(), 0);
    }

    /// An event whose message was changed through the API expires like any other, and the
    /// recorder then neither aggregates into it nor into the event of its old identity.
    #[test]
    fn an_event_edited_through_the_api_expires_and_is_not_reused() {
        let mut c = Cluster::new_empty(1);
        let about = ObjectReference {
            kind: Some("Pod".into()),
            namespace: Some("default".into()),
            name: Some("p".into()),
            ..Default::default()
        };
        c.record_event(&about, "Normal", "Test", "before", "test", None);
        let mut edited = c.store.events().next().cloned().expect("the event");
        edited.message = Some("after".into());
        c.update(Object::Event(edited)).expect("update");
        c.advance(Duration::from_secs(3601));
        assert_eq!(
            c.store.events().count(),
            0,
            "expired an hour after its last write"
        );
        for message in ["before", "after"] {
            c.record_event(&about, "Normal", "Test", message, "test", None);
        }
        let counts: Vec<i32> = c.store.events().filter_map(|e| e.count).collect();
        assert_eq!(counts, [1, 1], "two new events");
        c.advance(Duration::from_secs(3601));
        assert_eq!(c.store.events().count(), 0);
    }

    /// The index after the recorder's own writes and expiries is the one a rebuild gives, and no
    /// rebuild is pending: a long run (events expiring while new ones are recorded) must not
    /// rebuild the index on every event, which made rolling updates of over an hour quadratic.
    #[test]
    fn expiries_keep_the_index_current_without_a_rebuild() {
        let mut c = Cluster::new(1);
        let at_start = c.store.events().count();
        assert!(at_start > 0, "the default cluster starts with events");
        c.advance(Duration::from_secs(3601));
        assert!(
            c.store.events().count() < at_start,
            "the first events expired"
        );
        crate::controller::node_lifecycle::fail_node(&mut c, "kind-worker");
        c.advance(Duration::from_secs(60));
        assert!(c
            .store
            .events()
            .any(|e| e.reason.as_deref() == Some("NodeNotReady")));
        assert_eq!(c.event_index_version, c.store.events_version());
        let kept = c.event_index.clone();
        c.rebuild_event_index();
        assert_eq!(kept, c.event_index);
    }
}
