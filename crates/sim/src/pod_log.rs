//! `GET …/pods/NAME/log`: the playground's containers run no processes; each run of a container
//! writes the lines its image declares (`sim image IMAGE --log TEXT`, none by default) when it
//! starts. The API server's and the kubelet's refusals for containers that have no log are theirs.
//!
//! Upstream: pkg/registry/core/pod/strategy.go `LogLocation`; pkg/kubelet/kubelet_pods.go
//! `validateContainerLogStatus`; pkg/kubelet/kuberuntime/logs/logs.go `ReadLogs` (sinceTime, tail,
//! timestamps in `timeFormatOut`, limitBytes).

use crate::{ApiError, Cluster};
use chrono::{DateTime, Utc};
use dsplay_api::Kind;

/// What a log request asks for (upstream `PodLogOptions`; `follow` changes nothing here: a
/// container writes all its lines when it starts).
#[derive(Clone, Debug, Default)]
pub struct LogOptions<'a> {
    /// The container (`None`: the pod's only one).
    pub container: Option<&'a str>,
    /// The previous (terminated) container's log.
    pub previous: bool,
    /// Each line prefixed with the time it was written.
    pub timestamps: bool,
    /// Only the last N lines.
    pub tail_lines: Option<i64>,
    /// Only lines written at or after this time (`sinceSeconds` / `sinceTime`).
    pub since: Option<DateTime<Utc>>,
    /// At most this many bytes.
    pub limit_bytes: Option<i64>,
}

/// The log of a container in a pod, or the error the API server answers with.
pub fn pod_log(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
    options: &LogOptions,
) -> Result<String, ApiError> {
    let (container, previous) = (options.container, options.previous);
    let store = cluster.store();
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
    let image = spec
        .containers
        .iter()
        .find(|c| c.name == container)
        .and_then(|c| c.image.as_deref())
        .unwrap_or("");
    let written = |started: Option<&k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>| {
        let lines = cluster.image_behavior(image).log;
        read_logs(&lines, started.map(|t| t.0), options)
    };
    if previous {
        return match last_terminated {
            Some(t) => Ok(written(t.started_at.as_ref())),
            None => Err(ApiError::BadRequest(format!(
                "previous terminated container \"{container}\" in pod \"{name}\" not found"
            ))),
        };
    }
    let started = state.and_then(|s| {
        s.running
            .as_ref()
            .map(|r| r.started_at.as_ref())
            .or_else(|| s.terminated.as_ref().map(|t| t.started_at.as_ref()))
    });
    if let Some(started) = started {
        return Ok(written(started));
    }
    if last_terminated.is_some() {
        // Waiting to restart: the current container has not written anything yet.
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

/// The lines one run of a container wrote (all at its start), as the kubelet reads them back:
/// since, then tail, then the timestamp prefix, then the byte limit.
///
/// Upstream: pkg/kubelet/kuberuntime/logs/logs.go `ReadLogs`, `timeFormatOut`.
fn read_logs(lines: &[String], started: Option<DateTime<Utc>>, options: &LogOptions) -> String {
    if options
        .since
        .zip(started)
        .is_some_and(|(since, started)| started < since)
    {
        return String::new();
    }
    let skip = match options.tail_lines {
        Some(n) if n >= 0 => lines.len().saturating_sub(usize::try_from(n).unwrap_or(0)),
        _ => 0,
    };
    let mut out = String::new();
    for line in &lines[skip..] {
        if options.timestamps {
            let at = started.unwrap_or_default();
            out.push_str(&at.format("%Y-%m-%dT%H:%M:%S%.9fZ ").to_string());
        }
        out.push_str(line);
        out.push('\n');
    }
    if let Some(limit) = options.limit_bytes.and_then(|l| usize::try_from(l).ok()) {
        let mut end = limit.min(out.len());
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}
