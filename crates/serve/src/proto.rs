//! The protobuf bodies kubectl commands send: `kubectl create namespace NAME` posts a Namespace
//! (and `kubectl create deployment` a Deployment, see [`crate::proto_apps`]) through a typed
//! client, as `application/vnd.kubernetes.protobuf`, and does not retry as JSON.
//! Only the envelope and the ObjectMeta fields such a body can carry (name, generateName, labels,
//! annotations) are read, with [`crate::proto_wire`].
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go`
//! (the `k8s\0` prefix and `runtime.Unknown`), `k8s.io/api/core/v1/generated.proto` (Namespace),
//! `apimachinery/pkg/apis/meta/v1/generated.proto` (ObjectMeta field numbers).

use crate::proto_wire::{map_entry as entry, Field};
use serde_json::{Map, Value};

/// The (field number, payload) pairs of a message's length-delimited fields.
fn fields(bytes: &[u8]) -> Option<Vec<(u64, &[u8])>> {
    let all = crate::proto_wire::fields(bytes)?;
    Some(
        all.into_iter()
            .filter_map(|(n, f)| match f {
                Field::Bytes(b) => Some((n, b)),
                Field::Varint(_) => None,
            })
            .collect(),
    )
}

fn text(bytes: &[u8]) -> Value {
    Value::String(crate::proto_wire::text(bytes))
}

/// Decodes a protobuf-encoded object into JSON (apiVersion, kind, metadata); None if malformed.
pub fn decode(body: &[u8]) -> Option<Value> {
    let unknown = fields(body.strip_prefix(b"k8s\0")?)?;
    let type_meta = fields(unknown.iter().find(|(n, _)| *n == 1)?.1)?;
    let raw = fields(unknown.iter().find(|(n, _)| *n == 2)?.1)?;
    let mut object = Map::new();
    for (n, key) in [(1, "apiVersion"), (2, "kind")] {
        if let Some((_, b)) = type_meta.iter().find(|(f, _)| *f == n) {
            object.insert(key.into(), text(b));
        }
    }
    let mut metadata = Map::new();
    let (mut labels, mut annotations) = (Map::new(), Map::new());
    if let Some((_, meta)) = raw.iter().find(|(n, _)| *n == 1) {
        for (n, b) in fields(meta)? {
            match n {
                // gogo-protobuf writes empty strings too (Go's zero values): unset fields, which
                // JSON omits.
                _ if b.is_empty() => {}
                1 => drop(metadata.insert("name".into(), text(b))),
                2 => drop(metadata.insert("generateName".into(), text(b))),
                3 => drop(metadata.insert("namespace".into(), text(b))),
                11 => labels.extend(entry(b)),
                12 => annotations.extend(entry(b)),
                _ => {}
            }
        }
    }
    if !labels.is_empty() {
        metadata.insert("labels".into(), Value::Object(labels));
    }
    if !annotations.is_empty() {
        metadata.insert("annotations".into(), Value::Object(annotations));
    }
    object.insert("metadata".into(), Value::Object(metadata));
    // The spec of the kinds the real kubectl creates typed (`create deployment`, `create service`).
    if let Some((_, spec)) = raw.iter().find(|(n, _)| *n == 2) {
        let decoded = match object.get("kind").and_then(Value::as_str) {
            Some("Deployment") => Some(crate::proto_apps::deployment_spec(spec)?),
            Some("Service") => Some(crate::proto_service::decode_service_spec(spec)?),
            _ => None,
        };
        if let Some(decoded) = decoded {
            object.insert("spec".into(), decoded);
        }
    }
    Some(Value::Object(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field(n: u8, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![(n << 3) | 2, payload.len() as u8];
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn a_namespace_from_kubectl_create_namespace() {
        let type_meta = [field(1, b"v1"), field(2, b"Namespace")].concat();
        let meta = field(
            1,
            &[
                field(1, b"team-a"),
                field(11, &[field(1, b"a"), field(2, b"b")].concat()),
            ]
            .concat(),
        );
        let body = [b"k8s\0".to_vec(), field(1, &type_meta), field(2, &meta)].concat();
        assert_eq!(
            decode(&body).unwrap(),
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a", "labels": {"a": "b"}}})
        );
        assert_eq!(decode(b"k8s\0\x0a\xff"), None);
        assert_eq!(decode(b"{}"), None);
    }
}
