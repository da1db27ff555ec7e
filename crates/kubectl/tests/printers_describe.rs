//! `describe` layouts, with hand-built objects; expected texts follow kubectl v1.32 on kind and the
//! tabwriter/PrefixWriter calls of `describe.go` (DescribePodTemplate, DescribeEvents, describePod,
//! describeNode).

use chrono::{DateTime, TimeZone, Utc};
use dsplay_api::types::*;
use dsplay_kubectl::printers::describe::*;
use serde_json::json;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 42, 0).unwrap()
}

fn from<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> T {
    serde_json::from_value(v).expect("valid object")
}

fn ds() -> DaemonSet {
    from(json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "demo", "namespace": "default", "uid": "ds-uid", "annotations": {"deprecated.daemonset.template.generation": "1"}},
        "spec": {"selector": {"matchLabels": {"app": "demo"}}, "template": {"metadata": {"labels": {"app": "demo"}},
            "spec": {"containers": [{"name": "demo", "image": "busybox", "command": ["sleep", "infinity"]}]}}},
        "status": {"desiredNumberScheduled": 2, "currentNumberScheduled": 2, "numberReady": 2, "updatedNumberScheduled": 2, "numberAvailable": 2, "numberMisscheduled": 0}}))
}

fn pod(name: &str) -> Pod {
    from(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default",
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "demo", "uid": "ds-uid", "controller": true}]},
        "spec": {"containers": [{"name": "demo"}]}, "status": {"phase": "Running"}}),
    )
}

#[test]
fn daemon_set_without_events() {
    let (a, b) = (pod("demo-abcde"), pod("demo-fghij"));
    let got = describe_daemon_set(&ds(), &[&a, &b], &[], now());
    let want = "\
Name:           demo
Selector:       app=demo
Node-Selector:  <none>
Labels:         <none>
Annotations:    deprecated.daemonset.template.generation: 1
Desired Number of Nodes Scheduled: 2
Current Number of Nodes Scheduled: 2
Number of Nodes Scheduled with Up-to-date Pods: 2
Number of Nodes Scheduled with Available Pods: 2
Number of Nodes Misscheduled: 0
Pods Status:  2 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  app=demo
  Containers:
   demo:
    Image:      busybox
    Port:       <none>
    Host Port:  <none>
    Command:
      sleep
      infinity
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Events:            <none>
";
    assert_eq!(got, want);
}

#[test]
fn daemon_set_events_table() {
    let ev = |pod: &str, at: &str, count: i32, first: &str| -> Event {
        from(
            json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": pod},
            "involvedObject": {"kind": "DaemonSet", "name": "demo"}, "reason": "SuccessfulCreate", "type": "Normal",
            "message": format!("Created pod: {pod}"), "source": {"component": "daemonset-controller"},
            "firstTimestamp": first, "lastTimestamp": at, "count": count}),
        )
    };
    let e1 = ev(
        "demo-dng4m",
        "2026-01-01T00:00:00Z",
        1,
        "2026-01-01T00:00:00Z",
    );
    let e2 = ev(
        "demo-xyz12",
        "2026-01-01T00:39:00Z",
        5,
        "2026-01-01T00:32:00Z",
    );
    let got = describe_daemon_set(&ds(), &[], &[&e2, &e1], now());
    // With events the writer is flushed first: the table aligns on its own.
    assert!(
        got.contains("  Tolerations:     <none>\nEvents:\n"),
        "{got}"
    );
    let want_events = "\
Events:
  Type    Reason            Age               From                  Message
  ----    ------            ----              ----                  -------
  Normal  SuccessfulCreate  42m               daemonset-controller  Created pod: demo-dng4m
  Normal  SuccessfulCreate  3m (x5 over 10m)  daemonset-controller  Created pod: demo-xyz12
";
    assert!(got.ends_with(want_events), "{got}");
}

#[test]
fn tolerations_format() {
    let t = |v: serde_json::Value| -> Toleration { from(v) };
    let cases = [
        (t(json!({"operator": "Exists"})), "op=Exists"),
        (
            t(
                json!({"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}),
            ),
            "node.kubernetes.io/not-ready:NoExecute op=Exists",
        ),
        (
            t(
                json!({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}),
            ),
            "node.kubernetes.io/unreachable:NoExecute op=Exists for 300s",
        ),
        (
            t(
                json!({"key": "example.com/taint-key", "operator": "Equal", "value": "taint-value", "effect": "NoExecute"}),
            ),
            "example.com/taint-key=taint-value:NoExecute",
        ),
    ];
    for (tol, want) in cases {
        assert_eq!(format_toleration(&tol), want);
    }
}

#[test]
fn pod_layout() {
    let p: Pod = from(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "demo-abcde", "namespace": "default", "labels": {"app": "demo", "controller-revision-hash": "6d4b7f5c8", "pod-template-generation": "1"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "demo", "uid": "ds-uid", "controller": true}]},
        "spec": {"nodeName": "kind-worker", "serviceAccountName": "default", "priority": 0,
            "containers": [{"name": "demo", "image": "busybox"}],
            "tolerations": [
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
                {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"}]},
        "status": {"phase": "Running", "hostIP": "172.18.0.3", "podIP": "10.244.1.2", "podIPs": [{"ip": "10.244.1.2"}],
            "startTime": "2026-01-01T00:00:00Z",
            "conditions": [{"type": "Ready", "status": "True"}, {"type": "PodScheduled", "status": "True"}],
            "containerStatuses": [{"name": "demo", "image": "busybox", "imageID": "docker.io/library/busybox@sha256:1", "containerID": "containerd://abc",
                "ready": true, "restartCount": 0, "state": {"running": {"startedAt": "2026-01-01T00:00:02Z"}}}]}}));
    let want = "\
Name:             demo-abcde
Namespace:        default
Priority:         0
Service Account:  default
Node:             kind-worker/172.18.0.3
Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
Labels:           app=demo
                  controller-revision-hash=6d4b7f5c8
                  pod-template-generation=1
Annotations:      <none>
Status:           Running
IP:               10.244.1.2
IPs:
  IP:           10.244.1.2
Controlled By:  DaemonSet/demo
Containers:
  demo:
    Container ID:   containerd://abc
    Image:          busybox
    Image ID:       docker.io/library/busybox@sha256:1
    Port:           <none>
    Host Port:      <none>
    State:          Running
      Started:      Thu, 01 Jan 2026 00:00:02 +0000
    Ready:          True
    Restart Count:  0
    Environment:    <none>
    Mounts:         <none>
Conditions:
  Type           Status
  Ready          True 
  PodScheduled   True 
Volumes:         <none>
QoS Class:       BestEffort
Node-Selectors:  <none>
Tolerations:     node.kubernetes.io/disk-pressure:NoSchedule op=Exists
                 node.kubernetes.io/not-ready:NoExecute op=Exists
Events:          <none>
";
    assert_eq!(describe_pod(&p, &[], now()), want);
}

#[test]
fn node_layout_head() {
    let n: Node = from(json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "kind-worker2", "creationTimestamp": "2026-01-01T00:00:00Z",
            "labels": {"gpu": "cuda", "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": "kind-worker2", "kubernetes.io/os": "linux"}},
        "spec": {"podCIDR": "10.244.2.0/24", "podCIDRs": ["10.244.2.0/24"], "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}], "unschedulable": true},
        "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}, "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "addresses": [{"type": "InternalIP", "address": "172.18.0.4"}, {"type": "Hostname", "address": "kind-worker2"}],
            "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-01-01T00:41:50Z", "lastTransitionTime": "2026-01-01T00:00:10Z", "reason": "KubeletReady", "message": "kubelet is posting ready status"}],
            "nodeInfo": {"machineID": "m", "systemUUID": "s", "bootID": "b", "kernelVersion": "6.8.0", "osImage": "Debian GNU/Linux 12 (bookworm)", "containerRuntimeVersion": "containerd://2.0.3",
                "kubeletVersion": "v1.33.0", "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64"}}}));
    let p: Pod = from(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "fluentd-abcde", "namespace": "kube-system", "creationTimestamp": "2026-01-01T00:40:00Z"},
        "spec": {"nodeName": "kind-worker2", "containers": [{"name": "f", "resources": {"requests": {"cpu": "100m", "memory": "200Mi"}, "limits": {"memory": "200Mi"}}}]},
        "status": {"phase": "Running"}}),
    );
    let got = describe_node(&n, &[&p], &[], now());
    let want_head = "\
Name:               kind-worker2
Roles:              <none>
Labels:             gpu=cuda
                    kubernetes.io/arch=amd64
                    kubernetes.io/hostname=kind-worker2
                    kubernetes.io/os=linux
Annotations:        <none>
CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
Taints:             node.kubernetes.io/unschedulable:NoSchedule
Unschedulable:      true
Lease:
  HolderIdentity:  kind-worker2
  AcquireTime:     <unset>
  RenewTime:       Thu, 01 Jan 2026 00:41:50 +0000
Conditions:
  Type    Status  LastHeartbeatTime                 LastTransitionTime                Reason         Message
  ----    ------  -----------------                 ------------------                ------         -------
  Ready   True    Thu, 01 Jan 2026 00:41:50 +0000   Thu, 01 Jan 2026 00:00:10 +0000   KubeletReady   kubelet is posting ready status
Addresses:
";
    assert!(got.starts_with(want_head), "{got}");
    let want_tail = "\
Non-terminated Pods:          (1 in total)
  Namespace                   Name             CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----             ------------  ----------  ---------------  -------------  ---
  kube-system                 fluentd-abcde    100m (2%)     0 (0%)      200Mi (2%)       200Mi (2%)     2m
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests    Limits
  --------           --------    ------
  cpu                100m (2%)   0 (0%)
  memory             200Mi (2%)  200Mi (2%)
  ephemeral-storage  0 (0%)      0 (0%)
Events:              <none>
";
    assert!(got.ends_with(want_tail), "{got}");
}
