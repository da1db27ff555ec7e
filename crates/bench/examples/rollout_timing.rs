//! A benchmark binary for quick numbers (and for `perf record`): builds an N-node empty cluster,
//! rolls out one DaemonSet, then rolls an image update through it, printing the wall time of each
//! phase. Usage: `cargo run --release -p dsplay-bench --example rollout_timing -- 500 1`
//! (nodes, maxUnavailable as an int or a percentage).

use dsplay_api::types::*;
use dsplay_bench::{cluster, roll_out, status, update_image};
use dsplay_sim::NodeOptions;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let max_unavailable = match args.next() {
        Some(v) if v.ends_with('%') => IntOrString::String(v),
        Some(v) => IntOrString::Int(v.parse().unwrap_or(1)),
        None => IntOrString::Int(1),
    };

    let start = Instant::now();
    let mut c = cluster(nodes);
    println!("add {nodes} nodes: {:?}", start.elapsed());

    let start = Instant::now();
    roll_out(&mut c, max_unavailable);
    println!("initial rollout: {:?}", start.elapsed());

    let start = Instant::now();
    add_one_node(&mut c);
    println!("add one node: {:?}", start.elapsed());

    let start = Instant::now();
    rolling_update(&mut c);
    println!(
        "rolling update: {:?} (virtual {:?}), updatedNumberScheduled {:?}",
        start.elapsed(),
        c.now() - dsplay_sim::cluster::to_datetime(dsplay_sim::cluster::EPOCH_MS),
        status(&c).updated_number_scheduled
    );
}

/// Adds `node-new` to the rolled-out cluster and settles. A function of its own (never inlined) so
/// that a profiler can count this phase alone: `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='rollout_timing::add_one_node' …`.
#[inline(never)]
fn add_one_node(c: &mut dsplay_sim::Cluster) {
    c.add_node(&NodeOptions::new("node-new")).expect("node");
    c.settle(Duration::from_secs(3600));
}

/// Changes the image and settles until the rolling update is done (never inlined, like
/// [`add_one_node`], for `--toggle-collect='rollout_timing::rolling_update'`).
#[inline(never)]
fn rolling_update(c: &mut dsplay_sim::Cluster) {
    update_image(c);
    c.settle(Duration::from_secs(10_000_000));
}
