//! Table tests for every validation rule, with the API server's message text byte for byte
//! (pkg/apis/apps/validation/validation.go ValidateDaemonSet, pkg/apis/core/validation/validation.go). Each case is a manifest fragment and the exact error lines the API server would return.

use super::daemon_set::validate_daemon_set_update_strategy;
use super::*;
use crate::manifest::parse_manifests;

const DS_HEAD: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: ds1\n";

/// A valid DaemonSet whose spec lines can be replaced: `{sel}`, `{labels}`, `{extra_spec}`, `{pod}`,
/// `{containers}`.
fn ds(
    name: &str,
    spec_extra: &str,
    selector: &str,
    labels: &str,
    pod_extra: &str,
    containers: &str,
) -> String {
    format!(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {name}\nspec:\n{spec_extra}  selector: {selector}\n  template:\n    metadata:\n      labels: {labels}\n    spec:\n{pod_extra}      containers: {containers}\n"
    )
}

const SEL: &str = "{matchLabels: {app: x}}";
const LABELS: &str = "{app: x}";
const CONTAINERS: &str = "[{name: c, image: busybox}]";

fn errors_of(text: &str) -> Vec<String> {
    let docs = parse_manifests(text);
    assert_eq!(docs.len(), 1, "{text}");
    let manifest = docs
        .into_iter()
        .next()
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    validate_create(&manifest.object)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn check(cases: &[(&str, String, &[&str])]) {
    for (name, text, want) in cases {
        let got = errors_of(text);
        assert_eq!(
            got,
            want.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "case {name}:\n{text}"
        );
    }
}

#[test]
fn valid_daemonset_has_no_errors() {
    check(&[("minimal", ds("ds1", "", SEL, LABELS, "", CONTAINERS), &[])]);
}

#[test]
fn metadata_name_rules() {
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let spec_example = format!("metadata.name: Invalid value: \"Foo_bar\": {subdomain}");
    let long = "a".repeat(254);
    let long_err =
        format!("metadata.name: Invalid value: \"{long}\": must be no more than 253 characters");
    check(&[
        ("spec example", ds("Foo_bar", "", SEL, LABELS, "", CONTAINERS), &[&spec_example]),
        ("dots ok", ds("a.b-c", "", SEL, LABELS, "", CONTAINERS), &[]),
        ("too long", ds(&long, "", SEL, LABELS, "", CONTAINERS), &[&long_err]),
        (
            "missing",
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec: {containers: [{name: c, image: i}]}\n".to_string(),
            &["metadata.name: Required value: name or generateName is required"],
        ),
    ]);
}

#[test]
fn selector_rules() {
    let mismatch = "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"x\"}: `selector` does not match template `labels`";
    let mismatch_b = "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"b\"}: `selector` does not match template `labels`";
    let nil_sel = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: ds1\nspec:\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n      containers: [{name: c, image: busybox}]\n".to_string();
    check(&[
        ("nil selector matches nothing", nil_sel, &[mismatch]),
        ("mismatch", ds("ds1", "", "{matchLabels: {app: a}}", "{app: b}", "", CONTAINERS), &[mismatch_b]),
        (
            "empty selector",
            ds("ds1", "", "{}", LABELS, "", CONTAINERS),
            &["spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset"],
        ),
        ("expression match", ds("ds1", "", "{matchExpressions: [{key: app, operator: In, values: [x, y]}]}", LABELS, "", CONTAINERS), &[]),
        (
            "In without values",
            ds("ds1", "", "{matchExpressions: [{key: app, operator: In}]}", LABELS, "", CONTAINERS),
            &["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
        ),
        (
            "Exists with values",
            ds("ds1", "", "{matchExpressions: [{key: app, operator: Exists, values: [x]}]}", LABELS, "", CONTAINERS),
            &["spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
        ),
        (
            "bad operator",
            ds("ds1", "", "{matchExpressions: [{key: app, operator: Foo}]}", LABELS, "", CONTAINERS),
            &["spec.selector.matchExpressions[0].operator: Invalid value: \"Foo\": not a valid selector operator"],
        ),
    ]);
}

#[test]
fn selector_is_immutable_on_update() {
    let old = parse_manifests(&ds("ds1", "", SEL, "{app: x, v: b}", "", CONTAINERS))
        .remove(0)
        .unwrap()
        .object;
    let new = parse_manifests(&ds(
        "ds1",
        "",
        "{matchLabels: {app: x, v: b}}",
        "{app: x, v: b}",
        "",
        CONTAINERS,
    ))
    .remove(0)
    .unwrap()
    .object;
    let errs: Vec<String> = validate_update(&old, &new)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"x\", \"v\":\"b\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"]
    );
    assert!(validate_update(&old, &old).is_empty());
}

#[test]
fn template_rules() {
    check(&[
        (
            "restartPolicy",
            ds("ds1", "", SEL, LABELS, "      restartPolicy: OnFailure\n", CONTAINERS),
            &["spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""],
        ),
        (
            "restartPolicy bogus",
            ds("ds1", "", SEL, LABELS, "      restartPolicy: Sometimes\n", CONTAINERS),
            &[
                "spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
                "spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\"",
            ],
        ),
        (
            "activeDeadlineSeconds",
            ds("ds1", "", SEL, LABELS, "      activeDeadlineSeconds: 10\n", CONTAINERS),
            &["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"],
        ),
        ("containers required", ds("ds1", "", SEL, LABELS, "", "[]"), &["spec.template.spec.containers: Required value"]),
        ("image required", ds("ds1", "", SEL, LABELS, "", "[{name: c}]"), &["spec.template.spec.containers[0].image: Required value"]),
        (
            "duplicate names",
            ds("ds1", "", SEL, LABELS, "", "[{name: x, image: a}, {name: x, image: b}]"),
            &["spec.template.spec.containers[1].name: Duplicate value: \"x\""],
        ),
        ("name required", ds("ds1", "", SEL, LABELS, "", "[{image: a}]"), &["spec.template.spec.containers[0].name: Required value"]),
        (
            "name label",
            ds("ds1", "", SEL, LABELS, "", "[{name: My_C, image: a}]"),
            &["spec.template.spec.containers[0].name: Invalid value: \"My_C\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"],
        ),
        (
            "name with dots",
            ds("ds1", "", SEL, LABELS, "", "[{name: a.b, image: a}]"),
            &["spec.template.spec.containers[0].name: Invalid value: \"a.b\": must not contain dots"],
        ),
        (
            "pull policy",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: a, imagePullPolicy: Sometimes}]"),
            &["spec.template.spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\""],
        ),
        (
            "ephemeral",
            ds("ds1", "", SEL, LABELS, "      ephemeralContainers: [{name: e, image: a}]\n", CONTAINERS),
            &["spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"],
        ),
        (
            "volume mount not found",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: a, volumeMounts: [{name: varlog, mountPath: /var/log}]}]"),
            &["spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"varlog\""],
        ),
        (
            "ports",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: a, ports: [{containerPort: 0}, {containerPort: 70000, hostPort: -1, protocol: HTTP}]}]"),
            &[
                "spec.template.spec.containers[0].ports[0].containerPort: Required value",
                "spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                "spec.template.spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive",
                "spec.template.spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            ],
        ),
        (
            "host port conflict",
            ds("ds1", "", SEL, LABELS, "", "[{name: a, image: a, ports: [{containerPort: 80, hostPort: 80}]}, {name: b, image: b, ports: [{containerPort: 81, hostPort: 80}]}]"),
            &["spec.template.spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//80\""],
        ),
    ]);
}

#[test]
fn spec_number_rules() {
    check(&[
        (
            "minReadySeconds",
            ds(
                "ds1",
                "  minReadySeconds: -1\n",
                SEL,
                LABELS,
                "",
                CONTAINERS,
            ),
            &["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"],
        ),
        (
            "revisionHistoryLimit 0 ok",
            ds(
                "ds1",
                "  revisionHistoryLimit: 0\n",
                SEL,
                LABELS,
                "",
                CONTAINERS,
            ),
            &[],
        ),
        (
            "revisionHistoryLimit",
            ds(
                "ds1",
                "  revisionHistoryLimit: -2\n",
                SEL,
                LABELS,
                "",
                CONTAINERS,
            ),
            &["spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0"],
        ),
    ]);
}

fn strategy(body: &str) -> String {
    ds(
        "ds1",
        &format!("  updateStrategy: {body}\n"),
        SEL,
        LABELS,
        "",
        CONTAINERS,
    )
}

#[test]
fn update_strategy_rules() {
    let percent = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
    let abc = format!(
        "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"abc\": {percent}"
    );
    check(&[
        ("OnDelete", strategy("{type: OnDelete}"), &[]),
        ("defaults", strategy("{}"), &[]),
        (
            "unsupported type",
            strategy("{type: Recreate}"),
            &["spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:\"Recreate\", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: \"RollingUpdate\", \"OnDelete\""],
        ),
        ("bad percent", strategy("{rollingUpdate: {maxUnavailable: abc}}"), &[&abc, "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"]),
        (
            "over 100%",
            strategy("{rollingUpdate: {maxUnavailable: 150%}}"),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 150%: must not be greater than 100%"],
        ),
        (
            "surge over 100%",
            strategy("{rollingUpdate: {maxUnavailable: 0, maxSurge: 101%}}"),
            &["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 101%: must not be greater than 100%"],
        ),
        (
            "both non-zero (maxSurge alone defaults maxUnavailable to 1)",
            strategy("{rollingUpdate: {maxSurge: 1}}"),
            &["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"],
        ),
        (
            "both zero",
            strategy("{rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}"),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"],
        ),
        (
            "0% is zero",
            strategy("{rollingUpdate: {maxUnavailable: 0%, maxSurge: 0}}"),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"],
        ),
        ("surge only", strategy("{rollingUpdate: {maxUnavailable: 0, maxSurge: 25%}}"), &[]),
        ("100% ok", strategy("{rollingUpdate: {maxUnavailable: 100%}}"), &[]),
        (
            "negative",
            strategy("{rollingUpdate: {maxUnavailable: -1}}"),
            &[
                "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0",
            ],
        ),
    ]);
}

#[test]
fn rolling_update_nil_is_required() {
    // Defaulting normally prevents this; the rule itself is still checked.
    let mut ds = DaemonSet::default();
    let spec = ds.spec.get_or_insert_with(Default::default);
    spec.update_strategy = Some(DaemonSetUpdateStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: None,
    });
    let errs =
        validate_daemon_set_update_strategy(spec.update_strategy.as_ref(), "spec.updateStrategy");
    assert_eq!(
        errs[0].to_string(),
        "spec.updateStrategy.rollingUpdate: Required value"
    );
    ds.metadata.name = Some("x".into());
}

#[test]
fn label_rules() {
    let name_part = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let value = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    let meta_key = format!("metadata.labels: Invalid value: \"bad key\": {name_part}");
    let meta_value = format!("metadata.labels: Invalid value: \"-x\": {value}");
    let template_key = format!("spec.template.labels: Invalid value: \"-k\": {name_part}");
    let sel_key = format!("spec.selector.matchLabels: Invalid value: \"-k\": {name_part}");
    let prefix = "metadata.labels: Invalid value: \"Ex.com/a\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let two_slashes = "metadata.labels: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    let long_value = "v".repeat(64);
    let long_value_err = format!(
        "metadata.labels: Invalid value: \"{long_value}\": must be no more than 63 characters"
    );
    let with_meta_labels = |labels: &str| {
        format!("{DS_HEAD}  labels: {labels}\nspec:\n  selector: {SEL}\n  template:\n    metadata: {{labels: {LABELS}}}\n    spec: {{containers: {CONTAINERS}}}\n")
    };
    check(&[
        ("meta key", with_meta_labels("{'bad key': x}"), &[&meta_key]),
        ("meta value", with_meta_labels("{k: '-x'}"), &[&meta_value]),
        (
            "prefixed ok",
            with_meta_labels("{example.com/a: x, k: ''}"),
            &[],
        ),
        ("bad prefix", with_meta_labels("{Ex.com/a: x}"), &[prefix]),
        (
            "empty prefix",
            with_meta_labels("{/a: x}"),
            &["metadata.labels: Invalid value: \"/a\": prefix part must be non-empty"],
        ),
        (
            "two slashes",
            with_meta_labels("{a/b/c: x}"),
            &[two_slashes],
        ),
        (
            "long value",
            with_meta_labels(&format!("{{k: {long_value}}}")),
            &[&long_value_err],
        ),
        (
            "template key",
            ds(
                "ds1",
                "",
                "{matchLabels: {app: x}}",
                "{app: x, '-k': v}",
                "",
                CONTAINERS,
            ),
            &[&template_key],
        ),
        (
            "selector key",
            ds(
                "ds1",
                "",
                "{matchLabels: {'-k': x}}",
                "{'-k': x}",
                "",
                CONTAINERS,
            ),
            &[&sel_key, &template_key],
        ),
    ]);
}

#[test]
fn toleration_rules() {
    let tol = |t: &str| {
        ds(
            "ds1",
            "",
            SEL,
            LABELS,
            &format!("      tolerations: [{t}]\n"),
            CONTAINERS,
        )
    };
    check(&[
        ("exists all", tol("{operator: Exists}"), &[]),
        ("equal", tol("{key: k, operator: Equal, value: v, effect: NoSchedule}"), &[]),
        (
            "bad operator",
            tol("{key: k, operator: Foo}"),
            &["spec.template.spec.tolerations[0].operator: Unsupported value: \"Foo\": supported values: \"Equal\", \"Exists\""],
        ),
        (
            "bad effect",
            tol("{key: k, operator: Exists, effect: Foo}"),
            &["spec.template.spec.tolerations[0].effect: Unsupported value: \"Foo\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""],
        ),
        (
            "empty key needs Exists",
            tol("{operator: Equal, value: v}"),
            &["spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""],
        ),
        (
            "seconds need NoExecute",
            tol("{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}"),
            &["spec.template.spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"],
        ),
        (
            "exists with value",
            tol("{key: k, operator: Exists, value: v}"),
            &["spec.template.spec.tolerations[0].operator: Invalid value: core.Toleration{Key:\"k\", Operator:\"Exists\", Value:\"v\", Effect:\"\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'"],
        ),
    ]);
}

#[test]
fn resource_rules() {
    let res = |r: &str| {
        ds(
            "ds1",
            "",
            SEL,
            LABELS,
            "",
            &format!("[{{name: c, image: a, resources: {r}}}]"),
        )
    };
    check(&[
        ("ok", res("{limits: {cpu: 200m, memory: 200Mi}, requests: {cpu: 100m, memory: 200Mi}}"), &[]),
        (
            "request over limit",
            res("{limits: {cpu: '1'}, requests: {cpu: '2'}}"),
            &["spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"],
        ),
        (
            "negative",
            res("{requests: {memory: -1Mi}}"),
            &["spec.template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1Mi\": must be greater than or equal to 0"],
        ),
        (
            "not standard",
            res("{requests: {gpu: '1'}}"),
            &["spec.template.spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for containers"],
        ),
        ("extended ok", res("{limits: {nvidia.com/gpu: '1'}}"), &[]),
    ]);
}

#[test]
fn affinity_rules() {
    let aff = |a: &str| {
        ds(
            "ds1",
            "",
            SEL,
            LABELS,
            &format!("      affinity: {{nodeAffinity: {a}}}\n"),
            CONTAINERS,
        )
    };
    let p = "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    let no_terms = format!("{p}: Required value: must have at least one node selector term");
    let bad_op = format!("{p}[0].matchExpressions[0].operator: Invalid value: \"Foo\": not a valid selector operator");
    let gt = format!("{p}[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'");
    check(&[
        ("ok", aff("{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}"), &[]),
        ("no terms", aff("{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}"), &[&no_terms]),
        ("bad op", aff("{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: k, operator: Foo}]}]}}"), &[&bad_op]),
        ("gt", aff("{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: k, operator: Gt, values: ['1', '2']}]}]}}"), &[&gt]),
        (
            "weight",
            aff("{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, preference: {matchExpressions: [{key: k, operator: Exists}]}}]}"),
            &["spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"],
        ),
    ]);
}

#[test]
fn pod_rules() {
    let pod = |extra: &str, containers: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n{extra}  containers: {containers}\n")
    };
    check(&[
        ("ok", pod("  restartPolicy: OnFailure\n", CONTAINERS), &[]),
        ("never ok", pod("  restartPolicy: Never\n", CONTAINERS), &[]),
        ("containers", pod("", "[]"), &["spec.containers: Required value"]),
        (
            "restartPolicy",
            pod("  restartPolicy: Sometimes\n", CONTAINERS),
            &["spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\""],
        ),
        (
            "activeDeadlineSeconds range",
            pod("  activeDeadlineSeconds: 0\n", CONTAINERS),
            &["spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"],
        ),
        (
            "namespace",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: Bad_NS}\nspec: {containers: [{name: c, image: i}]}\n".to_string(),
            &["metadata.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"],
        ),
    ]);
}

#[test]
fn node_and_namespace_rules() {
    let node = |taints: &str| {
        format!("apiVersion: v1\nkind: Node\nmetadata: {{name: n1}}\nspec: {{taints: {taints}}}\n")
    };
    check(&[
        ("ok", node("[{key: k, value: v, effect: NoSchedule}]"), &[]),
        (
            "bad effect",
            node("[{key: k, effect: Foo}]"),
            &["spec.taints[0].effect: Unsupported value: \"Foo\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""],
        ),
        ("effect required", node("[{key: k, effect: ''}]"), &["spec.taints[0].effect: Required value"]),
        (
            "duplicate",
            node("[{key: k, effect: NoSchedule}, {key: k, value: v, effect: NoSchedule}]"),
            &["spec.taints[1]: Duplicate value: core.Taint{Key:\"k\", Value:\"v\", Effect:\"NoSchedule\", TimeAdded:<nil>}: taints must be unique by key and effect pair"],
        ),
        (
            "namespace label",
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: a.b}\n".to_string(),
            &["metadata.name: Invalid value: \"a.b\": must not contain dots"],
        ),
        ("namespace ok", "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n".to_string(), &[]),
    ]);
}

#[test]
fn priority_class_rules() {
    let pc = |name: &str, value: &str| {
        format!("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {name}}}\nvalue: {value}\n")
    };
    check(&[
        ("ok", pc("high", "1000000"), &[]),
        ("max ok", pc("high", "1000000000"), &[]),
        ("too high", pc("high", "1000000001"), &["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]),
        (
            "reserved",
            pc("system-foo", "1"),
            &["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class"],
        ),
        ("system ok", pc("system-node-critical", "2000001000"), &[]),
        (
            "system value",
            pc("system-node-critical", "5"),
            &["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"],
        ),
    ]);
}

#[test]
fn errors_come_in_api_server_order() {
    let text = ds(
        "Bad_Name",
        "  minReadySeconds: -1\n",
        "{matchLabels: {app: a}}",
        "{app: b}",
        "      restartPolicy: Never\n",
        "[]",
    );
    let got = errors_of(&text);
    let paths: Vec<&str> = got.iter().map(|e| e.split(':').next().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "metadata.name",
            "spec.template.metadata.labels",
            "spec.template.spec.containers",
            "spec.template.spec.restartPolicy",
            "spec.minReadySeconds"
        ]
    );
}

#[test]
fn format_invalid_single_and_list() {
    let one = [FieldError::invalid(
        "spec.template.metadata.labels",
        "map[string]string{\"app\":\"b\"}",
        "`selector` does not match template `labels`",
    )];
    assert_eq!(
        format_invalid("DaemonSet", "ds1", &one),
        "The DaemonSet \"ds1\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"b\"}: `selector` does not match template `labels`"
    );
    let two = [
        FieldError::required("spec.template.spec.containers", ""),
        FieldError::invalid(
            "spec.minReadySeconds",
            "-1",
            "must be greater than or equal to 0",
        ),
    ];
    assert_eq!(
        format_invalid("DaemonSet", "ds1", &two),
        "The DaemonSet \"ds1\" is invalid: \n* spec.template.spec.containers: Required value\n* spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"
    );
}

#[test]
fn go_quote_matches_strconv_quote() {
    let cases = [
        ("a", "\"a\""),
        ("a\"b", "\"a\\\"b\""),
        ("tab\t", "\"tab\\t\""),
        ("\u{1}", "\"\\x01\""),
        ("é", "\"é\""),
        ("\\", "\"\\\\\""),
    ];
    for (input, want) in cases {
        assert_eq!(go_quote(input), want);
    }
}

#[test]
fn string_syntax_tables() {
    for ok in ["a", "a-b", "0", "abc.def", "a1.b2"] {
        assert!(is_dns1123_subdomain(ok).is_empty(), "{ok}");
    }
    for bad in ["", "-a", "a-", "A", "a..b", "a_b", ".a"] {
        assert!(!is_dns1123_subdomain(bad).is_empty(), "{bad}");
    }
    for ok in ["app", "example.com/app", "a_b.c-d", "A"] {
        assert!(is_qualified_name(ok).is_empty(), "{ok}");
    }
    for bad in ["", "-a", "a/", "a b", "x/y/z", &"k".repeat(64)] {
        assert!(!is_qualified_name(bad).is_empty(), "{bad}");
    }
    for ok in ["", "v", "V_1.2-x"] {
        assert!(is_valid_label_value(ok).is_empty(), "{ok}");
    }
    for bad in ["-", "a b", "é", &"v".repeat(64)] {
        assert!(!is_valid_label_value(bad).is_empty(), "{bad}");
    }
    for ok in ["0%", "100%", "25%"] {
        assert!(is_valid_percent(ok).is_empty());
    }
    for bad in ["%", "25", "-1%", "1.5%", "abc"] {
        assert!(!is_valid_percent(bad).is_empty());
    }
}

/// A Pod with the given spec lines (YAML flow style) and containers.
fn pod(spec_extra: &str, containers: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n{spec_extra}  containers: {containers}\n")
}

/// Upstream `validateProbe`, `validateHandler`, `validateLivenessProbe`, `validateReadinessProbe`,
/// `validateHTTPGetAction`, `ValidatePortNumOrName`, `validateInitContainers`.
#[test]
fn probe_handler_rules() {
    check(&[
        (
            "no handler",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: a, livenessProbe: {periodSeconds: 5}}]"),
            &["spec.template.spec.containers[0].livenessProbe: Required value: must specify a handler type"],
        ),
        (
            "two handlers",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: a, readinessProbe: {exec: {command: [\"true\"]}, tcpSocket: {port: 80}}}]"),
            &["spec.template.spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"],
        ),
        (
            "handler fields",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: a, livenessProbe: {exec: {}, successThreshold: 2}, readinessProbe: {httpGet: {port: 0, scheme: FTP}, initialDelaySeconds: -1}, startupProbe: {tcpSocket: {port: Http}}}]"),
            &[
                "spec.template.spec.containers[0].livenessProbe.exec.command: Required value",
                "spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
                "spec.template.spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
                "spec.template.spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: \"FTP\": supported values: \"HTTP\", \"HTTPS\"",
                "spec.template.spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0",
                "spec.template.spec.containers[0].startupProbe.tcpSocket.port: Invalid value: \"Http\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
            ],
        ),
        (
            "init container probe",
            ds("ds1", "", SEL, LABELS, "      initContainers: [{name: i, image: a, readinessProbe: {exec: {command: [\"true\"]}}}]\n", CONTAINERS),
            &["spec.template.spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"],
        ),
    ]);
}

/// Upstream `validatePodHostNetworkDeps` (a template may leave hostPort 0, a Pod is defaulted first
/// by `SetDefaults_Pod`) and `validateContainersOnlyForPod` (image whitespace: a DaemonSet is
/// accepted, its pods are not).
#[test]
fn pod_only_rules() {
    let host_net = "      hostNetwork: true\n";
    check(&[
        (
            "template hostPort 0",
            ds("ds1", "", SEL, LABELS, host_net, "[{name: c, image: a, ports: [{containerPort: 80}]}]"),
            &[],
        ),
        (
            "template hostPort differs",
            ds("ds1", "", SEL, LABELS, host_net, "[{name: c, image: a, ports: [{containerPort: 80, hostPort: 8080}]}]"),
            &["spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"],
        ),
        (
            "pod hostPort defaulted",
            pod("  hostNetwork: true\n", "[{name: c, image: a, ports: [{containerPort: 80}]}]"),
            &[],
        ),
        (
            "pod hostPort differs",
            pod("  hostNetwork: true\n", "[{name: c, image: a, ports: [{containerPort: 80, hostPort: 81}]}]"),
            &["spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true"],
        ),
        (
            "template image whitespace",
            ds("ds1", "", SEL, LABELS, "", "[{name: c, image: \" nginx\"}]"),
            &[],
        ),
        (
            "pod image whitespace",
            pod("", "[{name: c, image: \"nginx \"}]"),
            &["spec.containers[0].image: Invalid value: \"nginx \": must not have leading or trailing whitespace"],
        ),
    ]);
}

/// Upstream `validatePodAffinityTerm`, `validateWeightedPodAffinityTerms` and
/// `validateTopologySpreadConstraints` (validation_test.go TestValidateTopologySpreadConstraints cases).
#[test]
fn inter_pod_affinity_and_spread_rules() {
    let anti = |term: &str| {
        pod(
            &format!("  affinity: {{podAntiAffinity: {term}}}\n"),
            CONTAINERS,
        )
    };
    let spread = |c: &str| pod(&format!("  topologySpreadConstraints: {c}\n"), CONTAINERS);
    let req = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
    let pref = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
    let tsc = "spec.topologySpreadConstraints";
    check(&[
        (
            "ok",
            anti("{requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: x}}, topologyKey: kubernetes.io/hostname}]}"),
            &[],
        ),
        (
            "empty topologyKey",
            anti("{requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: x}}, topologyKey: ''}]}"),
            &[&format!("{req}.topologyKey: Required value: can not be empty")],
        ),
        (
            "bad namespace and key",
            anti("{requiredDuringSchedulingIgnoredDuringExecution: [{namespaces: [Bad], topologyKey: 'a b'}]}"),
            &[
                &format!("{req}.namespace: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                &format!("{req}.topologyKey: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
            ],
        ),
        (
            "weight",
            anti("{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 101, podAffinityTerm: {topologyKey: zone}}]}"),
            &[&format!("{pref}.weight: Invalid value: 101: must be in the range 1-100")],
        ),
        (
            "spread ok",
            spread("[{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, minDomains: 2, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [pod-template-hash]}]"),
            &[],
        ),
        (
            "spread fields",
            spread("[{maxSkew: 0, topologyKey: '', whenUnsatisfiable: Maybe, nodeTaintsPolicy: Sometimes}]"),
            &[
                &format!("{tsc}[0].maxSkew: Invalid value: 0: must be greater than zero"),
                &format!("{tsc}[0].topologyKey: Required value: can not be empty"),
                &format!("{tsc}[0].whenUnsatisfiable: Unsupported value: \"Maybe\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""),
                &format!("{tsc}[0].nodeTaintsPolicy: Unsupported value: \"Sometimes\": supported values: \"Honor\", \"Ignore\""),
            ],
        ),
        (
            "spread duplicate and minDomains",
            spread("[{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 0}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]"),
            &[
                &format!("{tsc}[0].{{topologyKey, whenUnsatisfiable}}: Duplicate value: \"{{zone, ScheduleAnyway}}\""),
                &format!("{tsc}[0].minDomains: Invalid value: 0: must be greater than zero"),
                &format!("{tsc}[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"),
            ],
        ),
        (
            "matchLabelKeys",
            spread("[{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [app]}]"),
            &[&format!("{tsc}[0].matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector")],
        ),
    ]);
}
