//! `GET …/pods/NAME/log`: the playground's containers run no processes, so every log is empty;
//! what remains are the API server's and the kubelet's refusals for containers that have no log.
//!
//! Upstream: pkg/registry/core/pod/strategy.go `LogLocation`; pkg/kubelet/kubelet_pods.go
//! `validateContainerLogStatus`.

use crate::store::Store;
use crate::ApiError;
use dsplay_api::Kind;

/// The log of `container` (`None`: the pod's only container) in a pod: empty, or the error the
/// API server answers with.
pub fn pod_log(
    store: &Store,
    namespace: &str,
    name: &str,
    container: Option<&str>,
    previous: bool,
) -> Result<String, ApiError> {
    let pod = store
        .pod(namespace, name)
        .ok_or_else(|| ApiError::NotFound {
            kind: Kind::Pod,
            name: name.to_string(),
        })?;
    let spec = pod.spec.clone().unwrap_or_default();
    let names: Vec<&str> = spec.containers.iter().map(|c| c.name.as_str()).collect();
    let container = match container.filter(|c| !c.is_empty()) {
        Some(c) if names.contains(&c) => c,
        Some(c) => {
            return Err(ApiError::BadRequest(format!(
                "container {c} is not valid for pod {name}"
            )))
        }
        None if names.len() == 1 => names[0],
        None => {
            return Err(ApiError::BadRequest(format!(
                "a container name must be specified for pod {name}, choose one of: [{}]",
                names.join(" ")
            )))
        }
    };
    if spec.node_name.is_none() {
        return Err(ApiError::BadRequest(format!(
            "pod {name} does not have a host assigned"
        )));
    }
    let status = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|all| all.iter().find(|s| s.name == container));
    let state = status.and_then(|s| s.state.as_ref());
    let last_terminated = status
        .and_then(|s| s.last_state.as_ref())
        .and_then(|s| s.terminated.as_ref());
    if previous {
        return match last_terminated {
            Some(_) => Ok(String::new()),
            None => Err(ApiError::BadRequest(format!(
                "previous terminated container \"{container}\" in pod \"{name}\" not found"
            ))),
        };
    }
    let has_run = state.is_some_and(|s| s.running.is_some() || s.terminated.is_some())
        || last_terminated.is_some();
    if has_run {
        return Ok(String::new());
    }
    let reason = state
        .and_then(|s| s.waiting.as_ref())
        .and_then(|w| w.reason.clone())
        .unwrap_or_else(|| "ContainerCreating".to_string());
    let why = match reason.as_str() {
        "ImagePullBackOff" => "trying and failing to pull image".to_string(),
        "ErrImagePull" | "ErrImageNeverPull" => "image can't be pulled".to_string(),
        _ => reason,
    };
    Err(ApiError::BadRequest(format!(
        "container \"{container}\" in pod \"{name}\" is waiting to start: {why}"
    )))
}
