//! The `scale` subresource of Deployments, ReplicaSets and StatefulSets (`autoscaling/v1`
//! `Scale`): what `kubectl scale` reads and patches.
//!
//! Upstream: `pkg/registry/apps/deployment/storage/storage.go` `ScaleREST`,
//! `scaleFromDeployment`; `pkg/registry/apps/replicaset/storage/storage.go`;
//! `pkg/registry/apps/statefulset/storage/storage.go`.

use crate::patch::{apply_patch, PatchType};
use crate::status::{self, Reply};
use dsplay_api::selector::format_label_selector;
use dsplay_api::{Kind, Object};
use dsplay_sim::{ApiError, Cluster};
use serde_json::{json, Value};

/// The `Scale` view of a Deployment, ReplicaSet or StatefulSet.
fn scale_of(object: &Object) -> Option<Value> {
    let (spec_replicas, status_replicas, selector) = match object {
        Object::Deployment(d) => (
            d.spec.as_ref().and_then(|s| s.replicas).unwrap_or(0),
            d.status.as_ref().and_then(|s| s.replicas).unwrap_or(0),
            d.spec.as_ref().map(|s| &s.selector),
        ),
        Object::ReplicaSet(rs) => (
            rs.spec.as_ref().and_then(|s| s.replicas).unwrap_or(0),
            rs.status.as_ref().map_or(0, |s| s.replicas),
            rs.spec.as_ref().map(|s| &s.selector),
        ),
        Object::StatefulSet(sts) => (
            sts.spec.as_ref().and_then(|s| s.replicas).unwrap_or(0),
            sts.status.as_ref().map_or(0, |s| s.replicas),
            sts.spec.as_ref().map(|s| &s.selector),
        ),
        _ => return None,
    };
    let meta = object.metadata();
    Some(json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": meta.name,
            "namespace": meta.namespace,
            "uid": meta.uid,
            "resourceVersion": meta.resource_version,
            "creationTimestamp": meta.creation_timestamp,
        },
        "spec": {"replicas": spec_replicas},
        "status": {"replicas": status_replicas, "selector": format_label_selector(selector).replace("<none>", "")},
    }))
}

fn not_found(kind: Kind, name: &str) -> Reply {
    status::from_api_error(&ApiError::NotFound {
        kind,
        name: name.to_string(),
    })
}

/// `GET …/NAME/scale`.
pub fn get(cluster: &Cluster, kind: Kind, namespace: &str, name: &str) -> Reply {
    match cluster
        .store()
        .get(kind, namespace, name)
        .as_ref()
        .and_then(scale_of)
    {
        Some(scale) => Reply::json(&scale),
        None => not_found(kind, name),
    }
}

/// `PATCH` or `PUT …/NAME/scale`: the new `spec.replicas` goes into the object.
pub fn write(
    cluster: &mut Cluster,
    kind: Kind,
    namespace: &str,
    name: &str,
    body: &[u8],
    patch_type: Option<PatchType>,
) -> Reply {
    let Some(object) = cluster.store().get(kind, namespace, name) else {
        return not_found(kind, name);
    };
    let Some(current) = scale_of(&object) else {
        return not_found(kind, name);
    };
    let wanted = match patch_type {
        Some(t) => apply_patch(&current, body, t),
        None => serde_json::from_slice::<Value>(body).map_err(|e| e.to_string()),
    };
    let replicas = match wanted.map(|v| v.pointer("/spec/replicas").and_then(Value::as_i64)) {
        Ok(Some(r)) => r,
        Ok(None) => 0,
        Err(e) => return status::bad_request(&e),
    };
    let mut object = object;
    match &mut object {
        Object::Deployment(d) => {
            d.spec.get_or_insert_with(Default::default).replicas = Some(replicas as i32)
        }
        Object::ReplicaSet(rs) => {
            rs.spec.get_or_insert_with(Default::default).replicas = Some(replicas as i32)
        }
        Object::StatefulSet(sts) => {
            sts.spec.get_or_insert_with(Default::default).replicas = Some(replicas as i32)
        }
        _ => {}
    }
    match cluster.update(object) {
        Ok(updated) => Reply::json(&scale_of(&updated).unwrap_or(Value::Null)),
        Err(e) => status::from_api_error(&e),
    }
}
