//! A benchmark binary for quick numbers (and for `perf record`): builds an N-node empty cluster,
//! rolls out one DaemonSet, then rolls an image update through it, printing the wall time of each
//! phase. Usage: `cargo run --release -p dsplay-sim --example rollout_timing -- 500 1`
//! (nodes, maxUnavailable as an int or a percentage).

use dsplay_api::types::*;
use dsplay_api::Object;
use dsplay_sim::{Cluster, NodeOptions};
use serde_json::json;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let max_unavailable = match args.next() {
        Some(v) if v.ends_with('%') => json!(v),
        Some(v) => json!(v.parse::<i64>().unwrap_or(1)),
        None => json!(1),
    };
    let ds: DaemonSet = serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "bench", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"app": "bench"}},
            "updateStrategy": {"type": "RollingUpdate",
                "rollingUpdate": {"maxUnavailable": max_unavailable, "maxSurge": 0}},
            "template": {"metadata": {"labels": {"app": "bench"}},
                "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9"}]}}
        }
    }))
    .expect("valid DaemonSet");

    let start = Instant::now();
    let mut c = Cluster::new_empty(1);
    for i in 0..nodes {
        c.add_node(&NodeOptions::new(&format!("node-{i:05}")))
            .expect("node");
    }
    println!("add {nodes} nodes: {:?}", start.elapsed());

    let start = Instant::now();
    c.create(Object::DaemonSet(ds)).expect("create");
    c.settle(Duration::from_secs(3600));
    println!("initial rollout: {:?}", start.elapsed());

    let start = Instant::now();
    c.add_node(&NodeOptions::new("node-new")).expect("node");
    c.settle(Duration::from_secs(3600));
    println!("add one node: {:?}", start.elapsed());

    let start = Instant::now();
    let mut ds = c
        .store()
        .daemon_set("default", "bench")
        .cloned()
        .expect("ds");
    if let Some(spec) = ds.spec.as_mut().and_then(|s| s.template.spec.as_mut()) {
        spec.containers[0].image = Some("registry.k8s.io/pause:3.10".into());
    }
    c.update(Object::DaemonSet(ds)).expect("update");
    c.settle(Duration::from_secs(10_000_000));
    let status = c
        .store()
        .daemon_set("default", "bench")
        .and_then(|d| d.status.clone());
    println!(
        "rolling update: {:?} (virtual {:?}), updatedNumberScheduled {:?}",
        start.elapsed(),
        c.now() - dsplay_sim::cluster::to_datetime(dsplay_sim::cluster::EPOCH_MS),
        status.and_then(|s| s.updated_number_scheduled)
    );
}
