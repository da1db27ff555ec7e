//! `?watch=true`: a chunked stream of `{"type": "ADDED|MODIFIED|DELETED", "object": …}` lines from
//! the store's watch log ([`crate::state`]), objects with kind and apiVersion, or one-row Tables when the
//! client asks for Tables (`kubectl get -w`).
//!
//! With the manual clock, a watch on one object by name (`fieldSelector=metadata.name=NAME`, what
//! `kubectl rollout status` and `kubectl delete --wait` send) moves virtual time one timer at a
//! time while that client is still waiting — a DaemonSet not yet rolled out, an object being
//! deleted — for at most an hour of virtual time, as the in-process waiting commands do. Each step's
//! events are sent before the next step, so the clock stops at the instant the client is satisfied,
//! and once satisfied a watch never moves the clock again (its client may have left unnoticed), so
//! the run stays deterministic.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go` `serveWatch`.

use crate::clock::ClockMode;
use crate::handlers::{select, Request};
use crate::routes::ResourcePath;
use crate::state::{Shared, State};
use crate::tables;
use dsplay_api::{fields, selector, Kind, Object};
use dsplay_kubectl::printers::rollout_status::status_message;
use dsplay_sim::WatchEventType;
use serde_json::json;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often an idle watch looks at the watch log again (it is also woken on every change).
const POLL: Duration = Duration::from_millis(200);

/// The longest a driven watch moves virtual time (the in-process waiting commands' default).
const DRIVE_LIMIT_MS: i64 = 3600 * 1000;

/// What a watch selects and how it encodes events.
struct Filter {
    resource: ResourcePath,
    labels: Option<selector::Selector>,
    terms: Vec<fields::FieldTerm>,
    table: bool,
    include: String,
}

impl Filter {
    fn matches(&self, object: &Object) -> bool {
        let meta = object.metadata();
        let empty = Default::default();
        object.kind() == self.resource.kind
            && self
                .resource
                .namespace
                .as_deref()
                .is_none_or(|ns| meta.namespace.as_deref() == Some(ns))
            && self
                .labels
                .as_ref()
                .is_none_or(|l| l.matches(meta.labels.as_ref().unwrap_or(&empty)))
            && fields::matches(object, &self.terms)
    }

    fn encode(&self, event: WatchEventType, object: &Object, state: &State) -> Vec<u8> {
        let kind = match event {
            WatchEventType::Added => "ADDED",
            WatchEventType::Modified => "MODIFIED",
            WatchEventType::Deleted => "DELETED",
        };
        let body = if self.table {
            tables::table(
                self.resource.kind,
                std::slice::from_ref(object),
                state.cluster().now(),
                &self.include,
                state.cluster().store().resource_version(),
            )
        } else {
            object.to_json()
        };
        let mut line =
            serde_json::to_vec(&json!({"type": kind, "object": body})).unwrap_or_default();
        line.push(b'\n');
        line
    }

    /// The one object a name-selected watch waits on.
    fn named(&self) -> Option<(Kind, String, String)> {
        let name = self
            .terms
            .iter()
            .find(|(k, negate, _)| k == "metadata.name" && !negate)?;
        Some((
            self.resource.kind,
            self.resource.namespace.clone().unwrap_or_default(),
            name.2.clone(),
        ))
    }
}

/// Whether a client waiting on this object is still waiting.
fn still_waiting(state: &State, key: &(Kind, String, String)) -> bool {
    let Some(object) = state.cluster().store().get(key.0, &key.1, &key.2) else {
        return false;
    };
    if object.metadata().deletion_timestamp.is_some() {
        return true;
    }
    match &object {
        Object::DaemonSet(ds) => matches!(status_message(ds), Ok((_, false))),
        Object::Deployment(d) => matches!(
            dsplay_kubectl::printers::rollout_status::deployment_status_message(d),
            Ok((_, false))
        ),
        Object::StatefulSet(sts) => matches!(
            dsplay_kubectl::printers::rollout_status::stateful_set_status_message(sts),
            Ok((_, false))
        ),
        _ => false,
    }
}

/// Serves one watch until the client leaves, `timeoutSeconds` pass or the server stops.
pub fn serve(
    shared: &Arc<Shared>,
    request: tiny_http::Request,
    resource: ResourcePath,
    req: &Request,
) {
    let initial = shared.read(|state| {
        select(state, &resource, &req.query).map(|objects| {
            (
                objects,
                state.cluster().store().resource_version(),
                state.cluster().now_ms(),
                state.clock,
            )
        })
    });
    let (objects, current_rv, start_ms, clock) = match initial {
        Ok(v) => v,
        Err(reply) => {
            let response = tiny_http::Response::from_data(reply.body).with_status_code(reply.code);
            let _ = request.respond(response);
            return;
        }
    };
    let filter = Filter {
        resource,
        labels: req
            .query
            .get("labelSelector")
            .filter(|s| !s.is_empty())
            .and_then(|s| selector::parse(s).ok()),
        terms: fields::parse(req.query.get("fieldSelector").unwrap_or("")).unwrap_or_default(),
        table: tables::wants_table(&req.accept),
        include: req
            .query
            .get("includeObject")
            .unwrap_or("Metadata")
            .to_string(),
    };
    // A wait already over when the watch opens is never driven.
    let mut driven = (clock == ClockMode::Manual)
        .then(|| filter.named())
        .flatten()
        .filter(|key| shared.read(|state| still_waiting(state, key)));
    let deadline = req
        .query
        .get("timeoutSeconds")
        .and_then(|t| t.parse::<u64>().ok())
        .map(|s| Instant::now() + Duration::from_secs(s));
    let content_type = if filter.table {
        "application/json;as=Table;v=v1;g=meta.k8s.io"
    } else {
        "application/json"
    };
    let mut writer = request.into_writer();
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nTransfer-Encoding: chunked\r\nCache-Control: no-cache, private\r\n\r\n"
    );
    if writer
        .write_all(head.as_bytes())
        .and_then(|_| writer.flush())
        .is_err()
    {
        return;
    }
    let mut stream = chunked_transfer::Encoder::with_chunks_size(FlushEveryWrite(writer), 1 << 16);
    // Without a resourceVersion (or "0") a watch starts with the current objects as ADDED.
    let mut cursor = match req
        .query
        .get("resourceVersion")
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(rv) if rv > 0 => rv,
        _ => {
            let lines = shared.read(|state| {
                objects
                    .iter()
                    .map(|o| filter.encode(WatchEventType::Added, o, state))
                    .collect::<Vec<_>>()
            });
            if send(&mut stream, &lines).is_err() {
                return;
            }
            current_rv
        }
    };
    let mut first = true;
    loop {
        if shared.stopped() || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let collect = |state: &mut State| {
            let lines: Vec<Vec<u8>> = state
                .watch_events_since(cursor)
                .filter(|(_, object)| filter.matches(object))
                .map(|(event, object)| filter.encode(event, object, state))
                .collect();
            (lines, state.cluster().store().resource_version())
        };
        let (lines, rv) = if first {
            shared.read(collect)
        } else {
            shared.wait_then(POLL, collect)
        };
        first = false;
        cursor = cursor.max(rv);
        if send(&mut stream, &lines).is_err() {
            return;
        }
        if let (Some(key), true) = (&driven, lines.is_empty()) {
            // Look again at once after a step (its events go out before the next one). Whether the
            // wait is over is decided in the same lock as the step, before the client can see the
            // satisfying event and move on: from then on this watch never moves the clock again
            // (its client may have left, which a stream only notices on its next write).
            let (waiting, stepped) = shared.with(|state| {
                if !(still_waiting(state, key)
                    && state.cluster().now_ms() - start_ms < DRIVE_LIMIT_MS)
                {
                    return (false, false);
                }
                let stepped = state.cluster_mut().step();
                (still_waiting(state, key), stepped)
            });
            if !waiting {
                driven = None;
            }
            first = stepped;
        }
    }
}

/// Hands each chunk straight to the client: the chunk encoder's `flush` writes the chunk to the
/// response writer but does not flush that writer, which kept the last event of a burst buffered
/// until the next event pushed it out (a `kubectl events -w` missed its last row).
struct FlushEveryWrite<W: Write>(W);

impl<W: Write> Write for FlushEveryWrite<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write_all(bytes)?;
        self.0.flush()?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

fn send(stream: &mut impl Write, lines: &[Vec<u8>]) -> std::io::Result<()> {
    for line in lines {
        stream.write_all(line)?;
        stream.flush()?;
    }
    Ok(())
}
