//! Shared set-up of the simulator benchmarks: an N-node empty cluster, the benchmark DaemonSet, a
//! rolled-out cluster and the image update that starts a rolling update.
//!
//! This package depends on `dsplay-sim` without features and nothing here turns on `cache-oracle`,
//! so `cargo bench -p dsplay-bench` and its example measure the simulator as it ships.

use dsplay_api::types::*;
use dsplay_api::Object;
use dsplay_sim::{Cluster, NodeOptions};
use serde_json::json;
use std::time::Duration;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// The allocator the `dsplay` binary ships with (`crates/cli/src/main.rs`), so that every benchmark
/// linking this library allocates as the shipped code does. glibc's malloc took 30–35% of a
/// 5 000-node rolling update; mimalloc brings that update from ~0.95 s to ~0.75 s. The WebAssembly
/// build keeps the default allocator (talc measured slower there).
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The benchmark DaemonSet `default/bench`: one pause container requesting 10m CPU and 10Mi, rolling
/// update with the given maxUnavailable and no surge.
pub fn daemon_set(max_unavailable: IntOrString) -> DaemonSet {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "bench", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"app": "bench"}},
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": max_unavailable, "maxSurge": 0}},
            "template": {
                "metadata": {"labels": {"app": "bench"}},
                "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9",
                    "resources": {"requests": {"cpu": "10m", "memory": "10Mi"}}}]}
            }
        }
    }))
    .expect("valid DaemonSet")
}

/// An empty cluster (no system DaemonSets) with `nodes` nodes `node-00000`, `node-00001`, ….
pub fn cluster(nodes: usize) -> Cluster {
    let mut c = Cluster::new_empty(1);
    add_nodes(&mut c, nodes);
    c
}

/// Adds `nodes` nodes `node-00000`, `node-00001`, … to `c`.
pub fn add_nodes(c: &mut Cluster, nodes: usize) {
    for i in 0..nodes {
        c.add_node(&NodeOptions::new(&format!("node-{i:05}")))
            .expect("node");
    }
}

/// maxUnavailable as the benchmarks take it on their command line: `10%`, or a number (1 if
/// it is not one).
pub fn max_unavailable(text: &str) -> IntOrString {
    if text.ends_with('%') {
        IntOrString::String(text.to_string())
    } else {
        IntOrString::Int(text.parse().unwrap_or(1))
    }
}

/// Creates the benchmark DaemonSet and lets it roll out to every node.
pub fn roll_out(c: &mut Cluster, max_unavailable: IntOrString) {
    c.create(Object::DaemonSet(daemon_set(max_unavailable)))
        .expect("create");
    c.settle(Duration::from_secs(3600));
}

/// Changes the benchmark DaemonSet's image (pause:3.9 → 3.10), which starts a rolling update.
pub fn update_image(c: &mut Cluster) {
    let mut ds = c
        .store()
        .daemon_set("default", "bench")
        .cloned()
        .expect("the benchmark DaemonSet");
    if let Some(spec) = ds.spec.as_mut().and_then(|s| s.template.spec.as_mut()) {
        spec.containers[0].image = Some("registry.k8s.io/pause:3.10".into());
    }
    c.update(Object::DaemonSet(ds)).expect("update");
}

/// Adds `node-new` to a rolled-out cluster and settles (the DaemonSet places its pod there).
pub fn add_one_node(c: &mut Cluster) {
    c.add_node(&NodeOptions::new("node-new")).expect("node");
    c.settle(Duration::from_secs(3600));
}

/// Changes the image and settles until the rolling update is done.
pub fn rolling_update(c: &mut Cluster) {
    update_image(c);
    c.settle(Duration::from_secs(10_000_000));
}

/// The benchmark DaemonSet's status.
pub fn status(c: &Cluster) -> DaemonSetStatus {
    c.store()
        .daemon_set("default", "bench")
        .and_then(|d| d.status.clone())
        .expect("the benchmark DaemonSet's status")
}
