//! InterPodAffinity and PodTopologySpread: Filter verdicts, scores, FitError texts and preemption,
//! ported from upstream's plugin tests where they apply.

use super::testutil::*;
use super::*;
use dsplay_api::taints::{keys, taint, NO_SCHEDULE};
use dsplay_api::types::{LabelSelector, ObjectMeta, OwnerReference, ReplicaSetSpec};

const HOST: &str = "kubernetes.io/hostname";
const ZONE: &str = "topology.kubernetes.io/zone";

fn labelled(name: &str, pairs: &[(&str, &str)]) -> Pod {
    with_pod_labels(pod(name), pairs)
}

/// A node with a hostname label plus `extra` labels.
fn host(name: &str, extra: &[(&str, &str)]) -> Node {
    let mut pairs = vec![(HOST, name)];
    pairs.extend_from_slice(extra);
    with_labels(std_node(name), &pairs)
}

/// kind's three nodes: the tainted control plane and two workers.
fn kind_nodes() -> Vec<Node> {
    vec![
        with_taints(
            host("kind-control-plane", &[]),
            vec![taint(keys::CONTROL_PLANE, None, NO_SCHEDULE)],
        ),
        host("kind-worker", &[]),
        host("kind-worker2", &[]),
    ]
}

/// The reasons of each node's first failing filter (empty = fits), as `fits_reasons` reports them.
fn verdicts(p: &Pod, nodes: &[Node], pods: &[Pod]) -> Vec<Vec<String>> {
    let snap = Snapshot::new(infos(nodes, pods));
    snap.nodes()
        .iter()
        .map(|info| fits_reasons(p, &snap, info))
        .collect()
}

fn ok() -> Vec<String> {
    Vec::new()
}

fn reason(r: &str) -> Vec<String> {
    vec![r.to_string()]
}

#[test]
fn required_anti_affinity_leaves_the_third_replica_pending() {
    // The brief's kind scenario: 3 replicas with required anti-affinity on hostname, 2 workers.
    let nodes = kind_nodes();
    let web = |name: &str| {
        with_pod_affinity(
            labelled(name, &[("app", "web")]),
            vec![],
            vec![affinity_term(&[("app", "web")], HOST)],
        )
    };
    let pods = [web("web-1"), web("web-2"), web("web-3")];
    let refs: Vec<&Pod> = pods.iter().collect();
    let results = schedule_batch(&refs, infos(&nodes, &[]), &mut |_| 0);
    let bound_nodes: Vec<_> = results
        .iter()
        .filter_map(|r| match r {
            ScheduleResult::Bound { node } => Some(node.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(bound_nodes, ["kind-worker", "kind-worker2"]);
    assert_eq!(
        results[2],
        ScheduleResult::Unschedulable {
            message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
            nominated_node: None,
            victims: vec![],
        }
    );
}

/// Upstream: filtering_test.go TestRequiredAffinitySingleNode (the cases that apply: In-operator match,
/// mismatching selector, missing topology key, the first pod of a self-affine group, namespaces).
#[test]
fn required_affinity_single_node() {
    let nodes = [host("node1", &[("region", "r1")])];
    let existing = [bound_to(labelled("e", &[("security", "S1")]), "node1")];
    let affine = |name: &str, sel: &[(&str, &str)], key: &str| {
        with_pod_affinity(pod(name), vec![affinity_term(sel, key)], vec![])
    };
    let not_match = || reason(inter_pod_affinity::ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    // No terms at all: fits.
    assert_eq!(verdicts(&pod("p"), &nodes, &existing), [ok()]);
    // Matches the existing pod in the node's region.
    let p = affine("p", &[("security", "S1")], "region");
    assert_eq!(verdicts(&p, &nodes, &existing), [ok()]);
    // Mismatching labelSelector.
    let p = affine("p", &[("security", "S2")], "region");
    assert_eq!(verdicts(&p, &nodes, &existing), [not_match()]);
    // The node lacks the topology key.
    let p = affine("p", &[("security", "S1")], "zone");
    assert_eq!(verdicts(&p, &nodes, &existing), [not_match()]);
    // First pod of a group with affinity to itself: no pod matches anywhere, it matches its own term.
    let p = with_pod_labels(affine("p", &[("team", "a")], "region"), &[("team", "a")]);
    assert_eq!(verdicts(&p, &nodes, &existing), [ok()]);
    // ... but not when it does not match its own term.
    let p = affine("p", &[("team", "a")], "region");
    assert_eq!(verdicts(&p, &nodes, &existing), [not_match()]);
    // A term limited to another namespace does not see the pod in "default".
    let mut term = affinity_term(&[("security", "S1")], "region");
    term.namespaces = Some(vec!["other".into()]);
    let p = with_pod_affinity(pod("p"), vec![term], vec![]);
    assert_eq!(verdicts(&p, &nodes, &existing), [not_match()]);
    // The affinity failure is UnschedulableAndUnresolvable (preemption can't help).
    let p = affine("p", &[("security", "S2")], "region");
    let snap = Snapshot::new(infos(&nodes, &existing));
    let status = explain_node(&p, &snap, &snap.nodes()[0]);
    assert_eq!(status[0].code, Code::UnschedulableAndUnresolvable);
}

/// Upstream: filtering_test.go TestRequiredAffinitySingleNode anti-affinity cases (incoming pod's
/// anti-affinity, and an existing pod's anti-affinity matching the incoming pod).
#[test]
fn required_anti_affinity_single_node() {
    let nodes = [host("node1", &[("region", "r1")])];
    let plain = [bound_to(
        labelled("e", &[("service", "securityscan")]),
        "node1",
    )];
    let p = with_pod_affinity(
        pod("p"),
        vec![],
        vec![affinity_term(&[("service", "securityscan")], "region")],
    );
    assert_eq!(
        verdicts(&p, &nodes, &plain),
        [reason(
            inter_pod_affinity::ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH
        )]
    );
    // The existing pod refuses pods labelled app=x in its region.
    let guard = with_pod_affinity(
        labelled("guard", &[]),
        vec![],
        vec![affinity_term(&[("app", "x")], "region")],
    );
    let existing = [bound_to(guard, "node1")];
    assert_eq!(
        verdicts(&labelled("p", &[("app", "x")]), &nodes, &existing),
        [reason(
            inter_pod_affinity::ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH
        )]
    );
    assert_eq!(
        verdicts(&labelled("p", &[("app", "y")]), &nodes, &existing),
        [ok()]
    );
}

/// Upstream: filtering_test.go TestRequiredAffinityMultipleNodes ("nodes with the same topology value
/// share the existing pod's domain").
#[test]
fn required_affinity_multiple_nodes_share_a_zone() {
    let nodes = [
        host("node-a", &[(ZONE, "z1")]),
        host("node-b", &[(ZONE, "z1")]),
        host("node-c", &[(ZONE, "z2")]),
    ];
    let existing = [bound_to(labelled("db", &[("app", "db")]), "node-a")];
    let affine = with_pod_affinity(
        pod("p"),
        vec![affinity_term(&[("app", "db")], ZONE)],
        vec![],
    );
    let not_match = reason(inter_pod_affinity::ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    assert_eq!(
        verdicts(&affine, &nodes, &existing),
        [ok(), ok(), not_match]
    );
    let anti = with_pod_affinity(
        pod("p"),
        vec![],
        vec![affinity_term(&[("app", "db")], ZONE)],
    );
    let anti_reason = reason(inter_pod_affinity::ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
    assert_eq!(
        verdicts(&anti, &nodes, &existing),
        [anti_reason.clone(), anti_reason, ok()]
    );
}

#[test]
fn namespace_selector_reaches_labelled_namespaces() {
    let nodes = [host("node1", &[])];
    let mut db = labelled("db", &[("app", "db")]);
    db.metadata.namespace = Some("team-a".into());
    let existing = [bound_to(db, "node1")];
    let mut term = affinity_term(&[("app", "db")], HOST);
    term.namespace_selector = Some(label_selector(&[("team", "a")]));
    let p = with_pod_affinity(pod("p"), vec![term], vec![]);
    let ns = Namespace {
        metadata: ObjectMeta {
            name: Some("team-a".into()),
            labels: Some([("team".to_string(), "a".to_string())].into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let bare = Snapshot::new(infos(&nodes, &existing));
    assert_eq!(
        fits_reasons(&p, &bare, &bare.nodes()[0]),
        reason(inter_pod_affinity::ERR_REASON_AFFINITY_RULES_NOT_MATCH)
    );
    let snap = Snapshot::new(infos(&nodes, &existing)).with_objects(ClusterObjects {
        namespaces: vec![&ns],
        ..Default::default()
    });
    assert_eq!(fits_reasons(&p, &snap, &snap.nodes()[0]), ok());
}

/// Upstream: filtering_test.go (podtopologyspread) TestSingleConstraint "normal case with one
/// spreadConstraint" and "node doesn't have the topology key".
#[test]
fn spread_filter_max_skew_and_missing_label() {
    let nodes = [
        host("node-a", &[(ZONE, "zone1")]),
        host("node-b", &[(ZONE, "zone1")]),
        host("node-x", &[(ZONE, "zone2")]),
        host("node-y", &[(ZONE, "zone2")]),
        host("node-z", &[]),
    ];
    let foo = |name: &str, node: &str| bound_to(labelled(name, &[("foo", "")]), node);
    let existing = [
        foo("p-a1", "node-a"),
        foo("p-b1", "node-b"),
        foo("p-y1", "node-y"),
        foo("p-y2", "node-y"),
        foo("p-y3", "node-y"),
    ];
    let p = with_spread(
        labelled("p", &[("foo", "")]),
        1,
        ZONE,
        "DoNotSchedule",
        &[("foo", "")],
    );
    let skew = reason(pod_topology_spread::ERR_REASON_CONSTRAINTS_NOT_MATCH);
    assert_eq!(
        verdicts(&p, &nodes, &existing),
        [
            ok(),
            ok(),
            skew.clone(),
            skew,
            reason(pod_topology_spread::ERR_REASON_NODE_LABEL_NOT_MATCH)
        ]
    );
    // ScheduleAnyway constraints never filter.
    let soft = with_spread(
        labelled("p", &[("foo", "")]),
        1,
        ZONE,
        "ScheduleAnyway",
        &[("foo", "")],
    );
    assert!(verdicts(&soft, &nodes, &existing).iter().all(Vec::is_empty));
}

/// Upstream: filtering_test.go TestSingleConstraint "minDomains": with fewer domains than minDomains
/// the global minimum is 0.
#[test]
fn spread_filter_min_domains() {
    let nodes = [host("node-a", &[]), host("node-b", &[])];
    let existing = [
        bound_to(labelled("p1", &[("app", "x")]), "node-a"),
        bound_to(labelled("p2", &[("app", "x")]), "node-b"),
    ];
    let mut p = with_spread(
        labelled("p", &[("app", "x")]),
        1,
        HOST,
        "DoNotSchedule",
        &[("app", "x")],
    );
    assert_eq!(verdicts(&p, &nodes, &existing), [ok(), ok()]);
    p.spec
        .as_mut()
        .unwrap()
        .topology_spread_constraints
        .as_mut()
        .unwrap()[0]
        .min_domains = Some(3);
    let skew = reason(pod_topology_spread::ERR_REASON_CONSTRAINTS_NOT_MATCH);
    assert_eq!(verdicts(&p, &nodes, &existing), [skew.clone(), skew]);
}

fn part(scores: &[score::NodeScore], plugin: &str) -> Vec<i64> {
    scores
        .iter()
        .map(|s| s.parts.iter().find(|(n, _)| *n == plugin).unwrap().1)
        .collect()
}

/// A pod of ReplicaSet `web-1` (app=web), which gives it the system default spread constraints.
fn owned(name: &str) -> Pod {
    let mut p = labelled(name, &[("app", "web")]);
    p.metadata.owner_references = Some(vec![OwnerReference {
        api_version: "apps/v1".into(),
        kind: "ReplicaSet".into(),
        name: "web-1".into(),
        uid: "rs-uid".into(),
        controller: Some(true),
        ..Default::default()
    }]);
    p
}

/// ReplicaSet `web-1`, selecting app=web.
fn web_replica_set() -> ReplicaSet {
    ReplicaSet {
        metadata: ObjectMeta {
            name: Some("web-1".into()),
            namespace: Some("default".into()),
            ..Default::default()
        },
        spec: Some(ReplicaSetSpec {
            selector: LabelSelector {
                match_labels: Some([("app".to_string(), "web".to_string())].into()),
                match_expressions: None,
            },
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// PodTopologySpread's weighted score of `p` on each of `nodes` (all feasible), with the
/// ReplicaSets listed.
fn spread_scores(
    p: &Pod,
    nodes: &[Node],
    existing: &[Pod],
    replica_sets: Vec<&ReplicaSet>,
) -> Vec<i64> {
    let snap = Snapshot::new(infos(nodes, existing)).with_objects(ClusterObjects {
        replica_sets,
        ..Default::default()
    });
    let state = snap.pre_filter(p).unwrap();
    let feasible: Vec<usize> = (0..nodes.len()).collect();
    part(
        &score::prioritize_nodes(p, &state, &snap, &feasible),
        pod_topology_spread::NAME,
    )
}

/// System default spreading (upstream scoring_test.go TestPodTopologySpreadScore "system defaulted"
/// cases): a ReplicaSet's pod prefers the node with fewer of its siblings; nodes without a zone label
/// still spread by hostname. Without an owner nothing is scored.
#[test]
fn default_constraints_spread_replica_set_pods() {
    let nodes = [host("node-a", &[]), host("node-b", &[])];
    let rs = web_replica_set();
    let existing = [bound_to(owned("web-a"), "node-a")];
    let p = owned("web-b");
    // node-a: round(1·ln 4 + 2) = 3, node-b: 2 → 100·(3+2−3)/3 = 66 and 100, ×2.
    assert_eq!(spread_scores(&p, &nodes, &existing, vec![&rs]), [132, 200]);
    assert_eq!(spread_scores(&p, &nodes, &existing, vec![]), [0, 0]);
}

/// A node whose zone label is empty shares the "" domain with the nodes that have no zone label,
/// as upstream's `initPreScoreState` map lookup gives: the siblings on those nodes count against it.
#[test]
fn an_empty_zone_label_shares_the_domain_of_nodes_without_one() {
    let nodes = [host("node-a", &[(ZONE, "")]), host("node-b", &[])];
    let rs = web_replica_set();
    let existing: Vec<Pod> = ["web-1", "web-2", "web-3"]
        .iter()
        .map(|name| bound_to(owned(name), "node-b"))
        .collect();
    // node-a: hostname 0·ln 4 + 2, zone "" 3·ln 3 + 4 → 9; node-b: hostname 3·ln 4 + 2 → 6 (no
    // zone label, no zone term) → 100·(9+6−9)/9 = 66 and 100, ×2.
    assert_eq!(
        spread_scores(&owned("web-4"), &nodes, &existing, vec![&rs]),
        [132, 200]
    );
}

/// Upstream: scoring_test.go (interpodaffinity) TestPreferredAffinity "Affinity: pod that matches
/// topology key & pods in nodes will get high score comparing to others", and an existing pod's
/// required affinity counting with hardPodAffinityWeight.
#[test]
fn preferred_affinity_scores() {
    let nodes = [host("node-a", &[]), host("node-b", &[])];
    let existing = [bound_to(labelled("db", &[("app", "db")]), "node-b")];
    let p = with_preferred(pod("p"), vec![(5, affinity_term(&[("app", "db")], HOST))]);
    let snap = Snapshot::new(infos(&nodes, &existing));
    let state = snap.pre_filter(&p).unwrap();
    let scores = score::prioritize_nodes(&p, &state, &snap, &[0, 1]);
    assert_eq!(part(&scores, inter_pod_affinity::NAME), [0, 200]);
    let p = with_preferred(pod("p"), vec![(-5, affinity_term(&[("app", "db")], HOST))]);
    let scores = score::prioritize_nodes(&p, &state, &snap, &[0, 1]);
    assert_eq!(part(&scores, inter_pod_affinity::NAME), [200, 0]);
    // An existing pod requiring affinity to app=web attracts a web pod (weight 1).
    let follower = with_pod_affinity(
        pod("f"),
        vec![affinity_term(&[("app", "web")], HOST)],
        vec![],
    );
    let existing = [bound_to(follower, "node-a")];
    let snap = Snapshot::new(infos(&nodes, &existing));
    let web = labelled("w", &[("app", "web")]);
    let state = snap.pre_filter(&web).unwrap();
    let scores = score::prioritize_nodes(&web, &state, &snap, &[0, 1]);
    assert_eq!(part(&scores, inter_pod_affinity::NAME), [200, 0]);
}

#[test]
fn preemption_removes_the_pod_an_anti_affinity_rule_rejects() {
    let nodes = [host("node1", &[])];
    let low = bound_to(labelled("low", &[("app", "web")]), "node1");
    let existing = [low];
    let p = with_priority(
        with_pod_affinity(
            pod("high"),
            vec![],
            vec![affinity_term(&[("app", "web")], HOST)],
        ),
        100,
    );
    let got = schedule_pod(&p, &infos(&nodes, &existing), &mut |_| 0);
    assert_eq!(
        got,
        ScheduleResult::Unschedulable {
            message: "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules."
                .into(),
            nominated_node: Some("node1".into()),
            victims: vec![("default".into(), "low".into())],
        }
    );
}

#[test]
fn pods_without_terms_skip_both_plugins() {
    let nodes = [host("node1", &[])];
    let existing = [bound_to(labelled("e", &[("app", "web")]), "node1")];
    let snap = Snapshot::new(infos(&nodes, &existing));
    let state = snap.pre_filter(&labelled("p", &[("app", "web")])).unwrap();
    assert!(state.inter_pod_affinity.is_none());
    assert!(state.pod_topology_spread.is_none());
}

/// Upstream: filtering_test.go (podtopologyspread) "matchLabelKeys" cases: the pod's own value of each
/// key joins the selector, so pods of another revision (pod-template-hash) are not counted.
#[test]
fn spread_match_label_keys_count_only_the_same_revision() {
    let nodes = [host("node-a", &[]), host("node-b", &[])];
    let rev = |name: &str, hash: &str| labelled(name, &[("app", "x"), ("pod-template-hash", hash)]);
    let existing = [
        bound_to(rev("old-1", "v1"), "node-a"),
        bound_to(rev("old-2", "v1"), "node-a"),
    ];
    let p = with_spread(rev("new", "v2"), 1, HOST, "DoNotSchedule", &[("app", "x")]);
    let skew = || reason(pod_topology_spread::ERR_REASON_CONSTRAINTS_NOT_MATCH);
    assert_eq!(verdicts(&p, &nodes, &existing), [skew(), ok()]);
    let mut keyed = p.clone();
    keyed
        .spec
        .as_mut()
        .unwrap()
        .topology_spread_constraints
        .as_mut()
        .unwrap()[0]
        .match_label_keys = Some(vec!["pod-template-hash".into()]);
    assert_eq!(verdicts(&keyed, &nodes, &existing), [ok(), ok()]);
}

/// `nodeTaintsPolicy: Honor` leaves tainted nodes the pod does not tolerate out of the domains; by
/// default (Ignore) kind's control-plane node is a domain with 0 pods and caps each worker at maxSkew.
#[test]
fn spread_node_taints_policy() {
    let nodes = kind_nodes();
    let existing = [bound_to(labelled("s1", &[("app", "s")]), "kind-worker")];
    let p = with_spread(
        labelled("p", &[("app", "s")]),
        1,
        HOST,
        "DoNotSchedule",
        &[("app", "s")],
    );
    let taint_reason =
        reason("node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }");
    let skew = || reason(pod_topology_spread::ERR_REASON_CONSTRAINTS_NOT_MATCH);
    assert_eq!(
        verdicts(&p, &nodes, &existing),
        [taint_reason.clone(), skew(), ok()]
    );
    let existing = [
        bound_to(labelled("s1", &[("app", "s")]), "kind-worker"),
        bound_to(labelled("s2", &[("app", "s")]), "kind-worker2"),
    ];
    assert_eq!(
        verdicts(&p, &nodes, &existing),
        [taint_reason.clone(), skew(), skew()]
    );
    let mut honor = p.clone();
    honor
        .spec
        .as_mut()
        .unwrap()
        .topology_spread_constraints
        .as_mut()
        .unwrap()[0]
        .node_taints_policy = Some("Honor".into());
    assert_eq!(
        verdicts(&honor, &nodes, &existing),
        [taint_reason, ok(), ok()]
    );
}
