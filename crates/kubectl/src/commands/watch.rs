//! `kubectl get -w` in a script: the table is printed at once; while the next `sim` command moves the
//! virtual clock, every write to a watched object is printed as one more row (no header), in the order
//! the API server made them — a watch stream sends each write, so a pod created Pending and bound in
//! the same instant shows two Pending rows. The watch ends with that `sim` command.
//!
//! Upstream: `kubectl/pkg/cmd/get/get.go` `watch` (one row per watch event, AGE as of the event).

use super::get::{table_for, Query};
use crate::printers::get as rows;
use crate::printers::table::TableOptions;
use crate::printers::tabwriter::RememberedWidths;
use chrono::{TimeZone, Utc};
use dsplay_api::Kind;
use dsplay_sim::Cluster;

/// An active watch: what it selects, its read position in the store's watch log and the column
/// widths printed so far.
#[derive(Clone, Debug)]
pub(crate) struct Watch {
    query: Query,
    kinds: Vec<Kind>,
    options: TableOptions,
    /// Index of the first watch-log entry not printed yet.
    cursor: usize,
    widths: RememberedWidths,
    /// This watch turned the store's write snapshots on (and turns them off when it ends).
    owns_snapshots: bool,
}

impl Watch {
    /// Starts a watch from the current state (the rows just printed by `get`).
    pub(crate) fn new(
        cluster: &mut Cluster,
        query: Query,
        kinds: Vec<Kind>,
        mut options: TableOptions,
    ) -> Watch {
        // The table `get` printed (with its header) sets the widths the rows keep.
        let mut widths = RememberedWidths::default();
        for kind in &kinds {
            let objects = query.select_in(cluster, *kind);
            if !objects.is_empty() {
                let table = table_for(*kind, &objects, cluster);
                widths.align_table(&table.render_unaligned(&options));
            }
        }
        options.no_headers = true;
        let owns_snapshots = !cluster.store().keeps_watch_snapshots();
        cluster.keep_watch_snapshots(true);
        Watch {
            query,
            kinds,
            options,
            cursor: cluster.store().watch_log().len(),
            widths,
            owns_snapshots,
        }
    }

    /// The rows of the writes to watched objects since the last call, oldest first; a deletion
    /// prints the object's last state, as kubectl prints the DELETED event. Each row is one flush.
    pub(crate) fn changes(&mut self, cluster: &Cluster) -> String {
        let log = cluster.store().watch_log();
        let mut out = String::new();
        for entry in &log[self.cursor.min(log.len())..] {
            let Some(object) = entry.object.as_ref() else {
                continue;
            };
            if !self.kinds.contains(&entry.kind) || !self.query.matches(entry.kind, object) {
                continue;
            }
            let at = Utc
                .timestamp_millis_opt(entry.time_ms)
                .single()
                .unwrap_or_else(|| cluster.now());
            let row = rows::table_for(entry.kind, std::slice::from_ref(object), at)
                .render_unaligned(&self.options);
            out.push_str(&self.widths.align_table(&row));
        }
        self.cursor = log.len();
        out
    }

    /// Ends the watch.
    pub(crate) fn finish(self, cluster: &mut Cluster) {
        if self.owns_snapshots {
            cluster.keep_watch_snapshots(false);
        }
    }
}

/// Advances the clock to `target_ms`, printing a row for every write to a watched object on the
/// way (the writes made by commands since the watch started, e.g. `kubectl set image`, first).
pub(crate) fn advance_watched(cluster: &mut Cluster, target_ms: i64, watch: &mut Watch) -> String {
    cluster.advance_until(target_ms, |_| false);
    watch.changes(cluster)
}
