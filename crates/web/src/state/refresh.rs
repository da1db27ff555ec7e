//! The views the components read (cluster model, `get ds -A` and workload tables, warnings, rollouts, the Explain
//! and pod panels), recomputed from the store after each change.

use super::State;
use crate::model::node_map::MAP_FROM_NODES;
use crate::model::pod_details::PodDetails;
use crate::model::rollout::{rollout_views, Rollouts};
use crate::model::stateful_rollout::stateful_rollout_views;
use crate::model::workload_tables::workload_tables;
use crate::model::{get_ds_all_namespaces, node_explanations, ClusterModel};
use std::rc::Rc;

/// While the clock plays a large cluster (or a long command runs on one), the views whose cost
/// grows with every pod or event of the cluster and that nobody reads at 60 frames a second (the
/// Rollout panel's per-node diagnosis, the events list, the timeline's warnings) are read again
/// at most this often (wall-clock ms); the nodes and pods follow every tick and slice.
const SLOW_VIEWS_EVERY_MS: f64 = 1000.0;

impl State {
    /// Recomputes the views if the store or the virtual second changed.
    pub(super) fn refresh(&mut self) {
        self.refresh_views(false);
    }

    /// [`State::refresh`] for a clock tick or a slice of a long command: with a large cluster
    /// the slow views may wait (see [`SLOW_VIEWS_EVERY_MS`]).
    pub(super) fn refresh_throttled(&mut self) {
        self.refresh_views(true);
    }

    fn refresh_views(&mut self, throttled: bool) {
        self.update_lesson();
        let session = self.session.borrow();
        let cluster = session.cluster();
        self.now = cluster.now();
        let key = (cluster.store().resource_version(), self.now.timestamp());
        if key == self.refreshed_at && !self.slow_views_stale {
            return;
        }
        let wall_ms = crate::browser::wall_ms();
        let recently = wall_ms - self.slow_views_read_at < SLOW_VIEWS_EVERY_MS;
        if throttled && self.replaying.is_some() && recently {
            // A restored session being replayed shows its progress; every view follows once a
            // second (the replay then spends its slices on the session, not on drawing it).
            self.slow_views_stale = true;
            return;
        }
        self.refreshed_at = key;
        self.slow_views_stale = throttled && self.model.nodes.len() >= MAP_FROM_NODES && recently;
        let kept_events = self.slow_views_stale.then(|| self.model.events.clone());
        self.model = Rc::new(ClusterModel::read(
            cluster.store(),
            self.now,
            &mut self.node_views.borrow_mut(),
            kept_events,
        ));
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
        if self.slow_views_stale {
            // Read at the next tick or slice that is due, or at the next other change.
            return;
        }
        self.slow_views_read_at = wall_ms;
        let events_version = Some(cluster.store().events_version());
        if self.warnings_read_at != events_version {
            self.warnings_read_at = events_version;
            let warnings = self
                .warning_marks
                .borrow_mut()
                .read(cluster.store(), self.started);
            if *self.warnings != warnings {
                self.warnings = Rc::new(warnings);
            }
        }
        self.rollouts = Rc::new(Rollouts {
            daemon_sets: rollout_views(cluster),
            stateful_sets: stateful_rollout_views(cluster.store()),
        });
    }
}
