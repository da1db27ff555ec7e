//! Property tests: DaemonSet objects round-trip through YAML and JSON unchanged, and no input, however
//! malformed, panics the parser, the defaulter or the validator.

use dsplay_api::defaults::apply_defaults;
use dsplay_api::manifest::{parse_manifest_bytes, parse_manifests};
use dsplay_api::types::*;
use dsplay_api::validation::validate_create;
use dsplay_api::Object;
use k8s_openapi::api::core::v1::ContainerPort;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn dns_label() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9-]{0,10}[a-z0-9]"
}

/// Label values including the ones YAML would misread unquoted (`true`, `1.0`, `null`, `~`, `0x1`).
fn tricky_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9]([A-Za-z0-9._-]{0,8}[A-Za-z0-9])?",
        Just("true".to_string()),
        Just("null".to_string()),
        Just("1.0".to_string()),
        Just("0x1f".to_string()),
        Just("~".to_string()),
        Just(String::new()),
        Just("0755".to_string()),
        Just("yes".to_string()),
    ]
}

fn labels() -> impl Strategy<Value = BTreeMap<String, String>> {
    proptest::collection::btree_map(
        "([a-z]{1,5}\\.)?[a-z]{1,6}(/[a-zA-Z0-9]{1,6})?",
        tricky_value(),
        1..4,
    )
}

fn int_or_string() -> impl Strategy<Value = IntOrString> {
    prop_oneof![
        (0..5i32).prop_map(IntOrString::Int),
        (0..=100u32).prop_map(|p| IntOrString::String(format!("{p}%")))
    ]
}

fn container() -> impl Strategy<Value = Container> {
    (
        dns_label(),
        "[a-z]{1,8}(:[a-z0-9.]{1,5})?",
        proptest::collection::vec(".{0,12}", 0..3),
        proptest::option::of((1..65535i32, proptest::option::of(1..65535i32))),
        proptest::option::of(prop_oneof![
            Just("Always"),
            Just("IfNotPresent"),
            Just("Never")
        ]),
    )
        .prop_map(|(name, image, args, port, pull)| Container {
            name,
            image: Some(image),
            args: if args.is_empty() { None } else { Some(args) },
            ports: port.map(|(container_port, host_port)| {
                vec![ContainerPort {
                    container_port,
                    host_port,
                    ..Default::default()
                }]
            }),
            image_pull_policy: pull.map(str::to_string),
            ..Default::default()
        })
}

fn toleration() -> impl Strategy<Value = Toleration> {
    (
        proptest::option::of(dns_label()),
        prop_oneof![Just("Exists"), Just("Equal")],
        proptest::option::of(prop_oneof![
            Just("NoSchedule"),
            Just("NoExecute"),
            Just("PreferNoSchedule")
        ]),
        proptest::option::of(0..1000i64),
    )
        .prop_map(|(key, op, effect, seconds)| Toleration {
            key,
            operator: Some(op.to_string()),
            effect: effect.map(str::to_string),
            toleration_seconds: seconds,
            ..Default::default()
        })
}

fn daemon_set() -> impl Strategy<Value = DaemonSet> {
    (
        dns_label(),
        proptest::option::of(dns_label()),
        labels(),
        proptest::collection::vec(container(), 1..3),
        proptest::option::of((int_or_string(), int_or_string())),
        proptest::option::of(-5..100i32),
        proptest::option::of(-5..20i32),
        proptest::collection::vec(toleration(), 0..3),
        proptest::option::of(labels()),
        proptest::option::of(labels()),
    )
        .prop_map(
            |(
                name,
                namespace,
                labels,
                containers,
                rolling,
                min_ready,
                history,
                tolerations,
                node_selector,
                annotations,
            )| DaemonSet {
                metadata: ObjectMeta {
                    name: Some(name),
                    namespace,
                    annotations,
                    labels: Some(labels.clone()),
                    ..Default::default()
                },
                spec: Some(DaemonSetSpec {
                    selector: LabelSelector {
                        match_labels: Some(labels.clone()),
                        match_expressions: None,
                    },
                    template: PodTemplateSpec {
                        metadata: Some(ObjectMeta {
                            labels: Some(labels),
                            ..Default::default()
                        }),
                        spec: Some(PodSpec {
                            containers,
                            tolerations: if tolerations.is_empty() {
                                None
                            } else {
                                Some(tolerations)
                            },
                            node_selector,
                            ..Default::default()
                        }),
                    },
                    update_strategy: rolling.map(|(mu, ms)| DaemonSetUpdateStrategy {
                        type_: Some("RollingUpdate".into()),
                        rolling_update: Some(RollingUpdateDaemonSet {
                            max_unavailable: Some(mu),
                            max_surge: Some(ms),
                        }),
                    }),
                    min_ready_seconds: min_ready,
                    revision_history_limit: history,
                }),
                status: None,
            },
        )
}

fn round_trip(text: &str) -> Object {
    let mut docs = parse_manifests(text);
    assert_eq!(docs.len(), 1, "{text}");
    let manifest = docs.remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        manifest.unknown_fields.is_empty(),
        "{:?}",
        manifest.unknown_fields
    );
    manifest.object
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn daemon_sets_round_trip_through_yaml_and_json(ds in daemon_set()) {
        let object = Object::DaemonSet(ds);
        let yaml = serde_yaml::to_string(&object).unwrap();
        prop_assert_eq!(&round_trip(&yaml), &object);
        let json = serde_json::to_string_pretty(&object).unwrap();
        prop_assert_eq!(&round_trip(&json), &object);
        // Defaulting and validation never panic on generated objects either.
        let mut defaulted = object.clone();
        apply_defaults(&mut defaulted);
        let again = serde_yaml::to_string(&defaulted).unwrap();
        prop_assert_eq!(&round_trip(&again), &defaulted);
        let _ = validate_create(&object);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        check_no_panic(&bytes);
    }

    #[test]
    fn yaml_shaped_noise_never_panics(parts in proptest::collection::vec(prop_oneof![
        Just("apiVersion: apps/v1\n"), Just("kind: DaemonSet\n"), Just("kind: List\n"), Just("items:\n"), Just("metadata:\n"),
        Just("  name: x\n"), Just("spec:\n"), Just("  selector: {}\n"), Just("  template:\n"), Just("    spec:\n"),
        Just("      containers: [{name: c, image: i}]\n"), Just("- "), Just("---\n"), Just("["), Just("]"), Just("{"), Just("}"),
        Just("&a "), Just("*a "), Just("!!binary "), Just("\t"), Just("  "), Just(": "), Just("\""), Just("'"), Just("1e999"),
        Just("-1"), Just("\u{0}"), Just("? "), Just("|\n"), Just(">-\n"), Just("%YAML 1.2\n"), Just("#c\n"), Just("\n"),
        Just("  updateStrategy: {rollingUpdate: {maxSurge: 150%}}\n"), Just("  minReadySeconds: 99999999999999999999\n"),
    ], 0..40)) {
        check_no_panic(parts.concat().as_bytes());
    }
}

fn check_no_panic(bytes: &[u8]) {
    for doc in parse_manifest_bytes(bytes) {
        if let Ok(mut manifest) = doc {
            let _ = validate_create(&manifest.object);
            apply_defaults(&mut manifest.object);
            let _ = validate_create(&manifest.object);
        } else if let Err(e) = doc {
            let _ = (e.to_string(), e.hint());
        }
    }
}
