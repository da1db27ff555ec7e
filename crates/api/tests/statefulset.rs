//! StatefulSet and storage defaulting and validation, named after the upstream tests they port
//! (`pkg/apis/apps/v1/defaults_test.go` TestSetDefaultStatefulSet,
//! `pkg/apis/apps/validation/validation_test.go` TestValidateStatefulSet,
//! TestValidateStatefulSetUpdate).

use dsplay_api::defaults::apply_defaults;
use dsplay_api::manifest::parse_manifests;
use dsplay_api::validation::{validate_create, validate_update};
use dsplay_api::Object;

fn parse(text: &str) -> Object {
    parse_manifests(text).remove(0).expect("manifest").object
}

const BASE: &str = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, namespace: default}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n";

fn with_spec(extra: &str) -> Object {
    parse(&format!("{BASE}{extra}"))
}

fn messages(object: &Object) -> Vec<String> {
    validate_create(object)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn test_set_default_stateful_set() {
    let mut object = with_spec(
        "  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce]}\n",
    );
    apply_defaults(&mut object);
    let Object::StatefulSet(sts) = object else {
        unreachable!()
    };
    let spec = sts.spec.unwrap();
    assert_eq!(spec.pod_management_policy.as_deref(), Some("OrderedReady"));
    let strategy = spec.update_strategy.unwrap();
    assert_eq!(strategy.type_.as_deref(), Some("RollingUpdate"));
    assert_eq!(strategy.rolling_update.unwrap().partition, Some(0));
    let retention = spec.persistent_volume_claim_retention_policy.unwrap();
    assert_eq!(retention.when_deleted.as_deref(), Some("Retain"));
    assert_eq!(retention.when_scaled.as_deref(), Some("Retain"));
    assert_eq!(spec.replicas, Some(1));
    assert_eq!(spec.revision_history_limit, Some(10));
    let claim = &spec.volume_claim_templates.unwrap()[0];
    assert_eq!(
        claim.spec.as_ref().unwrap().volume_mode.as_deref(),
        Some("Filesystem")
    );
    assert_eq!(
        claim.status.as_ref().unwrap().phase.as_deref(),
        Some("Pending")
    );
}

#[test]
fn test_set_default_stateful_set_on_delete_keeps_no_rolling_update() {
    let mut object = with_spec("  updateStrategy: {type: OnDelete}\n");
    apply_defaults(&mut object);
    let Object::StatefulSet(sts) = object else {
        unreachable!()
    };
    assert!(sts
        .spec
        .unwrap()
        .update_strategy
        .unwrap()
        .rolling_update
        .is_none());
}

#[test]
fn test_validate_stateful_set() {
    assert!(messages(&with_spec("")).is_empty());
    assert_eq!(
        messages(&with_spec("  podManagementPolicy: Later\n")),
        ["spec.podManagementPolicy: Invalid value: \"Later\": must be 'OrderedReady' or 'Parallel'"]
    );
    assert_eq!(
        messages(&with_spec("  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: -1}}\n")),
        ["spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        messages(&with_spec("  minReadySeconds: -1\n")),
        ["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        messages(&with_spec(
            "  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0}}\n"
        )),
        ["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"]
    );
    let bad_labels = parse(&BASE.replace("labels: {app: web}", "labels: {app: other}"));
    assert_eq!(
        messages(&bad_labels),
        ["spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`"]
    );
}

#[test]
fn test_validate_stateful_set_update() {
    let old = with_spec("  serviceName: web\n");
    let mut ok = with_spec("  serviceName: web\n  replicas: 5\n  minReadySeconds: 3\n");
    apply_defaults(&mut ok);
    let mut old_defaulted = old.clone();
    apply_defaults(&mut old_defaulted);
    assert!(validate_update(&old_defaulted, &ok).is_empty());
    let mut forbidden = with_spec("  serviceName: other\n");
    apply_defaults(&mut forbidden);
    let errors: Vec<String> = validate_update(&old_defaulted, &forbidden)
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        ["spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"]
    );
}

#[test]
fn test_validate_persistent_volume_claim() {
    let claim = parse("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: default}\nspec: {accessModes: [ReadWriteSometimes]}\n");
    assert_eq!(
        messages(&claim),
        [
            "spec.accessModes: Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
            "spec.resources[storage]: Required value",
        ]
    );
}

#[test]
fn test_validate_storage_class() {
    let sc = parse("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: example.com/Fast\n");
    assert!(messages(&sc).is_empty(), "{:?}", messages(&sc));
    let bad = parse("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: ''\nvolumeBindingMode: Never\n");
    assert_eq!(
        messages(&bad),
        [
            "provisioner: Required value",
            "volumeBindingMode: Unsupported value: \"Never\": supported values: \"Immediate\", \"WaitForFirstConsumer\"",
        ]
    );
    let mut old = sc.clone();
    apply_defaults(&mut old);
    let mut new = parse("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: example.com/other\nreclaimPolicy: Delete\nvolumeBindingMode: Immediate\n");
    apply_defaults(&mut new);
    let errors: Vec<String> = validate_update(&old, &new)
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        ["provisioner: Forbidden: updates to provisioner are forbidden."]
    );
}

#[test]
fn test_validate_stateful_set_name_is_a_dns_label() {
    let dotted = parse(&BASE.replace("name: web,", "name: web.v1,"));
    assert_eq!(
        messages(&dotted),
        ["metadata.name: Invalid value: \"web.v1\": must not contain dots"]
    );
}
