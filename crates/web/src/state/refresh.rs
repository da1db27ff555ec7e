//! The views the components read (cluster model, `get ds -A` and workload tables, warnings, rollouts, the Explain
//! and pod panels), recomputed from the store after each change.

use super::State;
use crate::model::pod_details::PodDetails;
use crate::model::rollout::{rollout_views, Rollouts};
use crate::model::stateful_rollout::stateful_rollout_views;
use crate::model::workload_tables::workload_tables;
use crate::model::{get_ds_all_namespaces, node_explanations, warning_marks, ClusterModel};
use std::rc::Rc;

impl State {
    /// Recomputes the views if the store or the virtual second changed.
    pub(super) fn refresh(&mut self) {
        self.update_lesson();
        let session = self.session.borrow();
        let cluster = session.cluster();
        self.now = cluster.now();
        let key = (cluster.store().resource_version(), self.now.timestamp());
        if key == self.refreshed_at {
            return;
        }
        self.refreshed_at = key;
        self.model = Rc::new(ClusterModel::from_store(cluster.store(), self.now));
        let warnings = warning_marks(cluster.store(), self.started);
        if *self.warnings != warnings {
            self.warnings = Rc::new(warnings);
        }
        self.ds_table = Rc::from(get_ds_all_namespaces(cluster.store(), self.now));
        self.workload_tables = Rc::new(workload_tables(cluster.store(), self.now));
        self.rollouts = Rc::new(Rollouts {
            daemon_sets: rollout_views(cluster),
            stateful_sets: stateful_rollout_views(cluster.store()),
        });
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
    }
}
