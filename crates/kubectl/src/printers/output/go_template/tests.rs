//! Outputs and errors of the real kubectl v1.32, and the limits on hostile templates.

use super::funcs::{base64_decode, MAX_WIDTH};
use super::*;
use serde_json::json;

fn node() -> Value {
    json!({"kind": "Node", "metadata": {"name": "kind-worker", "labels": {"kubernetes.io/os": "linux"}},
           "spec": {"podCIDR": "10.244.1.0/24"},
           "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "PIDPressure", "status": "False"}],
                      "allocatable": {"cpu": "4", "pods": "110"}}})
}

fn run(t: &str) -> String {
    GoTemplate::parse(t).unwrap().execute(&node()).unwrap()
}

/// Outputs of the real kubectl v1.32 (`get node kind-worker -o go-template=…`).
#[test]
fn prints_as_kubectl() {
    assert_eq!(run("{{.metadata.name}}"), "kind-worker");
    assert_eq!(
        run(r#"{{index .metadata.labels "kubernetes.io/os"}}{{"\n"}}"#),
        "linux\n"
    );
    assert_eq!(
        run(r#"{{printf "%s %d\n" .metadata.name (len .status.conditions)}}"#),
        "kind-worker 2\n"
    );
    assert_eq!(
        run("{{if .spec.taints}}tainted{{else}}clean{{end}}"),
        "clean"
    );
    assert_eq!(
        run("{{.metadata.nope}}|{{.metadata.nope.x}}|{{.status.allocatable}}"),
        "<no value>|<no value>|map[cpu:4 pods:110]"
    );
    assert_eq!(
        run("{{range .status.conditions}}{{.type}}={{.status}} {{end}}"),
        "Ready=True PIDPressure=False "
    );
    assert_eq!(
        run(r#"{{printf "%d %s" .metadata.name}}"#),
        "%!d(string=kind-worker) %!s(MISSING)"
    );
    assert_eq!(
        run(r#"{{eq .kind "Node"}} {{ne 1 2}} {{not .spec.taints}} {{and 1 0}} {{or 0 "x"}}"#),
        "true true true 0 x"
    );
    assert_eq!(run(r#"{{- " a " -}}  {{.kind}}"#), " a Node");
    assert_eq!(
        run("{{/* c */}}x{{with .spec}}{{.podCIDR}}{{end}}"),
        "x10.244.1.0/24"
    );
    assert_eq!(
        run(r#"{{printf "%q %v %5s|" .kind 1.5 "ab"}}"#),
        "\"Node\" 1.5    ab|"
    );
    assert_eq!(run(r#"{{print 1 2 "a" "b"}}"#), "1 2ab");
    assert_eq!(
        run(r#"{{if eq .kind "Pod"}}p{{else if eq .kind "Node"}}n{{else}}x{{end}}"#),
        "n"
    );
    assert_eq!(run("{{.metadata.name | len}}"), "11");
    assert_eq!(
        run("{{range $k, $v := .metadata.labels}}{{$k}}={{$v}};{{end}}"),
        "kubernetes.io/os=linux;"
    );
    assert_eq!(
        run("{{$n := .metadata.name}}{{range $i, $c := .status.conditions}}{{$i}}:{{$n}}/{{$c.type}} {{end}}"),
        "0:kind-worker/Ready 1:kind-worker/PIDPressure "
    );
    assert_eq!(
        run("{{range .status.conditions}}{{$.kind}}.{{.type}} {{end}}{{$x := 1}}{{$x = 2}}{{$x}}"),
        "Node.Ready Node.PIDPressure 2"
    );
    assert_eq!(
        run(r#"{{"aGVsbG8=" | base64decode}} {{lt 1 2}} {{gt "b" "a"}} {{le 2 2}} {{ge 1 2}}"#),
        "hello true true true false"
    );
}

#[test]
fn errors_as_go() {
    let parse = |t: &str| GoTemplate::parse(t).unwrap_err();
    assert_eq!(
        parse("{{.metadata.name"),
        "template: output:1: unclosed action"
    );
    assert_eq!(
        parse("{{foo}}"),
        "template: output:1: function \"foo\" not defined"
    );
    assert_eq!(parse("{{end}}"), "template: output:1: unexpected {{end}}");
    assert_eq!(
        parse("{{if 1}}{{$x := 1}}{{end}}{{$x}}"),
        "template: output:1: undefined variable \"$x\""
    );
    assert_eq!(parse("{{range .x}}"), "template: output:1: unexpected EOF");
    let exec = |t: &str| {
        GoTemplate::parse(t)
            .unwrap()
            .execute(&node())
            .unwrap_err()
            .message
    };
    assert_eq!(exec("{{.metadata.name.x}}"), "template: output:1:11: executing \"output\" at <.metadata.name.x>: can't evaluate field x in type interface {}");
    assert_eq!(exec("{{index .status.conditions 9}}"), "template: output:1:2: executing \"output\" at <index .status.conditions 9>: error calling index: index out of range: 9");
    assert_eq!(exec("{{lt 1 2.5}}"), "template: output:1:2: executing \"output\" at <lt 1 2.5>: error calling lt: incompatible types for comparison");
    for (input, at) in [
        ("aGVsbG8", 4),
        ("aGk", 0),
        ("a===", 1),
        ("YQ==YQ==", 4),
        ("YQ=a", 2),
        ("YQ=", 3),
    ] {
        assert_eq!(base64_decode(input), Err(at), "{input}");
    }
    assert_eq!(exec(r#"{{"!!" | base64decode}}"#), "template: output:1:9: executing \"output\" at <base64decode>: error calling base64decode: base64 decode failed: illegal base64 data at input byte 0");
    assert_eq!(exec("{{range .metadata.name}}{{end}}"), "template: output:1:17: executing \"output\" at <.metadata.name>: range can't iterate over kind-worker");
}

#[test]
fn hostile_templates_are_bounded() {
    let deep = "{{if 1}}".repeat(MAX_DEPTH + 1);
    assert!(GoTemplate::parse(&deep)
        .unwrap_err()
        .contains("exceeded max depth"));
    let parens = format!(
        "{{{{{}1{}}}}}",
        "(".repeat(MAX_DEPTH + 2),
        ")".repeat(MAX_DEPTH + 2)
    );
    assert!(GoTemplate::parse(&parens)
        .unwrap_err()
        .contains("exceeded max depth"));
    // 10^6 iterations of nested ranges stop at the step limit.
    let mut data = Value::Array(vec![json!(1); 10]);
    for _ in 0..5 {
        data = Value::Array(vec![data; 10]);
    }
    let nested = format!("{}x{}", "{{range .}}".repeat(6), "{{end}}".repeat(6));
    let err = GoTemplate::parse(&nested)
        .unwrap()
        .execute(&data)
        .unwrap_err();
    assert!(err.message.contains("steps"), "{}", err.message);
    assert_eq!(run(r#"{{printf "%999999999d" 1}}"#).len(), MAX_WIDTH);
    assert_eq!(run(r#"{{printf "%.999999999f" 1.5}}"#).len(), MAX_WIDTH + 2);
}
