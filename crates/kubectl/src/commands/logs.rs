//! `kubectl logs POD|TYPE/NAME [-c CONTAINER] [-p] [-f] [--tail N] [--since D] [--timestamps]
//! [--prefix]`: the lines the container's image writes when it starts (`sim image IMAGE --log
//! TEXT`; none by default); the errors are kubectl's and the API server's. `-f` prints the same:
//! a container writes nothing after its start.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go (`Complete`, `Validate`,
//! `RunLogs`); pkg/polymorphichelpers/attachablepodforobject.go and logsforobject.go (a DaemonSet
//! logs its first pod, ordered by `podutils.ByLogging`); pkg/cmd/util/podcmd (default container).

use super::{namespace, parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value, FlagSpec, Parsed};
use dsplay_api::types::Pod;
use dsplay_api::{Kind, Object};
use dsplay_sim::pod_log::{pod_log, LogOptions};

const LOGS_FLAGS: &[FlagSpec] = &[
    value("container", Some('c')),
    value("selector", Some('l')),
    boolean("previous", Some('p')),
    boolean("follow", Some('f')),
    boolean("timestamps", None),
    boolean("all-containers", None),
    boolean("prefix", None),
    value("tail", None),
    value("since", None),
    value("since-time", None),
    value("limit-bytes", None),
];

/// `kubectl logs`.
pub(crate) fn logs(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "logs", words, LOGS_FLAGS)?;
    let ns = namespace(&parsed);
    let request = LogRequest::from_flags(ctx, &parsed)?;
    if parsed.get("selector").is_some() {
        if !parsed.args.is_empty() {
            return ctx.fail("only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples");
        }
        let query = super::Query::from_flags(ctx, &parsed)?;
        let pods = query.select(ctx, Kind::Pod)?;
        if pods.is_empty() {
            ctx.err(crate::printers::table::no_resources_found_in(&ns));
        }
        for pod in pods {
            if let Object::Pod(pod) = pod {
                pod_logs(ctx, &parsed, &request, &ns, &pod)?;
            }
        }
        return Ok(());
    }
    let Some(target) = parsed.args.first() else {
        return ctx.fail("expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples");
    };
    let pod = match target.split_once('/') {
        None => find_pod(ctx, &ns, target)?,
        Some((kind, name)) => match super::resolve_kind(ctx, kind)? {
            Kind::Pod => find_pod(ctx, &ns, name)?,
            Kind::DaemonSet => first_pod_of(ctx, &ns, name)?,
            other => {
                return ctx.fail(format!(
                    "cannot get the logs from {}",
                    other.qualified_singular()
                ))
            }
        },
    };
    pod_logs(ctx, &parsed, &request, &ns, &pod)
}

/// The logs of one pod's chosen containers (`-c`, `--all-containers`, else the default one).
fn pod_logs(
    ctx: &mut Ctx,
    parsed: &Parsed,
    request: &LogRequest,
    ns: &str,
    pod: &Pod,
) -> CmdResult {
    let pod_name = pod.metadata.name.clone().unwrap_or_default();
    let containers: Vec<String> = pod
        .spec
        .iter()
        .flat_map(|s| s.containers.iter().map(|c| c.name.clone()))
        .collect();
    let all = parsed.flag("all-containers");
    let chosen: Vec<String> = match parsed.get("container") {
        Some(c) if !containers.iter().any(|n| n == c) => {
            return ctx.fail(format!("container {c} is not valid for pod {pod_name}"))
        }
        Some(c) => vec![c.to_string()],
        None if all => containers.clone(),
        None => {
            let first = containers.first().cloned().unwrap_or_default();
            if containers.len() > 1 {
                ctx.err(format!(
                    "Defaulted container \"{first}\" out of: {}",
                    containers.join(", ")
                ));
            }
            vec![first]
        }
    };
    for container in chosen {
        let options = LogOptions {
            container: Some(&container),
            ..request.options.clone()
        };
        match pod_log(ctx.cluster, ns, &pod_name, &options) {
            Ok(text) if request.prefix => {
                let prefix = format!("[pod/{pod_name}/{container}] ");
                ctx.out_raw(text.lines().map(|l| format!("{prefix}{l}\n")).collect());
            }
            Ok(text) => ctx.out_raw(text),
            Err(e) => return ctx.api_fail(&e, None),
        }
    }
    Ok(())
}

/// Prints kubectl's `error: …` line; the failure to return.
fn fail(ctx: &mut Ctx, message: impl AsRef<str>) -> Failed {
    ctx.fail(message).err().unwrap_or(Failed)
}

/// The log request the flags make, after kubectl's own checks.
struct LogRequest {
    options: LogOptions<'static>,
    prefix: bool,
}

impl LogRequest {
    /// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go `ToLogOptions` (with `-l` and no
    /// `--tail`, the last 10 lines), `Validate`.
    fn from_flags(ctx: &mut Ctx, parsed: &Parsed) -> Result<LogRequest, Failed> {
        let tail = super::int64_flag(ctx, "logs", parsed, "tail")?;
        let limit_bytes = super::int64_flag(ctx, "logs", parsed, "limit-bytes")?;
        let since_seconds = match parsed.get("since").map(super::parse_go_duration) {
            None => None,
            Some(Ok(seconds)) => Some(seconds.round() as i64),
            Some(Err(why)) => {
                let text = parsed.get("since").unwrap_or_default();
                return Err(fail(ctx, format!("invalid argument \"{text}\" for \"--since\" flag: {why}\nSee 'kubectl logs --help' for usage.")));
            }
        };
        let since_time = match parsed.get("since-time").filter(|t| !t.is_empty()) {
            None => None,
            Some(text) => match chrono::DateTime::parse_from_rfc3339(text) {
                Ok(t) => Some(t.with_timezone(&chrono::Utc)),
                Err(_) => {
                    return Err(fail(ctx, format!("parsing time \"{text}\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"{text}\" as \"2006\"")))
                }
            },
        };
        if since_time.is_some() && since_seconds.is_some_and(|s| s != 0) {
            return Err(fail(
                ctx,
                "at most one of `sinceTime` or `sinceSeconds` may be specified",
            ));
        }
        if limit_bytes.is_some_and(|l| l < 0) {
            return Err(fail(ctx, "--limit-bytes must be greater than 0"));
        }
        if since_seconds.is_some_and(|s| s < 0) {
            return Err(fail(ctx, "--since must be greater than 0"));
        }
        let tail_lines = match tail {
            None if parsed.get("selector").is_some() => Some(10),
            None | Some(-1) => None,
            Some(n) if n < -1 => {
                return Err(fail(ctx, "--tail must be greater than or equal to -1"))
            }
            Some(n) => Some(n),
        };
        let now = ctx.cluster.now();
        let since = since_time.or_else(|| {
            since_seconds
                .filter(|s| *s > 0)
                .map(|s| now - chrono::Duration::seconds(s))
        });
        Ok(LogRequest {
            options: LogOptions {
                container: None,
                previous: parsed.flag("previous"),
                timestamps: parsed.flag("timestamps"),
                tail_lines,
                since,
                limit_bytes: limit_bytes.filter(|l| *l != 0),
            },
            prefix: parsed.flag("prefix"),
        })
    }
}

/// The named pod, or the logs command's wrapped NotFound.
fn find_pod(ctx: &mut Ctx, ns: &str, name: &str) -> Result<Pod, Failed> {
    match ctx.cluster.store().pod(ns, name) {
        Some(p) => Ok(p.clone()),
        None => {
            not_found(ctx, Kind::Pod, name, ns);
            Err(Failed)
        }
    }
}

/// kubectl wraps the server's NotFound (`error: error from server (NotFound): pods "x" not found
/// in namespace "default"`).
fn not_found(ctx: &mut Ctx, kind: Kind, name: &str, ns: &str) {
    ctx.err(format!(
        "error: error from server (NotFound): {} \"{name}\" not found in namespace \"{ns}\"",
        kind.qualified_plural()
    ));
}

/// The DaemonSet's pod kubectl picks: scheduled before pending, running before not, ready before
/// not (`podutils.ByLogging`), announcing the choice when there are several.
fn first_pod_of(ctx: &mut Ctx, ns: &str, name: &str) -> Result<Pod, Failed> {
    let store = ctx.cluster.store();
    let Some(ds) = store.daemon_set(ns, name) else {
        not_found(ctx, Kind::DaemonSet, name, ns);
        return Err(Failed);
    };
    let mut pods: Vec<Pod> = store.pods_owned_by(&ds.metadata).cloned().collect();
    pods.sort_by_key(|p| std::cmp::Reverse(logging_rank(p)));
    let Some(first) = pods.first().cloned() else {
        ctx.err(format!(
            "error: no pods found for daemonset.apps/{name} in namespace {ns}"
        ));
        return Err(Failed);
    };
    if pods.len() > 1 {
        ctx.err(format!(
            "Found {} pods, using pod/{}",
            pods.len(),
            first.metadata.name.as_deref().unwrap_or_default()
        ));
    }
    Ok(first)
}

/// (assigned, phase, ready): larger is preferred for logs.
fn logging_rank(pod: &Pod) -> (bool, u8, bool) {
    let assigned = pod.spec.as_ref().is_some_and(|s| s.node_name.is_some());
    let status = pod.status.as_ref();
    let phase = match status.and_then(|s| s.phase.as_deref()) {
        Some("Running") => 2,
        Some("Unknown") => 1,
        _ => 0,
    };
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    (assigned, phase, ready)
}
