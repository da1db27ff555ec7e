//! `kubectl create service clusterip|nodeport|loadbalancer|externalname NAME [--tcp=PORT[:TARGET]]…`:
//! a Service labelled and selecting `app=NAME`, one TCP port per `--tcp` (named `PORT-TARGET`).
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/create/create_service.go Validate,
//! createService, parsePorts, Run.

use super::{parse_flags, CmdResult, Ctx};
use crate::flags::value;
use dsplay_api::types::*;
use dsplay_api::validation::is_dns1123_subdomain;
use dsplay_api::Object;
use std::collections::BTreeMap;

/// `IsValidPortName` messages (a named target port).
fn port_name_errors(name: &str) -> Vec<String> {
    dsplay_api::validation::service::port_name_errors(name)
}

/// `parsePorts`: `PORT` or `PORT:TARGET` (a number or a port name).
#[doc(alias = "parsePorts")]
fn parse_ports(text: &str) -> Result<(i32, IntOrString), String> {
    let mut parts = text.split(':');
    let first = parts.next().unwrap_or("");
    let port: i32 = match first.parse::<i64>() {
        Ok(n) if (1..=65535).contains(&n) => n as i32,
        Ok(n) => return Err(format!("port {n} must be between 1 and 65535, inclusive")),
        Err(_) => return Err(format!("invalid port number: \"{first}\"")),
    };
    let Some(target) = parts.next() else {
        return Ok((port, IntOrString::Int(port)));
    };
    match target.parse::<i64>() {
        Ok(n) if (1..=65535).contains(&n) => Ok((port, IntOrString::Int(n as i32))),
        Ok(_) => Err("must be between 1 and 65535, inclusive".into()),
        Err(_) => {
            let errors = port_name_errors(target);
            if errors.is_empty() {
                Ok((port, IntOrString::String(target.to_string())))
            } else {
                Err(errors.join(","))
            }
        }
    }
}

/// `kubectl create service TYPE NAME …`.
pub(crate) fn create_service(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let Some(sub) = words.first() else {
        return ctx.fail("kubectl create service needs a type: clusterip, nodeport, loadbalancer or externalname");
    };
    let (type_, verb) = match sub.as_str() {
        "clusterip" => ("ClusterIP", "clusterip"),
        "nodeport" => ("NodePort", "nodeport"),
        "loadbalancer" => ("LoadBalancer", "loadbalancer"),
        "externalname" => ("ExternalName", "externalname"),
        other => {
            return ctx.fail(format!(
                "unknown command \"{other}\" for \"kubectl create service\""
            ))
        }
    };
    let parsed = parse_flags(
        ctx,
        "create service",
        &words[1..],
        &[
            value("tcp", None),
            value("clusterip", None),
            value("node-port", None),
            value("external-name", None),
        ],
    )?;
    let [name] = parsed.args.as_slice() else {
        return ctx.fail(format!(
            "exactly one NAME is required, got {}\nSee 'kubectl create service {verb} -h' for help and examples",
            parsed.args.len()
        ));
    };
    let tcp = parsed.all("tcp");
    let cluster_ip = parsed.get("clusterip").map(str::to_string);
    let external_name = parsed.get("external-name").unwrap_or("").to_string();
    if cluster_ip.as_deref() == Some("None") && type_ != "ClusterIP" {
        return ctx.fail("ClusterIP=None can only be used with ClusterIP service type");
    }
    if cluster_ip.as_deref() != Some("None") && tcp.is_empty() && type_ != "ExternalName" {
        return ctx.fail("at least one tcp port specifier must be provided");
    }
    if type_ == "ExternalName" && !is_dns1123_subdomain(&external_name).is_empty() {
        return ctx.fail(format!("invalid service external name {external_name}"));
    }
    let node_port = match parsed.get("node-port").map(str::parse::<i32>) {
        None => None,
        Some(Ok(n)) => Some(n).filter(|n| *n != 0),
        Some(Err(_)) => {
            return ctx.fail(format!(
                "invalid argument {:?} for \"--node-port\" flag: strconv.ParseInt: parsing {:?}: invalid syntax",
                parsed.get("node-port").unwrap_or(""),
                parsed.get("node-port").unwrap_or("")
            ))
        }
    };
    let mut ports = Vec::new();
    for spec in &tcp {
        let (port, target) = match parse_ports(spec) {
            Ok(p) => p,
            Err(e) => return ctx.fail(e),
        };
        ports.push(ServicePort {
            name: Some(spec.replace(':', "-")),
            port,
            target_port: Some(target),
            protocol: Some("TCP".into()),
            node_port,
            ..Default::default()
        });
    }
    let app = BTreeMap::from([("app".to_string(), name.clone())]);
    let service = Service {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: Some(super::namespace(&parsed)),
            labels: Some(app.clone()),
            ..Default::default()
        },
        spec: Some(ServiceSpec {
            type_: Some(type_.into()),
            selector: Some(app),
            ports: Some(ports),
            external_name: Some(external_name).filter(|n| !n.is_empty()),
            cluster_ip,
            ..Default::default()
        }),
        status: None,
    };
    match ctx.cluster.create(Object::Service(service)) {
        Ok(_) => {
            ctx.out(format!("service/{name} created"));
            Ok(())
        }
        Err(e) => ctx.fail(format!(
            "failed to create {type_} service: {}",
            e.server_message()
        )),
    }
}
