//! The rollout benchmark's phases as WebAssembly exports, so the simulator can be timed in a
//! browser exactly as `examples/rollout_timing.rs` times it natively: `cargo xtask bench-wasm`
//! builds this crate with the release profile the app ships with and runs
//! `tests/bench/wasm-rollout.mjs` in headless Chromium, which calls each phase and reads
//! `performance.now()` around it (the simulator itself reads no clock).

use dsplay_api::types::IntOrString;
use dsplay_sim::Cluster;
use wasm_bindgen::prelude::*;

/// One benchmark run: an empty cluster and the DaemonSet's maxUnavailable.
#[wasm_bindgen]
pub struct Bench {
    cluster: Cluster,
    max_unavailable: IntOrString,
}

#[wasm_bindgen]
impl Bench {
    /// An empty cluster; `max_unavailable` as on the example's command line (`1`, `10%`).
    #[wasm_bindgen(constructor)]
    pub fn new(max_unavailable: &str) -> Bench {
        Bench {
            cluster: Cluster::new_empty(1),
            max_unavailable: crate::max_unavailable(max_unavailable),
        }
    }

    /// Adds `nodes` nodes.
    pub fn add_nodes(&mut self, nodes: usize) {
        crate::add_nodes(&mut self.cluster, nodes);
    }

    /// Creates the DaemonSet and rolls it out.
    pub fn roll_out(&mut self) {
        crate::roll_out(&mut self.cluster, self.max_unavailable.clone());
    }

    /// Adds one node to the rolled-out cluster.
    pub fn add_one_node(&mut self) {
        crate::add_one_node(&mut self.cluster);
    }

    /// Rolls an image update through every node; returns updatedNumberScheduled.
    pub fn rolling_update(&mut self) -> i32 {
        crate::rolling_update(&mut self.cluster);
        crate::status(&self.cluster)
            .updated_number_scheduled
            .unwrap_or(0)
    }
}
