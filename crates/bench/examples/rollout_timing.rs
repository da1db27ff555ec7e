//! A benchmark binary for quick numbers (and for `perf record`): builds an N-node empty cluster,
//! rolls out one DaemonSet, then rolls an image update through it, printing the wall time of each
//! phase in milliseconds. Usage: `cargo run --release -p dsplay-bench --example rollout_timing -- 500 1`
//! (nodes, maxUnavailable as an int or a percentage).

use dsplay_bench::{cluster, max_unavailable, roll_out, status};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let max_unavailable = max_unavailable(&args.next().unwrap_or_default());

    let start = Instant::now();
    let mut c = cluster(nodes);
    println!("add nodes: {} ({nodes} nodes)", ms(start));

    let start = Instant::now();
    roll_out(&mut c, max_unavailable);
    println!("initial rollout: {}", ms(start));

    let start = Instant::now();
    add_one_node(&mut c);
    println!("add one node: {}", ms(start));

    let start = Instant::now();
    rolling_update(&mut c);
    println!(
        "rolling update: {} (virtual {:?}, updatedNumberScheduled {:?})",
        ms(start),
        c.now() - dsplay_sim::cluster::to_datetime(dsplay_sim::cluster::EPOCH_MS),
        status(&c).updated_number_scheduled
    );
}

/// Milliseconds since `start`, as `cargo xtask bench-wasm` reads them: `123.456 ms`.
fn ms(start: Instant) -> String {
    format!("{:.3} ms", start.elapsed().as_secs_f64() * 1000.0)
}

/// [`dsplay_bench::add_one_node`] in a function of its own (never inlined) so that a profiler can
/// count this phase alone: `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='rollout_timing::add_one_node' …`.
#[inline(never)]
fn add_one_node(c: &mut dsplay_sim::Cluster) {
    dsplay_bench::add_one_node(c);
}

/// [`dsplay_bench::rolling_update`], never inlined, like [`add_one_node`], for
/// `--toggle-collect='rollout_timing::rolling_update'`.
#[inline(never)]
fn rolling_update(c: &mut dsplay_sim::Cluster) {
    dsplay_bench::rolling_update(c);
}
