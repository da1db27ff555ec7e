//! The embed API's requests (`{type: "dsplay:request", id, method, arg}`) and how their answers
//! are posted: as `dsplay:output` (the original `dsplay:run` message) or `dsplay:response`.
//! Parsing is plain Rust (unit-tested natively); the browser glue reads the message fields.

use crate::model::ClusterModel;
use dsplay_sim::store::Store;
use serde_json::{json, Map, Value};

/// What the host page asks the embed to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Run a command line (as typed in the terminal).
    Run(String),
    /// Apply a manifest (as the editor's Apply).
    Apply(String),
    /// Start the clock.
    Play,
    /// Stop the clock.
    Pause,
    /// Advance to the next scheduled event.
    Step,
    /// Show the session this many virtual milliseconds after it started.
    Seek(i64),
    /// Back to the start, replaying the embed's `script=`.
    Reset,
    /// Nodes, pods and DaemonSets as plain data.
    State,
}

/// Which message answers a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// `{type: "dsplay:output", id, output, success}` (answers `dsplay:run`).
    Output,
    /// `{type: "dsplay:response", id, output, success, result}` (answers `dsplay:request`).
    Response,
}

impl Request {
    /// The request for `method` with its argument (a string for `run`/`apply`, a number of
    /// milliseconds for `seek`); `None` for an unknown method or a missing argument.
    pub fn parse(method: &str, text: Option<String>, number: Option<f64>) -> Option<Request> {
        Some(match method {
            "run" => Request::Run(text?),
            "apply" => Request::Apply(text?),
            "play" => Request::Play,
            "pause" => Request::Pause,
            "step" => Request::Step,
            "seek" => Request::Seek(number.filter(|n| n.is_finite())?.max(0.0) as i64),
            "reset" => Request::Reset,
            "state" => Request::State,
            _ => return None,
        })
    }
}

/// `state()`'s answer: `{nodes: [{name, status, ready, unschedulable, labels, taints}], pods:
/// [{name, namespace, node, status, ready, revision}], daemonSets: [{namespace, name, desired,
/// current, ready, updated, available}]}`.
pub fn state_data(model: &ClusterModel, store: &Store) -> Value {
    let pods = model
        .nodes
        .iter()
        .flat_map(|n| n.pods.iter())
        .chain(model.unscheduled.iter())
        .map(|p| {
            json!({
                "name": p.name, "namespace": p.namespace, "node": p.node, "status": p.status,
                "ready": p.ready, "revision": p.revision_number,
            })
        })
        .collect::<Vec<_>>();
    let nodes = model
        .nodes
        .iter()
        .map(|n| {
            json!({
                "name": n.name, "status": n.status, "ready": n.ready,
                "unschedulable": n.unschedulable,
                "labels": n.labels.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect::<Map<_, _>>(),
                "taints": n.taints,
            })
        })
        .collect::<Vec<_>>();
    let daemon_sets = store
        .daemon_sets()
        .map(|ds| {
            let status = ds.status.clone().unwrap_or_default();
            json!({
                "namespace": ds.metadata.namespace, "name": ds.metadata.name,
                "desired": status.desired_number_scheduled,
                "current": status.current_number_scheduled, "ready": status.number_ready,
                "updated": status.updated_number_scheduled.unwrap_or(0),
                "available": status.number_available.unwrap_or(0),
            })
        })
        .collect::<Vec<_>>();
    json!({ "nodes": nodes, "pods": pods, "daemonSets": daemon_sets })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_method_and_refuses_the_rest() {
        let text = || Some("kubectl get ds".to_string());
        assert_eq!(
            Request::parse("run", text(), None),
            Some(Request::Run("kubectl get ds".into()))
        );
        assert_eq!(Request::parse("run", None, None), None);
        assert_eq!(
            Request::parse("seek", None, Some(1500.4)),
            Some(Request::Seek(1500))
        );
        assert_eq!(
            Request::parse("seek", None, Some(-3.0)),
            Some(Request::Seek(0))
        );
        assert_eq!(Request::parse("seek", None, Some(f64::NAN)), None);
        assert_eq!(Request::parse("reset", None, None), Some(Request::Reset));
        assert_eq!(Request::parse("delete everything", text(), None), None);
    }
}
