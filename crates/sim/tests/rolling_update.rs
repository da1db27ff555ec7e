//! Update strategies, ControllerRevisions and rollback, mirroring upstream
//! pkg/controller/daemon/update_test.go.

mod common;

use common::*;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::types::*;
use dsplay_sim::{Cluster, ImageBehavior};
use std::collections::BTreeSet;
use std::time::Duration;

fn int(i: i32) -> IntOrString {
    IntOrString::Int(i)
}

fn pct(s: &str) -> IntOrString {
    IntOrString::String(s.to_string())
}

fn ready_ds(c: &mut Cluster, name: &str, f: impl FnOnce(&mut DaemonSet)) {
    let mut ds = new_daemon_set(name);
    f(&mut ds);
    create_ds(c, ds);
    settle(c);
}

/// Desired nodes with no available (Ready, non-terminating) pod.
fn unavailable_nodes(c: &Cluster, ds: &str) -> usize {
    let desired = get_ds(c, ds).status.unwrap().desired_number_scheduled as usize;
    let available: BTreeSet<String> = live_ds_pods(c, ds)
        .iter()
        .filter(|p| is_pod_ready(p))
        .filter_map(pod_node)
        .collect();
    desired - available.len()
}

// Upstream TestDaemonSetUpdatesPods: maxUnavailable=2 on 5 nodes → delete 2, create 2, … .
#[test]
fn updates_pods_max_unavailable() {
    let mut c = cluster_with_nodes(1, 5);
    ready_ds(&mut c, "foo", |d| set_rolling(d, int(2), int(0)));
    let mut tracker = Tracker::new(&c, "foo");
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    let first = tracker.diff(&c, "foo");
    assert_eq!(
        first,
        (0, 2),
        "first sync deletes 2 and creates nothing (delete first)"
    );
    let mut log = vec![first];
    let mut max_unavailable = unavailable_nodes(&c, "foo");
    for _ in 0..200 {
        if !c.step() {
            break;
        }
        max_unavailable = max_unavailable.max(unavailable_nodes(&c, "foo"));
        let d = tracker.diff(&c, "foo");
        if d != (0, 0) {
            log.push(d);
        }
    }
    assert!(max_unavailable <= 2, "budget respected: {max_unavailable}");
    let creates: usize = log.iter().map(|d| d.0).sum();
    let deletes: usize = log.iter().map(|d| d.1).sum();
    assert_eq!((creates, deletes), (5, 5), "{log:?}");
    // Deletions come in batches 2, 2, 1.
    let delete_batches: Vec<usize> = log.iter().map(|d| d.1).filter(|d| *d > 0).collect();
    assert_eq!(delete_batches, vec![2, 2, 1], "{log:?}");
    assert_status(
        &c,
        "foo",
        "desired=5 current=5 ready=5 updated=5 available=5",
    );
    assert!(live_ds_pods(&c, "foo")
        .iter()
        .all(|p| pod_image(p) == IMAGE_V2));
}

// Upstream TestDaemonSetUpdatesPodsWithMaxSurge (update.go rollingUpdate with maxSurge > 0).
#[test]
fn updates_pods_with_max_surge_table() {
    let mut c = cluster_with_nodes(1, 5);
    ready_ds(&mut c, "foo", |d| set_rolling(d, int(0), int(2)));
    let mut tracker = Tracker::new(&c, "foo");
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    let mut log = vec![tracker.diff(&c, "foo")];
    let mut max_pods = 0;
    for _ in 0..200 {
        if !c.step() {
            break;
        }
        max_pods = max_pods.max(live_ds_pods(&c, "foo").len());
        // maxUnavailable = 0: every node keeps an available pod throughout.
        assert_eq!(unavailable_nodes(&c, "foo"), 0);
        let d = tracker.diff(&c, "foo");
        if d != (0, 0) {
            log.push(d);
        }
    }
    // Steps 1, 3, 5, 7 of the table (the "waiting" steps change nothing).
    assert_eq!(log, vec![(2, 0), (2, 2), (1, 2), (0, 1)]);
    assert!(max_pods <= 7);
    assert_status(
        &c,
        "foo",
        "desired=5 current=5 ready=5 updated=5 available=5",
    );
}

// daemon_controller.go updatePod: a pod turning Ready with minReadySeconds > 0 enqueues the DaemonSet after
// minReadySeconds + 1s. With maxSurge nothing else would wake the controller when the surge pod
// becomes available (the old pod is still the one status counts), so the rollout relies on it.
#[test]
fn surge_with_min_ready_seconds_completes() {
    let mut c = cluster_with_nodes(1, 2);
    ready_ds(&mut c, "foo", |d| {
        set_rolling(d, int(0), int(1));
        d.spec.as_mut().unwrap().min_ready_seconds = Some(5);
    });
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 available=2",
    );
    let pods = live_ds_pods(&c, "foo");
    assert_eq!(pods.len(), 2);
    assert!(pods.iter().all(|p| pod_image(p) == IMAGE_V2));
}

// updateDaemonSetStatus consequence: during a surge the node counts by its OLD pod (ready, not updated).
#[test]
fn status_during_surge_counts_oldest_pod() {
    let mut c = cluster_with_nodes(1, 2);
    ready_ds(&mut c, "foo", |d| set_rolling(d, int(0), int(1)));
    c.set_image_behavior(
        IMAGE_V2,
        ImageBehavior {
            ready: false,
            ..Default::default()
        },
    );
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    settle(&mut c);
    assert_eq!(
        live_ds_pods(&c, "foo").len(),
        3,
        "one surge pod that never becomes ready, old pods kept"
    );
    assert_status(&c, "foo", "desired=2 current=2 ready=2 available=2");
}

// Upstream TestDaemonSetUpdatesAllOldPodsNotReady: all old pods unavailable → all replaced at once.
#[test]
fn updates_all_old_pods_not_ready() {
    let mut c = cluster_with_nodes(1, 5);
    c.set_image_behavior(
        IMAGE,
        ImageBehavior {
            ready: false,
            ..Default::default()
        },
    );
    ready_ds(&mut c, "foo", |d| set_rolling(d, int(3), int(0)));
    assert_eq!(ds_status(&c, "foo").ready, 0);
    let mut tracker = Tracker::new(&c, "foo");
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    assert_eq!(tracker.diff(&c, "foo"), (0, 5));
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=5 current=5 ready=5 updated=5 available=5",
    );
}

// Upstream TestDaemonSetUpdatesSaveOldHealthyPods: new pods that never become ready stall the rollout
// and old healthy pods are kept.
#[test]
fn updates_save_old_healthy_pods() {
    let mut c = cluster_with_nodes(1, 5);
    ready_ds(&mut c, "foo", |d| set_rolling(d, int(2), int(0)));
    c.set_image_behavior(
        IMAGE_V2,
        ImageBehavior {
            ready: false,
            ..Default::default()
        },
    );
    let mut tracker = Tracker::new(&c, "foo");
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    assert_eq!(tracker.diff(&c, "foo"), (0, 2));
    c.advance(Duration::from_secs(600));
    let pods = live_ds_pods(&c, "foo");
    let old = pods.iter().filter(|p| pod_image(p) == IMAGE).count();
    let new = pods.iter().filter(|p| pod_image(p) == IMAGE_V2).count();
    assert_eq!((old, new), (3, 2), "stalled: 3 old healthy pods kept");
    assert_status(
        &c,
        "foo",
        "desired=5 current=5 ready=3 updated=2 available=3 unavailable=2",
    );
}

// Upstream TestDaemonSetUpdatesNoTemplateChanged: a non-template change replaces nothing.
#[test]
fn no_template_change_no_restart() {
    let mut c = cluster_with_nodes(1, 3);
    ready_ds(&mut c, "foo", |_| {});
    let before: BTreeSet<String> = ds_pods(&c, "foo")
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    update_ds(&mut c, "foo", |d| {
        d.spec.as_mut().unwrap().min_ready_seconds = Some(1)
    });
    settle(&mut c);
    let after: BTreeSet<String> = ds_pods(&c, "foo")
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    assert_eq!(before, after);
    assert_eq!(
        c.store().controller_revisions().count(),
        1,
        "no new revision for a non-template change"
    );
}

// Percent budgets are rounded up (GetScaledValueFromIntOrPercent roundUp=true): 10% of 12 → 2.
#[test]
fn percent_max_unavailable_rounds_up() {
    let mut c = cluster_with_nodes(1, 12);
    ready_ds(&mut c, "foo", |d| set_rolling(d, pct("10%"), int(0)));
    let mut tracker = Tracker::new(&c, "foo");
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    assert_eq!(tracker.diff(&c, "foo"), (0, 2));
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=12 current=12 ready=12 updated=12 available=12",
    );
}

// Zero/zero budgets are rejected by validation (validation.go ValidateRollingUpdateDaemonSet; the
// controller's safety net only
// matters for old objects): maxUnavailable "0%" with maxSurge 0.
#[test]
fn zero_zero_budget_rejected() {
    let mut c = cluster_with_nodes(1, 3);
    let mut ds = new_daemon_set("foo");
    set_rolling(&mut ds, pct("0%"), int(0));
    let err = c.create(dsplay_api::Object::DaemonSet(ds)).unwrap_err();
    assert!(
        format!("{err:?}").contains("cannot be 0 when maxSurge is 0"),
        "{err:?}"
    );
}

// minReadySeconds paces a rolling update: the next pod goes only once the new one is available.
#[test]
fn min_ready_seconds_paces_rollout() {
    let mut c = cluster_with_nodes(1, 2);
    ready_ds(&mut c, "foo", |d| {
        d.spec.as_mut().unwrap().min_ready_seconds = Some(10)
    });
    let mut tracker = Tracker::new(&c, "foo");
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    assert_eq!(tracker.diff(&c, "foo"), (0, 1));
    let start = c.now_ms();
    let mut second_delete_at = None;
    while c.step() {
        let (_, del) = tracker.diff(&c, "foo");
        if del > 0 {
            second_delete_at = Some(c.now_ms() - start);
            break;
        }
    }
    // Old pod stops in 1 s, new pod: pull 2 s + start 1 s → Ready at 4 s, available after > 10 s more.
    let at = second_delete_at.expect("second delete happens");
    assert!(at > 14_000 && at <= 15_000, "second delete at {at} ms");
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 available=2",
    );
}

// OnDelete (update.go: no rollingUpdate): nothing replaced until a pod is deleted; replacements use the new template.
#[test]
fn on_delete_strategy() {
    let mut c = cluster_with_nodes(1, 3);
    ready_ds(&mut c, "foo", set_on_delete);
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    settle(&mut c);
    assert!(live_ds_pods(&c, "foo")
        .iter()
        .all(|p| pod_image(p) == IMAGE));
    assert_status(&c, "foo", "desired=3 current=3 ready=3 available=3");
    let revisions: Vec<i64> = c
        .store()
        .controller_revisions()
        .map(|r| r.revision)
        .collect();
    assert_eq!(revisions.len(), 2, "history recorded even for OnDelete");
    let victim = pods_by_node(&c, "foo")["node-1"][0].clone();
    delete_pod(&mut c, &victim);
    settle(&mut c);
    let on_1 = &pods_by_node(&c, "foo")["node-1"][0];
    assert_eq!(pod_image(on_1), IMAGE_V2);
    assert_eq!(
        on_1.metadata.labels.as_ref().unwrap()["pod-template-generation"],
        "2"
    );
    assert_status(
        &c,
        "foo",
        "desired=3 current=3 ready=3 updated=1 available=3",
    );
}

fn revisions(c: &Cluster) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = c
        .store()
        .controller_revisions()
        .map(|r| {
            (
                r.metadata.labels.clone().unwrap()["controller-revision-hash"].clone(),
                r.revision,
            )
        })
        .collect();
    v.sort_by_key(|(_, n)| *n);
    v
}

// kubectl rollout undo (polymorphichelpers/rollback.go DaemonSetRollbacker): revisions {1,2} → {2,3}; pods already on the target hash are not
// restarted (e2e "should rollback without unnecessary restarts").
#[test]
fn rollback_renumbers_and_does_not_restart() {
    let mut c = cluster_with_nodes(1, 4);
    ready_ds(&mut c, "foo", |_| {});
    let revs = revisions(&c);
    assert_eq!(revs.len(), 1);
    assert_eq!(revs[0].1, 1);
    let v1_hash = revs[0].0.clone();
    // A rollout to an image that never becomes ready stalls after one pod.
    c.set_image_behavior(
        IMAGE_V2,
        ImageBehavior {
            ready: false,
            ..Default::default()
        },
    );
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    c.advance(Duration::from_secs(120));
    let revs = revisions(&c);
    assert_eq!(revs.iter().map(|r| r.1).collect::<Vec<_>>(), vec![1, 2]);
    let v2_hash = revs[1].0.clone();
    let v1_pods: BTreeSet<String> = live_ds_pods(&c, "foo")
        .iter()
        .filter(|p| hash_label(p) == v1_hash)
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    assert_eq!(v1_pods.len(), 3);
    // Roll back (kubectl rollout undo = template replaced by the revision's data).
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE));
    let revs = revisions(&c);
    assert_eq!(
        revs,
        vec![(v2_hash, 2), (v1_hash.clone(), 3)],
        "old revision reused and renumbered"
    );
    settle(&mut c);
    let now_pods: BTreeSet<String> = live_ds_pods(&c, "foo")
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    assert!(
        v1_pods.is_subset(&now_pods),
        "pods already on the target hash were not restarted"
    );
    assert_eq!(now_pods.len(), 4);
    assert!(live_ds_pods(&c, "foo")
        .iter()
        .all(|p| hash_label(p) == v1_hash));
    assert_status(
        &c,
        "foo",
        "desired=4 current=4 ready=4 updated=4 available=4",
    );
}

// update.go snapshot: change-cause annotation copied from the DS onto the revision.
#[test]
fn revision_copies_change_cause() {
    let mut c = cluster_with_nodes(1, 1);
    ready_ds(&mut c, "foo", |d| {
        d.metadata.annotations = Some(
            [(
                "kubernetes.io/change-cause".to_string(),
                "first".to_string(),
            )]
            .into(),
        );
    });
    let r = c.store().controller_revisions().next().unwrap().clone();
    assert_eq!(
        r.metadata.annotations.unwrap()["kubernetes.io/change-cause"],
        "first"
    );
    assert_eq!(
        r.metadata.name.unwrap(),
        format!(
            "foo-{}",
            r.metadata.labels.unwrap()["controller-revision-hash"]
        )
    );
}

// update.go cleanupHistory with revisionHistoryLimit.
#[test]
fn revision_history_limit_cleanup() {
    let mut c = cluster_with_nodes(1, 2);
    ready_ds(&mut c, "foo", |d| {
        d.spec.as_mut().unwrap().revision_history_limit = Some(2)
    });
    for i in 0..5 {
        update_ds(&mut c, "foo", |d| {
            set_image(d, &format!("registry.k8s.io/pause:v{i}"))
        });
        settle(&mut c);
    }
    let revs = revisions(&c);
    assert_eq!(
        revs.iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![4, 5, 6],
        "current + 2 old"
    );
    let current = &revs[2].0;
    assert!(live_ds_pods(&c, "foo")
        .iter()
        .all(|p| &hash_label(p) == current));
}

// cleanupHistory never deletes a revision still used by a live pod (OnDelete keeps old pods).
#[test]
fn revision_history_keeps_revisions_in_use() {
    let mut c = cluster_with_nodes(1, 2);
    ready_ds(&mut c, "foo", |d| {
        set_on_delete(d);
        d.spec.as_mut().unwrap().revision_history_limit = Some(0);
    });
    let first = revisions(&c)[0].0.clone();
    for i in 0..3 {
        update_ds(&mut c, "foo", |d| {
            set_image(d, &format!("registry.k8s.io/pause:v{i}"))
        });
        settle(&mut c);
    }
    let revs = revisions(&c);
    assert_eq!(
        revs.len(),
        2,
        "current + the one still used by the old pods: {revs:?}"
    );
    assert_eq!(revs[0].0, first);
}

/// The Rollout panel's shorter diagnosis lists the nodes in progress first, then old ones, then
/// updated ones, each as the whole diagnosis describes it, and counts the others by stage.
#[test]
fn a_rollout_diagnosis_listing_few_nodes_lists_those_in_progress_and_counts_the_rest() {
    use dsplay_sim::explain::{diagnose_rollout, diagnose_rollout_listing};
    let mut c = cluster_with_nodes(1, 12);
    ready_ds(&mut c, "foo", |d| set_rolling(d, int(2), int(0)));
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    let mut checked = 0;
    for _ in 0..200 {
        let whole = diagnose_rollout(&c, "default", "foo").unwrap();
        let short = diagnose_rollout_listing(&c, "default", "foo", 5).unwrap();
        assert_eq!(whole.nodes.len(), 12);
        assert_eq!(whole.nodes_folded, [0; 3]);
        assert_eq!(short.nodes.len(), 5);
        assert_eq!(
            short.nodes.len() + short.nodes_folded.iter().sum::<usize>(),
            12
        );
        assert_eq!(
            (
                short.problems.clone(),
                short.unavailable_in_use,
                short.updated
            ),
            (
                whole.problems.clone(),
                whole.unavailable_in_use,
                whole.updated
            )
        );
        assert!(short.nodes.windows(2).all(|w| w[0].node < w[1].node));
        for node in &short.nodes {
            assert!(whole.nodes.contains(node), "{node:?}");
        }
        let listed_unavailable = short.nodes.iter().filter(|n| n.unavailable).count();
        assert_eq!(listed_unavailable, whole.unavailable_in_use.min(5) as usize);
        if whole.updated > 0 && whole.updated < whole.desired && whole.unavailable_in_use < 5 {
            checked += 1;
            // Room left after the nodes in progress goes to old ones before updated ones.
            let old = |n: &&dsplay_sim::explain::RolloutNode| {
                !n.unavailable && n.pods.iter().any(|p| p.ends_with("(old)"))
            };
            let old_whole = whole.nodes.iter().filter(old).count();
            let room = 5 - whole.unavailable_in_use as usize;
            assert_eq!(short.nodes.iter().filter(old).count(), old_whole.min(room));
        }
        if !c.step() {
            break;
        }
    }
    assert!(checked > 0, "the update was seen half way");
}
