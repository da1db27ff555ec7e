//! `kubectl create deployment NAME --image=IMAGE [--replicas=N] [--port=P] [-- COMMAND…]`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/create/create_deployment.go`
//! (`createDeployment`, `buildPodSpec`, `sanitizeAndUniquify`).

use super::{int64_flag, parse_flags, CmdResult, Ctx};
use crate::flags::{value, FlagSpec};
use dsplay_api::types::*;
use dsplay_api::Object;
use std::collections::BTreeMap;

const FLAGS: &[FlagSpec] = &[
    value("image", None),
    value("replicas", Some('r')),
    value("port", None),
    value("dry-run", None),
    value("output", Some('o')),
    value("field-manager", None),
    value("validate", None),
];

/// The container name `buildPodSpec` derives from an image: the last path part without tag or
/// digest, with `_` and `.` made `-` (and then a random suffix, as `sanitizeAndUniquify` adds).
fn container_name(ctx: &mut Ctx, image: &str) -> String {
    let mut name = image.rsplit('/').next().unwrap_or(image).to_string();
    if let Some((head, _)) = name.split_once(':') {
        name = head.to_string();
    }
    if let Some((head, _)) = name.split_once('@') {
        name = head.to_string();
    }
    if name.contains(['_', '.']) {
        let suffix = ctx.cluster.random_suffix();
        name = format!("{}-{suffix}", name.replace(['_', '.'], "-"));
    }
    name
}

/// `kubectl create deployment`.
pub(crate) fn create_deployment(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "create deployment", words, FLAGS)?;
    let images: Vec<String> = parsed
        .all("image")
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect();
    let Some(name) = parsed.args.get(1).cloned() else {
        return ctx.fail("exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples");
    };
    if images.is_empty() {
        return ctx.fail("required flag(s) \"image\" not set");
    }
    let command: Vec<String> = parsed.args[2..].to_vec();
    if images.len() > 1 && !command.is_empty() {
        return ctx.fail("cannot specify multiple --image options and command");
    }
    let replicas = int64_flag(ctx, "create deployment", &parsed, "replicas")?.unwrap_or(1);
    let port = int64_flag(ctx, "create deployment", &parsed, "port")?.unwrap_or(-1);
    let labels = BTreeMap::from([("app".to_string(), name.clone())]);
    let mut containers = Vec::new();
    for image in &images {
        containers.push(Container {
            name: container_name(ctx, image),
            image: Some(image.clone()),
            command: (!command.is_empty()).then(|| command.clone()),
            ..Default::default()
        });
    }
    if port >= 0 {
        if let Some(first) = containers.first_mut() {
            first.ports = Some(vec![k8s_openapi::api::core::v1::ContainerPort {
                container_port: port as i32,
                ..Default::default()
            }]);
        }
    }
    let ns = super::namespace(&parsed);
    let deployment = Deployment {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: Some(ns),
            labels: Some(labels.clone()),
            ..Default::default()
        },
        spec: Some(DeploymentSpec {
            replicas: Some(replicas as i32),
            selector: LabelSelector {
                match_labels: Some(labels.clone()),
                match_expressions: None,
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(labels),
                    ..Default::default()
                }),
                spec: Some(PodSpec {
                    containers,
                    ..Default::default()
                }),
            },
            ..Default::default()
        }),
        status: None,
    };
    match parsed.get("dry-run").unwrap_or("none") {
        "client" => {
            ctx.out(format!("deployment.apps/{name} created (dry run)"));
            return Ok(());
        }
        "none" | "server" => {}
        other => {
            return ctx.fail(format!(
                "Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
            ))
        }
    }
    if parsed.get("dry-run") == Some("server") {
        ctx.out(format!("deployment.apps/{name} created (server dry run)"));
        return Ok(());
    }
    match ctx.cluster.create(Object::Deployment(deployment)) {
        Ok(_) => {
            ctx.out(format!("deployment.apps/{name} created"));
            Ok(())
        }
        Err(e) => ctx.fail(format!("failed to create deployment: {e}")),
    }
}
