//! DaemonSet controller benchmarks (issues 4 and 5): initial rollout on 100 / 1 000 / 5 000 nodes,
//! adding one node to a 5 000-node cluster, and full rolling updates (maxUnavailable 1 and 10 %) on
//! 500 and 5 000 nodes. Clusters are built with `Cluster::new_empty` + `add_node` ([`dsplay_bench`]).
//!
//! Set `DSPLAY_BENCH_MAX_NODES` to skip the cases above that size (e.g. for quick local runs).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use dsplay_api::types::*;
use dsplay_bench::{cluster, roll_out, status, update_image};
use dsplay_sim::{Cluster, NodeOptions};
use std::time::Duration;

fn max_nodes() -> usize {
    std::env::var("DSPLAY_BENCH_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX)
}

fn rolled_out(nodes: usize, max_unavailable: IntOrString) -> Cluster {
    let mut c = cluster(nodes);
    roll_out(&mut c, max_unavailable);
    assert_eq!(status(&c).number_available, Some(nodes as i32));
    c
}

fn bench_initial_rollout(cr: &mut Criterion) {
    let mut group = cr.benchmark_group("ds_initial_rollout");
    group.sample_size(10);
    for n in [100usize, 1_000, 5_000] {
        if n > max_nodes() {
            continue;
        }
        group.bench_function(format!("{n}_nodes"), |b| {
            let base = cluster(n);
            b.iter_batched(
                || base.clone(),
                |mut c| {
                    roll_out(&mut c, IntOrString::Int(1));
                    c
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn bench_add_node(cr: &mut Criterion) {
    let n = 5_000usize.min(max_nodes());
    let mut group = cr.benchmark_group("ds_add_node");
    group.sample_size(20);
    group.bench_function(format!("{n}_nodes_plus_one"), |b| {
        let base = rolled_out(n, IntOrString::Int(1));
        b.iter_batched(
            || base.clone(),
            |mut c| {
                c.add_node(&NodeOptions::new("node-new")).unwrap();
                c.settle(Duration::from_secs(3600));
                c
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn bench_rolling_update(cr: &mut Criterion) {
    let mut group = cr.benchmark_group("ds_rolling_update");
    group.sample_size(10);
    for n in [500usize, 5_000] {
        if n > max_nodes() {
            continue;
        }
        for (label, mu) in [
            ("max_unavailable_1", IntOrString::Int(1)),
            ("max_unavailable_10pct", IntOrString::String("10%".into())),
        ] {
            group.bench_function(format!("{n}_nodes_{label}"), |b| {
                let base = rolled_out(n, mu.clone());
                b.iter_batched(
                    || base.clone(),
                    |mut c| {
                        update_image(&mut c);
                        c.settle(Duration::from_secs(1_000_000));
                        assert_eq!(status(&c).updated_number_scheduled, Some(n as i32));
                        c
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_initial_rollout,
    bench_add_node,
    bench_rolling_update
);
criterion_main!(benches);
