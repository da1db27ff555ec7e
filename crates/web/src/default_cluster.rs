//! The default cluster new sessions start from, built once per page: the first session, a reset,
//! Undo or a restored link each start from a copy (a lesson builds its own; the simulator is a
//! pure function of its seed, so a copy is what a new build would be).
//!
//! The page builds it before the app mounts, a part at a time ([`prepare`]), each part in a task
//! of its own while the prerendered first paint shows: the first build runs cold code, and the
//! browser compiles each function of the wasm at its first call, so building it in one go made
//! the page's longest task (~0.3 s on a 2-core machine).

use dsplay_sim::Cluster;
use std::cell::RefCell;

/// The seed a new session has ([`crate::state::State::default_saved`]).
pub const DEFAULT_SEED: u64 = 1;

thread_local! {
    /// The default cluster with [`DEFAULT_SEED`], once built.
    static BUILT: RefCell<Option<Cluster>> = const { RefCell::new(None) };
}

/// The default cluster with `seed`: a copy of the page's for [`DEFAULT_SEED`] (built now if it
/// was not), a new one for any other seed.
pub fn default_cluster(seed: u64) -> Cluster {
    if seed != DEFAULT_SEED {
        return Cluster::new(seed);
    }
    BUILT.with(|built| {
        built
            .borrow_mut()
            .get_or_insert_with(|| Cluster::new(seed))
            .clone()
    })
}

/// Wall-clock milliseconds [`prepare`] spends on parts before it yields to the browser (one part
/// at least, whatever it takes).
#[cfg(target_arch = "wasm32")]
const PREPARE_BUDGET_MS: f64 = 20.0;

/// Builds the page's default cluster in parts (`dsplay_sim::KindClusterBuild`), yielding to the
/// browser between them.
#[cfg(target_arch = "wasm32")]
pub async fn prepare() {
    use crate::browser::{next_task_done, wall_ms};
    let mut cluster = Cluster::new_empty(DEFAULT_SEED);
    let mut build = dsplay_sim::KindClusterBuild::default();
    loop {
        next_task_done().await;
        let start = wall_ms();
        let mut done = build.step(&mut cluster);
        while !done && wall_ms() - start < PREPARE_BUDGET_MS {
            done = build.step(&mut cluster);
        }
        if done {
            break;
        }
    }
    BUILT.with(|built| *built.borrow_mut() = Some(cluster));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cluster_is_a_copy_of_the_one_built_for_its_seed() {
        let fresh = format!("{:?}", Cluster::new(DEFAULT_SEED));
        let mut first = default_cluster(DEFAULT_SEED);
        assert_eq!(format!("{first:?}"), fresh);
        // A session's changes stay in its copy.
        let _ = first.create(dsplay_api::Object::Node(
            dsplay_sim::default_cluster::build_node(&dsplay_sim::NodeOptions::new("extra")),
        ));
        first.advance(std::time::Duration::from_secs(60));
        assert_eq!(format!("{:?}", default_cluster(DEFAULT_SEED)), fresh);
        let other = default_cluster(DEFAULT_SEED + 1);
        assert_eq!(other.seed(), DEFAULT_SEED + 1);
        assert_eq!(
            format!("{other:?}"),
            format!("{:?}", Cluster::new(DEFAULT_SEED + 1))
        );
    }
}
