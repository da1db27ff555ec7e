//! `kubectl expose (TYPE NAME | TYPE/NAME) [--port=P] [--target-port=T] [--name=N] [--type=…]`:
//! a Service whose selector, ports and labels come from a pod or another Service.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go RunExpose, createService;
//! pkg/polymorphichelpers canbeexposed.go, mapbasedselectorforobject.go, portsforobject.go,
//! protocolsforobject.go.

use super::{parse_flags, resource_args, CmdResult, Ctx};
use crate::flags::value;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::ApiError;
use std::collections::BTreeMap;

/// `canBeExposed`: of the kinds the playground serves, pods, Services, Deployments and
/// ReplicaSets.
#[doc(alias = "canBeExposed")]
fn can_be_exposed(kind: Kind) -> Result<(), String> {
    match kind {
        Kind::Pod | Kind::Service | Kind::Deployment | Kind::ReplicaSet => Ok(()),
        other if other.group().is_empty() => Err(format!("cannot expose a {}", other.name())),
        other => Err(format!(
            "cannot expose a {}.{}",
            other.name(),
            other.group()
        )),
    }
}

/// `mapBasedSelectorForObject`: a pod's labels, a Service's selector.
#[doc(alias = "mapBasedSelectorForObject")]
fn map_based_selector_for_object(object: &Object) -> Result<BTreeMap<String, String>, String> {
    match object {
        Object::Pod(pod) => pod
            .metadata
            .labels
            .clone()
            .filter(|l| !l.is_empty())
            .ok_or_else(|| "the pod has no labels and cannot be exposed".to_string()),
        Object::Service(svc) => svc
            .spec
            .as_ref()
            .and_then(|s| s.selector.clone())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| "the service has no pod selector set".to_string()),
        Object::Deployment(d) => apps_selector(d.spec.as_ref().map(|s| &s.selector), "deployment"),
        Object::ReplicaSet(rs) => {
            apps_selector(rs.spec.as_ref().map(|s| &s.selector), "replicaset")
        }
        _ => Err("cannot extract pod selector".to_string()),
    }
}

/// A Deployment's or ReplicaSet's `matchLabels`; match expressions cannot become a Service's
/// map-based selector.
fn apps_selector(
    selector: Option<&LabelSelector>,
    what: &str,
) -> Result<BTreeMap<String, String>, String> {
    let labels = selector
        .and_then(|s| s.match_labels.clone())
        .filter(|l| !l.is_empty())
        .ok_or_else(|| format!("invalid {what}: no selectors, therefore cannot be exposed"))?;
    if selector.is_some_and(|s| s.match_expressions.as_ref().is_some_and(|e| !e.is_empty())) {
        return Err(format!(
            "couldn't convert expressions - \"{}\" to map-based selector format",
            dsplay_api::selector::format_label_selector(selector)
        ));
    }
    Ok(labels)
}

/// `portsForObject` and `multiProtocolsForObject`: (port, protocols) in declaration order.
#[doc(alias = "portsForObject")]
fn ports_for_object(object: &Object) -> Vec<(i32, Vec<String>)> {
    let mut out: Vec<(i32, Vec<String>)> = Vec::new();
    let mut add = |port: i32, protocol: Option<&String>| {
        let protocol = protocol.cloned().unwrap_or_else(|| "TCP".into());
        match out.iter_mut().find(|(p, _)| *p == port) {
            Some((_, protocols)) => protocols.push(protocol),
            None => out.push((port, vec![protocol])),
        }
    };
    let template_spec = match object {
        Object::Pod(pod) => pod.spec.as_ref(),
        Object::Deployment(d) => d.spec.as_ref().and_then(|s| s.template.spec.as_ref()),
        Object::ReplicaSet(rs) => rs
            .spec
            .as_ref()
            .and_then(|s| s.template.as_ref())
            .and_then(|t| t.spec.as_ref()),
        _ => None,
    };
    for c in template_spec.iter().flat_map(|s| s.containers.iter()) {
        for p in c.ports.iter().flatten() {
            add(p.container_port, p.protocol.as_ref());
        }
    }
    if let Object::Service(svc) = object {
        for p in svc.spec.iter().flat_map(|s| s.ports.iter().flatten()) {
            add(p.port, p.protocol.as_ref());
        }
    }
    out
}

/// `parseLabels`: `k=v,k2=v2`.
fn parse_labels(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for spec in text.split(',') {
        let Some((k, v)) = spec.split_once('=') else {
            return Err(format!("unexpected label spec: {spec}"));
        };
        if k.is_empty() {
            return Err("unexpected empty label key".into());
        }
        out.insert(k.to_string(), v.to_string());
    }
    Ok(out)
}

/// `kubectl expose`.
pub(crate) fn expose(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "expose",
        words,
        &[
            value("port", None),
            value("target-port", None),
            value("name", None),
            value("type", None),
            value("protocol", None),
            value("selector", None),
            value("labels", Some('l')),
            value("cluster-ip", None),
            value("session-affinity", None),
            value("external-ip", None),
        ],
    )?;
    if parsed.args.is_empty() {
        return ctx.fail(super::unavailable::NO_RESOURCES);
    }
    let namespace = super::namespace(&parsed);
    let requests = resource_args(ctx, &parsed.args)?;
    let mut targets = Vec::new();
    for (kind, name) in requests {
        match name {
            Some(name) => match ctx.cluster.store().get(kind, &namespace, &name) {
                Some(o) => targets.push(o),
                None => return ctx.api_fail(&ApiError::NotFound { kind, name }, None),
            },
            // The builder takes no label selector here (`-l` is the new Service's labels).
            None => return ctx.fail("resource(s) were provided, but no name was specified"),
        }
    }
    for object in targets {
        if let Err(e) = can_be_exposed(object.kind()) {
            return ctx.fail(e);
        }
        let selector = match parsed.get("selector") {
            Some(s) => parse_labels(s),
            None => map_based_selector_for_object(&object).map_err(|e| {
                format!("couldn't retrieve selectors via --selector flag or introspection: {e}")
            }),
        };
        let selector = match selector {
            Ok(s) => s,
            Err(e) => return ctx.fail(e),
        };
        let headless = parsed.get("cluster-ip") == Some("None");
        let introspected = ports_for_object(&object);
        let ports: Vec<i32> = match parsed.get("port") {
            Some(p) => match p.parse() {
                Ok(n) => vec![n],
                Err(_) => return ctx.fail(format!("strconv.Atoi: parsing {p:?}: invalid syntax")),
            },
            None if introspected.is_empty() && !headless => {
                return ctx.fail("couldn't find port via --port flag or introspection")
            }
            None => introspected.iter().map(|(p, _)| *p).collect(),
        };
        let mut service_ports = Vec::new();
        let several = ports.len() > 1;
        for (i, port) in ports.iter().enumerate() {
            let name = several.then(|| format!("port-{}", i + 1));
            let protocols = match parsed.get("protocol") {
                Some(p) => vec![p.to_string()],
                None => introspected
                    .iter()
                    .find(|(p, _)| p == port)
                    .map(|(_, protocols)| protocols.clone())
                    .unwrap_or_else(|| vec!["TCP".into()]),
            };
            if protocols.len() > 1 {
                for protocol in protocols {
                    service_ports.push(ServicePort {
                        name: Some(format!("port-{}-{}", i + 1, protocol.to_lowercase())),
                        port: *port,
                        protocol: Some(protocol),
                        ..Default::default()
                    });
                }
            } else {
                service_ports.push(ServicePort {
                    name,
                    port: *port,
                    protocol: protocols.into_iter().next(),
                    ..Default::default()
                });
            }
        }
        for sp in &mut service_ports {
            sp.target_port = Some(match parsed.get("target-port") {
                Some(t) => match t.parse::<i32>() {
                    Ok(n) => IntOrString::Int(n),
                    Err(_) => IntOrString::String(t.to_string()),
                },
                None => IntOrString::Int(sp.port),
            });
        }
        let labels = match parsed.get("labels") {
            Some(l) => match parse_labels(l) {
                Ok(l) => Some(l),
                Err(e) => return ctx.fail(e),
            },
            None => object.metadata().labels.clone().filter(|l| !l.is_empty()),
        };
        let session_affinity = match parsed.get("session-affinity") {
            None => None,
            Some(a @ ("None" | "ClientIP")) => Some(a.to_string()),
            Some(other) => return ctx.fail(format!("unknown session affinity: {other}")),
        };
        let default_name: String = object.name().chars().take(63).collect();
        let name = parsed.get("name").unwrap_or(&default_name).to_string();
        let service = Service {
            metadata: ObjectMeta {
                name: Some(name.clone()),
                namespace: Some(namespace.clone()),
                labels,
                ..Default::default()
            },
            spec: Some(ServiceSpec {
                selector: Some(selector),
                ports: Some(service_ports),
                type_: parsed.get("type").map(str::to_string),
                session_affinity,
                cluster_ip: parsed.get("cluster-ip").map(str::to_string),
                external_ips: parsed.get("external-ip").map(|ip| vec![ip.to_string()]),
                ..Default::default()
            }),
            status: None,
        };
        match ctx.cluster.create(Object::Service(service)) {
            Ok(_) => ctx.out(format!("service/{name} exposed")),
            Err(e) => return ctx.api_fail(&e, None),
        }
    }
    Ok(())
}
