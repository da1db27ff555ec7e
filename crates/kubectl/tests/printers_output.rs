//! Golden checks of `-o yaml` / `-o json` / `-o jsonpath` against text printed by the real kubectl
//! v1.32 (`kubectl create configmap|deployment … --dry-run=client -o …`, no server needed).

use dsplay_kubectl::printers::output::{
    jsonpath, jsonpath_as_json, list_value, name_line, to_json, to_yaml, yaml_key_cmp,
};
use serde_json::Value;

fn obj(text: &str) -> Value {
    serde_json::from_str(text).expect("valid json")
}

/// `kubectl create configmap cm --dry-run=client -o yaml --from-literal=…` (quoting, folding at
/// column 80, literal blocks, go-yaml key order).
#[test]
fn yaml_scalars_match_kubectl() {
    let cm = obj(
        r####"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"creationTimestamp": null, "name": "cm"}, "data": {"long": "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", "multi": "line one\nline two\n", "multi2": "no trailing\nnewline", "tab": "a\tb", "star": "*x", "colon": "a: b", "dash": "- x", "html": "<none> & stuff", "ts": "2026-01-01T00:00:00Z", "num": "1.5", "on": "on", "empty": "", "lead": " lead", "hash": "a #b", "base60": "1:20", "hex": "0x1F", "long2": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbb cccc", "quotes": "it's \"q\"", "trailsp": "x\n  y  \n", "z_b": "1", "zB": "2", "item10": "3", "item9": "4", "lead2": "\nx", "keep": "x\n\n", "y": "y", "dq": "\"x", "pct": "%x", "q": "?x", "q2": "a?b", "br": "a[b", "tild": "~", "dots": "...", "unicode": "héllo", "longsq": "'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb c d e f g h i j k"}}"####,
    );
    let want = r####"apiVersion: v1
data:
  base60: "1:20"
  br: a[b
  colon: 'a: b'
  dash: '- x'
  dots: '...'
  dq: '"x'
  empty: ""
  hash: 'a #b'
  hex: "0x1F"
  html: <none> & stuff
  item9: "4"
  item10: "3"
  keep: |+
    x

  lead: ' lead'
  lead2: |2-

    x
  long: '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane:
    }, 2 node(s) didn''t match Pod''s node affinity/selector. preemption: 0/3 nodes
    are available: 3 Preemption is not helpful for scheduling.'
  long2: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
    bbbb cccc
  longsq: '''bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
    c d e f g h i j k'
  multi: |
    line one
    line two
  multi2: |-
    no trailing
    newline
  num: "1.5"
  "on": "on"
  pct: '%x'
  q: ?x
  q2: a?b
  quotes: it's "q"
  star: '*x'
  tab: "a\tb"
  tild: "~"
  trailsp: "x\n  y  \n"
  ts: "2026-01-01T00:00:00Z"
  unicode: héllo
  "y": "y"
  z_b: "1"
  zB: "2"
kind: ConfigMap
metadata:
  creationTimestamp: null
  name: cm
"####;
    assert_eq!(to_yaml(&cm), want);
}

/// `kubectl create deployment d --image=busybox --dry-run=client -o yaml` (nesting, `{}`, sequences).
#[test]
fn yaml_structure_matches_kubectl() {
    let d = obj(
        r####"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"creationTimestamp": null, "labels": {"app": "d"}, "name": "d"}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "d"}}, "strategy": {}, "template": {"metadata": {"creationTimestamp": null, "labels": {"app": "d"}}, "spec": {"containers": [{"image": "busybox", "name": "busybox", "resources": {}}]}}}, "status": {}}"####,
    );
    let want = r####"apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  labels:
    app: d
  name: d
spec:
  replicas: 1
  selector:
    matchLabels:
      app: d
  strategy: {}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: d
    spec:
      containers:
      - image: busybox
        name: busybox
        resources: {}
status: {}
"####;
    assert_eq!(to_yaml(&d), want);
}

/// `-o json`: the real output of a typed object is in struct order, while `kubectl get` prints
/// unstructured objects whose keys come out sorted; escapes and indentation are compared here.
#[test]
fn json_matches_kubectl_escaping() {
    let cm = obj(
        r####"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"creationTimestamp": null, "name": "cm"}, "data": {"html": "<none> & stuff", "tab": "a\tb\u0001\b\f", "u": " ", "multi": "line one\nline two\n"}}"####,
    );
    let want = r####"{
    "kind": "ConfigMap",
    "apiVersion": "v1",
    "metadata": {
        "name": "cm",
        "creationTimestamp": null
    },
    "data": {
        "html": "\u003cnone\u003e \u0026 stuff",
        "multi": "line one\nline two\n",
        "tab": "a\tb\u0001\b\f",
        "u": "\u2028"
    }
}
"####;
    let reparsed: Value = serde_json::from_str(want).unwrap();
    assert_eq!(reparsed, cm);
    let ours = to_json(&cm);
    for line in [
        r#"        "html": "\u003cnone\u003e \u0026 stuff","#,
        r#"        "tab": "a\tb\u0001\b\f","#,
        r#"        "u": "\u2028""#,
        r#"        "multi": "line one\nline two\n","#,
    ] {
        assert!(want.contains(line), "kubectl: {line}");
        assert!(ours.contains(line), "ours: {line}\n{ours}");
    }
    assert!(
        ours.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"data\": {\n"),
        "{ours}"
    );
    assert!(ours.ends_with("\n}\n"));
}

#[test]
fn list_and_name() {
    let list = list_value(vec![]);
    assert_eq!(
        to_yaml(&list),
        "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
    );
    assert_eq!(
        to_json(&list),
        "{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
    );
    use dsplay_api::Kind;
    assert_eq!(name_line(Kind::DaemonSet, "demo"), "daemonset.apps/demo\n");
    assert_eq!(name_line(Kind::Pod, "demo-abcde"), "pod/demo-abcde\n");
    assert_eq!(name_line(Kind::Node, "kind-worker"), "node/kind-worker\n");
    assert_eq!(yaml_key_cmp("item9", "item10"), std::cmp::Ordering::Less);
    assert_eq!(yaml_key_cmp("z_b", "zB"), std::cmp::Ordering::Less);
}

/// Outputs of `kubectl create configmap cm --from-literal=a=1 --from-literal=b='<x>' -o jsonpath=…`
/// and `kubectl create deployment d --image=busybox -o jsonpath=…`.
#[test]
fn jsonpath_matches_kubectl() {
    let cm = obj(
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"creationTimestamp":null,"name":"cm"},"data":{"a":"1","b":"<x>"}}"#,
    );
    let cases: &[(&str, &str)] = &[
        ("{.data}", r#"{"a":"1","b":"\u003cx\u003e"}"#),
        ("{.data.a}", "1"),
        ("{.metadata}", r#"{"creationTimestamp":null,"name":"cm"}"#),
        ("{.data.a}{\"\\n\"}", "1\n"),
        ("{range .items[*]}{.metadata.name}{\"\\n\"}{end}", ""),
        ("{.data.*}", "1 <x>"),
        ("{.missing}", ""),
        ("x{.kind}y", "xConfigMapy"),
        ("{.metadata.name} {.kind}", "cm ConfigMap"),
    ];
    for (t, want) in cases {
        assert_eq!(jsonpath(t, &cm).as_deref(), Ok(*want), "{t}");
    }
    assert_eq!(
        jsonpath("{.data.a", &cm).unwrap_err().0,
        "error parsing jsonpath {.data.a, unclosed action"
    );
    let d = obj(
        r####"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"creationTimestamp": null, "labels": {"app": "d"}, "name": "d"}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "d"}}, "strategy": {}, "template": {"metadata": {"creationTimestamp": null, "labels": {"app": "d"}}, "spec": {"containers": [{"image": "busybox", "name": "busybox", "resources": {}}]}}}, "status": {}}"####,
    );
    assert_eq!(
        jsonpath(r#"{.spec.template.spec.containers[*].name} {.spec.template.spec.containers[0]}{.spec.template.spec.containers[?(@.name=="busybox")].image}"#, &d).unwrap(),
        r#"busybox {"image":"busybox","name":"busybox","resources":{}}busybox"#
    );
    let err = jsonpath("{.spec.template.spec.containers[5].name}", &d)
        .unwrap_err()
        .0;
    let want = r####"error executing jsonpath "{.spec.template.spec.containers[5].name}": Error executing template: array index out of bounds: index 5, length 1. Printing more information for debugging the template:
	template was:
		{.spec.template.spec.containers[5].name}
	object given to jsonpath engine was:
		map[string]interface {}{"apiVersion":"apps/v1", "kind":"Deployment", "metadata":map[string]interface {}{"creationTimestamp":interface {}(nil), "labels":map[string]interface {}{"app":"d"}, "name":"d"}, "spec":map[string]interface {}{"replicas":1, "selector":map[string]interface {}{"matchLabels":map[string]interface {}{"app":"d"}}, "strategy":map[string]interface {}{}, "template":map[string]interface {}{"metadata":map[string]interface {}{"creationTimestamp":interface {}(nil), "labels":map[string]interface {}{"app":"d"}}, "spec":map[string]interface {}{"containers":[]interface {}{map[string]interface {}{"image":"busybox", "name":"busybox", "resources":map[string]interface {}{}}}}}}, "status":map[string]interface {}{}}


"####;
    assert_eq!(err, want);
    let list = list_value(vec![cm.clone(), d.clone()]);
    assert_eq!(
        jsonpath("{range .items[*]}{.metadata.name}{\"\\n\"}{end}", &list).unwrap(),
        "cm\nd\n"
    );
}

/// Nesting is bounded: 100 000 nested `{range .}` (or `[` brackets) is a parse error, not a stack
/// overflow (which aborts the CLI and kills the web app); real templates nest a few levels.
#[test]
fn jsonpath_nesting_is_bounded() {
    let v = obj(r#"{"a":[1]}"#);
    for template in [
        "{range .}".repeat(100_000),
        format!("{{.a{}}}", "[".repeat(100_000)),
    ] {
        let err = jsonpath(&template, &v).expect_err("too deep");
        assert!(
            err.0.starts_with("error parsing jsonpath {")
                && err.0.ends_with(", exceeded max depth of 100"),
            "{}",
            &err.0[err.0.len() - 60..]
        );
    }
    let nested = format!("{}{{.}}{}", "{range .a}".repeat(100), "{end}".repeat(100));
    assert!(jsonpath(&nested, &v).is_ok());
}

/// `kubectl get nodes -o jsonpath-as-json=…` (real v1.32 against `dsplay serve`): one indented JSON
/// array per node of the template, a text node too; a parse error as `-o jsonpath` words it.
#[test]
fn jsonpath_as_json_matches_kubectl() {
    let list = list_value(vec![
        obj(r#"{"metadata":{"name":"a"}}"#),
        obj(r#"{"metadata":{"name":"b"}}"#),
    ]);
    assert_eq!(
        jsonpath_as_json(r#"{.items[*].metadata.name}{"\n"}{.nope}"#, &list).unwrap(),
        "[\n    \"a\",\n    \"b\"\n]\n[\n    \"\\n\"\n]\n[]\n"
    );
    assert_eq!(
        jsonpath_as_json("{.items[0", &list).unwrap_err().0,
        "error parsing jsonpath {.items[0, unterminated array"
    );
}
