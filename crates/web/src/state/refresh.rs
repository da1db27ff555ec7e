//! The views the components read (cluster model, `get ds -A` and workload tables, warnings, rollouts, the Explain
//! and pod panels), recomputed from the store after each change.

use super::State;
use crate::long_run::Goal;
use crate::model::node_map::MAP_FROM_NODES;
use crate::model::pod_details::PodDetails;
use crate::model::rollout::{rollout_views, Rollouts};
use crate::model::stateful_rollout::stateful_rollout_views;
use crate::model::workload_tables::workload_tables;
use crate::model::{get_ds_all_namespaces, node_explanations, ClusterModel};
use std::rc::Rc;

/// While the clock plays a large cluster (or a long command runs on one), the views whose cost
/// grows with every pod or event of the cluster and that nobody reads at 60 frames a second are
/// read in turns, one turn at most this often (wall-clock ms): the Rollout panel's per-node
/// diagnosis, then the events list and the timeline's warnings, so each is read once a second
/// and no frame reads both; the nodes and pods follow every tick and slice.
const SLOW_VIEWS_EVERY_MS: f64 = 500.0;

/// At most this many node views are built by one refresh of a large cluster (about 15 ms in the
/// browser); the rest follow in the next ones (slices follow while views are behind, see
/// [`State::views_behind`]). A new revision of a 5 000-node DaemonSet changes every node's view.
const NODE_VIEWS_PER_REFRESH: usize = 500;

/// The slow views' bookkeeping.
#[derive(Clone, Debug)]
pub(super) struct SlowViews {
    /// Wall-clock ms of the last turn.
    pub(super) read_at: f64,
    /// Some slow view is behind the store.
    stale: bool,
    /// The next turn is the Rollout panel's.
    rollouts_next: bool,
    /// How many node views one refresh of a large cluster builds ([`NODE_VIEWS_PER_REFRESH`]).
    pub(super) node_views_per_refresh: usize,
    /// The last slice of a long command ran the simulation (see [`State::long_run_slice`]).
    simulated_last: bool,
    /// The next throttled refresh is skipped: the views wait for the next slice.
    wait: bool,
    /// A long command ended in a task that ran the simulation: the full read that follows it
    /// is owed to the next task (a slice follows, see [`State::views_behind`]).
    pub(super) owed: bool,
}

impl Default for SlowViews {
    fn default() -> Self {
        SlowViews {
            read_at: f64::NEG_INFINITY,
            stale: false,
            rollouts_next: true,
            node_views_per_refresh: NODE_VIEWS_PER_REFRESH,
            simulated_last: false,
            wait: false,
            owed: false,
        }
    }
}

/// What a refresh would read ([`State::views_to_read`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ViewsToRead {
    Nothing,
    Later,
    Now,
}

impl State {
    /// Recomputes the views if the store or the virtual second changed (every view: nothing is
    /// left waiting or owed).
    pub(super) fn refresh(&mut self) {
        self.slow_views.wait = false;
        self.slow_views.owed = false;
        self.refresh_views(false);
    }

    /// Whether a throttled refresh of a large cluster now would read and draw views: a task's
    /// worth of work (node views of the pods that changed, slow views, views left behind).
    fn views_due(&self) -> bool {
        self.large() && self.views_to_read(true) == ViewsToRead::Now
    }

    /// One slice of the long command (or of a replay), or, with a large cluster, the views' turn:
    /// a task runs the simulation or reads and draws the views, never both (a slice's 50 ms of
    /// simulation followed by reading and drawing the nodes whose pods changed blocked the page
    /// for 100-200 ms). Slices alternate at most, so the command keeps going.
    pub(super) fn long_run_slice(&mut self, over_budget: &mut dyn FnMut() -> bool) {
        // Node views catching up after a command, or the read owed: a views' turn.
        let views_turn = !self.is_running() || self.slow_views.simulated_last;
        if views_turn && (self.views_due() || self.slow_views.owed) {
            self.slow_views.simulated_last = false;
            return;
        }
        self.continue_long_run(over_budget);
        self.continue_replay(over_budget);
        self.after_simulating();
    }

    /// After a task's slice of simulation (a slice, or the first one of a line that starts a long
    /// command): with a large cluster the views due wait for the next task (the refresh after
    /// this one skips them), and so does the full read after the slice that ends the command.
    pub(super) fn after_simulating(&mut self) {
        self.slow_views.simulated_last = true;
        let large = self.large();
        self.slow_views.owed =
            large && !self.is_running() && self.views_to_read(false) == ViewsToRead::Now;
        self.slow_views.wait = self.slow_views.owed || (self.is_running() && self.views_due());
    }

    /// The refresh at the end of a reduce: throttled for a clock tick or a slice while a long
    /// command runs (see [`SLOW_VIEWS_EVERY_MS`]), else every view; none if the views wait for
    /// the next task ([`State::after_simulating`]).
    pub(super) fn refresh_after(&mut self, tick: bool, sliced: bool) {
        if std::mem::take(&mut self.slow_views.wait) {
            self.follow_clock();
            return;
        }
        if tick || (sliced && self.is_running()) {
            self.refresh_views(true);
        } else {
            self.refresh();
        }
    }

    /// Whether a refresh now has views to read: none (nothing changed), later (nodes being added
    /// or a restored log being replayed show their progress only, until the end: the slices go to
    /// the work, not to drawing it; node views left behind follow at each slice until they catch
    /// up), or now.
    fn views_to_read(&self, throttled: bool) -> ViewsToRead {
        let session = self.session.borrow();
        let cluster = session.cluster();
        let key = (
            cluster.store().resource_version(),
            cluster.now().timestamp(),
        );
        let views_behind = self.node_views.borrow().is_behind();
        if key == self.refreshed_at && !self.slow_views.stale && !views_behind {
            return ViewsToRead::Nothing;
        }
        if throttled && self.adding_nodes() && !views_behind {
            return ViewsToRead::Later;
        }
        ViewsToRead::Now
    }

    /// The cluster is large (the compact map; views read in turns and parts): by the store too,
    /// which a node add whose views wait for its end grew past the views (read all at once, its
    /// 5 000 node views blocked the page for 0.3 s).
    fn large(&self) -> bool {
        let nodes = self.session.borrow().cluster().store().node_count();
        nodes.max(self.model.nodes.len()) >= MAP_FROM_NODES
    }

    /// Nodes are being added: a `sim node add` of many nodes runs, or a restored log is replayed.
    /// The views wait for the end (at 5 000 nodes, reading and drawing them twice a second took
    /// a third of a node add in the browser, and of a share link's restore; a replay is history
    /// at full speed anyway).
    fn adding_nodes(&self) -> bool {
        self.replaying.is_some()
            || self
                .long_run
                .as_ref()
                .is_some_and(|run| matches!(run.goal, Goal::AddNodes { .. }))
    }

    /// What follows every change, read or not: the lesson's checks and the clock.
    fn follow_clock(&mut self) {
        self.update_lesson();
        self.now = self.session.borrow().cluster().now();
    }

    fn refresh_views(&mut self, throttled: bool) {
        self.follow_clock();
        match self.views_to_read(throttled) {
            ViewsToRead::Nothing => return,
            ViewsToRead::Later => {
                self.slow_views.stale = true;
                return;
            }
            ViewsToRead::Now => {}
        }
        let session = self.session.borrow();
        let cluster = session.cluster();
        let key = (cluster.store().resource_version(), self.now.timestamp());
        let wall_ms = crate::browser::wall_ms();
        let recently = wall_ms - self.slow_views.read_at < SLOW_VIEWS_EVERY_MS;
        self.refreshed_at = key;
        let large = self.large();
        // Which slow views this refresh reads: all of them, none (a turn was taken recently, or
        // nodes are being added), or the next turn's.
        let (rollouts, events) = if !throttled || !large {
            (true, true)
        } else if recently || self.adding_nodes() {
            (false, false)
        } else {
            let turn = self.slow_views.rollouts_next;
            self.slow_views.rollouts_next = !turn;
            (turn, !turn)
        };
        let kept_events = (!events).then(|| self.model.events.clone());
        self.model = Rc::new(ClusterModel::read(
            cluster.store(),
            self.now,
            &mut self.node_views.borrow_mut(),
            large.then_some(self.slow_views.node_views_per_refresh),
            kept_events,
        ));
        // Node views left behind are followed by slices until they catch up: the Rollout panel's
        // diagnosis (the costliest slow view) waits for the refresh that completes them.
        let rollouts = rollouts && !self.node_views.borrow().is_behind();
        self.slow_views.stale = !(rollouts && events);
        if rollouts || events {
            self.slow_views.read_at = wall_ms;
        }
        self.ds_table = Rc::from(get_ds_all_namespaces(cluster.store(), self.now));
        self.workload_tables = Rc::new(workload_tables(cluster.store(), self.now));
        self.explanations = Rc::new(match &self.selected {
            Some(node) => node_explanations(cluster, node),
            None => Vec::new(),
        });
        if let Some(open) = &self.pod_panel {
            self.pod_panel = Some(Rc::new(PodDetails::read(
                cluster,
                &open.namespace,
                &open.name,
            )));
        }
        let events_version = Some(cluster.store().events_version());
        if events && self.warnings_read_at != events_version {
            self.warnings_read_at = events_version;
            let warnings = self
                .warning_marks
                .borrow_mut()
                .read(cluster.store(), self.started);
            if *self.warnings != warnings {
                self.warnings = Rc::new(warnings);
            }
        }
        if rollouts {
            self.rollouts = Rc::new(Rollouts {
                daemon_sets: rollout_views(cluster),
                stateful_sets: stateful_rollout_views(cluster.store()),
            });
        }
    }
}
