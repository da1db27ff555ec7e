//! `kubectl run` (an ordinary pod, to compare with daemon pods) and `kubectl wait`.

use super::get::Query;
use super::{parse_flags, resource_args, wait_deadline, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::Cluster;
use std::collections::BTreeMap;
use std::time::Duration;

/// `kubectl run NAME --image=IMAGE [--labels k=v,…] [--restart=Always|OnFailure|Never] [--env K=V]…
/// [--annotations K=V]… [--image-pull-policy P] [--port N] [--command] [--privileged] [-- ARGS…]`.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/generate/versioned/run.go BasicPod.Generate;
/// pkg/cmd/run/run.go getRestartPolicy, verifyImagePullPolicy.
pub(crate) fn run(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "run",
        words,
        &[
            value("image", None),
            value("labels", Some('l')),
            value("restart", None),
            value("overrides", None),
            value("override-type", None),
            value("port", None),
            boolean("dry-run", None),
            boolean("command", None),
            value("image-pull-policy", None),
            value("env", None),
            value("annotations", None),
            boolean("privileged", None),
        ],
    )?;
    let Some(name) = parsed.args.first().cloned() else {
        ctx.err("error: NAME is required for run\nSee 'kubectl run -h' for help and examples");
        return Err(Failed);
    };
    let Some(image) = parsed.get("image").map(str::to_string) else {
        ctx.err("error: required flag(s) \"image\" not set");
        return Err(Failed);
    };
    let mut labels = BTreeMap::new();
    match parsed.get("labels") {
        Some(text) => {
            for pair in text.split(',') {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                labels.insert(k.to_string(), v.to_string());
            }
        }
        None => {
            labels.insert("run".to_string(), name.clone());
        }
    }
    let usage = |ctx: &mut Ctx, message: String| {
        ctx.err(format!(
            "error: {message}\nSee 'kubectl run -h' for help and examples"
        ));
        Err(Failed)
    };
    let restart = parsed.get("restart").unwrap_or("Always").to_string();
    if !matches!(restart.as_str(), "Always" | "OnFailure" | "Never") {
        return usage(ctx, format!("invalid restart policy: {restart}"));
    }
    let pull_policy = parsed.get("image-pull-policy").filter(|p| !p.is_empty());
    if let Some(policy) = pull_policy.filter(|p| !matches!(*p, "Always" | "IfNotPresent" | "Never"))
    {
        return usage(ctx, format!("invalid image pull policy: {policy}"));
    }
    let env = match parse_envs(&parsed.all("env")) {
        Ok(env) => env,
        Err(message) => return ctx.fail(message),
    };
    let annotations: BTreeMap<String, String> = parsed
        .all("annotations")
        .iter()
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    let args: Vec<String> = parsed.args[1..].to_vec();
    let (command, args) = if parsed.flag("command") {
        (Some(args), None)
    } else {
        (None, Some(args))
    };
    let privileged = parsed.flag("privileged");
    let container = Container {
        name: name.clone(),
        image: Some(image),
        command: command.filter(|c| !c.is_empty()),
        args: args.filter(|a| !a.is_empty()),
        env: (!env.is_empty()).then_some(env),
        image_pull_policy: pull_policy.map(str::to_string),
        security_context: privileged.then(|| k8s_openapi::api::core::v1::SecurityContext {
            privileged: Some(true),
            ..Default::default()
        }),
        // `--port`: the container port the pod exposes (what `kubectl expose pod` then reads).
        ports: parsed
            .get("port")
            .and_then(|p| p.parse::<i32>().ok())
            .map(|container_port| {
                vec![k8s_openapi::api::core::v1::ContainerPort {
                    container_port,
                    ..Default::default()
                }]
            }),
        ..Default::default()
    };
    let pod = Pod {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: Some(super::namespace(&parsed)),
            labels: Some(labels),
            annotations: (!annotations.is_empty()).then_some(annotations),
            ..Default::default()
        },
        spec: Some(PodSpec {
            containers: vec![container],
            restart_policy: Some(restart),
            ..Default::default()
        }),
        status: None,
    };
    let mut object = Object::Pod(pod);
    if let Some(overrides) = parsed.get("overrides").filter(|o| !o.is_empty()) {
        let kind = parsed.get("override-type").unwrap_or("merge");
        object = match apply_overrides(&object, overrides, kind) {
            Ok(object) => object,
            Err(message) => return ctx.fail(message),
        };
    }
    match ctx.cluster.create(object) {
        Ok(_) => {
            ctx.out(format!("pod/{name} created"));
            Ok(())
        }
        Err(e) => ctx.api_fail(&e, None),
    }
}

/// `--env NAME=VALUE` (repeatable): kubectl's own check of each pair.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/generate/versioned/run.go parseEnvs.
fn parse_envs(pairs: &[String]) -> Result<Vec<k8s_openapi::api::core::v1::EnvVar>, String> {
    pairs
        .iter()
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if is_env_var_name(name) => {
                Ok(k8s_openapi::api::core::v1::EnvVar {
                    name: name.to_string(),
                    value: Some(value.to_string()),
                    ..Default::default()
                })
            }
            _ => Err(format!("invalid env: {pair}")),
        })
        .collect()
}

/// A C identifier-like environment variable name: letters, digits, `_`, `-`, `.`, not starting with a
/// digit. Upstream: apimachinery/pkg/util/validation/validation.go IsEnvVarName.
fn is_env_var_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// `--overrides` on the generated pod: a JSON merge patch by default, or `--override-type`
/// `strategic` / `json` (RFC 6902), then decoded again as the pod.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/util/override_options.go Overrider.Apply;
/// helpers.go Merge, StrategicMerge, JSONPatch.
fn apply_overrides(object: &Object, overrides: &str, kind: &str) -> Result<Object, String> {
    let mut doc = object.to_json();
    let value = || serde_json::from_str::<serde_json::Value>(overrides);
    match kind {
        "merge" => json_patch::merge(&mut doc, &value().map_err(|_| "Invalid JSON Patch")?),
        "strategic" => {
            super::patch::strategic_merge(&mut doc, &value().map_err(|e| e.to_string())?)
        }
        "json" => {
            let patch: json_patch::Patch =
                serde_json::from_str(overrides).map_err(|e| e.to_string())?;
            json_patch::patch(&mut doc, &patch).map_err(|e| e.to_string())?;
        }
        other => return Err(format!("invalid override type: {other}")),
    }
    let yaml = serde_yaml::to_value(&doc).map_err(|e| e.to_string())?;
    dsplay_api::manifest::decode_value(yaml)
        .map(|m| m.object)
        .map_err(|e| e.to_string())
}

/// `kubectl wait --for=condition=Ready|delete|jsonpath=… KIND [NAME] [-l …] [--timeout=30s]`:
/// advances the virtual clock until every object meets the condition.
pub(crate) fn wait(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "wait",
        words,
        &[
            value("for", None),
            value("timeout", None),
            value("selector", Some('l')),
            boolean("all", None),
            boolean("all-namespaces", Some('A')),
            value("field-selector", None),
        ],
    )?;
    let Some(condition) = parsed.get("for").map(str::to_string) else {
        return ctx.fail("--for must be set");
    };
    // Upstream: staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go: 30s unless set; zero checks
    // once; negative waits a week (here: the longest one command may advance).
    let deadline = wait_deadline(ctx, "wait", &parsed, |seconds| match seconds {
        None => Duration::from_secs(30),
        Some(s) if s < 0.0 => dsplay_sim::cluster::MAX_ADVANCE,
        // (-0s too: a float pattern compares with ==.)
        Some(0.0) => Duration::ZERO,
        Some(s) => Duration::from_secs_f64(s.min(1e12)),
    })?;
    let query = Query::from_flags(ctx, &parsed)?;
    let requests = resource_args(ctx, &parsed.args)?;
    let mut targets: Vec<(Kind, String, String)> = Vec::new();
    for (kind, name) in requests {
        match name {
            Some(n) => {
                let ns = if kind.namespaced() {
                    query.namespace.clone()
                } else {
                    String::new()
                };
                if ctx.cluster.store().get(kind, &ns, &n).is_none() {
                    ctx.err(super::api_error_text(
                        &dsplay_sim::ApiError::NotFound { kind, name: n },
                        None,
                    ));
                    return Err(Failed);
                }
                targets.push((kind, ns, n));
            }
            None => {
                for o in query.select(ctx, kind)? {
                    targets.push((
                        kind,
                        o.metadata().namespace.clone().unwrap_or_default(),
                        o.name().to_string(),
                    ));
                }
            }
        }
    }
    if targets.is_empty() {
        return ctx.fail("no matching resources found");
    }
    let met = |cluster: &Cluster, (kind, ns, name): &(Kind, String, String)| -> bool {
        let object = cluster.store().get(*kind, ns, name);
        if condition == "delete" {
            return object.is_none();
        }
        let Some(object) = object else { return false };
        let Some(wanted) = condition.strip_prefix("condition=") else {
            return false;
        };
        let (ctype, cstatus) = wanted.split_once('=').unwrap_or((wanted, "True"));
        let json = object.to_json();
        json.pointer("/status/conditions")
            .and_then(|c| c.as_array())
            .is_some_and(|conds| {
                conds.iter().any(|c| {
                    c.get("type")
                        .and_then(|t| t.as_str())
                        .is_some_and(|t| t.eq_ignore_ascii_case(ctype))
                        && c.get("status")
                            .and_then(|s| s.as_str())
                            .is_some_and(|s| s.eq_ignore_ascii_case(cstatus))
                })
            })
    };
    if condition != "delete" && !condition.starts_with("condition=") {
        return ctx.fail(format!("unrecognized condition: \"{condition}\""));
    }
    // Targets are reported as they meet the condition, in order, at the instant they do.
    let mut pending = targets.clone();
    let mut lines = Vec::new();
    let verb = if condition == "delete" {
        "deleted"
    } else {
        "condition met"
    };
    let all_met = ctx.cluster.advance_until(deadline, |c| {
        pending.retain(|t| {
            if met(c, t) {
                lines.push(format!("{}/{} {verb}", t.0.qualified_singular(), t.2));
                false
            } else {
                true
            }
        });
        pending.is_empty()
    });
    for line in lines {
        ctx.out(line);
    }
    if all_met {
        return Ok(());
    }
    let (k, _, n) = &pending[0];
    ctx.fail(format!(
        "timed out waiting for the condition on {}/{n}",
        k.plural()
    ))
}
