//! Node lifecycle, taint eviction, kubelet model and scheduler interplay with DaemonSets
//! (pkg/scheduler, pkg/controller/nodelifecycle, pkg/controller/tainteviction; the kubelet model of
//! `docs/timing-model.md`).

mod common;

use common::*;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::taints::{keys, NO_EXECUTE, NO_SCHEDULE};
use dsplay_api::types::*;
use dsplay_api::Object;
use dsplay_sim::controller::node_lifecycle::{fail_node, recover_node, set_condition};
use dsplay_sim::{Cluster, ImageBehavior};
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;

fn node_taints(c: &Cluster, node: &str) -> Vec<(String, String)> {
    c.store()
        .node(node)
        .unwrap()
        .spec
        .clone()
        .unwrap()
        .taints
        .unwrap_or_default()
        .into_iter()
        .map(|t| (t.key, t.effect))
        .collect()
}

/// One node running DaemonSet `foo`, whose image crashes 5 s after each start.
fn crash_looping_daemon_set() -> Cluster {
    let mut c = cluster_with_nodes(1, 1);
    c.set_image_behavior(
        IMAGE,
        ImageBehavior {
            crash: true,
            ..Default::default()
        },
    );
    create_ds(&mut c, new_daemon_set("foo"));
    c
}

fn ready_condition(c: &Cluster, node: &str) -> String {
    c.store()
        .node(node)
        .unwrap()
        .status
        .clone()
        .unwrap()
        .conditions
        .unwrap()
        .into_iter()
        .find(|c| c.type_ == "Ready")
        .unwrap()
        .status
}

fn plain_pod(name: &str, node: &str) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "default", "labels": {"run": name}},
        "spec": {"nodeSelector": {"kubernetes.io/hostname": node}, "containers": [{"name": "c", "image": IMAGE}]}
    }))
    .unwrap()
}

// NodeShouldRunDaemonPod on an unreachable node + node_lifecycle_controller.go: a failed node → 40 s → Ready=Unknown, unreachable NoSchedule and
// NoExecute taints, pods not Ready; DESIRED drops and the surviving daemon pod counts as misscheduled.
// Recovery undoes it (upstream TestNodeShouldRunDaemonPod unreachable rows, issues #21714/#132459).
#[test]
fn failed_node_goes_unknown_and_daemon_pod_is_misscheduled() {
    let mut c = cluster_with_nodes(1, 3);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    fail_node(&mut c, "node-0");
    c.advance(Duration::from_secs(39));
    assert_eq!(ready_condition(&c, "node-0"), "True");
    assert!(node_taints(&c, "node-0").is_empty());
    assert_status(
        &c,
        "foo",
        "desired=3 current=3 ready=3 updated=3 available=3",
    );
    c.advance(Duration::from_secs(1));
    assert_eq!(ready_condition(&c, "node-0"), "Unknown");
    assert_eq!(
        node_taints(&c, "node-0"),
        vec![
            (keys::UNREACHABLE.to_string(), NO_SCHEDULE.to_string()),
            (keys::UNREACHABLE.to_string(), NO_EXECUTE.to_string())
        ]
    );
    let on_0 = pods_by_node(&c, "foo")["node-0"][0].clone();
    assert!(!is_pod_ready(&on_0), "pods on the node marked not Ready");
    assert_status(
        &c,
        "foo",
        "desired=2 current=2 ready=2 updated=2 available=2 misscheduled=1",
    );
    // The daemon pod tolerates unreachable:NoExecute forever: still there 10 minutes later.
    c.advance(Duration::from_secs(600));
    let still = pods_by_node(&c, "foo")["node-0"][0].clone();
    assert_eq!(still.metadata.name, on_0.metadata.name);
    recover_node(&mut c, "node-0");
    assert_eq!(ready_condition(&c, "node-0"), "True");
    assert!(node_taints(&c, "node-0").is_empty());
    settle(&mut c);
    assert_status(
        &c,
        "foo",
        "desired=3 current=3 ready=3 updated=3 available=3",
    );
}

// defaulttolerationseconds admission + taint eviction (upstream taint_eviction_test TestCreatePod/TestUpdateNode): an ordinary pod
// gets the 300 s DefaultTolerationSeconds and is evicted 300 s after the unreachable taint; the daemon
// pod stays.
#[test]
fn ordinary_pod_evicted_300s_after_taint_daemon_pod_stays() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    c.create(Object::Pod(plain_pod("web", "node-0"))).unwrap();
    settle(&mut c);
    let web = c.store().pod("default", "web").unwrap().clone();
    let secs: Vec<Option<i64>> = web
        .spec
        .unwrap()
        .tolerations
        .unwrap()
        .iter()
        .map(|t| t.toleration_seconds)
        .collect();
    assert_eq!(secs, vec![Some(300), Some(300)]);
    fail_node(&mut c, "node-0");
    c.advance(Duration::from_secs(40)); // taint added at t=40 s
    c.advance(Duration::from_secs(299));
    assert!(c
        .store()
        .pod("default", "web")
        .unwrap()
        .metadata
        .deletion_timestamp
        .is_none());
    c.advance(Duration::from_secs(1));
    let web = c.store().pod("default", "web").cloned();
    assert!(
        web.is_none_or(|p| p.metadata.deletion_timestamp.is_some()),
        "evicted at 300 s"
    );
    let msgs = event_messages(&c, "TaintManagerEviction");
    assert!(
        msgs.contains(&"Marking for deletion Pod default/web".to_string()),
        "{msgs:?}"
    );
    assert_eq!(
        pods_by_node(&c, "foo")["node-0"].len(),
        1,
        "daemon pod stays"
    );
}

// Taint eviction is cancelled when the node recovers before the deadline.
#[test]
fn eviction_cancelled_on_recovery() {
    let mut c = cluster_with_nodes(1, 1);
    c.create(Object::Pod(plain_pod("web", "node-0"))).unwrap();
    settle(&mut c);
    fail_node(&mut c, "node-0");
    c.advance(Duration::from_secs(100));
    recover_node(&mut c, "node-0");
    c.advance(Duration::from_secs(600));
    assert!(c
        .store()
        .pod("default", "web")
        .unwrap()
        .metadata
        .deletion_timestamp
        .is_none());
    assert!(event_messages(&c, "TaintManagerEviction")
        .contains(&"Cancelling deletion of Pod default/web".to_string()));
}

// node_lifecycle_controller.go condition → taint (and AddOrUpdateDaemonPodTolerations): DiskPressure is auto-tolerated by daemon pods; NetworkUnavailable
// only with hostNetwork.
#[test]
fn condition_taints_and_daemon_tolerations() {
    let mut c = cluster_with_nodes(1, 2);
    set_condition(&mut c, "node-0", "DiskPressure", "True");
    set_condition(&mut c, "node-1", "NetworkUnavailable", "True");
    assert_eq!(
        node_taints(&c, "node-0"),
        vec![(keys::DISK_PRESSURE.to_string(), NO_SCHEDULE.to_string())]
    );
    assert_eq!(
        node_taints(&c, "node-1"),
        vec![(
            keys::NETWORK_UNAVAILABLE.to_string(),
            NO_SCHEDULE.to_string()
        )]
    );
    create_ds(&mut c, new_daemon_set("plain"));
    let mut host = new_daemon_set("host");
    pod_spec(&mut host).host_network = Some(true);
    create_ds(&mut c, host);
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "plain").into_iter().collect::<Vec<_>>(),
        vec!["node-0"]
    );
    assert_eq!(nodes_with_pods(&c, "host").len(), 2);
    set_condition(&mut c, "node-1", "NetworkUnavailable", "False");
    settle(&mut c);
    assert_eq!(nodes_with_pods(&c, "plain").len(), 2);
}

fn restart_count(p: &Pod) -> i32 {
    p.status
        .as_ref()
        .unwrap()
        .container_statuses
        .as_ref()
        .unwrap()[0]
        .restart_count
}

fn waiting_reason(p: &Pod) -> Option<String> {
    p.status.as_ref()?.container_statuses.as_ref()?[0]
        .state
        .as_ref()?
        .waiting
        .as_ref()?
        .reason
        .clone()
}

// Kubelet model crash loop (`docs/timing-model.md`): runs 5 s, restarts at once the first time, then back-off 10, 20, 40 s.
// The restart count belongs to the container and is set when the new container is created
// (upstream `kuberuntime_container.go` `startContainer`), so it does not move during a back-off;
// every start records the image check, Created and Started (`EnsureImageExists`, `startContainer`).
#[test]
fn crash_loop_back_off() {
    let mut c = crash_looping_daemon_set();
    let pod = |c: &Cluster| live_ds_pods(c, "foo").remove(0);
    // Pull 2 s, start 1 s: running at 3 s, crash at 8 s (restart 1, immediately running again).
    c.advance(Duration::from_secs(3));
    assert_eq!(phase(&pod(&c)), "Running");
    assert!(!is_pod_ready(&pod(&c)));
    c.advance(Duration::from_secs(5));
    assert_eq!(
        (restart_count(&pod(&c)), waiting_reason(&pod(&c))),
        (1, None)
    );
    // Second crash at 13 s → CrashLoopBackOff 10 s; the dead container was restart 1.
    c.advance(Duration::from_secs(5));
    assert_eq!(
        (restart_count(&pod(&c)), waiting_reason(&pod(&c)).as_deref()),
        (1, Some("CrashLoopBackOff"))
    );
    c.advance(Duration::from_secs(9));
    assert_eq!(
        (restart_count(&pod(&c)), waiting_reason(&pod(&c)).as_deref()),
        (1, Some("CrashLoopBackOff"))
    );
    c.advance(Duration::from_secs(1)); // 23 s: restarted, a new container
    assert_eq!(
        (restart_count(&pod(&c)), waiting_reason(&pod(&c))),
        (2, None)
    );
    // Three starts so far: one pull, then the image was present for each restart.
    let count = |c: &Cluster, reason: &str, prefix: &str| -> i32 {
        events_with_reason(c, reason)
            .iter()
            .filter(|e| e.message.as_deref().unwrap_or("").starts_with(prefix))
            .map(|e| e.count.unwrap_or(1))
            .sum()
    };
    assert_eq!(count(&c, "Created", "Created container: c"), 3);
    assert_eq!(count(&c, "Started", "Started container c"), 3);
    assert_eq!(count(&c, "Pulled", "Successfully pulled image"), 1);
    assert_eq!(
        count(
            &c,
            "Pulled",
            &format!("Container image \"{IMAGE}\" already present on machine")
        ),
        2
    );
    c.advance(Duration::from_secs(5)); // 28 s: third crash → 20 s
    assert_eq!(
        (restart_count(&pod(&c)), waiting_reason(&pod(&c)).as_deref()),
        (2, Some("CrashLoopBackOff"))
    );
    c.advance(Duration::from_secs(19));
    assert_eq!(
        waiting_reason(&pod(&c)).as_deref(),
        Some("CrashLoopBackOff")
    );
    c.advance(Duration::from_secs(1)); // 48 s restarted; 53 s fourth crash → 40 s
    assert_eq!(restart_count(&pod(&c)), 3);
    c.advance(Duration::from_secs(5));
    assert_eq!(
        (restart_count(&pod(&c)), waiting_reason(&pod(&c)).as_deref()),
        (3, Some("CrashLoopBackOff"))
    );
    c.advance(Duration::from_secs(39));
    assert_eq!(
        waiting_reason(&pod(&c)).as_deref(),
        Some("CrashLoopBackOff")
    );
    c.advance(Duration::from_secs(1));
    assert_eq!(waiting_reason(&pod(&c)), None);
    assert_eq!(restart_count(&pod(&c)), 4);
    assert_eq!(count(&c, "Created", "Created container: c"), 5);
    assert_eq!(
        phase(&pod(&c)),
        "Running",
        "restartPolicy Always: the pod never becomes Failed"
    );
    assert_status(&c, "foo", "desired=1 current=1 updated=1 unavailable=1");
    assert!(events_with_reason(&c, "BackOff").iter().any(|e| e
        .message
        .as_deref()
        .unwrap_or("")
        .starts_with("Back-off restarting failed container c in pod")));
}

// Kubelet model pull failure (`docs/timing-model.md`): ErrImagePull, then ImagePullBackOff with back-off.
#[test]
fn image_pull_failure() {
    let mut c = cluster_with_nodes(1, 1);
    c.set_image_behavior(
        IMAGE,
        ImageBehavior {
            pull_ok: false,
            ..Default::default()
        },
    );
    create_ds(&mut c, new_daemon_set("foo"));
    let pod = |c: &Cluster| live_ds_pods(c, "foo").remove(0);
    c.advance(Duration::from_secs(2));
    assert_eq!(waiting_reason(&pod(&c)).as_deref(), Some("ErrImagePull"));
    c.advance(Duration::from_secs(1));
    assert_eq!(
        waiting_reason(&pod(&c)).as_deref(),
        Some("ImagePullBackOff")
    );
    c.advance(Duration::from_secs(120));
    assert_eq!(phase(&pod(&c)), "Pending");
    assert!(matches!(
        waiting_reason(&pod(&c)).as_deref(),
        Some("ImagePullBackOff") | Some("ErrImagePull")
    ));
    assert!(event_messages(&c, "Failed").contains(&"Error: ErrImagePull".to_string()));
    assert!(event_messages(&c, "Failed").contains(&"Error: ImagePullBackOff".to_string()));
    assert_status(&c, "foo", "desired=1 current=1 updated=1 unavailable=1");
}

fn hungry_daemon_set(c: &mut Cluster, cpu: &str) -> Vec<Pod> {
    let mut ds = new_daemon_set("hungry");
    pod_spec(&mut ds).containers[0].resources =
        Some(serde_json::from_value(json!({"requests": {"cpu": cpu}})).unwrap());
    create_ds(c, ds);
    settle(c);
    live_ds_pods(c, "hungry")
}

fn assert_pending_with(c: &Cluster, pods: &[Pod], expected: &str) {
    for p in pods {
        assert_eq!(phase(p), "Pending");
        assert!(pod_node(p).is_none());
        let cond = p
            .status
            .as_ref()
            .unwrap()
            .conditions
            .as_ref()
            .unwrap()
            .iter()
            .find(|c| c.type_ == "PodScheduled")
            .unwrap()
            .clone();
        assert_eq!(
            (
                cond.status.as_str(),
                cond.reason.as_deref(),
                cond.message.as_deref()
            ),
            ("False", Some("Unschedulable"), Some(expected))
        );
    }
    let msgs = event_messages(c, "FailedScheduling");
    assert_eq!(msgs.len(), 2);
    assert!(msgs.iter().all(|m| m == expected), "{msgs:?}");
}

// Seed case (NodeShouldRunDaemonPod ignores resources; FitError "Insufficient cpu"): a daemon pod requesting
// more cpu than is free on its node is still created and stays Pending with
// PodScheduled=False/Unschedulable and a FailedScheduling event (kindnet already uses 100m of 4 cpu).
#[test]
fn daemon_pod_requesting_too_much_cpu_stays_pending() {
    let mut c = Cluster::new(1);
    let pods = hungry_daemon_set(&mut c, "3950m");
    assert_eq!(pods.len(), 2);
    assert_pending_with(&c, &pods, "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.");
    // Pending pods count as current (scheduled) but not ready.
    assert_status(&c, "hungry", "desired=2 current=2 updated=2 unavailable=2");
}

// Same, with a request above the node's allocatable: NodeResourcesFit reports it as
// UnschedulableAndUnresolvable, so preemption is "not helpful" on every node.
#[test]
fn daemon_pod_requesting_more_than_allocatable_stays_pending() {
    let mut c = Cluster::new(1);
    let pods = hungry_daemon_set(&mut c, "5");
    assert_pending_with(&c, &pods, "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
    assert_status(&c, "hungry", "desired=2 current=2 updated=2 unavailable=2");
}

// Seed case (pkg/scheduler/framework/plugins/defaultpreemption): a system-node-critical DaemonSet preempts a low-priority pod.
#[test]
fn system_node_critical_daemon_preempts_low_priority_pod() {
    let mut c = Cluster::new_empty(1);
    add_node_with(&mut c, "small", |o| o.cpu = "1".into());
    let mut victim = plain_pod("low", "small");
    victim.spec.as_mut().unwrap().containers[0].resources =
        Some(serde_json::from_value(json!({"requests": {"cpu": "800m"}})).unwrap());
    c.create(Object::Pod(victim)).unwrap();
    settle(&mut c);
    assert_eq!(phase(c.store().pod("default", "low").unwrap()), "Running");
    let mut ds = new_daemon_set("critical");
    ds.metadata.namespace = Some("kube-system".into());
    {
        let spec = pod_spec(&mut ds);
        spec.priority_class_name = Some("system-node-critical".into());
        spec.containers[0].resources =
            Some(serde_json::from_value(json!({"requests": {"cpu": "500m"}})).unwrap());
    }
    c.create(Object::DaemonSet(ds)).unwrap();
    let dp: Vec<Pod> = c
        .store()
        .pods()
        .filter(|p| p.metadata.namespace.as_deref() == Some("kube-system"))
        .cloned()
        .collect();
    assert_eq!(dp.len(), 1);
    assert_eq!(dp[0].spec.as_ref().unwrap().priority, Some(2_000_001_000));
    assert_eq!(
        dp[0]
            .status
            .as_ref()
            .unwrap()
            .nominated_node_name
            .as_deref(),
        Some("small")
    );
    let low = c.store().pod("default", "low").unwrap();
    assert!(
        low.metadata.deletion_timestamp.is_some(),
        "victim deleted gracefully"
    );
    assert_eq!(events_with_reason(&c, "Preempted").len(), 1);
    settle(&mut c);
    assert!(c.store().pod("default", "low").is_none());
    let dp: Vec<Pod> = c
        .store()
        .pods()
        .filter(|p| p.metadata.namespace.as_deref() == Some("kube-system"))
        .cloned()
        .collect();
    assert_eq!(pod_node(&dp[0]).as_deref(), Some("small"));
    assert!(is_pod_ready(&dp[0]));
}

// Default DS tolerations: daemon pods are not given DefaultTolerationSeconds (daemonset_util.go
// AddOrUpdateDaemonPodTolerations adds its own; the admission plugin skips existing ones),
// and a NotReady (Ready=False) node keeps its daemon pod while DESIRED drops (not-ready:NoSchedule).
#[test]
fn not_ready_node_keeps_daemon_pod() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    set_condition(&mut c, "node-1", "Ready", "False");
    assert_eq!(
        node_taints(&c, "node-1"),
        vec![
            (keys::NOT_READY.to_string(), NO_SCHEDULE.to_string()),
            (keys::NOT_READY.to_string(), NO_EXECUTE.to_string())
        ]
    );
    settle(&mut c);
    assert_eq!(nodes_with_pods(&c, "foo").len(), 2);
    let s = ds_status(&c, "foo");
    assert_eq!((s.desired, s.misscheduled), (1, 1));
}

// `advance_until` (kubectl's waiting commands): it stops at the first timer instant where the
// condition holds, without running past it; when the condition never holds it ends exactly at the
// deadline.
#[test]
fn advance_until_stops_at_condition_or_deadline() {
    let mut c = cluster_with_nodes(1, 2);
    create_ds(&mut c, new_daemon_set("foo"));
    let start = c.now_ms();
    let ready = |c: &Cluster| ds_status(c, "foo").ready == 2;
    assert!(!ready(&c));
    assert!(c.advance_until(start + 600_000, ready));
    let at = c.now_ms();
    assert!(at > start && at < start + 600_000);
    // One timer instant earlier the condition did not hold yet.
    let mut replay = cluster_with_nodes(1, 2);
    create_ds(&mut replay, new_daemon_set("foo"));
    while replay
        .next_timer()
        .is_some_and(|t| t.timestamp_millis() < at)
    {
        replay.step();
    }
    assert!(!ready(&replay));

    let deadline = c.now_ms() + 5_000;
    assert!(!c.advance_until(deadline, |_| false));
    assert_eq!(c.now_ms(), deadline);
}

// A node added while the cluster runs keeps what its kubelet pulled, and starts with the images a
// kind node image ships: a second DaemonSet with the same image finds it present (upstream
// `pkg/kubelet/images/image_manager.go` `EnsureImageExists`).
#[test]
fn added_node_caches_pulled_images() {
    let mut c = cluster_with_nodes(1, 1);
    create_ds(&mut c, new_daemon_set("first"));
    settle(&mut c);
    create_ds(&mut c, new_daemon_set("second"));
    settle(&mut c);
    let pulled = event_messages(&c, "Pulled");
    assert_eq!(
        pulled
            .iter()
            .filter(|m| m.starts_with("Successfully pulled image"))
            .count(),
        1,
        "{pulled:?}"
    );
    assert!(pulled.contains(&format!(
        "Container image \"{IMAGE}\" already present on machine"
    )));
    let mut kind_image = new_daemon_set("proxy");
    set_image(&mut kind_image, "registry.k8s.io/kube-proxy:v1.33.1");
    create_ds(&mut c, kind_image);
    settle(&mut c);
    assert!(event_messages(&c, "Pulled").contains(
        &"Container image \"registry.k8s.io/kube-proxy:v1.33.1\" already present on machine"
            .to_string()
    ));
}

// Readiness gates: with ready containers, the pod is Ready only when each gate's condition is True
// (upstream `pkg/kubelet/status/generate.go` `GeneratePodReadyCondition`).
#[test]
fn readiness_gate_keeps_pod_not_ready() {
    let mut c = cluster_with_nodes(1, 1);
    let mut ds = new_daemon_set("gated");
    pod_spec(&mut ds).readiness_gates = Some(vec![k8s_openapi::api::core::v1::PodReadinessGate {
        condition_type: "example.com/lb-ready".into(),
    }]);
    create_ds(&mut c, ds);
    settle(&mut c);
    let pod = live_ds_pods(&c, "gated").remove(0);
    let conditions = pod.status.unwrap().conditions.unwrap();
    let get = |t: &str| conditions.iter().find(|c| c.type_ == t).unwrap().clone();
    assert_eq!(get("ContainersReady").status, "True");
    let ready = get("Ready");
    assert_eq!(
        (ready.status.as_str(), ready.reason.as_deref(), ready.message.as_deref()),
        (
            "False",
            Some("ReadinessGatesNotReady"),
            Some("corresponding condition of pod readiness gate \"example.com/lb-ready\" does not exist.")
        )
    );
    assert_status(&c, "gated", "desired=1 current=1 updated=1 unavailable=1");
}

// The API server deletes an event an hour after its last write (`--event-ttl`, the event store's
// TTLFunc); a repeated event (count > 1) takes a fresh lease with each write and lives on.
#[test]
fn events_expire_an_hour_after_their_last_write() {
    let mut c = crash_looping_daemon_set();
    let reasons = |c: &Cluster| -> BTreeSet<String> {
        c.store()
            .events()
            .filter_map(|e| e.reason.clone())
            .collect()
    };
    c.advance(Duration::from_secs(60));
    assert!(reasons(&c).contains("SuccessfulCreate"));
    assert!(reasons(&c).contains("BackOff"));
    c.advance(Duration::from_secs(3600 - 61));
    assert!(
        reasons(&c).contains("SuccessfulCreate"),
        "still there at 59:59"
    );
    c.advance(Duration::from_secs(2));
    let left = reasons(&c);
    assert!(
        !left.contains("SuccessfulCreate"),
        "expired after an hour: {left:?}"
    );
    assert!(
        left.contains("BackOff"),
        "the crash loop keeps writing its BackOff event"
    );
}

/// A DaemonSet `foo` on one node whose container has a readiness probe first passing 15 s after
/// the container starts (initialDelaySeconds 5 + periodSeconds 10), advanced until it runs.
fn probed_daemon_set(image_ready: bool) -> Cluster {
    let mut c = cluster_with_nodes(1, 1);
    c.set_image_behavior(
        IMAGE,
        ImageBehavior {
            ready: image_ready,
            ..Default::default()
        },
    );
    let mut ds = new_daemon_set("foo");
    pod_spec(&mut ds).containers[0].readiness_probe = Some(k8s_openapi::api::core::v1::Probe {
        initial_delay_seconds: Some(5),
        period_seconds: Some(10),
        tcp_socket: Some(k8s_openapi::api::core::v1::TCPSocketAction {
            port: IntOrString::Int(8080),
            ..Default::default()
        }),
        ..Default::default()
    });
    create_ds(&mut c, ds);
    for _ in 0..20 {
        if live_ds_pods(&c, "foo")
            .iter()
            .all(|p| phase(p) == "Running")
        {
            break;
        }
        c.advance(Duration::from_secs(1));
    }
    c
}

fn rollout_problems(c: &Cluster) -> Vec<String> {
    dsplay_sim::explain::diagnose_rollout(c, "default", "foo")
        .unwrap()
        .problems
        .into_iter()
        .map(|(problem, _)| problem)
        .collect()
}

#[test]
fn a_pod_waiting_for_its_readiness_probe_is_not_diagnosed_as_stuck() {
    let mut c = probed_daemon_set(true);
    let pod = live_ds_pods(&c, "foo").remove(0);
    assert!(phase(&pod) == "Running" && !is_pod_ready(&pod));
    assert_eq!(rollout_problems(&c), Vec::<String>::new());
    c.advance(Duration::from_secs(15));
    assert!(is_pod_ready(&live_ds_pods(&c, "foo")[0]));
    assert_eq!(rollout_problems(&c), Vec::<String>::new());
}

#[test]
fn a_running_pod_that_can_never_pass_its_probe_is_diagnosed() {
    let c = probed_daemon_set(false);
    let pod = live_ds_pods(&c, "foo").remove(0);
    assert!(phase(&pod) == "Running" && !is_pod_ready(&pod));
    assert_eq!(rollout_problems(&c), vec!["new pods not ready".to_string()]);
}

/// One pod write as a watch sees it: phase, Ready condition (`status/reason`), the first
/// container's terminated reason and exit code, and the deletion grace period.
type PodWrite = (String, String, Option<(String, i32)>, Option<i64>);

/// The writes a watch sees of one pod (the store keeps their snapshots).
fn pod_writes(c: &Cluster, from: usize, name: &str) -> Vec<PodWrite> {
    c.store().watch_log()[from..]
        .iter()
        .filter(|e| e.name == name)
        .filter_map(|e| match e.object.as_deref() {
            Some(Object::Pod(p)) => Some(p.clone()),
            _ => None,
        })
        .map(|p| {
            let status = p.status.clone().unwrap_or_default();
            let ready = status
                .conditions
                .iter()
                .flatten()
                .find(|c| c.type_ == "Ready")
                .map(|c| format!("{}/{}", c.status, c.reason.clone().unwrap_or_default()))
                .unwrap_or_default();
            let terminated = status
                .container_statuses
                .iter()
                .flatten()
                .next()
                .and_then(|cs| cs.state.clone()?.terminated)
                .map(|t| (t.reason.unwrap_or_default(), t.exit_code));
            (
                status.phase.unwrap_or_default(),
                ready,
                terminated,
                p.metadata.deletion_grace_period_seconds,
            )
        })
        .collect()
}

/// A deleted pod's last writes, as a watch sees them: the kubelet's terminal status once the
/// containers are gone (Succeeded and `Completed` after a clean exit; Failed and `Error`, exit code
/// 137, when SIGTERM was ignored and the grace period ran out), the API server's shortened
/// graceful deletion (grace 0), then the removal. Upstream: `kubelet_pods.go getPhase`
/// (podIsTerminal), `status_manager.go syncPod`, `registry/rest/delete.go BeforeDelete`.
#[test]
fn deleted_pod_ends_with_terminal_status_then_zero_grace() {
    for (ignore_sigterm, phase, reason, code) in [
        (false, "Succeeded", "Completed", 0),
        (true, "Failed", "Error", 137),
    ] {
        let mut c = cluster_with_nodes(1, 1);
        c.set_image_behavior(
            IMAGE,
            ImageBehavior {
                ignore_sigterm,
                ..Default::default()
            },
        );
        create_ds(&mut c, new_daemon_set("foo"));
        settle(&mut c);
        let pod = live_ds_pods(&c, "foo").remove(0);
        let name = pod.metadata.name.clone().unwrap();
        c.keep_watch_snapshots(true);
        let from = c.store().watch_log().len();
        delete_pod(&mut c, &pod);
        settle(&mut c);
        let writes = pod_writes(&c, from, &name);
        let ready_reason = if code == 0 {
            "False/PodCompleted"
        } else {
            "False/ContainersNotReady"
        };
        let last = (
            phase.to_string(),
            ready_reason.to_string(),
            Some((reason.to_string(), code)),
        );
        // Terminating (grace 30), terminal status, grace 0, then the deletion with that state.
        assert_eq!(writes.len(), 4, "{writes:?}");
        assert_eq!(writes[0].0, "Running");
        assert_eq!(writes[0].3, Some(30));
        for w in &writes[1..] {
            assert_eq!((w.0.clone(), w.1.clone(), w.2.clone()), last, "{writes:?}");
        }
        assert_eq!(writes[1].3, Some(30));
        assert_eq!(writes[2].3, Some(0));
        assert!(c.store().watch_log()[from..]
            .iter()
            .all(|e| e.name != name || e.object.is_some()));
    }
}

/// Without a readiness probe the kubelet reports a started container Running and Ready in one
/// status write (the probe manager counts a container without a readiness probe as ready).
#[test]
fn container_without_probe_is_running_and_ready_in_one_write() {
    let mut c = cluster_with_nodes(1, 1);
    c.keep_watch_snapshots(true);
    let from = c.store().watch_log().len();
    create_ds(&mut c, new_daemon_set("foo"));
    settle(&mut c);
    let name = live_ds_pods(&c, "foo").remove(0).metadata.name.unwrap();
    let phases: Vec<(String, String)> = pod_writes(&c, from, &name)
        .into_iter()
        .map(|w| (w.0, w.1))
        .collect();
    let running: Vec<&(String, String)> = phases.iter().filter(|p| p.0 == "Running").collect();
    assert_eq!(running.len(), 1, "{phases:?}");
    assert_eq!(running[0].1, "True/");
}

/// Everything a run leaves behind that a later command could see: the clock, pods, events.
fn cluster_dump(c: &Cluster) -> String {
    format!(
        "{}\n{:?}\n{:?}",
        c.now_ms(),
        c.store().pods().collect::<Vec<_>>(),
        c.store().events().collect::<Vec<_>>()
    )
}

/// A cluster of 12 nodes, and two DaemonSets being rolled out to them.
fn agent_cluster() -> Cluster {
    let mut c = cluster_with_nodes(7, 12);
    create_ds(&mut c, new_daemon_set("agent"));
    create_ds(&mut c, new_daemon_set("logger"));
    c
}

/// Steps two copies of [`agent_cluster`] until nothing is pending, one a whole step at a time and
/// one in parts of `max_timers` ([`Cluster::step_part`]), and asserts that they are alike after
/// every step; returns how many parts each step took.
fn parts_per_step(max_timers: usize) -> Vec<usize> {
    let mut whole = agent_cluster();
    let mut parts = agent_cluster();
    let mut counts = Vec::new();
    while whole.step() {
        let mut count = 1;
        while !parts.step_part(max_timers) {
            assert!(
                parts.stepping(),
                "an incomplete part leaves its step in progress"
            );
            count += 1;
        }
        assert!(!parts.stepping());
        counts.push(count);
        assert_eq!(
            cluster_dump(&parts),
            cluster_dump(&whole),
            "after step {}",
            counts.len()
        );
    }
    assert!(parts.step_part(max_timers), "nothing left to step");
    counts
}

/// The loops that follow an instant's timers run one per part, the DaemonSet controller one
/// DaemonSet per part: a part that fires every timer of the instant leaves the step incomplete,
/// each loop of the reconcile takes a part of its own (at least one round: ten loops and the two
/// DaemonSets), and the step ends where the whole step does.
#[test]
fn the_loops_after_an_instant_run_one_per_part() {
    let counts = parts_per_step(usize::MAX);
    assert!(!counts.is_empty());
    assert!(counts.iter().all(|&c| c >= 1 + 10 + 2), "{counts:?}");
}

/// A step fired in parts (the web app yields within an instant when thousands of pods are due at
/// once) ends exactly where the same step fired at once does, and a clock call completes a step
/// left in parts first.
#[test]
fn a_step_in_parts_ends_where_the_whole_step_does() {
    let counts = parts_per_step(2);
    assert!(
        counts.iter().any(|&c| c > 13),
        "some instant had more than two timers: {counts:?}"
    );
    // Left in parts, then the clock moves on: the step is completed first.
    let mut left = agent_cluster();
    let mut once = agent_cluster();
    assert!(!left.step_part(1));
    left.advance(Duration::from_secs(30));
    once.step();
    once.advance(Duration::from_secs(30));
    assert_eq!(cluster_dump(&left), cluster_dump(&once));
}
