//! `kubectl get` tables per kind, with hand-built objects; expected texts follow kubectl v1.32 on kind
//! (pkg/printers/internalversion/printers.go printDaemonSet, printPod, printNode, printControllerRevision).

use chrono::{DateTime, TimeZone, Utc};
use dsplay_api::types::*;
use dsplay_kubectl::printers::get::*;
use dsplay_kubectl::printers::table::TableOptions;
use serde_json::json;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 10, 0).unwrap()
}

fn from<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> T {
    serde_json::from_value(v).expect("valid object")
}

#[test]
fn daemon_sets() {
    let ds: DaemonSet = from(json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "log-collector", "namespace": "default", "creationTimestamp": "2026-01-01T00:09:30Z"},
        "spec": {"selector": {"matchLabels": {"app": "demo"}}, "template": {"metadata": {"labels": {"app": "demo"}},
            "spec": {"containers": [{"name": "demo", "image": "busybox"}, {"name": "side", "image": "nginx:1.14.0"}]}}},
        "status": {"desiredNumberScheduled": 2, "currentNumberScheduled": 2, "numberReady": 2, "updatedNumberScheduled": 2, "numberAvailable": 2, "numberMisscheduled": 0}
    }));
    let t = daemon_set_table(&[&ds], now());
    assert_eq!(
        t.render(&TableOptions::default()),
        "NAME            DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\n\
         log-collector   2         2         2       2            2           <none>          30s\n"
    );
    assert_eq!(
        t.render(&TableOptions { wide: true, ..Default::default() }),
        "NAME            DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE   CONTAINERS   IMAGES                 SELECTOR\n\
         log-collector   2         2         2       2            2           <none>          30s   demo,side    busybox,nginx:1.14.0   app=demo\n"
    );
}

fn pod(status: serde_json::Value, deleting: bool) -> Pod {
    let mut meta = json!({"name": "demo-abcde", "namespace": "default", "creationTimestamp": "2026-01-01T00:05:00Z"});
    if deleting {
        meta["deletionTimestamp"] = json!("2026-01-01T00:09:00Z");
    }
    from(json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta,
        "spec": {"nodeName": "kind-worker", "containers": [{"name": "demo", "image": "busybox"}]}, "status": status}))
}

#[test]
fn pod_status_rules() {
    let running = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
        "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "", "ready": true, "restartCount": 0, "state": {"running": {"startedAt": "2026-01-01T00:05:02Z"}}}]});
    let creating = json!({"phase": "Pending", "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "", "ready": false, "restartCount": 0, "state": {"waiting": {"reason": "ContainerCreating"}}}]});
    let crash = json!({"phase": "Running", "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "", "ready": false, "restartCount": 3,
        "state": {"waiting": {"reason": "CrashLoopBackOff"}}, "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-01-01T00:09:15Z"}}}]});
    let completed = json!({"phase": "Succeeded", "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "", "ready": false, "restartCount": 0, "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]});
    let exit = json!({"phase": "Failed", "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "", "ready": false, "restartCount": 0, "state": {"terminated": {"exitCode": 2}}}]});
    let pending = json!({"phase": "Pending"});
    let lost = json!({"phase": "Running", "reason": "NodeLost"});
    let cases: &[(&str, Pod, &str, &str, &str)] = &[
        (
            "running",
            pod(running.clone(), false),
            "1/1",
            "Running",
            "0",
        ),
        (
            "creating",
            pod(creating, false),
            "0/1",
            "ContainerCreating",
            "0",
        ),
        (
            "crashloop",
            pod(crash, false),
            "0/1",
            "CrashLoopBackOff",
            "3 (45s ago)",
        ),
        ("completed", pod(completed, false), "0/1", "Completed", "0"),
        ("exit code", pod(exit, false), "0/1", "ExitCode:2", "0"),
        ("pending", pod(pending, false), "0/1", "Pending", "0"),
        ("terminating", pod(running, true), "1/1", "Terminating", "0"),
        ("node lost", pod(lost, true), "0/1", "Unknown", "0"),
    ];
    for (name, p, ready, status, restarts) in cases {
        let (r, s, n) = pod_ready_status_restarts(p, now());
        assert_eq!(
            (r.as_str(), s.as_str(), n.as_str()),
            (*ready, *status, *restarts),
            "{name}"
        );
    }
    let init = from::<Pod>(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"initContainers": [{"name": "i1"}, {"name": "i2"}], "containers": [{"name": "c"}]},
        "status": {"phase": "Pending", "initContainerStatuses": [
            {"name": "i1", "image": "", "imageID": "", "ready": false, "restartCount": 0, "state": {"terminated": {"exitCode": 0}}},
            {"name": "i2", "image": "", "imageID": "", "ready": false, "restartCount": 0, "state": {"running": {}}}]}}),
    );
    assert_eq!(pod_ready_status_restarts(&init, now()).1, "Init:1/2");
}

#[test]
fn pods_wide() {
    let p = pod(
        json!({"phase": "Running", "podIP": "10.244.1.2", "podIPs": [{"ip": "10.244.1.2"}], "conditions": [{"type": "Ready", "status": "True"}],
        "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "", "ready": true, "restartCount": 0, "state": {"running": {}}}]}),
        false,
    );
    let pending: Pod = from(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "demo-zzzzz", "creationTimestamp": "2026-01-01T00:09:58Z"},
        "spec": {"containers": [{"name": "demo"}]}, "status": {"phase": "Pending"}}),
    );
    assert_eq!(
        pod_table(&[&p, &pending], now()).render(&TableOptions { wide: true, ..Default::default() }),
        "NAME         READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES\n\
         demo-abcde   1/1     Running   0          5m    10.244.1.2   kind-worker   <none>           <none>\n\
         demo-zzzzz   0/1     Pending   0          2s    <none>       <none>        <none>           <none>\n"
    );
}

#[test]
fn nodes() {
    let cp: Node = from(json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "kind-control-plane", "creationTimestamp": "2025-12-31T23:00:00Z", "labels": {"node-role.kubernetes.io/control-plane": ""}},
        "status": {"conditions": [{"type": "Ready", "status": "True"}], "nodeInfo": {"kubeletVersion": "v1.33.0", "machineID": "", "systemUUID": "", "bootID": "", "kernelVersion": "6.8.0", "osImage": "Debian GNU/Linux 12 (bookworm)", "containerRuntimeVersion": "containerd://2.0.3", "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64"},
            "addresses": [{"type": "InternalIP", "address": "172.18.0.2"}]}}));
    let w2: Node = from(json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "kind-worker2", "creationTimestamp": "2025-12-31T23:00:00Z"},
        "spec": {"unschedulable": true},
        "status": {"conditions": [{"type": "Ready", "status": "Unknown"}], "nodeInfo": {"kubeletVersion": "v1.33.0", "machineID": "", "systemUUID": "", "bootID": "", "kernelVersion": "", "osImage": "", "containerRuntimeVersion": "", "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64"}}}));
    let t = node_table(&[&cp, &w2], now());
    assert_eq!(
        t.render(&TableOptions::default()),
        "NAME                 STATUS                        ROLES           AGE   VERSION\n\
         kind-control-plane   Ready                         control-plane   70m   v1.33.0\n\
         kind-worker2         NotReady,SchedulingDisabled   <none>          70m   v1.33.0\n"
    );
    assert_eq!(
        t.render(&TableOptions { wide: true, ..Default::default() }).lines().nth(2).unwrap(),
        "kind-worker2         NotReady,SchedulingDisabled   <none>          70m   v1.33.0   <none>        <none>        <unknown>                        <unknown>        <unknown>"
    );
}

#[test]
fn events_revisions_namespaces_priorityclasses() {
    let ev = |name: &str, kind: &str, obj: &str, reason: &str, last: &str, msg: &str| -> Event {
        from(
            json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": "default"},
            "involvedObject": {"kind": kind, "name": obj}, "reason": reason, "message": msg, "type": "Normal",
            "source": {"component": "daemonset-controller"}, "firstTimestamp": last, "lastTimestamp": last, "count": 1}),
        )
    };
    let a = ev(
        "b",
        "DaemonSet",
        "demo",
        "SuccessfulCreate",
        "2026-01-01T00:09:00Z",
        "Created pod: demo-abcde",
    );
    let b = ev(
        "a",
        "Pod",
        "demo-abcde",
        "Scheduled",
        "2026-01-01T00:09:30Z",
        "Successfully assigned default/demo-abcde to kind-worker",
    );
    assert_eq!(
        // Rows keep the given (API server) order: events are not sorted by time (#29838).
        event_table(&[&b, &a], now()).render(&TableOptions::default()),
        "LAST SEEN   TYPE     REASON             OBJECT           MESSAGE\n\
         30s         Normal   Scheduled          pod/demo-abcde   Successfully assigned default/demo-abcde to kind-worker\n\
         60s         Normal   SuccessfulCreate   daemonset/demo   Created pod: demo-abcde\n"
    );
    let cr: ControllerRevision = from(
        json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": {"name": "demo-6d4b7f5c8", "creationTimestamp": "2026-01-01T00:00:00Z",
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "demo", "uid": "u", "controller": true}]},
        "revision": 1}),
    );
    assert_eq!(
        controller_revision_table(&[&cr], now()).render(&TableOptions::default()),
        "NAME             CONTROLLER            REVISION   AGE\ndemo-6d4b7f5c8   daemonset.apps/demo   1          10m\n"
    );
    let ns: Namespace = from(
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default", "creationTimestamp": "2026-01-01T00:00:00Z"}, "status": {"phase": "Active"}}),
    );
    assert_eq!(
        namespace_table(&[&ns], now()).render(&TableOptions::default()),
        "NAME      STATUS   AGE\ndefault   Active   10m\n"
    );
    let pc = |name: &str, v: i32| -> PriorityClass {
        from(
            json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name, "creationTimestamp": "2026-01-01T00:00:00Z"}, "value": v, "preemptionPolicy": "PreemptLowerPriority"}),
        )
    };
    let (a, b) = (
        pc("system-cluster-critical", 2000000000),
        pc("system-node-critical", 2000001000),
    );
    assert_eq!(
        priority_class_table(&[&a, &b], now()).render(&TableOptions::default()),
        "NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\n\
         system-cluster-critical   2000000000   false            10m   PreemptLowerPriority\n\
         system-node-critical      2000001000   false            10m   PreemptLowerPriority\n"
    );
}

#[test]
fn rollout_history_table() {
    assert_eq!(
        rollout_history("demo", &[(2, Some("kubectl set image ds/x demo=nginx".into())), (1, None)]),
        "daemonset.apps/demo \nREVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image ds/x demo=nginx\n\n"
    );
    assert_eq!(
        rollout_history("demo", &[]),
        "daemonset.apps/demo \nNo rollout history found.\n"
    );
}
