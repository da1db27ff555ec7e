//! The protobuf Deployment `kubectl create deployment` posts through its typed client: the spec
//! fields that command can fill (replicas, the selector's matchLabels, the template's labels and
//! containers with name, image, command, args and container ports), decoded by hand like
//! [`crate::proto`].
//!
//! Upstream: `k8s.io/api/apps/v1/generated.proto` (DeploymentSpec), `k8s.io/api/core/v1/
//! generated.proto` (PodTemplateSpec, PodSpec, Container, ContainerPort),
//! `apimachinery/pkg/apis/meta/v1/generated.proto` (LabelSelector).

use serde_json::{json, Map, Value};

/// A field's payload: a varint or length-delimited bytes.
enum Payload<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
}

fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

fn fields(bytes: &[u8]) -> Option<Vec<(u64, Payload<'_>)>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let key = varint(bytes, &mut at)?;
        match key & 7 {
            0 => out.push((key >> 3, Payload::Varint(varint(bytes, &mut at)?))),
            2 => {
                let len = usize::try_from(varint(bytes, &mut at)?).ok()?;
                let end = at.checked_add(len).filter(|e| *e <= bytes.len())?;
                out.push((key >> 3, Payload::Bytes(&bytes[at..end])));
                at = end;
            }
            _ => return None,
        }
    }
    Some(out)
}

fn text(bytes: &[u8]) -> Value {
    Value::String(String::from_utf8_lossy(bytes).into_owned())
}

fn string_map(entries: &[&[u8]]) -> Option<Value> {
    let mut map = Map::new();
    for entry in entries {
        let f = fields(entry)?;
        let (mut key, mut value) = (String::new(), json!(""));
        for (n, p) in f {
            match (n, p) {
                (1, Payload::Bytes(b)) => key = String::from_utf8_lossy(b).into_owned(),
                (2, Payload::Bytes(b)) => value = text(b),
                _ => {}
            }
        }
        map.insert(key, value);
    }
    Some(Value::Object(map))
}

fn labels_of(meta: &[u8]) -> Option<Value> {
    let entries: Vec<&[u8]> = fields(meta)?
        .into_iter()
        .filter_map(|(n, p)| match (n, p) {
            (11, Payload::Bytes(b)) => Some(b),
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
        let Payload::Bytes(b) = p else { continue };
        match n {
            1 | 2 if b.is_empty() => {}
            1 => drop(c.insert("name".into(), text(b))),
            2 => drop(c.insert("image".into(), text(b))),
            3 => command.push(text(b)),
            4 => args.push(text(b)),
            6 => {
                let mut port = Map::new();
                for (n, p) in fields(b)? {
                    match (n, p) {
                        (1 | 4, Payload::Bytes([])) => {}
                        (1, Payload::Bytes(b)) => drop(port.insert("name".into(), text(b))),
                        (3, Payload::Varint(v)) => {
                            drop(port.insert("containerPort".into(), json!(v)))
                        }
                        (4, Payload::Bytes(b)) => drop(port.insert("protocol".into(), text(b))),
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
            (1, Payload::Varint(v)) => drop(spec.insert("replicas".into(), json!(v as i32))),
            (2, Payload::Bytes(b)) => {
                let entries: Vec<&[u8]> = fields(b)?
                    .into_iter()
                    .filter_map(|(n, p)| match (n, p) {
                        (1, Payload::Bytes(b)) => Some(b),
                        _ => None,
                    })
                    .collect();
                spec.insert(
                    "selector".into(),
                    json!({"matchLabels": string_map(&entries)?}),
                );
            }
            (3, Payload::Bytes(b)) => {
                let mut template = Map::new();
                for (n, p) in fields(b)? {
                    match (n, p) {
                        (1, Payload::Bytes(meta)) => {
                            if let Some(labels) = labels_of(meta) {
                                template.insert("metadata".into(), json!({"labels": labels}));
                            }
                        }
                        (2, Payload::Bytes(pod_spec)) => {
                            let mut containers = Vec::new();
                            for (n, p) in fields(pod_spec)? {
                                if let (2, Payload::Bytes(c)) = (n, p) {
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
            (5, Payload::Varint(v)) if v != 0 => {
                drop(spec.insert("minReadySeconds".into(), json!(v as i32)))
            }
            _ => {}
        }
    }
    Some(Value::Object(spec))
}
