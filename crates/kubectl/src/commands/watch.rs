//! `kubectl get -w` in a script: the table is printed at once; while the next `sim` command moves the
//! virtual clock, every change to a watched object is printed as one more row (no header), instant by
//! instant, as a real watch would show it. The watch ends with that `sim` command.

use super::get::{table_for, Query};
use crate::printers::table::TableOptions;
use crate::printers::tabwriter::RememberedWidths;
use dsplay_api::Kind;
use dsplay_sim::Cluster;
use std::collections::BTreeMap;

/// An active watch: what it selects, the last row printed per object (unaligned) and the column
/// widths printed so far.
#[derive(Clone, Debug)]
pub(crate) struct Watch {
    query: Query,
    kinds: Vec<Kind>,
    options: TableOptions,
    rows: BTreeMap<(Kind, String, String), (String, String)>,
    widths: RememberedWidths,
}

impl Watch {
    /// Starts a watch from the current state (the rows just printed by `get`).
    pub(crate) fn new(
        cluster: &Cluster,
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
        let mut watch = Watch {
            query,
            kinds,
            options,
            rows: BTreeMap::new(),
            widths,
        };
        watch.rows = watch.current(cluster);
        watch
    }

    /// Every watched object's (resourceVersion, row): a row is printed again only when the object
    /// changed (a watch event), not because its AGE moved on.
    fn current(&self, cluster: &Cluster) -> BTreeMap<(Kind, String, String), (String, String)> {
        let mut rows = BTreeMap::new();
        for kind in &self.kinds {
            for object in self.query.select_in(cluster, *kind) {
                let key = (
                    *kind,
                    object.metadata().namespace.clone().unwrap_or_default(),
                    object.name().to_string(),
                );
                let version = object
                    .metadata()
                    .resource_version
                    .clone()
                    .unwrap_or_default();
                rows.insert(
                    key,
                    (
                        version,
                        table_for(*kind, &[object], cluster).render_unaligned(&self.options),
                    ),
                );
            }
        }
        rows
    }

    /// The rows of objects that changed (or appeared) since the last call; a deleted object's last row
    /// is printed again, as kubectl prints the DELETED event. Each row is one flush.
    pub(crate) fn changes(&mut self, cluster: &Cluster) -> String {
        let now = self.current(cluster);
        let changed = now
            .iter()
            .filter(|(key, (version, _))| self.rows.get(*key).map(|(v, _)| v) != Some(version));
        let deleted = self.rows.iter().filter(|(key, _)| !now.contains_key(*key));
        let rows: Vec<String> = changed
            .chain(deleted)
            .map(|(_, (_, row))| row.clone())
            .collect();
        let out = rows
            .iter()
            .map(|row| self.widths.align_table(row))
            .collect();
        self.rows = now;
        out
    }
}

/// Advances the clock to `target_ms` one timer instant at a time, printing watch rows after each.
pub(crate) fn advance_watched(cluster: &mut Cluster, target_ms: i64, watch: &mut Watch) -> String {
    // The first call prints changes made by commands since the watch started (e.g. `kubectl set
    // image`); the last one those of the final stretch to the target.
    let mut out = String::new();
    cluster.advance_until(target_ms, |c| {
        out.push_str(&watch.changes(c));
        false
    });
    out.push_str(&watch.changes(cluster));
    out
}
