//! Inter-pod affinity through the whole cluster: the DaemonSet scheduling shortcut (only the daemon
//! pods' own nodes) must not hide a bound pod's required anti-affinity on another node of the same
//! zone, and the held pod is placed as soon as that pod goes.

mod common;

use common::*;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::{Cluster, DeleteOptions};
use serde_json::json;

const ZONE: &str = "topology.kubernetes.io/zone";

/// A pod pinned to `node` that refuses pods labelled `app=<app>` in its zone.
fn guard(node: &str, app: &str) -> Pod {
    serde_json::from_value(json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "guard", "namespace": "default", "labels": {"role": "guard"}},
        "spec": {
            "nodeName": node,
            "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": ZONE}
            ]}},
            "containers": [{"name": "c", "image": IMAGE}]
        }
    }))
    .expect("valid Pod")
}

fn scheduled_message(c: &Cluster, pod: &Pod) -> Option<String> {
    let p = c.store().pod("default", pod.metadata.name.as_deref()?)?;
    p.status
        .as_ref()?
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == "PodScheduled" && c.status == "False")?
        .message
        .clone()
}

fn add_zoned(c: &mut Cluster, name: &str, zone: &str) {
    add_node_with(c, name, |o| {
        o.labels.insert(ZONE.into(), zone.into());
    });
}

#[test]
fn existing_anti_affinity_holds_a_daemon_pod_until_its_pod_goes() {
    let mut c = Cluster::new_empty(7);
    for (name, zone) in [("node-0", "a"), ("node-1", "a"), ("node-2", "b")] {
        add_zoned(&mut c, name, zone);
    }
    create_ds(&mut c, new_daemon_set("agent"));
    settle(&mut c);
    c.create(Object::Pod(guard("node-2", "agent")))
        .expect("guard created");
    settle(&mut c);
    // A node joins zone b: its daemon pod is the only pending pod, yet the guard on node-2 decides.
    add_zoned(&mut c, "node-3", "b");
    settle(&mut c);
    assert_eq!(
        nodes_with_pods(&c, "agent").into_iter().collect::<Vec<_>>(),
        ["node-0", "node-1", "node-2"]
    );
    let held: Vec<Pod> = live_ds_pods(&c, "agent")
        .into_iter()
        .filter(|p| pod_node(p).is_none())
        .collect();
    assert_eq!(held.len(), 1);
    assert_eq!(
        scheduled_message(&c, &held[0]).as_deref(),
        Some("0/4 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.")
    );
    c.delete(Kind::Pod, "default", "guard", DeleteOptions::default())
        .expect("guard deleted");
    settle(&mut c);
    assert_eq!(nodes_with_pods(&c, "agent").len(), 4);
    assert!(live_ds_pods(&c, "agent")
        .iter()
        .all(|p| phase(p) == "Running"));
}

/// The store counts bound pods with required anti-affinity as they come and go (the scheduler's
/// shortcut asks it instead of scanning every pod each cycle).
#[test]
fn store_counts_bound_pods_with_required_anti_affinity() {
    let mut c = Cluster::new_empty(7);
    add_zoned(&mut c, "node-0", "a");
    assert!(!c.store().has_bound_pods_with_required_anti_affinity());
    c.create(Object::Pod(guard("node-0", "agent")))
        .expect("guard created");
    assert!(c.store().has_bound_pods_with_required_anti_affinity());
    c.delete(Kind::Pod, "default", "guard", DeleteOptions::default())
        .expect("guard deleted");
    settle(&mut c);
    assert!(c.store().pod("default", "guard").is_none());
    assert!(!c.store().has_bound_pods_with_required_anti_affinity());
}
