//! DaemonSet controller placement, existing-pod handling and status, mirroring upstream
//! pkg/controller/daemon/daemon_controller_test.go.

mod common;

use common::*;
use dsplay_api::taints::{keys, taint, NO_EXECUTE, NO_SCHEDULE};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::controller::daemonset::util::node_should_run_daemon_pod;
use dsplay_sim::{Cluster, DeleteOptions, ImageBehavior, Propagation};
use serde_json::json;
use std::time::Duration;

// Upstream TestSimpleDaemonSetLaunchesPods + TestSimpleDaemonSetUpdatesStatusAfterLaunchingPods.
#[test]
fn simple_daemon_set_launches_pods() {
    let mut c = cluster_with_nodes(1, 5);
    create_ds(&mut c, new_daemon_set("foo"));
    // Same instant: every pod created and counted as current (Pending counts), none ready yet.
    let by_node = pods_by_node(&c, "foo");
    assert_eq!(by_node.len(), 5);
    assert!(by_node.values().all(|p| p.len() == 1));
    assert_status(&c, "foo", "desired=5 current=5 updated=5 unavailable=5");
    assert_eq!(event_messages(&c, "SuccessfulCreate").len(), 5);
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=5 current=5 ready=5 updated=5 available=5",
    );
    let ds = get_ds(&c, "foo");
    assert_eq!(ds.status.unwrap().observed_generation, Some(1));
    // Each pod: owner, labels, tolerations, per-node affinity.
    for (node, pods) in pods_by_node(&c, "foo") {
        let p = &pods[0];
        assert_eq!(phase(p), "Running");
        let labels = p.metadata.labels.clone().unwrap();
        assert_eq!(labels["pod-template-generation"], "1");
        assert!(!labels["controller-revision-hash"].is_empty());
        let terms = p
            .spec
            .as_ref()
            .unwrap()
            .affinity
            .clone()
            .unwrap()
            .node_affinity
            .unwrap()
            .required_during_scheduling_ignored_during_execution
            .unwrap()
            .node_selector_terms;
        assert_eq!(
            terms[0].match_fields.as_ref().unwrap()[0]
                .values
                .clone()
                .unwrap(),
            vec![node.clone()]
        );
        let tolerations = p.spec.as_ref().unwrap().tolerations.clone().unwrap();
        // The six daemon tolerations, and no 300 s DefaultTolerationSeconds ones.
        assert_eq!(tolerations.len(), 6, "{tolerations:?}");
        assert!(tolerations.iter().all(|t| t.toleration_seconds.is_none()));
        assert!(p.metadata.name.as_ref().unwrap().starts_with("foo-"));
        assert_eq!(p.metadata.name.as_ref().unwrap().len(), "foo-".len() + 5);
    }
}

// Upstream TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods on the kind cluster: the control-plane
// taint keeps the pod off kind-control-plane.
#[test]
fn kind_cluster_control_plane_taint_is_respected() {
    let mut c = Cluster::new(1);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "foo").into_iter().collect::<Vec<_>>(),
        vec!["kind-worker", "kind-worker2"]
    );
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 available=2",
    );
    // kube-proxy and kindnet tolerate everything: 3 each.
    for name in ["kube-proxy", "kindnet"] {
        let s = c
            .store()
            .daemon_set("kube-system", name)
            .unwrap()
            .status
            .clone()
            .unwrap();
        assert_eq!(
            (s.desired_number_scheduled, s.number_ready),
            (3, 3),
            "{name}"
        );
    }
}

// Upstream TestNodeShouldRunDaemonPod (table), incl. the newest cases where resources, host ports
// and spec.unschedulable do not matter.
#[test]
fn node_should_run_daemon_pod_cases() {
    fn node(name: &str, labels: &[(&str, &str)], cpu: &str, unschedulable: bool) -> Node {
        let mut n = dsplay_sim::default_cluster::build_node(&dsplay_sim::NodeOptions {
            cpu: cpu.into(),
            ..dsplay_sim::NodeOptions::new(name)
        });
        n.metadata
            .labels
            .as_mut()
            .unwrap()
            .extend(labels.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        n.spec.get_or_insert_with(Default::default).unschedulable = Some(unschedulable);
        n
    }
    let base = new_daemon_set("x");
    let with = |f: &dyn Fn(&mut PodSpec)| {
        let mut d = base.clone();
        f(pod_spec(&mut d));
        d
    };
    let plain = node("n1", &[], "4", false);
    let tainted = |t: Taint| {
        let mut n = plain.clone();
        n.spec.as_mut().unwrap().taints = Some(vec![t]);
        n
    };
    let aff = |terms: serde_json::Value| {
        with(&|s| {
            s.affinity = Some(serde_json::from_value(json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms.clone()}}})).unwrap())
        })
    };
    let big = with(&|s| {
        s.containers[0].resources = Some(
            serde_json::from_value(json!({"requests": {"cpu": "100", "memory": "1000Gi"}}))
                .unwrap(),
        );
    });
    let port = with(&|s| {
        s.containers[0].ports = Some(vec![serde_json::from_value(
            json!({"containerPort": 80, "hostPort": 80}),
        )
        .unwrap()]);
    });
    let sel = with(&|s| s.node_selector = Some([("disk".to_string(), "ssd".to_string())].into()));
    // Required node affinity: terms OR'ed, an empty term matches nothing.
    let two_terms = aff(json!([
        {"matchExpressions": [{"key": "a", "operator": "In", "values": ["1"]}]},
        {"matchExpressions": [{"key": "b", "operator": "Exists"}]}
    ]));
    let by_field = aff(
        json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]),
    );
    let tolerating = with(&|s| {
        s.tolerations = Some(vec![serde_json::from_value(
            json!({"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute"}),
        )
        .unwrap()])
    });
    let host_network = with(&|s| s.host_network = Some(true));

    struct Case {
        name: &'static str,
        node: Node,
        ds: DaemonSet,
        should_run: bool,
        should_continue_running: bool,
    }
    let case = |name, node: &Node, ds: &DaemonSet, should_run, should_continue_running| Case {
        name,
        node: node.clone(),
        ds: ds.clone(),
        should_run,
        should_continue_running,
    };
    let cases = [
        case("simple", &plain, &base, true, true),
        case("insufficient resources", &plain, &big, true, true),
        case("host port", &plain, &port, true, true),
        case(
            "unschedulable",
            &node("n1", &[], "4", true),
            &base,
            true,
            true,
        ),
        case(
            "nodeName matches",
            &plain,
            &with(&|s| s.node_name = Some("n1".into())),
            true,
            true,
        ),
        case(
            "nodeName differs",
            &plain,
            &with(&|s| s.node_name = Some("other".into())),
            false,
            false,
        ),
        case("selector mismatch", &plain, &sel, false, false),
        case(
            "selector match",
            &node("n1", &[("disk", "ssd")], "4", false),
            &sel,
            true,
            true,
        ),
        case(
            "second term matches",
            &node("n1", &[("b", "x")], "4", false),
            &two_terms,
            true,
            true,
        ),
        case("no term matches", &plain, &two_terms, false, false),
        case(
            "empty term matches nothing",
            &plain,
            &aff(json!([{}])),
            false,
            false,
        ),
        case("matchFields metadata.name", &plain, &by_field, true, true),
        case(
            "matchFields other node",
            &node("n2", &[], "4", false),
            &by_field,
            false,
            false,
        ),
        // Taints: NoSchedule stops new pods, NoExecute also evicts, PreferNoSchedule is ignored, and
        // the taints daemon pods tolerate automatically.
        case(
            "NoSchedule",
            &tainted(taint("k", Some("v"), NO_SCHEDULE)),
            &base,
            false,
            true,
        ),
        case(
            "NoExecute",
            &tainted(taint("k", Some("v"), NO_EXECUTE)),
            &base,
            false,
            false,
        ),
        case(
            "PreferNoSchedule",
            &tainted(taint("k", Some("v"), "PreferNoSchedule")),
            &base,
            true,
            true,
        ),
        case(
            "not-ready NoExecute",
            &tainted(taint(keys::NOT_READY, None, NO_EXECUTE)),
            &base,
            true,
            true,
        ),
        case(
            "unreachable NoSchedule",
            &tainted(taint(keys::UNREACHABLE, None, NO_SCHEDULE)),
            &base,
            false,
            true,
        ),
        case(
            "network-unavailable",
            &tainted(taint(keys::NETWORK_UNAVAILABLE, None, NO_SCHEDULE)),
            &base,
            false,
            true,
        ),
        case(
            "network-unavailable, hostNetwork",
            &tainted(taint(keys::NETWORK_UNAVAILABLE, None, NO_SCHEDULE)),
            &host_network,
            true,
            true,
        ),
        case(
            "NoExecute tolerated",
            &tainted(taint("k", Some("v"), NO_EXECUTE)),
            &tolerating,
            true,
            true,
        ),
    ];
    for c in cases {
        let p = node_should_run_daemon_pod(&c.node, &c.ds);
        assert_eq!(
            (p.should_run, p.should_continue_running),
            (c.should_run, c.should_continue_running),
            "{}",
            c.name
        );
    }
}

// Upstream TestTaintedNodeDaemonDoesNotLaunchIntolerantPod.
#[test]
fn tainted_node_does_not_launch_intolerant_pod() {
    let mut c = Cluster::new_empty(1);
    add_node_with(&mut c, "tainted", |o| {
        o.taints = vec![taint("dedicated", Some("x"), NO_SCHEDULE)]
    });
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    assert!(ds_pods(&c, "foo").is_empty());
    assert_status(&c, "foo", "");
}

// Upstream TestTaintedNodeDaemonLaunchesToleratePod / TestNodeDaemonLaunchesToleratePod.
#[test]
fn tainted_node_launches_tolerating_pod() {
    let mut c = Cluster::new_empty(1);
    add_node_with(&mut c, "tainted", |o| {
        o.taints = vec![taint("dedicated", Some("x"), NO_SCHEDULE)]
    });
    let mut ds = new_daemon_set("foo");
    pod_spec(&mut ds).tolerations = Some(vec![serde_json::from_value(
        json!({"key": "dedicated", "operator": "Equal", "value": "x", "effect": "NoSchedule"}),
    )
    .unwrap()]);
    create_ds(&mut c, ds);
    settle(&mut c);
    assert_eq!(nodes_with_pods(&c, "foo").len(), 1);
    assert_status(
        &c,
        "foo",
        "desired=1 current=1 ready=1 updated=1 available=1",
    );
}

// Upstream TestUnschedulableNodeDaemonDoesLaunchPod: a cordoned node still gets (and schedules) the daemon pod.
#[test]
fn unschedulable_node_does_launch_pod() {
    let mut c = cluster_with_nodes(1, 2);
    let mut n = c.store().node("node-0").cloned().unwrap();
    n.spec.get_or_insert_with(Default::default).unschedulable = Some(true);
    c.update(Object::Node(n)).unwrap();
    let taints = c
        .store()
        .node("node-0")
        .unwrap()
        .spec
        .clone()
        .unwrap()
        .taints
        .unwrap_or_default();
    assert!(
        taints
            .iter()
            .any(|t| t.key == keys::UNSCHEDULABLE && t.effect == NO_SCHEDULE),
        "cordon taint added: {taints:?}"
    );
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let by_node = pods_by_node(&c, "foo");
    assert_eq!(by_node.len(), 2);
    assert!(by_node.values().all(|p| phase(&p[0]) == "Running"));
}

// Upstream TestDaemonSetRespectsTermination: a terminating pod blocks the replacement until it is gone.
#[test]
fn respects_termination() {
    let mut c = cluster_with_nodes(1, 1);
    c.set_image_behavior(
        IMAGE,
        ImageBehavior {
            ignore_sigterm: true,
            ..Default::default()
        },
    );
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let old = live_ds_pods(&c, "foo").remove(0);
    delete_pod(&mut c, &old);
    c.advance(Duration::from_secs(29));
    let pods = ds_pods(&c, "foo");
    assert_eq!(pods.len(), 1, "no replacement while the old pod terminates");
    assert!(pods[0].metadata.deletion_timestamp.is_some());
    // Terminating pod still counts as scheduled.
    assert_eq!(ds_status(&c, "foo").current, 1);
    c.advance(Duration::from_secs(2));
    let pods = ds_pods(&c, "foo");
    assert_eq!(pods.len(), 1);
    assert_ne!(
        pods[0].metadata.name, old.metadata.name,
        "replacement created once the old pod is gone"
    );
}

fn bare_pod(name: &str, node: Option<&str>, labels: &[(&str, &str)]) -> Pod {
    let mut p: Pod = serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": IMAGE}]}
    }))
    .unwrap();
    p.metadata.labels = Some(
        labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    );
    p.spec.as_mut().unwrap().node_name = node.map(str::to_string);
    p
}

// Upstream TestDealsWithExistingPods: adoption of orphans, extra pods deleted (oldest kept), missing
// pods created, non-matching pods ignored.
#[test]
fn deals_with_existing_pods() {
    let mut c = cluster_with_nodes(1, 5);
    let mut orphans = Vec::new();
    for (node, count) in [(1, 1), (2, 2), (3, 5)] {
        for i in 0..count {
            let name = format!("orphan-{node}-{i}");
            c.create(Object::Pod(bare_pod(
                &name,
                Some(&node_name(node)),
                &[("app", "foo")],
            )))
            .unwrap();
            orphans.push(name);
            c.advance(Duration::from_secs(1));
        }
    }
    for i in 0..2 {
        c.create(Object::Pod(bare_pod(
            &format!("other-{i}"),
            Some("node-4"),
            &[("app", "bar")],
        )))
        .unwrap();
    }
    settle(&mut c);
    // OnDelete variant of the upstream table (with RollingUpdate the adopted pods, which carry no
    // revision hash, are rolled afterwards, as upstream does on its next sync).
    let mut ds = new_daemon_set("foo");
    set_on_delete(&mut ds);
    create_ds(&mut c, ds);
    // One create on node-0 and node-4; one delete on node-2, four on node-3.
    assert_eq!(event_messages(&c, "SuccessfulCreate").len(), 2);
    assert_eq!(event_messages(&c, "SuccessfulDelete").len(), 5);
    settle(&mut c);
    let by_node = pods_by_node(&c, "foo");
    assert_eq!(by_node.len(), 5);
    assert!(by_node.values().all(|p| p.len() == 1));
    // Oldest kept.
    assert_eq!(
        by_node["node-2"][0].metadata.name.as_deref(),
        Some("orphan-2-0")
    );
    assert_eq!(
        by_node["node-3"][0].metadata.name.as_deref(),
        Some("orphan-3-0")
    );
    // Non-matching pods untouched and not adopted.
    for i in 0..2 {
        let p = c.store().pod("default", &format!("other-{i}")).unwrap();
        assert!(p.metadata.owner_references.is_none());
    }
    assert_eq!(
        ds_status(&c, "foo"),
        Status {
            desired: 5,
            current: 5,
            ready: 5,
            updated: 2,
            available: 5,
            ..Status::default()
        },
        "adopted orphans lack the hash label: not updated"
    );
}

// Upstream TestDaemonSetController release path (ControllerRefManager): a pod whose labels stop
// matching is released and replaced.
#[test]
fn pod_with_changed_labels_is_released_and_replaced() {
    let mut c = cluster_with_nodes(1, 1);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let mut p = live_ds_pods(&c, "foo").remove(0);
    p.metadata
        .labels
        .as_mut()
        .unwrap()
        .insert("app".into(), "debug".into());
    c.update(Object::Pod(p.clone())).unwrap();
    settle(&mut c);
    let released = c
        .store()
        .pod("default", p.metadata.name.as_deref().unwrap())
        .unwrap();
    assert!(released
        .metadata
        .owner_references
        .clone()
        .unwrap_or_default()
        .is_empty());
    let owned = live_ds_pods(&c, "foo");
    assert_eq!(owned.len(), 1);
    assert_ne!(owned[0].metadata.name, p.metadata.name);
}

// Upstream TestDeleteUnscheduledPodForNotExistingNode: an unscheduled pod targeting a deleted node is
// deleted by the DS controller; a bound pod on a deleted node is left for pod GC.
#[test]
fn delete_unscheduled_pod_for_not_existing_node() {
    let mut c = cluster_with_nodes(1, 2);
    add_node_with(&mut c, "tiny", |o| o.cpu = "100m".into());
    let mut ds = new_daemon_set("foo");
    pod_spec(&mut ds).containers[0].resources =
        Some(serde_json::from_value(json!({"requests": {"cpu": "500m"}})).unwrap());
    create_ds(&mut c, ds);
    settle(&mut c);
    let pending: Vec<Pod> = live_ds_pods(&c, "foo")
        .into_iter()
        .filter(|p| pod_node(p).is_none())
        .collect();
    assert_eq!(pending.len(), 1, "the pod for the tiny node stays Pending");
    c.delete(Kind::Node, "", "tiny", DeleteOptions::default())
        .unwrap();
    assert!(
        c.store()
            .pod("default", pending[0].metadata.name.as_deref().unwrap())
            .is_none(),
        "unscheduled pod deleted at once"
    );
    // Bound pod on a deleted node: the DS controller leaves it; pod GC removes it within ~40 s.
    let bound = pods_by_node(&c, "foo")["node-1"][0].clone();
    c.delete(Kind::Node, "", "node-1", DeleteOptions::default())
        .unwrap();
    c.advance(Duration::from_secs(30));
    let still = c
        .store()
        .pod("default", bound.metadata.name.as_deref().unwrap())
        .expect("pod GC has not run yet");
    assert!(still.metadata.deletion_timestamp.is_none());
    c.advance(Duration::from_secs(11));
    assert!(
        c.store()
            .pod("default", bound.metadata.name.as_deref().unwrap())
            .is_none(),
        "pod GC removed it"
    );
    assert_status(
        &c,
        "foo",
        "desired=1 current=1 ready=1 updated=1 available=1",
    );
}

// Upstream TestTaintedNodeDaemonDoesNotLaunchIntolerantPod's NoExecute sibling (§1.5 case C) and
// TestUpdateNode*: an untolerated NoExecute taint makes the controller delete its pod; a NoSchedule taint
// keeps it as misscheduled (TestUpdateDaemonSetStatus-like numbers).
#[test]
fn taints_added_later_misscheduled_and_no_execute() {
    let mut c = cluster_with_nodes(1, 3);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=3 current=3 ready=3 updated=3 available=3",
    );
    set_node_taints(&mut c, "node-0", vec![taint("k", Some("v"), NO_SCHEDULE)]);
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "foo").len(),
        3,
        "NoSchedule: the pod keeps running"
    );
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 available=2 misscheduled=1",
    );
    set_node_taints(&mut c, "node-1", vec![taint("k", Some("v"), NO_EXECUTE)]);
    let pod_on_1 = ds_pods(&c, "foo")
        .into_iter()
        .find(|p| pod_node(p).as_deref() == Some("node-1"))
        .unwrap();
    assert!(
        pod_on_1.metadata.deletion_timestamp.is_some(),
        "NoExecute: deleted by the DS controller"
    );
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "foo").into_iter().collect::<Vec<_>>(),
        vec!["node-0", "node-2"]
    );
    assert_status(
        &c,
        "foo",
        "desired=1 current=1 ready=1 updated=1 available=1 misscheduled=1",
    );
    // Removing the taints brings everything back.
    set_node_taints(&mut c, "node-0", vec![]);
    set_node_taints(&mut c, "node-1", vec![]);
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=3 current=3 ready=3 updated=3 available=3",
    );
}

// Upstream TestNodeAffinityDaemonLaunchesPods / TestSelectorDaemonDeletesUnselectedPods: node labels
// decide placement; a label change that stops matching deletes the pod.
#[test]
fn node_selector_follows_label_changes() {
    let mut c = cluster_with_nodes(1, 4);
    set_node_labels(&mut c, "node-1", &[("disk", "ssd")]);
    set_node_labels(&mut c, "node-2", &[("disk", "ssd")]);
    let mut ds = new_daemon_set("foo");
    pod_spec(&mut ds).node_selector = Some([("disk".to_string(), "ssd".to_string())].into());
    create_ds(&mut c, ds);
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "foo").into_iter().collect::<Vec<_>>(),
        vec!["node-1", "node-2"]
    );
    set_node_labels(&mut c, "node-2", &[("disk", "hdd")]);
    set_node_labels(&mut c, "node-3", &[("disk", "ssd")]);
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "foo").into_iter().collect::<Vec<_>>(),
        vec!["node-1", "node-3"]
    );
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 available=2",
    );
}

// Upstream TestSelectingAll? (SelectingAll event is unreachable through validation); instead upstream
// TestDaemonSetWithNodeSelectorLaunchesPods with a new node added later (node add event).
#[test]
fn node_added_later_gets_pod() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    add_nodes(&mut c, 2, 1);
    assert_eq!(ds_status(&c, "foo").desired, 3);
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=3 current=3 ready=3 updated=3 available=3",
    );
}

// podutil.IsPodAvailable with minReadySeconds (daemon_controller.go updateDaemonSetStatus:
// numberAvailable and the requeue after minReadySeconds).
#[test]
fn min_ready_seconds_availability() {
    let mut c = cluster_with_nodes(1, 2);
    let mut ds = new_daemon_set("foo");
    ds.spec.as_mut().unwrap().min_ready_seconds = Some(10);
    create_ds(&mut c, ds);
    // Pull 2 s + start 1 s → Ready at t=3 s.
    c.advance(Duration::from_secs(3));
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 unavailable=2",
    );
    c.advance(Duration::from_secs(10));
    // Ready for exactly 10 s: not yet available (strictly greater).
    assert_eq!(ds_status(&c, "foo").available, 0);
    c.advance(Duration::from_secs(1));
    assert_eq!(
        ds_status(&c, "foo"),
        Status {
            desired: 2,
            current: 2,
            ready: 2,
            updated: 2,
            available: 2,
            ..Status::default()
        },
        "available after minReadySeconds without any other trigger"
    );
}

// Generation / templateGeneration bookkeeping (pkg/registry/apps/daemonset/strategy.go PrepareForUpdate).
#[test]
fn generation_and_template_generation() {
    let mut c = cluster_with_nodes(1, 1);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let gen = |c: &Cluster| {
        let d = get_ds(c, "foo");
        (
            d.metadata.generation.unwrap(),
            d.metadata.annotations.unwrap()["deprecated.daemonset.template.generation"].clone(),
            d.status.unwrap().observed_generation.unwrap(),
        )
    };
    assert_eq!(gen(&c), (1, "1".to_string(), 1));
    update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
    assert_eq!(gen(&c), (2, "2".to_string(), 2));
    update_ds(&mut c, "foo", |d| {
        d.spec.as_mut().unwrap().min_ready_seconds = Some(5)
    });
    assert_eq!(gen(&c), (3, "2".to_string(), 3));
    update_ds(&mut c, "foo", |d| {
        d.metadata
            .labels
            .get_or_insert_with(Default::default)
            .insert("x".into(), "y".into());
    });
    assert_eq!(
        gen(&c),
        (3, "2".to_string(), 3),
        "metadata-only change: no bump"
    );
    settle(&mut c);
    let p = live_ds_pods(&c, "foo").remove(0);
    assert_eq!(p.metadata.labels.unwrap()["pod-template-generation"], "2");
}

// Cascading deletion of a DaemonSet: background, foreground, orphan (apps/v1 GC policies).
#[test]
fn cascading_delete_background() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    c.delete(Kind::DaemonSet, "default", "foo", DeleteOptions::default())
        .unwrap();
    assert!(
        c.store().daemon_set("default", "foo").is_none(),
        "owner removed at once"
    );
    let pods: Vec<Pod> = c
        .store()
        .pods()
        .filter(|p| p.metadata.namespace.as_deref() == Some("default"))
        .cloned()
        .collect();
    assert_eq!(pods.len(), 2);
    assert!(
        pods.iter().all(|p| p.metadata.deletion_timestamp.is_some()),
        "dependents terminating"
    );
    settle(&mut c);
    assert_eq!(
        c.store()
            .pods()
            .filter(|p| p.metadata.namespace.as_deref() == Some("default"))
            .count(),
        0
    );
    assert_eq!(
        c.store()
            .controller_revisions()
            .filter(|r| r.metadata.namespace.as_deref() == Some("default"))
            .count(),
        0
    );
}

#[test]
fn cascading_delete_foreground() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    c.delete(
        Kind::DaemonSet,
        "default",
        "foo",
        DeleteOptions {
            propagation: Propagation::Foreground,
            grace_period_seconds: None,
        },
    )
    .unwrap();
    let ds = c
        .store()
        .daemon_set("default", "foo")
        .cloned()
        .expect("owner kept while dependents exist");
    assert!(ds.metadata.deletion_timestamp.is_some());
    assert!(ds
        .metadata
        .finalizers
        .unwrap()
        .contains(&"foregroundDeletion".to_string()));
    // A DS being deleted does nothing: no replacement pods appear.
    let n_before = c
        .store()
        .pods()
        .filter(|p| p.metadata.namespace.as_deref() == Some("default"))
        .count();
    assert_eq!(n_before, 2);
    settle(&mut c);
    assert!(
        c.store().daemon_set("default", "foo").is_none(),
        "owner gone after its pods"
    );
    assert_eq!(
        c.store()
            .pods()
            .filter(|p| p.metadata.namespace.as_deref() == Some("default"))
            .count(),
        0
    );
}

#[test]
fn cascading_delete_orphan() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let names: Vec<String> = ds_pods(&c, "foo")
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    c.delete(
        Kind::DaemonSet,
        "default",
        "foo",
        DeleteOptions {
            propagation: Propagation::Orphan,
            grace_period_seconds: None,
        },
    )
    .unwrap();
    settle(&mut c);
    assert!(c.store().daemon_set("default", "foo").is_none());
    for n in &names {
        let p = c.store().pod("default", n).expect("orphaned pod kept");
        assert!(p
            .metadata
            .owner_references
            .clone()
            .unwrap_or_default()
            .is_empty());
        assert!(p.metadata.deletion_timestamp.is_none());
    }
    // Re-creating the DS adopts them instead of creating new pods.
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let mut now: Vec<String> = ds_pods(&c, "foo")
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    now.sort();
    let mut want = names.clone();
    want.sort();
    assert_eq!(now, want);
}

// Upstream TestCascadingDeleteWithInvalidNamespaceOwnerRef-like cases (garbagecollector
// `isDangling`, `classifyReferences`): an owner reference resolves by kind and name in the
// dependent's namespace, then by uid. A dependent with no owner left goes (a reference to an owner
// in another namespace also reports OwnerRefInvalidNamespace); one with a live owner left loses the
// dangling references and stays.
#[test]
fn owner_references_resolve_in_the_dependents_namespace() {
    let mut c = cluster_with_nodes(1, 1);
    let ds = create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let uid = ds.metadata.uid.clone().unwrap();
    let owner = |name: &str, uid: &str| OwnerReference {
        api_version: "apps/v1".into(),
        kind: "DaemonSet".into(),
        name: name.into(),
        uid: uid.into(),
        ..Default::default()
    };
    let in_namespace = |name: &str, namespace: &str, refs: Vec<OwnerReference>| {
        let mut p = bare_pod(name, Some(&node_name(0)), &[("app", "other")]);
        p.metadata.namespace = Some(namespace.into());
        p.metadata.owner_references = Some(refs);
        Object::Pod(p)
    };
    c.create(Object::Namespace(Namespace {
        metadata: ObjectMeta {
            name: Some("other".into()),
            ..Default::default()
        },
        ..Default::default()
    }))
    .unwrap();
    let foreign = in_namespace("foreign", "other", vec![owner("foo", &uid)]);
    let misnamed = in_namespace("misnamed", "default", vec![owner("bar", &uid)]);
    let owned = in_namespace("owned", "default", vec![owner("foo", &uid)]);
    let half = in_namespace(
        "half",
        "default",
        vec![owner("foo", &uid), owner("gone", "no-such-uid")],
    );
    for pod in [foreign, misnamed, owned, half] {
        c.create(pod).unwrap();
    }
    settle(&mut c);
    assert!(
        c.store().pod("other", "foreign").is_none(),
        "owner in another namespace: absent"
    );
    assert!(
        c.store().pod("default", "misnamed").is_none(),
        "no owner by that name: absent"
    );
    let refs = |name: &str| {
        let pod = c
            .store()
            .pod("default", name)
            .expect("kept: its owner lives");
        assert!(pod.metadata.deletion_timestamp.is_none());
        pod.metadata.owner_references.clone().unwrap_or_default()
    };
    assert_eq!(refs("owned"), vec![owner("foo", &uid)]);
    assert_eq!(
        refs("half"),
        vec![owner("foo", &uid)],
        "the dangling reference dropped"
    );
    let warnings = events_with_reason(&c, "OwnerRefInvalidNamespace");
    assert_eq!(warnings.len(), 1, "only the reference across namespaces");
    let warning = &warnings[0];
    assert_eq!(warning.type_.as_deref(), Some("Warning"));
    assert_eq!(warning.involved_object.namespace.as_deref(), Some("other"));
    assert_eq!(warning.involved_object.name.as_deref(), Some("foreign"));
    assert_eq!(
        warning.message.as_deref(),
        Some(
            format!(
                "ownerRef [apps/v1/DaemonSet, namespace: other, name: foo, uid: {uid}] does not exist in namespace \"other\""
            )
            .as_str()
        )
    );
    assert_eq!(
        warning.source.as_ref().and_then(|s| s.component.as_deref()),
        Some("garbage-collector-controller")
    );
}

/// The collector maps an owner reference's apiVersion and kind to a resource before it looks the
/// owner up: at a version the API server does not serve the mapping fails, and the dependent is
/// left as it is (upstream retries it), while the same reference at `apps/v1` dangles.
#[test]
fn an_owner_reference_at_a_version_not_served_never_dangles() {
    let mut c = cluster_with_nodes(1, 1);
    let pod_owned_at = |name: &str, api_version: &str| {
        let mut p = bare_pod(name, Some(&node_name(0)), &[("app", "other")]);
        p.metadata.owner_references = Some(vec![OwnerReference {
            api_version: api_version.into(),
            kind: "DaemonSet".into(),
            name: "gone".into(),
            uid: "no-such-uid".into(),
            ..Default::default()
        }]);
        Object::Pod(p)
    };
    c.create(pod_owned_at("unmapped", "apps/v1beta2")).unwrap();
    c.create(pod_owned_at("dangling", "apps/v1")).unwrap();
    settle(&mut c);
    let kept = c.store().pod("default", "unmapped").expect("left alone");
    assert!(kept.metadata.deletion_timestamp.is_none());
    assert_eq!(
        kept.metadata.owner_references.as_ref().map(Vec::len),
        Some(1)
    );
    assert!(
        c.store().pod("default", "dangling").is_none(),
        "the same owner at apps/v1 is looked up, found absent, and its dependent collected"
    );
}
