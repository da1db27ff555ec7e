//! Commands that need a container runtime or a metrics server — neither of which the playground
//! has: kubectl's own argument checks and lookups, then kubectl's failure (`top`) or a plain
//! statement that the command cannot work here (`exec`, `attach`, `port-forward`, `cp`, `debug`).
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go `Complete`/`Validate`;
//! attach/attach.go; portforward/portforward.go; top/top_node.go and top_pod.go (`Metrics API not
//! available`).

use super::{api_error_text, namespace, parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::Kind;
use dsplay_sim::ApiError;

/// kubectl's text when a command got no resources (cli-runtime builder `Do` with nothing given).
pub(crate) const NO_RESOURCES: &str = "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/// `error: "kubectl VERB" is not available in the playground: WHY`.
fn not_here(ctx: &mut Ctx, verb: &str, why: &str) -> CmdResult {
    ctx.fail(format!(
        "\"kubectl {verb}\" is not available in the playground: {why}"
    ))
}

/// The pod a command targets (`POD` or `pod/POD`), or the server's NotFound.
fn pod_exists(ctx: &mut Ctx, ns: &str, target: &str) -> Result<(), Failed> {
    let name = target.strip_prefix("pod/").unwrap_or(target);
    if ctx.cluster.store().pod(ns, name).is_some() {
        return Ok(());
    }
    ctx.err(api_error_text(
        &ApiError::NotFound {
            kind: Kind::Pod,
            name: name.to_string(),
        },
        None,
    ));
    Err(Failed)
}

/// `kubectl exec POD [-c C] [-it] -- COMMAND…`.
pub(crate) fn exec(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let flags = [
        value("container", Some('c')),
        boolean("stdin", Some('i')),
        boolean("tty", Some('t')),
        boolean("quiet", Some('q')),
        value("filename", Some('f')),
    ];
    let parsed = parse_flags(ctx, "exec", words, &flags)?;
    let Some(target) = parsed.args.first() else {
        return ctx.fail("pod, type/name or --filename must be specified");
    };
    if parsed.args.len() < 2 {
        return ctx.fail("you must specify at least one command for the container");
    }
    pod_exists(ctx, &namespace(&parsed), target)?;
    not_here(ctx, "exec", "its containers run no processes")
}

/// `kubectl attach POD`.
pub(crate) fn attach(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let flags = [
        value("container", Some('c')),
        boolean("stdin", Some('i')),
        boolean("tty", Some('t')),
        boolean("quiet", Some('q')),
    ];
    let parsed = parse_flags(ctx, "attach", words, &flags)?;
    let Some(target) = parsed.args.first() else {
        return ctx.fail("expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw 0: []\nSee 'kubectl attach -h' for help and examples");
    };
    pod_exists(ctx, &namespace(&parsed), target)?;
    not_here(ctx, "attach", "its containers run no processes")
}

/// `kubectl port-forward POD PORT…`.
pub(crate) fn port_forward(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let flags = [value("address", None)];
    let parsed = parse_flags(ctx, "port-forward", words, &flags)?;
    if parsed.args.len() < 2 {
        return ctx.fail("TYPE/NAME and list of ports are required for port-forward\nSee 'kubectl port-forward -h' for help and examples");
    }
    pod_exists(ctx, &namespace(&parsed), &parsed.args[0])?;
    not_here(ctx, "port-forward", "its pods have no network")
}

/// `kubectl cp` and `kubectl debug`: nothing to check before saying so.
pub(crate) fn no_runtime(ctx: &mut Ctx, verb: &str) -> CmdResult {
    let why = match verb {
        "cp" => "its containers have no file systems",
        _ => "its containers run no processes",
    };
    not_here(ctx, verb, why)
}

/// `kubectl top node|pod`: the playground has no metrics server.
pub(crate) fn top(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let sub = words.iter().find(|w| !w.starts_with('-'));
    match sub.map(String::as_str) {
        Some("node" | "nodes" | "no" | "pod" | "pods" | "po") => {
            ctx.fail("Metrics API not available")
        }
        Some(other) => ctx.fail(format!(
            "unknown command \"{other}\"\nSee 'kubectl top -h' for help and examples"
        )),
        None => {
            ctx.out(TOP_HELP);
            Err(Failed)
        }
    }
}

/// `kubectl top` without a subcommand (cobra's help for a command that only groups others).
const TOP_HELP: &str = "Display resource (CPU/memory) usage.\n\n The top command allows you to see the resource consumption for nodes or pods.\n\n This command requires Metrics Server to be correctly configured and working on the server.\n\nAvailable Commands:\n  node          Display resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods\n\nUsage:\n  kubectl top [flags] [options]\n\nUse \"kubectl top <command> --help\" for more information about a given command.\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).";
