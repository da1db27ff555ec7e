//! The protobuf Deployment `kubectl create deployment` posts through its typed client: the spec
//! fields that command can fill (replicas, the selector's matchLabels, the template's labels and
//! containers with name, image, command, args and container ports), decoded by hand like
//! [`crate::proto`].
//!
//! Upstream: `k8s.io/api/apps/v1/generated.proto` (DeploymentSpec), `k8s.io/api/core/v1/
//! generated.proto` (PodTemplateSpec, PodSpec, Container, ContainerPort),
//! `apimachinery/pkg/apis/meta/v1/generated.proto` (LabelSelector).

use crate::proto_wire::{fields, map_entry, text, Field};
use serde_json::{json, Map, Value};

fn string_map(entries: &[&[u8]]) -> Option<Value> {
    let mut map = Map::new();
    for entry in entries {
        let (key, value) = map_entry(entry)?;
        map.insert(key, value);
    }
    Some(Value::Object(map))
}

fn labels_of(meta: &[u8]) -> Option<Value> {
    let entries: Vec<&[u8]> = fields(meta)?
        .into_iter()
        .filter_map(|(n, p)| match (n, p) {
            (11, Field::Bytes(b)) => Some(b),
            _ => None,
        })
        .collect();
    (!entries.is_empty())
        .then(|| string_map(&entries))
        .flatten()
}

fn container(bytes: &[u8]) -> Option<Value> {
    let mut c = Map::new();
    let (mut command, mut args, mut ports) = (Vec::new(), Vec::new(), Vec::new());
    for (n, p) in fields(bytes)? {
        let Field::Bytes(b) = p else { continue };
        match n {
            1 | 2 if b.is_empty() => {}
            1 => drop(c.insert("name".into(), json!(text(b)))),
            2 => drop(c.insert("image".into(), json!(text(b)))),
            3 => command.push(json!(text(b))),
            4 => args.push(json!(text(b))),
            6 => {
                let mut port = Map::new();
                for (n, p) in fields(b)? {
                    match (n, p) {
                        (1 | 4, Field::Bytes([])) => {}
                        (1, Field::Bytes(b)) => drop(port.insert("name".into(), json!(text(b)))),
                        (3, Field::Varint(v)) => {
                            drop(port.insert("containerPort".into(), json!(v)))
                        }
                        (4, Field::Bytes(b)) => {
                            drop(port.insert("protocol".into(), json!(text(b))))
                        }
                        _ => {}
                    }
                }
                ports.push(Value::Object(port));
            }
            _ => {}
        }
    }
    for (key, list) in [("command", command), ("args", args), ("ports", ports)] {
        if !list.is_empty() {
            c.insert(key.into(), Value::Array(list));
        }
    }
    Some(Value::Object(c))
}

/// The JSON `spec` of a protobuf DeploymentSpec (the fields `kubectl create deployment` sets).
pub fn deployment_spec(bytes: &[u8]) -> Option<Value> {
    let mut spec = Map::new();
    for (n, p) in fields(bytes)? {
        match (n, p) {
            (1, Field::Varint(v)) => drop(spec.insert("replicas".into(), json!(v as i32))),
            (2, Field::Bytes(b)) => {
                let entries: Vec<&[u8]> = fields(b)?
                    .into_iter()
                    .filter_map(|(n, p)| match (n, p) {
                        (1, Field::Bytes(b)) => Some(b),
                        _ => None,
                    })
                    .collect();
                spec.insert(
                    "selector".into(),
                    json!({"matchLabels": string_map(&entries)?}),
                );
            }
            (3, Field::Bytes(b)) => {
                let mut template = Map::new();
                for (n, p) in fields(b)? {
                    match (n, p) {
                        (1, Field::Bytes(meta)) => {
                            if let Some(labels) = labels_of(meta) {
                                template.insert("metadata".into(), json!({"labels": labels}));
                            }
                        }
                        (2, Field::Bytes(pod_spec)) => {
                            let mut containers = Vec::new();
                            for (n, p) in fields(pod_spec)? {
                                if let (2, Field::Bytes(c)) = (n, p) {
                                    containers.push(container(c)?);
                                }
                            }
                            template.insert("spec".into(), json!({"containers": containers}));
                        }
                        _ => {}
                    }
                }
                spec.insert("template".into(), Value::Object(template));
            }
            (5, Field::Varint(v)) if v != 0 => {
                drop(spec.insert("minReadySeconds".into(), json!(v as i32)))
            }
            _ => {}
        }
    }
    Some(Value::Object(spec))
}
