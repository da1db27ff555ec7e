//! The Service spec of a protobuf body: `kubectl create service …` posts its Service through a
//! typed client, as `application/vnd.kubernetes.protobuf`. Ports (name, protocol, port,
//! targetPort, nodePort), the selector and the scalar fields such a command sets are read; an
//! empty string is an unset field (the wire format writes Go's zero values).
//!
//! Upstream: `k8s.io/api/core/v1/generated.proto` (ServiceSpec, ServicePort),
//! `apimachinery/pkg/util/intstr/generated.proto` (IntOrString).

use crate::proto_wire::{fields, map_entry as entry, text, Field};
use serde_json::{json, Map, Value};

/// An int32 as the wire carries it (negative numbers as 64-bit two's complement).
fn int32(v: u64) -> i64 {
    i64::from(v as u32 as i32)
}

/// `IntOrString`: type 0 int, 1 string.
fn int_or_string(bytes: &[u8]) -> Option<Value> {
    let mut kind = 0;
    let (mut int, mut string) = (0i64, String::new());
    for (n, f) in fields(bytes)? {
        match (n, f) {
            (1, Field::Varint(v)) => kind = v,
            (2, Field::Varint(v)) => int = int32(v),
            (3, Field::Bytes(b)) => string = text(b),
            _ => {}
        }
    }
    Some(if kind == 1 { json!(string) } else { json!(int) })
}

fn service_port(bytes: &[u8]) -> Option<Value> {
    let mut port = Map::new();
    for (n, f) in fields(bytes)? {
        match (n, f) {
            (1, Field::Bytes(b)) if !b.is_empty() => {
                drop(port.insert("name".into(), json!(text(b))))
            }
            (2, Field::Bytes(b)) if !b.is_empty() => {
                drop(port.insert("protocol".into(), json!(text(b))))
            }
            (3, Field::Varint(v)) => drop(port.insert("port".into(), json!(int32(v)))),
            (4, Field::Bytes(b)) => {
                if let Some(target) = int_or_string(b).filter(|t| *t != json!(0) && *t != json!(""))
                {
                    port.insert("targetPort".into(), target);
                }
            }
            (5, Field::Varint(v)) if v != 0 => {
                drop(port.insert("nodePort".into(), json!(int32(v))))
            }
            _ => {}
        }
    }
    Some(Value::Object(port))
}

/// Decodes a ServiceSpec message into its JSON form; None if malformed.
pub fn decode_service_spec(bytes: &[u8]) -> Option<Value> {
    let mut spec = Map::new();
    let (mut ports, mut selector, mut external_ips) = (Vec::new(), Map::new(), Vec::new());
    let strings = [
        (3, "clusterIP"),
        (4, "type"),
        (7, "sessionAffinity"),
        (8, "loadBalancerIP"),
        (10, "externalName"),
        (11, "externalTrafficPolicy"),
        (17, "ipFamilyPolicy"),
        (22, "internalTrafficPolicy"),
    ];
    for (n, f) in fields(bytes)? {
        match (n, f) {
            (1, Field::Bytes(b)) => ports.push(service_port(b)?),
            (2, Field::Bytes(b)) => selector.extend(entry(b)),
            (5, Field::Bytes(b)) => external_ips.push(json!(text(b))),
            (13, Field::Varint(v)) => {
                drop(spec.insert("publishNotReadyAddresses".into(), json!(v != 0)))
            }
            (n, Field::Bytes(b)) if !b.is_empty() => {
                if let Some((_, key)) = strings.iter().find(|(k, _)| *k == n) {
                    spec.insert((*key).into(), json!(text(b)));
                }
            }
            _ => {}
        }
    }
    if !ports.is_empty() {
        spec.insert("ports".into(), Value::Array(ports));
    }
    if !selector.is_empty() {
        spec.insert("selector".into(), Value::Object(selector));
    }
    if !external_ips.is_empty() {
        spec.insert("externalIPs".into(), Value::Array(external_ips));
    }
    Some(Value::Object(spec))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u64, wire: u64) -> Vec<u8> {
        vec![((n << 3) | wire) as u8]
    }

    fn bytes(n: u64, payload: &[u8]) -> Vec<u8> {
        let mut out = key(n, 2);
        out.push(payload.len() as u8);
        out.extend_from_slice(payload);
        out
    }

    fn int(n: u64, v: u8) -> Vec<u8> {
        let mut out = key(n, 0);
        out.push(v);
        out
    }

    #[test]
    fn a_service_spec_from_kubectl_create_service() {
        let target = [int(1, 0), int(2, 80)].concat();
        let port = [
            bytes(1, b"5678-80"),
            bytes(2, b"TCP"),
            int(3, 100),
            bytes(4, &target),
            int(5, 0),
        ]
        .concat();
        let selector = [bytes(1, b"app"), bytes(2, b"my-svc")].concat();
        let spec = [
            bytes(1, &port),
            bytes(2, &selector),
            bytes(3, b""),
            bytes(4, b"ClusterIP"),
            bytes(7, b""),
        ]
        .concat();
        assert_eq!(
            decode_service_spec(&spec),
            Some(json!({
                "ports": [{"name": "5678-80", "protocol": "TCP", "port": 100, "targetPort": 80}],
                "selector": {"app": "my-svc"},
                "type": "ClusterIP",
            }))
        );
    }
}
