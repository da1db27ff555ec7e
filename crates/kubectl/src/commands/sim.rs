//! `sim …`: what kubectl cannot do — the clock, nodes coming and going, image behaviour, reset.

use super::sim_node_add::NodeAdd;
use super::{check_max_advance, parse_duration, parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::Kind;
use dsplay_sim::controller::node_lifecycle;
use dsplay_sim::Cluster;
use std::time::Duration;

/// A duration argument, refused when malformed or longer than the maximum advance.
fn duration_arg(ctx: &mut Ctx, text: Option<&str>, what: &str) -> Result<Duration, Failed> {
    match text.and_then(parse_duration) {
        Some(d) => check_max_advance(ctx, d, text.unwrap_or(""), what),
        None => {
            ctx.err(format!(
                "error: invalid duration {:?} for {what} (use e.g. 500ms, 30s, 2m)",
                text.unwrap_or("")
            ));
            Err(Failed)
        }
    }
}

/// Runs a `sim` command.
pub(crate) fn run(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let Some(sub) = words.first().cloned() else {
        return ctx.fail(format!(
            "sim needs a subcommand: {}",
            crate::help::SIM_COMMANDS
        ));
    };
    let rest = &words[1..];
    match sub.as_str() {
        "advance" => {
            let parsed = parse_flags(ctx, "sim advance", rest, &[])?;
            let d = duration_arg(ctx, parsed.args.first().map(String::as_str), "sim advance")?;
            let target = ctx.cluster.now_ms().saturating_add(d.as_millis() as i64);
            match ctx.watch.take() {
                Some(mut watch) => {
                    let rows = super::watch::advance_watched(ctx.cluster, target, &mut watch);
                    ctx.out(rows);
                }
                None => ctx.cluster.advance(d),
            }
            Ok(())
        }
        "now" => {
            let now = ctx.cluster.now();
            ctx.out(now.format("%Y-%m-%dT%H:%M:%SZ").to_string());
            Ok(())
        }
        "settle" => {
            let parsed = parse_flags(ctx, "sim settle", rest, &[value("max", None)])?;
            let max = match parsed.get("max") {
                Some(m) => duration_arg(ctx, Some(m), "--max")?,
                None => dsplay_sim::cluster::DEFAULT_SETTLE_MAX,
            };
            match ctx.watch.take() {
                Some(mut watch) => {
                    let start = ctx.cluster.now_ms();
                    let limit = start.saturating_add(max.as_millis() as i64);
                    let mut rows = String::new();
                    while ctx
                        .cluster
                        .next_timer()
                        .is_some_and(|t| t.timestamp_millis() <= limit)
                    {
                        let next = ctx
                            .cluster
                            .next_timer()
                            .map_or(limit, |t| t.timestamp_millis());
                        rows.push_str(&super::watch::advance_watched(
                            ctx.cluster,
                            next,
                            &mut watch,
                        ));
                    }
                    ctx.out(rows);
                }
                None => {
                    ctx.cluster.settle(max);
                }
            }
            Ok(())
        }
        "seed" => {
            let Some(seed) = rest.first().and_then(|s| s.parse::<u64>().ok()) else {
                return ctx.fail("sim seed needs a number");
            };
            ctx.cluster.reseed(seed);
            Ok(())
        }
        "reset" => {
            let parsed = parse_flags(
                ctx,
                "sim reset",
                rest,
                &[boolean("empty", None), value("seed", None)],
            )?;
            let seed = match parsed.get("seed") {
                Some(s) => match s.parse() {
                    Ok(n) => n,
                    Err(_) => return ctx.fail(format!("invalid seed {s:?}")),
                },
                None => ctx.cluster.seed(),
            };
            *ctx.cluster = if parsed.flag("empty") {
                Cluster::new_empty(seed)
            } else {
                Cluster::new(seed)
            };
            Ok(())
        }
        "image" => image(ctx, rest),
        "explain" => explain(ctx, rest),
        "help" => {
            ctx.out(crate::help::sim_overview());
            Ok(())
        }
        "rollout" => rollout(ctx, rest),
        "node" => node(ctx, rest),
        "curl" => curl(ctx, rest),
        other => ctx.fail(format!(
            "unknown sim command \"{other}\" ({})",
            crate::help::SIM_COMMANDS
        )),
    }
}

/// `sim curl [--from node/NAME | --from pod/NAME] URL`: which pod answers an HTTP request, or
/// curl's own error (`dsplay_sim::routing`).
fn curl(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    use dsplay_sim::routing::Source;
    let parsed = parse_flags(ctx, "sim curl", words, &[value("from", None)])?;
    let [url] = parsed.args.as_slice() else {
        return ctx.fail("sim curl needs one URL: sim curl [--from node/NAME | --from pod/NAME] http://HOST[:PORT][/PATH]");
    };
    let source = match parsed.get("from") {
        None => Source::Outside,
        Some(from) => match from.split_once('/') {
            Some(("node" | "nodes" | "no", name)) if !name.is_empty() => {
                Source::Node(name.to_string())
            }
            Some(("pod" | "pods" | "po", name)) if !name.is_empty() => {
                Source::Pod(super::namespace(&parsed), name.to_string())
            }
            _ => {
                return ctx.fail(format!(
                    "--from must be node/NAME or pod/NAME, not {from:?}"
                ))
            }
        },
    };
    match ctx.cluster.curl(&source, url) {
        Ok(answer) => {
            ctx.out(format!("pod/{} on node/{}", answer.pod, answer.node));
            if let Some(requests) = ctx.requests.as_mut() {
                requests.push(super::Request {
                    from: source,
                    answer,
                });
            }
            Ok(())
        }
        Err(e) => {
            ctx.err(e.to_string());
            Err(Failed)
        }
    }
}

/// The workload `sim explain` / `sim rollout` name: `ds/NAME` (or a bare NAME) or `sts/NAME`.
fn workload_target(target: &str) -> Option<(Kind, String)> {
    match target.split_once('/') {
        Some((kind, name)) => match Kind::from_resource_name(kind) {
            Some(kind @ (Kind::DaemonSet | Kind::StatefulSet | Kind::Deployment)) => {
                Some((kind, name.to_string()))
            }
            _ => None,
        },
        None => Some((Kind::DaemonSet, target.to_string())),
    }
}

/// `sim explain|rollout TARGET …`: the flags, the namespace, and the DaemonSet or StatefulSet the
/// target names, or kubectl-style usage errors.
fn workload_command(
    ctx: &mut Ctx,
    verb: &str,
    words: &[String],
) -> Result<(crate::flags::Parsed, String, Kind, String), Failed> {
    let parsed = parse_flags(ctx, &format!("sim {verb}"), words, &[])?;
    let node = if verb == "explain" { " [NODE]" } else { "" };
    let deploy = if verb == "rollout" {
        " | sim rollout deploy/NAME"
    } else {
        ""
    };
    let usage = format!("sim {verb} ds/NAME{node} | sim {verb} sts/NAME{deploy}");
    let Some(target) = parsed.args.first() else {
        return ctx.fail(format!("usage: {usage}")).and(Err(Failed));
    };
    let Some((kind, name)) = workload_target(target) else {
        return ctx
            .fail(format!(
                "sim {verb} works on DaemonSets, StatefulSets and (rollout) Deployments: {usage}"
            ))
            .and(Err(Failed));
    };
    let ns = super::namespace(&parsed);
    Ok((parsed, ns, kind, name))
}

/// `sim explain ds/NAME [NODE] [-n NS]`: the controller's verdict per node, with every reason;
/// `sim explain sts/NAME`: per ordinal, why it is (not yet) created or updated.
fn explain(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let (parsed, ns, kind, name) = workload_command(ctx, "explain", words)?;
    match kind {
        Kind::StatefulSet => return explain_stateful_set(ctx, &ns, &name),
        Kind::Deployment => {
            return ctx.fail("sim explain works on DaemonSets and StatefulSets; for a Deployment: sim rollout deploy/NAME")
        }
        _ => {}
    }
    let explanations = match dsplay_sim::explain::explain(
        ctx.cluster,
        &ns,
        &name,
        parsed.args.get(1).map(String::as_str),
    ) {
        Ok(e) => e,
        Err(e) => return ctx.api_fail(&e, None),
    };
    let mut text = String::new();
    for e in explanations {
        let verdict = match (e.placement.should_run, e.placement.should_continue_running) {
            (true, _) => "should run a daemon pod",
            (false, true) => "no new daemon pod (an existing one may keep running)",
            (false, false) => "no daemon pod",
        };
        text.push_str(&format!(
            "{}: {verdict} (shouldRun={}, shouldContinueRunning={})\n",
            e.node, e.placement.should_run, e.placement.should_continue_running
        ));
        for reason in e.reasons.iter().chain(e.pods.iter()) {
            text.push_str(&format!("  - {reason}\n"));
        }
        if e.pods.is_empty() && e.placement.should_run {
            text.push_str("  - no pod yet: the controller creates one on its next sync\n");
        }
    }
    ctx.out(text);
    Ok(())
}

/// The ordinals of a StatefulSet, each with its verdict and reasons.
fn ordinal_lines(ordinals: &[dsplay_sim::explain::OrdinalExplanation]) -> String {
    let mut text = String::new();
    for o in ordinals {
        text.push_str(&format!("{}: {}\n", o.pod, o.verdict));
        for reason in &o.reasons {
            text.push_str(&format!("  - {reason}\n"));
        }
    }
    text
}

/// `sim explain sts/NAME`: every ordinal in order, then the controller's next step.
fn explain_stateful_set(ctx: &mut Ctx, ns: &str, name: &str) -> CmdResult {
    let e = match dsplay_sim::explain::explain_stateful_set(ctx.cluster, ns, name) {
        Ok(e) => e,
        Err(e) => return ctx.api_fail(&e, None),
    };
    let mut text = ordinal_lines(&e.ordinals);
    if let Some(next) = &e.next {
        text.push_str(&format!("next: {next}\n"));
    }
    ctx.out(text);
    Ok(())
}

/// `sim rollout sts/NAME`: the strategy and revisions, the ordinals in the order a RollingUpdate
/// takes them (highest first), and the next step or why there is none.
fn rollout_stateful_set(ctx: &mut Ctx, ns: &str, name: &str) -> CmdResult {
    let e = match dsplay_sim::explain::explain_stateful_set(ctx.cluster, ns, name) {
        Ok(e) => e,
        Err(e) => return ctx.api_fail(&e, None),
    };
    let mut text = format!("statefulset.apps/{name}: {} ", e.strategy);
    if e.strategy == "OnDelete" {
        text.push_str("(pods are replaced only when you delete them)");
    } else {
        text.push_str(&format!("partition={}", e.partition));
    }
    text.push_str(&format!(
        ", podManagementPolicy {}\n",
        e.pod_management_policy
    ));
    text.push_str(&format!(
        "replicas {}, ready {}, updated {}; current revision {}, update revision {}\n",
        e.replicas, e.ready, e.updated, e.current_revision, e.update_revision
    ));
    let mut ordinals = e.ordinals.clone();
    ordinals.reverse();
    text.push_str(&ordinal_lines(&ordinals));
    let done = e.updated >= e.replicas && e.ready >= e.replicas;
    match (&e.next, &e.waiting_for) {
        (Some(next), _) => text.push_str(&format!("rollout progressing: next {next}\n")),
        (None, Some(waiting)) => {
            text.push_str(&format!("rollout progressing: waits for {waiting}\n"))
        }
        (None, None) if done => text.push_str("rollout complete\n"),
        (None, None) if e.strategy == "OnDelete" => {
            text.push_str("rollout waiting: OnDelete replaces a pod only when you delete it\n")
        }
        (None, None) => text.push_str(&format!(
            "rollout paused at partition {}: lower it to update the ordinals below\n",
            e.partition
        )),
    }
    ctx.out(text);
    Ok(())
}

/// `sim rollout deploy/NAME`: the strategy, the counts, the ReplicaSets (new first) and what holds
/// the rollout back.
fn rollout_deployment(ctx: &mut Ctx, ns: &str, name: &str) -> CmdResult {
    let r = match dsplay_sim::explain::diagnose_deployment_rollout(ctx.cluster, ns, name) {
        Ok(r) => r,
        Err(e) => return ctx.api_fail(&e, None),
    };
    let (replicas, updated, ready, available) = r.counts;
    let mut text = format!("deployment.apps/{name}: {}\n", r.strategy);
    text.push_str(&format!(
        "replicas {replicas}, updated {updated}, ready {ready}, available {available}\n"
    ));
    for rs in &r.replica_sets {
        text.push_str(&format!("{rs}\n"));
    }
    for block in &r.blocked {
        text.push_str(&format!("waits: {block}\n"));
    }
    text.push_str(if r.complete {
        "rollout complete\n"
    } else {
        "rollout progressing\n"
    });
    ctx.out(text);
    Ok(())
}

/// `sim rollout ds/NAME`: budgets in use, per-node old/new pods, and why a rollout is stuck;
/// `sim rollout sts/NAME`: the StatefulSet's plan.
fn rollout(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let (_, ns, kind, name) = workload_command(ctx, "rollout", words)?;
    match kind {
        Kind::StatefulSet => return rollout_stateful_set(ctx, &ns, &name),
        Kind::Deployment => return rollout_deployment(ctx, &ns, &name),
        _ => {}
    }
    let d = match dsplay_sim::explain::diagnose_rollout(ctx.cluster, &ns, &name) {
        Ok(d) => d,
        Err(e) => return ctx.api_fail(&e, None),
    };
    let mut text = format!("daemonset.apps/{name}: {} ", d.strategy);
    if d.strategy == "OnDelete" {
        text.push_str("(pods are replaced only when you delete them)\n");
    } else {
        text.push_str(&format!(
            "maxUnavailable={} maxSurge={}\n",
            d.max_unavailable, d.max_surge
        ));
    }
    text.push_str(&format!(
        "desired {}, up-to-date {}, available {}; unavailable budget in use: {}/{}\n",
        d.desired, d.updated, d.available, d.unavailable_in_use, d.max_unavailable
    ));
    for node in &d.nodes {
        let marker = if node.unavailable {
            " [unavailable]"
        } else {
            ""
        };
        text.push_str(&format!("{}{marker}\n", node.node));
        if node.pods.is_empty() {
            text.push_str("  - no pod\n");
        }
        for pod in &node.pods {
            text.push_str(&format!("  - {pod}\n"));
        }
    }
    if d.problems.is_empty() {
        let done = d.updated >= d.desired && d.available >= d.desired;
        text.push_str(if done {
            "rollout complete\n"
        } else {
            "rollout progressing\n"
        });
    }
    for (problem, fix) in &d.problems {
        text.push_str(&format!("stuck: {problem}\n  fix: {fix}\n"));
    }
    ctx.out(text);
    Ok(())
}

fn image(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "sim image",
        words,
        &[
            value("pull", None),
            value("start", None),
            value("ready", None),
            boolean("crash", None),
            boolean("ignore-sigterm", None),
            value("log", None),
        ],
    )?;
    let Some(image) = parsed.args.first().cloned() else {
        return ctx.fail("sim image needs an IMAGE");
    };
    let mut behavior = ctx.cluster.image_behavior(&image);
    if let Some(pull) = parsed.get("pull") {
        behavior.pull_ok = match pull {
            "ok" => true,
            "fail" => false,
            other => return ctx.fail(format!("--pull must be ok or fail, not {other:?}")),
        };
    }
    if let Some(start) = parsed.get("start") {
        behavior.start_ms = duration_arg(ctx, Some(start), "--start")?.as_millis() as i64;
    }
    if let Some(ready) = parsed.get("ready") {
        behavior.ready = match ready {
            "ok" => true,
            "never" => false,
            other => return ctx.fail(format!("--ready must be ok or never, not {other:?}")),
        };
    }
    if parsed.values.contains_key("crash") {
        behavior.crash = parsed.flag("crash");
    }
    if parsed.values.contains_key("ignore-sigterm") {
        behavior.ignore_sigterm = parsed.flag("ignore-sigterm");
    }
    // `--log TEXT` (repeatable) sets the lines; `--log ""` clears them.
    if parsed.values.contains_key("log") {
        behavior.log = parsed
            .all("log")
            .into_iter()
            .filter(|line| !line.is_empty())
            .collect();
    }
    ctx.cluster.set_image_behavior(&image, behavior);
    Ok(())
}

fn node(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let Some(sub) = words.first().cloned() else {
        return ctx.fail("sim node needs a subcommand: add, fail, recover, condition");
    };
    let rest = &words[1..];
    match sub.as_str() {
        "add" => {
            let mut add = match NodeAdd::parse(rest) {
                Ok(add) => add,
                Err(line) => {
                    ctx.err(line);
                    return Err(Failed);
                }
            };
            while !add.is_done() {
                if let Err(e) = add.add_next(ctx.cluster) {
                    if let Some(summary) = add.summary() {
                        ctx.out(summary);
                    }
                    ctx.err(NodeAdd::error_text(&e));
                    return Err(Failed);
                }
            }
            ctx.out(add.summary().unwrap_or_default());
            Ok(())
        }
        "fail" | "recover" => {
            let Some(name) = rest.first() else {
                return ctx.fail(format!("sim node {sub} needs a NODE"));
            };
            if ctx.cluster.store().node(name).is_none() {
                return ctx.api_fail(
                    &dsplay_sim::ApiError::NotFound {
                        kind: dsplay_api::Kind::Node,
                        name: name.clone(),
                    },
                    None,
                );
            }
            if sub == "fail" {
                node_lifecycle::fail_node(ctx.cluster, name);
            } else {
                node_lifecycle::recover_node(ctx.cluster, name);
            }
            Ok(())
        }
        "condition" => {
            let (Some(name), Some(cond)) = (rest.first(), rest.get(1)) else {
                return ctx.fail("usage: sim node condition NODE TYPE=STATUS");
            };
            let Some((t, s)) = cond.split_once('=') else {
                return ctx.fail("usage: sim node condition NODE TYPE=STATUS");
            };
            if !["True", "False", "Unknown"].contains(&s) {
                return ctx.fail(format!(
                    "condition status must be True, False or Unknown, not {s:?}"
                ));
            }
            if !node_lifecycle::set_condition(ctx.cluster, name, t, s) {
                return ctx.api_fail(
                    &dsplay_sim::ApiError::NotFound {
                        kind: dsplay_api::Kind::Node,
                        name: name.clone(),
                    },
                    None,
                );
            }
            Ok(())
        }
        other => ctx.fail(format!(
            "unknown sim node command \"{other}\" (add, fail, recover, condition)"
        )),
    }
}
