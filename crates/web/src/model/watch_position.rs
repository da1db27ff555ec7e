//! How far a view kept between refreshes has read the store's watch log, so it reads only the
//! writes since (or starts over when the log is not the one it read: another session's store).

use dsplay_sim::{Store, WatchEvent};

/// A read position in the watch log: its length and the resourceVersion of its last entry then.
#[derive(Clone, Copy, Debug, Default)]
pub struct WatchPosition(Option<(usize, u64)>);

impl WatchPosition {
    /// The writes since the last read, or `None` when the view must be built from the store
    /// again (the first read, or a log that does not continue the one read). Either way the
    /// position moves to the end of the log.
    pub fn unread<'a>(&mut self, store: &'a Store) -> Option<&'a [WatchEvent]> {
        let log = store.watch_log();
        let continues = |(len, rv): (usize, u64)| {
            len <= log.len() && (len == 0 || log[len - 1].resource_version == rv)
        };
        let from = self.0.filter(|read| continues(*read)).map(|(len, _)| len);
        self.0 = Some((log.len(), log.last().map_or(0, |e| e.resource_version)));
        from.map(|len| &log[len..])
    }
}
