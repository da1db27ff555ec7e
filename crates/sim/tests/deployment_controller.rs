//! The Deployment and ReplicaSet controllers end to end: create, scale, rolling update, recreate,
//! history clean-up, progress deadline and cascading deletion.

use dsplay_api::manifest::parse_manifests;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::api_server::{DeleteOptions, Propagation};
use dsplay_sim::Cluster;
use std::time::Duration;

fn deployment(name: &str, replicas: i32, image: &str, extra: &str) -> Object {
    let text = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n  replicas: {replicas}\n{extra}  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n    metadata: {{labels: {{app: {name}}}}}\n    spec: {{containers: [{{name: c, image: '{image}'}}]}}\n"
    );
    parse_manifests(&text).remove(0).expect("manifest").object
}

fn get_deploy(c: &Cluster, name: &str) -> Deployment {
    c.store()
        .deployment("default", name)
        .cloned()
        .expect("deployment")
}

fn replica_sets(c: &Cluster, name: &str) -> Vec<ReplicaSet> {
    c.store()
        .replica_sets()
        .filter(|rs| {
            rs.metadata
                .name
                .as_deref()
                .unwrap_or("")
                .starts_with(&format!("{name}-"))
        })
        .cloned()
        .collect()
}

fn pods(c: &Cluster, prefix: &str) -> Vec<Pod> {
    c.store()
        .pods()
        .filter(|p| p.metadata.namespace.as_deref() == Some("default"))
        .filter(|p| p.metadata.name.as_deref().unwrap_or("").starts_with(prefix))
        .cloned()
        .collect()
}

fn set_image(c: &mut Cluster, name: &str, image: &str) {
    let mut d = get_deploy(c, name);
    d.spec
        .as_mut()
        .unwrap()
        .template
        .spec
        .as_mut()
        .unwrap()
        .containers[0]
        .image = Some(image.into());
    c.update(Object::Deployment(d)).expect("update");
}

fn events(c: &Cluster, reason: &str) -> Vec<String> {
    c.store()
        .events()
        .filter(|e| e.metadata.namespace.as_deref() == Some("default"))
        .filter(|e| e.reason.as_deref() == Some(reason))
        .map(|e| e.message.clone().unwrap_or_default())
        .collect()
}

#[test]
fn deployment_creates_a_replica_set_and_its_pods() {
    let mut c = Cluster::new(7);
    c.create(deployment("web", 3, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(120));
    let rss = replica_sets(&c, "web");
    assert_eq!(rss.len(), 1);
    let rs = &rss[0];
    let hash = rs.metadata.labels.as_ref().unwrap()["pod-template-hash"].clone();
    assert_eq!(
        rs.metadata.name.as_deref(),
        Some(format!("web-{hash}").as_str())
    );
    let annotations = rs.metadata.annotations.clone().unwrap();
    assert_eq!(annotations["deployment.kubernetes.io/revision"], "1");
    assert_eq!(
        annotations["deployment.kubernetes.io/desired-replicas"],
        "3"
    );
    assert_eq!(annotations["deployment.kubernetes.io/max-replicas"], "4");
    let pods = pods(&c, &format!("web-{hash}-"));
    assert_eq!(pods.len(), 3);
    for p in &pods {
        assert_eq!(
            p.metadata.name.as_ref().unwrap().len(),
            format!("web-{hash}-").len() + 5
        );
        assert_eq!(p.status.as_ref().unwrap().phase.as_deref(), Some("Running"));
        assert!(p.spec.as_ref().unwrap().node_name.is_some());
    }
    let d = get_deploy(&c, "web");
    let status = d.status.clone().unwrap();
    assert_eq!(status.replicas, Some(3));
    assert_eq!(status.ready_replicas, Some(3));
    assert_eq!(status.available_replicas, Some(3));
    assert_eq!(status.updated_replicas, Some(3));
    let reasons: Vec<(String, String)> = status
        .conditions
        .unwrap()
        .iter()
        .map(|c| (c.type_.clone(), c.reason.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "Available".to_string(),
                "MinimumReplicasAvailable".to_string()
            ),
            (
                "Progressing".to_string(),
                "NewReplicaSetAvailable".to_string()
            )
        ]
    );
    assert_eq!(
        events(&c, "ScalingReplicaSet"),
        [format!("Scaled up replica set web-{hash} from 0 to 3")]
    );
    assert_eq!(
        events(&c, "SuccessfulCreate")
            .iter()
            .filter(|m| m.contains("web-"))
            .count(),
        3
    );
}

#[test]
fn scaling_down_deletes_newest_pods_and_scaling_up_adds() {
    let mut c = Cluster::new(8);
    c.create(deployment("web", 2, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(60));
    c.advance(Duration::from_secs(600));
    let mut d = get_deploy(&c, "web");
    d.spec.as_mut().unwrap().replicas = Some(4);
    c.update(Object::Deployment(d)).expect("scale");
    c.settle(Duration::from_secs(60));
    let rs = &replica_sets(&c, "web")[0];
    let prefix = format!("{}-", rs.metadata.name.clone().unwrap());
    let before: Vec<String> = pods(&c, &prefix)
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    assert_eq!(before.len(), 4);
    let mut d = get_deploy(&c, "web");
    d.spec.as_mut().unwrap().replicas = Some(2);
    c.update(Object::Deployment(d)).expect("scale");
    c.settle(Duration::from_secs(60));
    assert_eq!(pods(&c, &prefix).len(), 2);
    let scaled = events(&c, "ScalingReplicaSet");
    assert!(
        scaled.iter().any(|m| m.ends_with("from 4 to 2")),
        "{scaled:?}"
    );
    // The two oldest (ready for ten minutes) stay.
    let deleted = events(&c, "SuccessfulDelete");
    assert_eq!(deleted.len(), 2);
    let survivors: Vec<String> = pods(&c, &prefix)
        .iter()
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    for gone in &deleted {
        assert!(!survivors.iter().any(|s| gone.ends_with(s.as_str())));
    }
    assert_eq!(get_deploy(&c, "web").status.unwrap().replicas, Some(2));
}

#[test]
fn rolling_update_replaces_every_pod_and_keeps_history() {
    let mut c = Cluster::new(9);
    c.create(deployment("web", 4, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(120));
    set_image(&mut c, "web", "nginx:1.28");
    c.settle(Duration::from_secs(300));
    let mut rss = replica_sets(&c, "web");
    rss.sort_by_key(|rs| dsplay_sim::controller::deployment::util::revision(&rs.metadata));
    assert_eq!(rss.len(), 2);
    assert_eq!(rss[0].spec.as_ref().unwrap().replicas, Some(0));
    assert_eq!(rss[1].spec.as_ref().unwrap().replicas, Some(4));
    let new_prefix = format!("{}-", rss[1].metadata.name.clone().unwrap());
    let old_prefix = format!("{}-", rss[0].metadata.name.clone().unwrap());
    assert_eq!(pods(&c, &new_prefix).len(), 4);
    assert!(pods(&c, &old_prefix).is_empty());
    let d = get_deploy(&c, "web");
    assert_eq!(
        d.metadata.annotations.unwrap()["deployment.kubernetes.io/revision"],
        "2"
    );
    let status = d.status.unwrap();
    assert_eq!(
        (
            status.replicas,
            status.updated_replicas,
            status.available_replicas
        ),
        (Some(4), Some(4), Some(4))
    );
    // maxSurge 25% of 4 = 1: the new ReplicaSet first goes 0 → 1.
    let scaled = events(&c, "ScalingReplicaSet");
    assert_eq!(
        scaled[1],
        format!(
            "Scaled up replica set {} from 0 to 1",
            rss[1].metadata.name.clone().unwrap()
        )
    );
    // Undo: the old template comes back as revision 3 of the old ReplicaSet.
    set_image(&mut c, "web", "nginx:1.27");
    c.settle(Duration::from_secs(300));
    let old = c
        .store()
        .replica_set("default", rss[0].metadata.name.as_deref().unwrap())
        .cloned()
        .unwrap();
    let annotations = old.metadata.annotations.unwrap();
    assert_eq!(annotations["deployment.kubernetes.io/revision"], "3");
    assert_eq!(
        annotations["deployment.kubernetes.io/revision-history"],
        "1"
    );
    assert_eq!(old.spec.unwrap().replicas, Some(4));
}

#[test]
fn recreate_scales_old_to_zero_before_creating_new() {
    let mut c = Cluster::new(10);
    c.create(deployment(
        "db",
        2,
        "nginx:1.27",
        "  strategy: {type: Recreate}\n",
    ))
    .expect("create");
    c.settle(Duration::from_secs(120));
    set_image(&mut c, "db", "nginx:1.28");
    c.settle(Duration::from_secs(300));
    let scaled = events(&c, "ScalingReplicaSet");
    assert_eq!(scaled.len(), 3, "{scaled:?}");
    assert!(
        scaled[1].starts_with("Scaled down replica set db-") && scaled[1].ends_with("from 2 to 0")
    );
    assert!(scaled[2].ends_with("from 0 to 2"));
    assert_eq!(
        get_deploy(&c, "db").status.unwrap().available_replicas,
        Some(2)
    );
}

#[test]
fn revision_history_limit_deletes_oldest_empty_replica_sets() {
    let mut c = Cluster::new(11);
    c.create(deployment(
        "web",
        1,
        "nginx:1.0",
        "  revisionHistoryLimit: 1\n",
    ))
    .expect("create");
    c.settle(Duration::from_secs(60));
    for v in ["nginx:1.1", "nginx:1.2", "nginx:1.3"] {
        set_image(&mut c, "web", v);
        c.settle(Duration::from_secs(120));
    }
    // The new one plus one old one.
    assert_eq!(replica_sets(&c, "web").len(), 2);
}

#[test]
fn progress_deadline_exceeded_when_pods_never_become_ready() {
    let mut c = Cluster::new(12);
    c.create(deployment(
        "stuck",
        1,
        "nginx:1.27",
        "  progressDeadlineSeconds: 30\n",
    ))
    .expect("create");
    c.settle(Duration::from_secs(60));
    c.set_image_behavior(
        "nginx:broken",
        dsplay_sim::images::ImageBehavior {
            crash: true,
            ..Default::default()
        },
    );
    set_image(&mut c, "stuck", "nginx:broken");
    c.advance(Duration::from_secs(120));
    let status = get_deploy(&c, "stuck").status.unwrap();
    let progressing = status
        .conditions
        .unwrap()
        .into_iter()
        .find(|c| c.type_ == "Progressing")
        .unwrap();
    assert_eq!(progressing.status, "False");
    assert_eq!(
        progressing.reason.as_deref(),
        Some("ProgressDeadlineExceeded")
    );
}

#[test]
fn deleting_a_deployment_cascades_to_replica_sets_and_pods() {
    let mut c = Cluster::new(13);
    c.create(deployment("web", 2, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(60));
    c.delete(Kind::Deployment, "default", "web", DeleteOptions::default())
        .expect("delete");
    c.settle(Duration::from_secs(120));
    assert!(replica_sets(&c, "web").is_empty());
    assert!(pods(&c, "web-").is_empty());
    c.create(deployment("fg", 1, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(60));
    let options = DeleteOptions {
        propagation: Propagation::Foreground,
        grace_period_seconds: None,
    };
    c.delete(Kind::Deployment, "default", "fg", options)
        .expect("delete");
    c.settle(Duration::from_secs(120));
    assert!(c.store().deployment("default", "fg").is_none());
    assert!(replica_sets(&c, "fg").is_empty());
    assert!(pods(&c, "fg-").is_empty());
}

#[test]
fn a_bare_replica_set_adopts_orphans_and_replaces_deleted_pods() {
    let mut c = Cluster::new(14);
    let text = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: rs}}\n  template:\n    metadata: {labels: {app: rs}}\n    spec: {containers: [{name: c, image: nginx}]}\n";
    c.create(parse_manifests(text).remove(0).unwrap().object)
        .expect("create");
    c.settle(Duration::from_secs(60));
    let first = pods(&c, "rs-");
    assert_eq!(first.len(), 2);
    c.delete(
        Kind::Pod,
        "default",
        first[0].metadata.name.as_deref().unwrap(),
        DeleteOptions::default(),
    )
    .expect("delete");
    c.settle(Duration::from_secs(60));
    let rs = c.store().replica_set("default", "rs").cloned().unwrap();
    let status = rs.status.unwrap();
    assert_eq!(
        (
            status.replicas,
            status.ready_replicas,
            status.available_replicas
        ),
        (2, Some(2), Some(2))
    );
    assert_eq!(status.fully_labeled_replicas, Some(2));
    assert_eq!(status.observed_generation, Some(1));
}

/// Port of TestScale's proportional case (the example of the Deployment documentation): 10
/// replicas, maxSurge 3, maxUnavailable 2, a rollout stuck at old 8 / new 5; scaling to 15 adds 3
/// to the old ReplicaSet and 2 to the new one.
#[test]
fn scale_is_proportional_during_a_stuck_rollout() {
    let mut c = Cluster::new(15);
    let extra =
        "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 3, maxUnavailable: 2}}\n";
    c.create(deployment("web", 10, "nginx:1.27", extra))
        .expect("create");
    c.settle(Duration::from_secs(120));
    c.set_image_behavior(
        "nginx:never",
        dsplay_sim::images::ImageBehavior {
            ready: false,
            ..Default::default()
        },
    );
    set_image(&mut c, "web", "nginx:never");
    c.advance(Duration::from_secs(60));
    let sizes = |c: &Cluster| {
        let mut rss = replica_sets(c, "web");
        rss.sort_by_key(|rs| dsplay_sim::controller::deployment::util::revision(&rs.metadata));
        rss.iter()
            .map(|rs| rs.spec.as_ref().unwrap().replicas.unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(sizes(&c), [8, 5]);
    let mut d = get_deploy(&c, "web");
    d.spec.as_mut().unwrap().replicas = Some(15);
    c.update(Object::Deployment(d)).expect("scale");
    c.advance(Duration::from_secs(5));
    assert_eq!(sizes(&c), [11, 7]);
}

/// Port of TestGetReplicaSetsForDeployment / TestSelectorUpdate's adoption: an orphan ReplicaSet
/// the selector matches is adopted; it becomes an old ReplicaSet when its template differs.
#[test]
fn get_replica_sets_for_deployment_adopts_orphans() {
    let mut c = Cluster::new(16);
    let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: orphan, labels: {app: web}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: 'nginx:old'}]}\n";
    c.create(parse_manifests(rs).remove(0).unwrap().object)
        .expect("rs");
    c.settle(Duration::from_secs(60));
    c.create(deployment("web", 2, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(120));
    let orphan = c.store().replica_set("default", "orphan").cloned().unwrap();
    let owner = orphan.metadata.owner_references.unwrap();
    assert_eq!(owner[0].kind, "Deployment");
    assert_eq!(owner[0].name, "web");
    // Old now: scaled down to zero by the rollout.
    assert_eq!(orphan.spec.unwrap().replicas, Some(0));
    let d = get_deploy(&c, "web");
    assert_eq!(d.status.unwrap().available_replicas, Some(2));
}

/// Port of TestPausedDeployment / checkPausedConditions: no rollout while paused, the
/// Progressing condition says so, and resuming rolls out.
#[test]
fn paused_deployment_does_not_roll_out() {
    let mut c = Cluster::new(17);
    c.create(deployment("web", 2, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(60));
    let mut d = get_deploy(&c, "web");
    d.spec.as_mut().unwrap().paused = Some(true);
    c.update(Object::Deployment(d)).expect("pause");
    set_image(&mut c, "web", "nginx:1.28");
    c.settle(Duration::from_secs(60));
    assert_eq!(replica_sets(&c, "web").len(), 1);
    let status = get_deploy(&c, "web").status.unwrap();
    let progressing = status
        .conditions
        .unwrap()
        .into_iter()
        .find(|c| c.type_ == "Progressing")
        .unwrap();
    assert_eq!(
        (progressing.status.as_str(), progressing.reason.as_deref()),
        ("Unknown", Some("DeploymentPaused"))
    );
    let mut d = get_deploy(&c, "web");
    d.spec.as_mut().unwrap().paused = None;
    c.update(Object::Deployment(d)).expect("resume");
    c.settle(Duration::from_secs(120));
    assert_eq!(replica_sets(&c, "web").len(), 2);
    let status = get_deploy(&c, "web").status.unwrap();
    assert_eq!(status.updated_replicas, Some(2));
}

fn replica_failure(conditions: Option<&Vec<ReplicaSetCondition>>) -> Option<ReplicaSetCondition> {
    conditions?
        .iter()
        .find(|c| c.type_ == "ReplicaFailure")
        .cloned()
}

/// Upstream: replica_set_utils_test.go TestCalculateStatusConditions (a manageReplicas error sets
/// ReplicaFailure=True FailedCreate with the error, no error removes it) and progress.go
/// getReplicaFailures (the Deployment copies the new ReplicaSet's failure).
#[test]
fn failed_pod_creates_set_replica_failure_and_succeeding_creates_clear_it() {
    let mut c = Cluster::new(1);
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: bad}}\n  template:\n    metadata: {labels: {app: bad}}\n    spec: {priorityClassName: missing, containers: [{name: c, image: nginx}]}\n";
    let object = parse_manifests(text).remove(0).expect("manifest").object;
    c.create(object).expect("create");
    let rs = replica_sets(&c, "bad").remove(0);
    let failure = replica_failure(rs.status.as_ref().and_then(|s| s.conditions.as_ref()))
        .expect("ReplicaFailure");
    assert_eq!(failure.status, "True");
    assert_eq!(failure.reason.as_deref(), Some("FailedCreate"));
    assert_eq!(
        failure.message.as_deref(),
        Some(
            format!(
                "pods \"{}-\" is forbidden: no PriorityClass with name missing was found",
                rs.metadata.name.as_deref().unwrap()
            )
            .as_str()
        )
    );
    assert!(!events(&c, "FailedCreate").is_empty());
    let d = get_deploy(&c, "bad");
    let copied = d
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "ReplicaFailure"))
        .expect("the Deployment's ReplicaFailure");
    assert_eq!(copied.message, failure.message);
    assert_eq!(copied.last_update_time, failure.last_transition_time);
    // The class exists now: the next create succeeds and both conditions go.
    let pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: missing}\nvalue: 10\n";
    c.create(parse_manifests(pc).remove(0).expect("pc").object)
        .expect("create pc");
    let mut d = get_deploy(&c, "bad");
    d.spec.as_mut().unwrap().replicas = Some(3);
    c.update(Object::Deployment(d)).expect("scale");
    c.settle(Duration::from_secs(60));
    let rs = replica_sets(&c, "bad").remove(0);
    assert!(replica_failure(rs.status.as_ref().and_then(|s| s.conditions.as_ref())).is_none());
    let d = get_deploy(&c, "bad");
    assert!(!d
        .status
        .iter()
        .flat_map(|s| s.conditions.iter().flatten())
        .any(|c| c.type_ == "ReplicaFailure"));
    assert_eq!(pods(&c, "bad-").len(), 3);
}

/// `sim rollout deploy`: a stuck rolling update names the budget that holds it (rolling.go
/// reconcileNewReplicaSet / reconcileOldReplicaSets), and a finished one is complete.
#[test]
fn diagnose_deployment_rollout_names_the_budgets() {
    let mut c = Cluster::new(2);
    c.create(deployment("web", 4, "nginx:1.27", ""))
        .expect("create");
    c.settle(Duration::from_secs(60));
    let r = dsplay_sim::explain::diagnose_deployment_rollout(&c, "default", "web").expect("web");
    assert!(r.complete && r.blocked.is_empty());
    assert_eq!(r.strategy, "RollingUpdate maxSurge=1 maxUnavailable=1");
    let mut never = c.image_behavior("nginx:1.28");
    never.ready = false;
    c.set_image_behavior("nginx:1.28", never);
    set_image(&mut c, "web", "nginx:1.28");
    c.advance(Duration::from_secs(10));
    let r = dsplay_sim::explain::diagnose_deployment_rollout(&c, "default", "web").expect("web");
    assert!(!r.complete);
    assert_eq!(r.replica_sets.len(), 2);
    assert!(r.replica_sets[0].contains("(new, revision 2)"));
    assert!(r.blocked.iter().any(|b| b.starts_with("maxSurge reached")));
    assert!(r
        .blocked
        .iter()
        .any(|b| b.starts_with("maxUnavailable reached")));
    assert!(dsplay_sim::explain::diagnose_deployment_rollout(&c, "default", "nope").is_err());
}
