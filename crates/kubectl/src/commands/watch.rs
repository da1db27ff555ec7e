//! Watches in a script: `kubectl get -w` and `kubectl events -w`. What there is now is printed at
//! once; while the next `sim` command moves the virtual clock, every write to a watched object is
//! printed as one more row, in the order the API server made them — a watch stream sends each
//! write, so a pod created Pending and bound in the same instant shows two Pending rows. The watch
//! ends with that `sim` command.
//!
//! Upstream: `kubectl/pkg/cmd/get/get.go` `watch` (one row per watch event, AGE as of the event);
//! `kubectl/pkg/cmd/events/events.go` `runWatch` (DELETED events skipped, the header before the first
//! event); cli-runtime `printers.GetNewTabWriter` (`RememberWidths` across flushes).

use super::events::{watched_event_text, EventFilter};
use super::get::{table_for, Query};
use super::output_format::OutputFormat;
use crate::printers::get as rows;
use crate::printers::table::TableOptions;
use crate::printers::tabwriter::RememberedWidths;
use chrono::{DateTime, TimeZone, Utc};
use dsplay_api::{Kind, Object};
use dsplay_sim::store::WatchEventType;
use dsplay_sim::Cluster;

/// What a watch prints a row for.
#[derive(Clone, Debug)]
enum Source {
    /// `get -w`: the selected objects of these kinds, in the `get` table's columns; when `get`
    /// printed no table, the first row comes with the header (unless `--no-headers`).
    Get {
        query: Query,
        kinds: Vec<Kind>,
        options: TableOptions,
        header_pending: bool,
    },
    /// `events -w`: the events the filter keeps (not their deletions); the header goes out with the
    /// first row unless `--no-headers`.
    Events {
        filter: EventFilter,
        header: Option<String>,
        /// `-o yaml|json|name`: each event printed whole, and whether one was printed yet.
        format: Option<(OutputFormat, bool)>,
    },
}

/// One printed row: a table row (aligned with the rows before it) or an object printed whole.
enum Row {
    Table(String),
    Whole(String),
}

impl Source {
    /// The row for one state of an object (None: not watched).
    fn row(&mut self, event: WatchEventType, object: &Object, at: DateTime<Utc>) -> Option<Row> {
        match self {
            Source::Get {
                query,
                kinds,
                options,
                header_pending,
            } => {
                let kind = object.kind();
                if !(kinds.contains(&kind) && query.matches(kind, object)) {
                    return None;
                }
                let table = rows::table_for(kind, std::slice::from_ref(object), at);
                if std::mem::take(header_pending) {
                    let mut first = options.clone();
                    first.no_headers = false;
                    return Some(Row::Table(table.render_unaligned(&first)));
                }
                Some(Row::Table(table.render_unaligned(options)))
            }
            Source::Events {
                filter,
                header,
                format,
            } => match object {
                Object::Event(e) if event != WatchEventType::Deleted && filter.matches(e) => {
                    Some(match format {
                        Some((format, printed)) => {
                            let first = !std::mem::replace(printed, true);
                            Row::Whole(watched_event_text(format, e, first).unwrap_or_default())
                        }
                        None => Row::Table(header.take().unwrap_or_default() + &filter.row(e, at)),
                    })
                }
                _ => None,
            },
        }
    }
}

/// An active watch: what it selects, its read position in the store's watch log and the column
/// widths printed so far.
#[derive(Clone, Debug)]
pub(crate) struct Watch {
    source: Source,
    /// Index of the first watch-log entry not printed yet.
    cursor: usize,
    widths: RememberedWidths,
    /// This watch turned the store's write snapshots on (and turns them off when it ends).
    owns_snapshots: bool,
}

impl Watch {
    fn start(cluster: &mut Cluster, source: Source, widths: RememberedWidths) -> Watch {
        let owns_snapshots = !cluster.store().keeps_watch_snapshots();
        cluster.keep_watch_snapshots(true);
        Watch {
            source,
            cursor: cluster.store().watch_log().len(),
            widths,
            owns_snapshots,
        }
    }

    /// `get -w`, after `get` printed the table (its header sets the widths the rows keep).
    pub(crate) fn get(
        cluster: &mut Cluster,
        query: Query,
        kinds: Vec<Kind>,
        mut options: TableOptions,
    ) -> Watch {
        let mut widths = RememberedWidths::default();
        let mut printed = false;
        for kind in &kinds {
            let objects = query.select_in(cluster, *kind);
            if !objects.is_empty() {
                let table = table_for(*kind, &objects, cluster);
                widths.align_table(&table.render_unaligned(&options));
                printed = true;
            }
        }
        let header_pending = !printed && !options.no_headers;
        options.no_headers = true;
        let source = Source::Get {
            query,
            kinds,
            options,
            header_pending,
        };
        Watch::start(cluster, source, widths)
    }

    /// `events -w`, and the rows of the events there are now (the watch's initial ADDED events,
    /// in key order, each its own flush).
    pub(crate) fn events(
        cluster: &mut Cluster,
        filter: EventFilter,
        format: Option<OutputFormat>,
        no_headers: bool,
    ) -> (Watch, String) {
        let header = (!no_headers).then(|| filter.header());
        let source = Source::Events {
            filter,
            header,
            format: format.map(|f| (f, false)),
        };
        let mut watch = Watch::start(cluster, source, RememberedWidths::default());
        let now = cluster.now();
        let mut out = String::new();
        for e in cluster.store().events() {
            let event = Object::Event(e.clone());
            if let Some(row) = watch.source.row(WatchEventType::Added, &event, now) {
                out.push_str(&watch.print(row));
            }
        }
        (watch, out)
    }

    /// The rows of the writes to watched objects since the last call, oldest first; a deletion
    /// prints the object's last state, as kubectl prints the DELETED event. Each row is one flush.
    pub(crate) fn changes(&mut self, cluster: &Cluster) -> String {
        let log = cluster.store().watch_log();
        let mut out = String::new();
        for entry in &log[self.cursor.min(log.len())..] {
            let Some(object) = entry.object.as_deref() else {
                continue;
            };
            let at = Utc
                .timestamp_millis_opt(entry.time_ms)
                .single()
                .unwrap_or_else(|| cluster.now());
            if let Some(row) = self.source.row(entry.event_type, object, at) {
                out.push_str(&self.print(row));
            }
        }
        self.cursor = log.len();
        out
    }

    /// The text of one row: table rows keep the widths printed so far.
    fn print(&mut self, row: Row) -> String {
        match row {
            Row::Table(text) => self.widths.align_table(&text),
            Row::Whole(text) => text,
        }
    }

    /// Ends the watch.
    pub(crate) fn finish(self, cluster: &mut Cluster) {
        if self.owns_snapshots {
            cluster.keep_watch_snapshots(false);
        }
    }
}

/// Ends the watch an earlier command left, before a new one starts (it hands the store's write
/// snapshots back first, so the new watch finds them off and takes them over).
pub(crate) fn end_earlier(ctx: &mut super::Ctx) {
    if let Some(earlier) = ctx.watch.take() {
        earlier.finish(ctx.cluster);
    }
}

/// Advances the clock to `target_ms`, printing a row for every write to a watched object on the
/// way (the writes made by commands since the watch started, e.g. `kubectl set image`, first).
pub(crate) fn advance_watched(cluster: &mut Cluster, target_ms: i64, watch: &mut Watch) -> String {
    cluster.advance_until(target_ms, |_| false);
    watch.changes(cluster)
}

#[cfg(test)]
mod tests {
    use crate::{Session, SessionOptions};

    /// A watch started while another is active replaces it and still sees every write: the earlier
    /// one hands the store's write snapshots back before the new one starts.
    #[test]
    fn a_second_watch_replaces_the_first_and_sees_every_write() {
        let mut session = Session::new(SessionOptions::default());
        let out: String = session
            .execute("kubectl get pods -w\nkubectl events -w\nkubectl run late --image=nginx\nsim advance 3s")
            .iter()
            .map(|o| o.text())
            .collect();
        assert!(out.contains("Scheduled   Pod/late"), "{out}");
        assert!(out.contains("Started     Pod/late"), "{out}");
    }
}
