//! What a client asks before anything else: `/version`, API discovery (aggregated v2 with its exact
//! content type, and the legacy documents) and a small `/openapi/v3` that advertises
//! `fieldValidation`, so `kubectl apply` leaves validation to the server.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go`,
//! `staging/src/k8s.io/cli-runtime/pkg/resource/query_param_verifier_v3.go` `HasSupport`.

use dsplay_api::Kind;
use serde_json::{json, Value};

/// The content type of aggregated discovery; kubectl ignores the body under any other type.
pub const AGGREGATED_CONTENT_TYPE: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// The Kubernetes version reported (the kubectl dispatcher picks its client by the minor).
pub const GIT_VERSION: &str = "v1.32.2";

/// `/version`.
pub fn version() -> Value {
    json!({
        "major": "1",
        "minor": "32",
        "gitVersion": GIT_VERSION,
        "gitCommit": "67a30c0adcf52bd3f56ff0893ce19966be12991f",
        "gitTreeState": "clean",
        "buildDate": "2025-02-12T21:19:47Z",
        "goVersion": "go1.23.6",
        "compiler": "gc",
        "platform": "linux/amd64"
    })
}

/// The verbs every served resource supports.
const VERBS: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

/// One subresource: name, verbs, response kind, and the response's group and version (`None`: the
/// kind's own).
type Subresource = (
    &'static str,
    Vec<&'static str>,
    &'static str,
    Option<(&'static str, &'static str)>,
);

/// Subresources per kind.
fn subresources(kind: Kind) -> Vec<Subresource> {
    let status = ("status", vec!["get", "patch", "update"], kind.name(), None);
    let scale = (
        "scale",
        vec!["get", "patch", "update"],
        "Scale",
        Some(("autoscaling", "v1")),
    );
    match kind {
        Kind::Pod => vec![
            status,
            (
                "eviction",
                vec!["create"],
                "Eviction",
                Some(("policy", "v1")),
            ),
        ],
        Kind::DaemonSet
        | Kind::Node
        | Kind::Namespace
        | Kind::Service
        | Kind::PersistentVolumeClaim
        | Kind::PersistentVolume => vec![status],
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet => vec![scale, status],
        _ => vec![],
    }
}

/// The `kubectl get all` category.
fn categories(kind: Kind) -> Vec<&'static str> {
    match kind {
        Kind::Pod
        | Kind::DaemonSet
        | Kind::Deployment
        | Kind::ReplicaSet
        | Kind::StatefulSet
        | Kind::Service => vec!["all"],
        _ => vec![],
    }
}

fn group_version_of(kind: Kind) -> (&'static str, &'static str) {
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    (kind.group(), version)
}

/// The groups served, in discovery order: "" (core), apps, scheduling.k8s.io.
fn groups() -> Vec<&'static str> {
    let mut groups: Vec<&'static str> = Vec::new();
    for kind in Kind::ALL {
        if !groups.contains(&kind.group()) {
            groups.push(kind.group());
        }
    }
    groups
}

fn kinds_in(group: &str) -> impl Iterator<Item = Kind> + '_ {
    let mut kinds: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|k| k.group() == group)
        .collect();
    kinds.sort_by_key(|k| k.plural());
    kinds.into_iter()
}

fn aggregated_group(group: &str) -> Value {
    let version = kinds_in(group)
        .next()
        .map(|k| group_version_of(k).1)
        .unwrap_or("v1");
    let resources: Vec<Value> = kinds_in(group)
        .map(|kind| {
            let subs: Vec<Value> = subresources(kind)
                .into_iter()
                .map(|(name, verbs, response, other)| {
                    let (response_group, response_version) = other.unwrap_or((group, version));
                    json!({
                        "subresource": name,
                        "responseKind": {"group": response_group, "version": response_version, "kind": response},
                        "verbs": verbs,
                    })
                })
                .collect();
            json!({
                "resource": kind.plural(),
                "responseKind": {"group": group, "version": version, "kind": kind.name()},
                "scope": if kind.namespaced() { "Namespaced" } else { "Cluster" },
                "singularResource": kind.name().to_ascii_lowercase(),
                "verbs": VERBS,
                "shortNames": kind.short_names(),
                "categories": categories(kind),
                "subresources": subs,
            })
        })
        .collect();
    json!({
        "metadata": {"name": group, "creationTimestamp": null},
        "versions": [{"version": version, "resources": resources, "freshness": "Current"}],
    })
}

/// Aggregated discovery for `/api` (core) or `/apis` (named groups).
pub fn aggregated(core: bool) -> Value {
    let items: Vec<Value> = groups()
        .into_iter()
        .filter(|g| g.is_empty() == core)
        .map(aggregated_group)
        .collect();
    json!({
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": items,
    })
}

/// Legacy `/api`.
pub fn api_versions(server: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server}],
    })
}

/// Legacy `/apis`.
pub fn api_group_list() -> Value {
    let groups: Vec<Value> = groups()
        .into_iter()
        .filter(|g| !g.is_empty())
        .map(|g| {
            let gv = kinds_in(g).next().map(|k| k.api_version()).unwrap_or("");
            let version = gv.rsplit('/').next().unwrap_or("");
            let v = json!({"groupVersion": gv, "version": version});
            json!({"name": g, "versions": [v.clone()], "preferredVersion": v})
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// Legacy `/api/v1` or `/apis/GROUP/VERSION` (None if not served).
pub fn api_resource_list(group_version: &str) -> Option<Value> {
    let kinds: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|k| k.api_version() == group_version)
        .collect();
    if kinds.is_empty() {
        return None;
    }
    let mut resources = Vec::new();
    for kind in kinds {
        resources.push(json!({
            "name": kind.plural(),
            "singularName": kind.name().to_ascii_lowercase(),
            "namespaced": kind.namespaced(),
            "kind": kind.name(),
            "verbs": VERBS,
            "shortNames": kind.short_names(),
            "categories": categories(kind),
        }));
        for (name, verbs, response, other) in subresources(kind) {
            let mut entry = json!({
                "name": format!("{}/{name}", kind.plural()),
                "singularName": "",
                "namespaced": kind.namespaced(),
                "kind": response,
                "verbs": verbs,
            });
            if let Some((group, version)) = other.filter(|(g, _)| *g == "autoscaling") {
                entry["group"] = json!(group);
                entry["version"] = json!(version);
            }
            resources.push(entry);
        }
    }
    Some(json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": resources,
    }))
}

/// `/openapi/v3`: one entry per group version.
pub fn openapi_root() -> Value {
    let mut paths = serde_json::Map::new();
    for kind in Kind::ALL {
        let path = openapi_path(kind);
        paths.insert(
            path.clone(),
            json!({"serverRelativeURL": format!("/openapi/v3/{path}?hash=dsplay")}),
        );
    }
    json!({ "paths": paths })
}

fn openapi_path(kind: Kind) -> String {
    if kind.group().is_empty() {
        "api/v1".to_string()
    } else {
        format!("apis/{}", kind.api_version())
    }
}

/// The content type of the OpenAPI v2 document, which kubectl asks for as protobuf only (its
/// `@v1.0` spelling, which it sends in Accept, is not a media type Go can parse in a reply).
pub const OPENAPI_V2_CONTENT_TYPE: &str =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// `/openapi/v2`: an empty Swagger 2.0 document (`swagger: "2.0"`, protobuf field 1, no paths).
///
/// kubectl consults it only for a group version `/openapi/v3` does not list (a retired one such as
/// `extensions/v1beta1`): with no paths it finds no `fieldValidation` support and no schema, skips
/// client-side validation, and then reports the missing resource mapping as it does against a real
/// cluster. Without it kubectl stops at "error validating data".
///
/// Upstream: staging/src/k8s.io/cli-runtime/pkg/resource/query_param_verifier.go
/// (FallbackQueryParamVerifier, supportsQueryParam); gnostic openapiv2/OpenAPIv2.proto (Document).
pub fn openapi_v2_document() -> Vec<u8> {
    let swagger = b"2.0";
    let mut out = vec![0x0a, swagger.len() as u8];
    out.extend_from_slice(swagger);
    out
}

/// `/openapi/v3/api/v1` and the like: each resource's PATCH declares `fieldValidation` and its
/// group-version-kind, which is all kubectl's query parameter verifier reads.
pub fn openapi_group_version(path: &str) -> Option<Value> {
    let mut paths = serde_json::Map::new();
    for kind in Kind::ALL.into_iter().filter(|k| openapi_path(*k) == path) {
        let (group, version) = group_version_of(kind);
        let scope = if kind.namespaced() {
            "namespaces/{namespace}/"
        } else {
            ""
        };
        let item = json!({
            "patch": {
                "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": kind.name()},
                "parameters": [
                    {"name": "dryRun", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                    {"name": "fieldManager", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                    {"name": "fieldValidation", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                    {"name": "force", "in": "query", "schema": {"type": "boolean", "uniqueItems": true}},
                ],
                "responses": {"200": {"description": "OK"}},
            }
        });
        paths.insert(format!("/{path}/{scope}{}/{{name}}", kind.plural()), item);
    }
    if paths.is_empty() {
        return None;
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": GIT_VERSION},
        "paths": paths,
        "components": {"schemas": {}},
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregated_discovery_lists_short_names_per_group() {
        let core = aggregated(true);
        assert_eq!(core["items"].as_array().unwrap().len(), 1);
        let apps = aggregated(false);
        let ds = &apps["items"][0]["versions"][0]["resources"][0];
        assert_eq!(apps["items"][0]["metadata"]["name"], "apps");
        assert!(apps["items"][0]["versions"][0]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["resource"] == "daemonsets" && r["shortNames"][0] == "ds"));
        assert!(ds["verbs"].as_array().unwrap().len() >= 7);
    }

    #[test]
    fn openapi_declares_field_validation_on_patch() {
        let doc = openapi_group_version("apis/apps/v1").unwrap();
        let item = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}"];
        assert_eq!(item["patch"]["parameters"][2]["name"], "fieldValidation");
        assert!(openapi_group_version("apis/nope/v1").is_none());
        assert!(openapi_root()["paths"]["api/v1"]["serverRelativeURL"].is_string());
    }
}
