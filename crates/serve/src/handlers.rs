//! The HTTP front: one request in, one reply out (watches hand over to [`crate::watch`]), and the
//! verbs on resources: get, list (labelSelector, fieldSelector, Table), create, update, patch,
//! delete, pod eviction, `dryRun=All`, plus `POST /dsplay/v1/sim` for `dsplay sim --server`.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{get,create,update,patch,delete}.go`.

use crate::discovery;
use crate::patch::{apply_patch, PatchType};
use crate::routes::{resource_path, Query, ResourcePath};
use crate::state::{Shared, State};
use crate::status::{self, Reply};
use crate::tables;
use dsplay_api::manifest::{decode_value, parse_manifest_bytes, Manifest};
use dsplay_api::{fields, selector, Kind, Object};
use dsplay_sim::{ApiError, Cluster, DeleteOptions, Propagation};
use serde_json::{json, Value};
use std::io::Read;
use std::sync::Arc;

/// The largest request body accepted (the API server's limit is 3 MiB).
const MAX_BODY: u64 = 3 * 1024 * 1024;

/// One parsed request.
#[derive(Clone, Debug)]
pub struct Request {
    /// GET, POST…
    pub method: String,
    /// The path, without the query string.
    pub path: String,
    /// The query string.
    pub query: Query,
    /// The Accept header ("" if none).
    pub accept: String,
    /// The Content-Type header ("" if none).
    pub content_type: String,
    /// The body.
    pub body: Vec<u8>,
    /// The Host header, for legacy discovery's server address.
    pub host: String,
}

fn header(request: &tiny_http::Request, name: &str) -> String {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str().to_string())
        .unwrap_or_default()
}

/// Serves one HTTP request.
pub fn serve(shared: &Arc<Shared>, mut request: tiny_http::Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let mut body = Vec::new();
    let _ = request.as_reader().take(MAX_BODY).read_to_end(&mut body);
    let parsed = Request {
        method: request.method().as_str().to_ascii_uppercase(),
        path: path.to_string(),
        query: Query::parse(query),
        accept: header(&request, "Accept"),
        content_type: header(&request, "Content-Type"),
        body,
        host: header(&request, "Host"),
    };
    if parsed.method == "GET" && parsed.query.flag("watch") {
        if let Some(resource) = resource_path(&parsed.path) {
            crate::watch::serve(shared, request, resource, &parsed);
            return;
        }
    }
    let (reply, mut warnings) = route(shared, &parsed);
    // A deprecated kind's warning comes with every request on it, first (the API server's
    // deprecation filter wraps the handler).
    if let Some(text) = resource_path(&parsed.path).and_then(|r| r.kind.deprecation_warning()) {
        warnings.insert(0, text.to_string());
    }
    let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.code);
    let headers = std::iter::once(("Content-Type", reply.content_type.to_string())).chain(
        warnings.iter().map(|w| {
            (
                "Warning",
                format!("299 - {}", serde_json::Value::from(w.as_str())),
            )
        }),
    );
    for (name, value) in headers {
        if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    let _ = request.respond(response);
}

/// A reply plus `Warning:` headers (unknown fields under `fieldValidation=Warn`).
type Routed = (Reply, Vec<String>);

/// Routes a request to discovery, the sim endpoint or a resource verb.
pub fn route(shared: &Shared, req: &Request) -> Routed {
    let path = req.path.trim_end_matches('/');
    let get = req.method == "GET";
    let plain = |reply| (reply, Vec::new());
    match path {
        "/version" if get => return plain(Reply::json(&discovery::version())),
        "/api" | "/apis" if get => {
            let core = path == "/api";
            let reply = if req.accept.contains("as=APIGroupDiscoveryList") {
                Reply::json_with(
                    200,
                    discovery::AGGREGATED_CONTENT_TYPE,
                    &discovery::aggregated(core),
                )
            } else if core {
                Reply::json(&discovery::api_versions(&req.host))
            } else {
                Reply::json(&discovery::api_group_list())
            };
            return plain(reply);
        }
        "/openapi/v3" if get => return plain(Reply::json(&discovery::openapi_root())),
        "/openapi/v2" if get => {
            return plain(Reply {
                code: 200,
                content_type: discovery::OPENAPI_V2_CONTENT_TYPE,
                body: discovery::openapi_v2_document(),
            })
        }
        "/dsplay/v1/sim" if req.method == "POST" => return plain(sim(shared, &req.body)),
        _ => {}
    }
    if get {
        if let Some(gv) = path
            .strip_prefix("/api/")
            .or_else(|| path.strip_prefix("/apis/"))
        {
            if let Some(list) = discovery::api_resource_list(gv) {
                return plain(Reply::json(&list));
            }
        }
        if let Some(kind) = unmodelled_empty_list(path) {
            return plain(Reply::json(&json!({
                "kind": kind,
                "apiVersion": "v1",
                "metadata": {"resourceVersion": "1"},
                "items": [],
            })));
        }
        if let Some(name) = path.strip_prefix(crate::lease::PREFIX) {
            return plain(shared.read(|state| crate::lease::get(state.cluster(), name)));
        }
        if let Some(doc) = path
            .strip_prefix("/openapi/v3/")
            .and_then(discovery::openapi_group_version)
        {
            return plain(Reply::json(&doc));
        }
    }
    if req
        .content_type
        .starts_with("application/vnd.kubernetes.protobuf")
    {
        return match crate::proto::decode(&req.body) {
            Some(json) => {
                let mut as_json = req.clone();
                as_json.content_type = "application/json".into();
                as_json.body = serde_json::to_vec(&json).unwrap_or_default();
                route(shared, &as_json)
            }
            None => plain(status::failure(
                415,
                "UnsupportedMediaType",
                &format!("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got {})", req.content_type),
                json!({}),
            )),
        };
    }
    match resource_path(path) {
        Some(resource) => shared.with(|state| resource_verb(state, &resource, req)),
        None => plain(status::page_not_found()),
    }
}

/// The list kind for a namespace's ResourceQuotas or LimitRanges: kinds a fresh kind cluster has
/// none of and the playground does not model. `kubectl describe namespace` lists both, and prints
/// its "No resource quota." / "No LimitRange resource." lines only when the lists come back.
fn unmodelled_empty_list(path: &str) -> Option<&'static str> {
    let rest = path.strip_prefix("/api/v1/namespaces/")?;
    match rest.split_once('/')?.1 {
        "resourcequotas" => Some("ResourceQuotaList"),
        "limitranges" => Some("LimitRangeList"),
        _ => None,
    }
}

/// `POST /dsplay/v1/sim`: the body is one `sim …` command; the reply its output chunks.
fn sim(shared: &Shared, body: &[u8]) -> Reply {
    let script = String::from_utf8_lossy(body);
    if !script.trim_start().starts_with("sim ") && script.trim() != "sim" {
        return status::bad_request("only sim commands are run here; use the API for kubectl");
    }
    let outputs = shared.with(|state| state.session_mut().execute(&script));
    let chunks: Vec<Value> = outputs
        .iter()
        .flat_map(|o| &o.chunks)
        .map(|c| {
            json!({
                "stream": if c.stream == dsplay_kubectl::Stream::Stdout { "stdout" } else { "stderr" },
                "text": c.text,
            })
        })
        .collect();
    let success = outputs.iter().all(|o| o.success);
    Reply::json(&json!({"chunks": chunks, "success": success}))
}

fn resource_verb(state: &mut State, resource: &ResourcePath, req: &Request) -> Routed {
    let plain = |reply| (reply, Vec::new());
    let namespace = resource.namespace.clone().unwrap_or_default();
    if resource.kind.namespaced() != resource.namespace.is_some() && resource.name.is_some() {
        return plain(status::page_not_found());
    }
    let sub = resource.subresource.as_deref();
    match (req.method.as_str(), &resource.name, sub) {
        ("GET", None, None) => plain(list(state, resource, req)),
        ("GET", Some(name), None | Some("status")) => {
            plain(get(state, resource.kind, &namespace, name, req))
        }
        ("POST", None, None) => write(state, req, |cluster, manifest| {
            let mut object = manifest.object;
            if resource.kind.namespaced() {
                let meta = object.metadata_mut();
                if meta
                    .namespace
                    .as_deref()
                    .is_some_and(|ns| !ns.is_empty() && ns != namespace)
                {
                    return Err(ApiError::BadRequest("the namespace of the provided object does not match the namespace sent on the request".into()));
                }
                meta.namespace = Some(namespace.clone());
            }
            if object.kind() != resource.kind {
                return Err(ApiError::BadRequest(format!(
                    "the API version in the data ({}) does not match the expected API version ({})",
                    object.kind().api_version(),
                    resource.kind.api_version()
                )));
            }
            cluster.create(object).map(|o| (201, o))
        }),
        ("PUT", Some(_), None) => write(state, req, |cluster, manifest| {
            cluster.update(manifest.object).map(|o| (200, o))
        }),
        ("PATCH", Some(name), None) => patch(state, resource.kind, &namespace, name, req),
        ("DELETE", Some(name), None) => plain(delete(state, resource.kind, &namespace, name, req)),
        ("POST", Some(name), Some("eviction")) if resource.kind == Kind::Pod => {
            plain(evict(state, &namespace, name))
        }
        ("GET", Some(name), Some("log")) if resource.kind == Kind::Pod => {
            let options = req.query.log_options(state.cluster().now());
            plain(
                match dsplay_sim::pod_log::pod_log(state.cluster(), &namespace, name, &options) {
                    Ok(text) => Reply {
                        code: 200,
                        content_type: "text/plain",
                        body: text.into_bytes(),
                    },
                    Err(e) => status::from_api_error(&e),
                },
            )
        }
        ("GET", Some(name), Some("scale"))
            if matches!(
                resource.kind,
                Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
            ) =>
        {
            plain(crate::scale::get(
                state.cluster(),
                resource.kind,
                &namespace,
                name,
            ))
        }
        ("PATCH" | "PUT", Some(name), Some("scale"))
            if matches!(
                resource.kind,
                Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
            ) =>
        {
            let patch_type = if req.method == "PATCH" {
                match PatchType::from_content_type(&req.content_type) {
                    Some(t) => Some(t),
                    None => return plain(status::bad_request("unsupported patch type")),
                }
            } else {
                None
            };
            let (kind, body) = (resource.kind, req.body.clone());
            plain(
                match on_cluster(state, &req.query, |cluster| {
                    Ok(crate::scale::write(
                        cluster, kind, &namespace, name, &body, patch_type,
                    ))
                }) {
                    Ok(reply) => reply,
                    Err(e) => status::from_api_error(&e),
                },
            )
        }
        // A subresource the kind does not have (`daemonsets/x/scale`): no route serves it.
        (_, Some(_), Some(sub)) if !matches!(sub, "status" | "eviction") => {
            plain(status::page_not_found())
        }
        (method, _, _) => plain(status::method_not_allowed(method)),
    }
}

/// Objects matching the request's path and selectors (for lists and watches), in store order;
/// Err: a 400 for a bad selector or a field the kind cannot select on.
pub fn select(state: &State, resource: &ResourcePath, query: &Query) -> Result<Vec<Object>, Reply> {
    let labels = match query.get("labelSelector").filter(|s| !s.is_empty()) {
        Some(text) => Some(selector::parse(text).map_err(|e| status::bad_request(&e))?),
        None => None,
    };
    let terms = fields::parse(query.get("fieldSelector").unwrap_or(""))
        .map_err(|e| status::bad_request(&e))?;
    if let Some((key, _, _)) = terms
        .iter()
        .find(|(k, _, _)| !fields::supported(resource.kind, k))
    {
        return Err(status::bad_request(&format!(
            "field label not supported: {key}"
        )));
    }
    let empty = Default::default();
    Ok(state
        .cluster()
        .store()
        .list(resource.kind)
        .into_iter()
        .filter(|o| {
            let meta = o.metadata();
            resource
                .namespace
                .as_deref()
                .is_none_or(|ns| meta.namespace.as_deref() == Some(ns))
                && labels
                    .as_ref()
                    .is_none_or(|l| l.matches(meta.labels.as_ref().unwrap_or(&empty)))
                && fields::matches(o, &terms)
        })
        .collect())
}

fn list(state: &State, resource: &ResourcePath, req: &Request) -> Reply {
    let objects = match select(state, resource, &req.query) {
        Ok(objects) => objects,
        Err(reply) => return reply,
    };
    let rv = state.cluster().store().resource_version();
    if tables::wants_table(&req.accept) {
        let include = req.query.get("includeObject").unwrap_or("Metadata");
        return Reply::json(&tables::table(
            resource.kind,
            &objects,
            state.cluster().now(),
            include,
            rv,
        ));
    }
    let items: Vec<Value> = objects.iter().map(Object::to_json).collect();
    Reply::json(&json!({
        "kind": format!("{}List", resource.kind.name()),
        "apiVersion": resource.kind.api_version(),
        "metadata": {"resourceVersion": rv.to_string()},
        "items": items,
    }))
}

fn get(state: &State, kind: Kind, namespace: &str, name: &str, req: &Request) -> Reply {
    let Some(object) = state.cluster().store().get(kind, namespace, name) else {
        return status::from_api_error(&ApiError::NotFound {
            kind,
            name: name.to_string(),
        });
    };
    if tables::wants_table(&req.accept) {
        let include = req.query.get("includeObject").unwrap_or("Metadata");
        let rv = state.cluster().store().resource_version();
        return Reply::json(&tables::table(
            kind,
            &[object],
            state.cluster().now(),
            include,
            rv,
        ));
    }
    Reply::json(&object.to_json())
}

/// `fieldValidation`: Strict rejects unknown fields, Warn (kubectl's default for unknown servers)
/// returns them as warnings, Ignore drops them.
fn check_fields(manifest: &Manifest, query: &Query) -> Result<Vec<String>, ApiError> {
    if manifest.unknown_fields.is_empty() {
        return Ok(Vec::new());
    }
    let unknown: Vec<String> = manifest
        .unknown_fields
        .iter()
        .map(|f| format!("unknown field \"{f}\""))
        .collect();
    match query.get("fieldValidation").unwrap_or("Warn") {
        "Strict" => {
            let kind = manifest.object.kind();
            let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
            Err(ApiError::BadRequest(format!(
                "{} in version \"{version}\" cannot be handled as a {}: strict decoding error: {}",
                kind.name(),
                kind.name(),
                unknown.join(", ")
            )))
        }
        "Ignore" => Ok(Vec::new()),
        _ => Ok(unknown),
    }
}

/// Runs a write on the cluster, or on a copy of it with `dryRun=All`.
fn on_cluster<T>(
    state: &mut State,
    query: &Query,
    f: impl FnOnce(&mut Cluster) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    if query.get("dryRun") == Some("All") {
        let mut copy = state.scratch_cluster();
        f(&mut copy)
    } else {
        f(state.cluster_mut())
    }
}

fn write(
    state: &mut State,
    req: &Request,
    f: impl FnOnce(&mut Cluster, Manifest) -> Result<(u16, Object), ApiError>,
) -> Routed {
    let mut documents = parse_manifest_bytes(&req.body);
    let manifest = match (documents.pop(), documents.is_empty()) {
        (Some(Ok(manifest)), true) => manifest,
        (Some(Err(e)), true) => return (status::bad_request(&e.to_string()), Vec::new()),
        _ => {
            return (
                status::bad_request("the body must be one object"),
                Vec::new(),
            )
        }
    };
    let warnings = match check_fields(&manifest, &req.query) {
        Ok(w) => w,
        Err(e) => return (status::from_api_error(&e), Vec::new()),
    };
    match on_cluster(state, &req.query, |cluster| f(cluster, manifest)) {
        Ok((code, object)) => (
            Reply::json_with(code, "application/json", &object.to_json()),
            warnings,
        ),
        Err(e) => (status::from_api_error(&e), Vec::new()),
    }
}

fn patch(state: &mut State, kind: Kind, namespace: &str, name: &str, req: &Request) -> Routed {
    let Some(patch_type) = PatchType::from_content_type(&req.content_type) else {
        return (
            status::failure(
                415,
                "UnsupportedMediaType",
                &format!("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {})", req.content_type),
                json!({}),
            ),
            Vec::new(),
        );
    };
    let existing = state.cluster().store().get(kind, namespace, name);
    let original = match (&existing, patch_type) {
        (Some(object), _) => object.to_json(),
        (None, PatchType::Apply) => json!({}),
        (None, _) => {
            return (
                status::from_api_error(&ApiError::NotFound {
                    kind,
                    name: name.to_string(),
                }),
                Vec::new(),
            )
        }
    };
    let patched = match apply_patch(&original, &req.body, patch_type) {
        Ok(v) => v,
        Err(e) => return (status::bad_request(&e), Vec::new()),
    };
    let manifest = match serde_yaml::to_value(&patched)
        .map_err(|e| e.to_string())
        .and_then(|v| decode_value(v).map_err(|e| e.to_string()))
    {
        Ok(m) => m,
        Err(e) => return (status::bad_request(&e), Vec::new()),
    };
    let warnings = match check_fields(&manifest, &req.query) {
        Ok(w) => w,
        Err(e) => return (status::from_api_error(&e), Vec::new()),
    };
    let mut object = manifest.object;
    if kind.namespaced() {
        object.metadata_mut().namespace = Some(namespace.to_string());
    }
    let created = existing.is_none();
    let result = on_cluster(state, &req.query, |cluster| {
        if created {
            cluster.create(object)
        } else {
            cluster.update(object)
        }
    });
    match result {
        Ok(o) => (
            Reply::json_with(
                if created { 201 } else { 200 },
                "application/json",
                &o.to_json(),
            ),
            warnings,
        ),
        Err(e) => (status::from_api_error(&e), Vec::new()),
    }
}

fn delete(state: &mut State, kind: Kind, namespace: &str, name: &str, req: &Request) -> Reply {
    let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let policy = body["propagationPolicy"]
        .as_str()
        .or(req.query.get("propagationPolicy"));
    let propagation = match policy {
        Some("Foreground") => Propagation::Foreground,
        Some("Orphan") => Propagation::Orphan,
        _ => Propagation::Background,
    };
    let grace_period_seconds = body["gracePeriodSeconds"].as_i64().or_else(|| {
        req.query
            .get("gracePeriodSeconds")
            .and_then(|g| g.parse().ok())
    });
    let options = DeleteOptions {
        propagation,
        grace_period_seconds,
    };
    let before = state.cluster().store().get(kind, namespace, name);
    let query = req.query.clone();
    let result = on_cluster(state, &query, |cluster| {
        cluster.delete(kind, namespace, name, options)?;
        Ok(cluster.store().get(kind, namespace, name))
    });
    match result {
        Ok(Some(still_there)) => Reply::json(&still_there.to_json()),
        Ok(None) => Reply::json(&before.map(|o| o.to_json()).unwrap_or(Value::Null)),
        Err(e) => status::from_api_error(&e),
    }
}

/// `POST …/pods/NAME/eviction` (no PodDisruptionBudgets are simulated, so it always deletes). With
/// the manual clock the pod's graceful termination runs to its end before the reply, as the
/// in-process `drain` waits for it: `kubectl drain` polls the pod in wall time and would otherwise
/// wait forever.
fn evict(state: &mut State, namespace: &str, name: &str) -> Reply {
    let manual = state.clock == crate::clock::ClockMode::Manual;
    let cluster = state.cluster_mut();
    match cluster.delete(Kind::Pod, namespace, name, DeleteOptions::default()) {
        Ok(()) => {
            while manual && cluster.store().pod(namespace, name).is_some() && cluster.step() {}
            Reply::json_with(
                201,
                "application/json",
                &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
            )
        }
        Err(e) => status::from_api_error(&e),
    }
}
