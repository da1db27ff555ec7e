//! `kubectl cordon`, `kubectl uncordon` and `kubectl drain`.

use super::live_object::{fetch, store};
use super::{parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::DeleteOptions;

/// `kubectl cordon` / `uncordon`.
pub(crate) fn cordon(ctx: &mut Ctx, words: &[String], on: bool) -> CmdResult {
    let verb = if on { "cordon" } else { "uncordon" };
    let parsed = parse_flags(
        ctx,
        verb,
        words,
        &[value("selector", Some('l')), value("dry-run", None)],
    )?;
    if parsed.args.is_empty() {
        ctx.err(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        ));
        return Err(Failed);
    }
    let mut failed = false;
    for name in &parsed.args {
        if set_unschedulable(ctx, name, on, verb).is_err() {
            failed = true;
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

fn set_unschedulable(ctx: &mut Ctx, name: &str, on: bool, verb: &str) -> CmdResult {
    let name = name
        .strip_prefix("node/")
        .or_else(|| name.strip_prefix("nodes/"))
        .unwrap_or(name);
    let Ok(Object::Node(mut node)) = fetch(ctx, Kind::Node, "", name) else {
        return Err(Failed);
    };
    let spec = node.spec.get_or_insert_with(Default::default);
    let already = spec.unschedulable.unwrap_or(false) == on;
    if already {
        ctx.out(format!("node/{name} already {verb}ed"));
        return Ok(());
    }
    spec.unschedulable = on.then_some(true);
    store(ctx, Object::Node(node))?;
    ctx.out(format!("node/{name} {verb}ed"));
    Ok(())
}

/// `kubectl drain NODE`: cordon, then evict every pod that is not a DaemonSet pod (or fail on them).
pub(crate) fn drain(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "drain",
        words,
        &[
            boolean("ignore-daemonsets", None),
            boolean("delete-emptydir-data", None),
            boolean("force", None),
            value("grace-period", None),
            value("timeout", None),
            value("selector", Some('l')),
            boolean("disable-eviction", None),
            value("pod-selector", None),
        ],
    )?;
    let Some(name) = parsed.args.first().cloned() else {
        ctx.err("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples");
        return Err(Failed);
    };
    let name = name.strip_prefix("node/").unwrap_or(&name).to_string();
    fetch(ctx, Kind::Node, "", &name)?;
    set_unschedulable(ctx, &name, true, "cordon")?;
    let pods: Vec<Pod> = ctx
        .cluster
        .store()
        .pods()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name.as_str()))
        .cloned()
        .collect();
    let is_daemon = |p: &Pod| {
        p.metadata
            .owner_references
            .iter()
            .flatten()
            .any(|r| r.kind == "DaemonSet" && r.controller == Some(true))
    };
    let unmanaged: Vec<&Pod> = pods
        .iter()
        .filter(|p| {
            p.metadata
                .owner_references
                .as_ref()
                .is_none_or(|r| r.is_empty())
        })
        .collect();
    let daemon: Vec<&Pod> = pods.iter().filter(|p| is_daemon(p)).collect();
    let pod_ref = |p: &Pod| {
        format!(
            "{}/{}",
            p.metadata.namespace.clone().unwrap_or_default(),
            p.metadata.name.clone().unwrap_or_default()
        )
    };
    let mut errors = Vec::new();
    if !daemon.is_empty() && !parsed.flag("ignore-daemonsets") {
        errors.push(format!(
            "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): {}",
            daemon
                .iter()
                .map(|p| pod_ref(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !unmanaged.is_empty() && !parsed.flag("force") {
        errors.push(format!(
            "cannot delete Pods that declare no controller (use --force to override): {}",
            unmanaged
                .iter()
                .map(|p| pod_ref(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !errors.is_empty() {
        // GetPodsForDeletion's errors travel as an aggregate (`[a, b]` when there are several)
        // inside RunDrain's aggregate of failed nodes; checkErr unwraps the outer one and prints
        // the inner one's errors a line each, without an `error: ` prefix.
        // Upstream: staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go RunDrain,
        // deleteOrEvictPodsSimple; pkg/cmd/util/helpers.go checkErr, MultipleErrors.
        let aggregate = match errors.as_slice() {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        ctx.err(format!("error: unable to drain node \"{name}\" due to error: {aggregate}, continuing command...\nThere are pending nodes to be drained:\n {name}\n{}", errors.join("\n")));
        return Err(Failed);
    }
    if !daemon.is_empty() {
        ctx.err(format!(
            "Warning: ignoring DaemonSet-managed Pods: {}",
            daemon
                .iter()
                .map(|p| pod_ref(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let evict: Vec<Pod> = pods
        .iter()
        .filter(|p| !is_daemon(p) && p.metadata.deletion_timestamp.is_none())
        .cloned()
        .collect();
    for pod in &evict {
        ctx.out(format!("evicting pod {}", pod_ref(pod)));
    }
    for pod in &evict {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let pname = pod.metadata.name.clone().unwrap_or_default();
        let _ = ctx
            .cluster
            .delete(Kind::Pod, &ns, &pname, DeleteOptions::default());
    }
    for pod in &evict {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let pname = pod.metadata.name.clone().unwrap_or_default();
        while ctx.cluster.store().pod(&ns, &pname).is_some() && ctx.cluster.step() {}
        ctx.out(format!("pod/{pname} evicted"));
    }
    ctx.out(format!("node/{name} drained"));
    Ok(())
}
