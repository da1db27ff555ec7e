//! The timeline's Warning marks kept between refreshes: only the events the store's watch log
//! shows written or removed since the last read are looked at again, and none while no Warning
//! event was (a large cluster keeps tens of thousands of events, few of them warnings).

use super::warning_mark;
use super::watch_position::WatchPosition;
use crate::timeline::Mark;
use dsplay_api::Kind;
use dsplay_sim::Store;
use std::collections::BTreeMap;

/// The Warning events' marks, by namespace and name (looked up without copying either: most
/// events written are no warnings, and a node add of thousands writes tens of thousands).
#[derive(Default)]
pub struct WarningMarks {
    marks: BTreeMap<String, BTreeMap<String, Mark>>,
    read_to: WatchPosition,
    /// The store's warnings version at the last read ([`Store::warnings_version`]).
    warnings_read: Option<u64>,
}

impl WarningMarks {
    /// Every Warning event of `store` as a timeline mark, oldest first.
    pub fn read(&mut self, store: &Store, started: chrono::DateTime<chrono::Utc>) -> Vec<Mark> {
        let version = store.warnings_version();
        match self.read_to.unread(store) {
            // No Warning event written or removed since: the marks stand.
            Some(_) if self.warnings_read == Some(version) => {}
            Some(changes) => {
                for change in changes.iter().filter(|c| c.kind == Kind::Event) {
                    let (namespace, name) = (&change.namespace, &change.name);
                    match store
                        .event(namespace, name)
                        .and_then(|e| warning_mark(e, started))
                    {
                        Some(mark) => self.file(namespace.clone(), name.clone(), mark),
                        None => {
                            if let Some(names) = self.marks.get_mut(namespace.as_str()) {
                                names.remove(name.as_str());
                            }
                        }
                    }
                }
            }
            None => {
                self.marks.clear();
                for event in store.events() {
                    if let Some(mark) = warning_mark(event, started) {
                        let (namespace, name) = dsplay_sim::store::key_of(&event.metadata);
                        self.file(namespace, name, mark);
                    }
                }
            }
        }
        self.warnings_read = Some(version);
        let mut marks: Vec<Mark> = self
            .marks
            .values()
            .flat_map(|names| names.values().cloned())
            .collect();
        marks.sort_by_key(|m| m.at_ms);
        marks
    }

    /// Keeps `mark` for the event `namespace/name`.
    fn file(&mut self, namespace: String, name: String, mark: Mark) {
        self.marks.entry(namespace).or_default().insert(name, mark);
    }
}

#[cfg(test)]
mod tests {
    use super::WarningMarks;

    /// Marks of failing pulls, read as the session goes (and after the events expire), equal
    /// marks read from scratch, oldest first.
    #[test]
    fn warning_events_become_timeline_marks() {
        let mut session = dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions {
            seed: 1,
            empty: false,
        });
        let started = session.cluster().now();
        let mut kept = WarningMarks::default();
        let mut seen = Vec::new();
        for step in [
            "sim image busybox:bad --pull fail",
            &crate::demo::apply_command(
                &crate::demo::DEMO_DAEMON_SET.replace("image: busybox", "image: busybox:bad"),
            ),
            "sim advance 30s",
            "kubectl set image ds/demo demo=busybox:1.37",
            "sim advance 2h",
        ] {
            session.execute(step);
            let store = session.cluster().store();
            let marks = kept.read(store, started);
            assert_eq!(
                marks,
                WarningMarks::default().read(store, started),
                "{step}"
            );
            assert!(marks.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
            seen.push(marks);
        }
        assert!(
            seen[2]
                .iter()
                .any(|m| m.label.starts_with("Failed pod/demo-")),
            "{:?}",
            seen[2]
        );
        assert!(seen[2].iter().all(|m| (0..=30_000).contains(&m.at_ms)));
        assert!(seen[4].is_empty(), "expired: {:?}", seen[4]);
    }
}
