//! Service and EndpointSlice validation (`pkg/apis/core/validation/validation.go` `ValidateService`,
//! `ValidateServiceUpdate`; `pkg/apis/discovery/validation/validation.go` `ValidateEndpointSlice`).

use super::go_value::go_quote;
use super::meta::{validate_labels, validate_object_meta, NameRule};
use super::probe::validate_port_num_or_name;
use super::syntax::{is_dns1123_label, max_len_error, regex_error};
use super::{Errors, FieldError};
use crate::service::parse_ipv4;
use crate::types::*;
use std::collections::BTreeSet;

const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const SERVICE_TYPES: [&str; 4] = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const PROTOCOLS: [&str; 3] = ["SCTP", "TCP", "UDP"];
const INVALID_IP: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/// `IsValidPortName` messages, for clients that check a port name themselves.
pub fn port_name_errors(name: &str) -> Vec<String> {
    super::syntax::is_valid_port_name(name)
}

/// `IsDNS1035Label`: what a Service name must be.
#[doc(alias = "IsDNS1035Label")]
pub fn is_dns1035_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    let b = v.as_bytes();
    let ok = !b.is_empty()
        && b[0].is_ascii_lowercase()
        && (b[b.len() - 1].is_ascii_lowercase() || b[b.len() - 1].is_ascii_digit())
        && b.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-');
    if !ok {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `ValidateService`: name, ports (required unless headless or ExternalName), type, selector,
/// session affinity, nodePorts, traffic policies, cluster IPs.
#[doc(alias = "ValidateService")]
pub fn validate_service(svc: &Service) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&svc.metadata, true, NameRule::Dns1035Label, "metadata");
    let default_spec = ServiceSpec::default();
    let spec = svc.spec.as_ref().unwrap_or(&default_spec);
    let type_ = spec.type_.as_deref().unwrap_or("");
    let headless = spec.cluster_ip.as_deref() == Some("None");
    let ports = spec.ports.as_deref().unwrap_or(&[]);
    if ports.is_empty() && !headless && type_ != "ExternalName" {
        errors.push(FieldError::required("spec.ports", ""));
    }
    if type_ == "ExternalName" {
        if spec.cluster_ip.as_deref().is_some_and(|ip| !ip.is_empty()) {
            errors.push(FieldError::forbidden(
                "spec.clusterIPs",
                "may not be set for ExternalName services",
            ));
        }
        if spec.external_name.as_deref().unwrap_or("").is_empty() {
            errors.push(FieldError::required("spec.externalName", ""));
        }
    }
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        errors.extend(validate_service_port(
            port,
            ports.len() > 1,
            &mut names,
            &format!("spec.ports[{i}]"),
        ));
    }
    if let Some(selector) = &spec.selector {
        errors.extend(validate_labels(selector, "spec.selector"));
    }
    let affinity = spec.session_affinity.as_deref().unwrap_or("");
    if affinity.is_empty() {
        errors.push(FieldError::required("spec.sessionAffinity", ""));
    } else if affinity != "None" && affinity != "ClientIP" {
        errors.push(FieldError::not_supported(
            "spec.sessionAffinity",
            go_quote(affinity),
            &["ClientIP", "None"],
        ));
    }
    if type_.is_empty() {
        errors.push(FieldError::required("spec.type", ""));
    } else if !SERVICE_TYPES.contains(&type_) {
        errors.push(FieldError::not_supported(
            "spec.type",
            go_quote(type_),
            &SERVICE_TYPES,
        ));
    }
    if type_ == "ClusterIP" {
        for (i, port) in ports.iter().enumerate() {
            if port.node_port.unwrap_or(0) != 0 {
                errors.push(FieldError::forbidden(
                    format!("spec.ports[{i}].nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let node_port = port.node_port.unwrap_or(0);
        if node_port == 0 {
            continue;
        }
        let key = (node_port, port.protocol.clone().unwrap_or_default());
        if !node_ports.insert(key) {
            errors.push(FieldError::duplicate(
                format!("spec.ports[{i}].nodePort"),
                node_port.to_string(),
            ));
        }
    }
    if let Some(policy) = spec.internal_traffic_policy.as_deref() {
        if policy != "Cluster" && policy != "Local" {
            errors.push(FieldError::not_supported(
                "spec.internalTrafficPolicy",
                go_quote(policy),
                &["Cluster", "Local"],
            ));
        }
    } else if type_ != "ExternalName" {
        errors.push(FieldError::required("spec.internalTrafficPolicy", ""));
    }
    if let Some(policy) = spec.external_traffic_policy.as_deref() {
        if policy != "Cluster" && policy != "Local" {
            errors.push(FieldError::not_supported(
                "spec.externalTrafficPolicy",
                go_quote(policy),
                &["Cluster", "Local"],
            ));
        } else if type_ != "NodePort" && type_ != "LoadBalancer" {
            errors.push(FieldError::invalid(
                "spec.externalTrafficPolicy",
                go_quote(policy),
                "may only be set when `type` is 'NodePort' or 'LoadBalancer'",
            ));
        }
    }
    for (i, ip) in spec.cluster_ips.iter().flatten().enumerate() {
        if ip != "None" && !ip.is_empty() && parse_ipv4(ip).is_none() {
            errors.push(FieldError::invalid(
                format!("spec.clusterIPs[{i}]"),
                go_quote(ip),
                INVALID_IP,
            ));
        }
    }
    errors
}

/// `validateServicePort`: name (required when there are several, a DNS-1123 label, unique), port
/// number, protocol, targetPort.
#[doc(alias = "validateServicePort")]
fn validate_service_port(
    port: &ServicePort,
    require_name: bool,
    names: &mut BTreeSet<String>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    let name = port.name.as_deref().unwrap_or("");
    if require_name && name.is_empty() {
        errors.push(FieldError::required(format!("{path}.name"), ""));
    } else if !name.is_empty() {
        let msgs = is_dns1123_label(name);
        for msg in &msgs {
            errors.push(FieldError::invalid(
                format!("{path}.name"),
                go_quote(name),
                msg,
            ));
        }
        if msgs.is_empty() && !names.insert(name.to_string()) {
            errors.push(FieldError::duplicate(
                format!("{path}.name"),
                go_quote(name),
            ));
        }
    }
    if !(1..=65535).contains(&port.port) {
        errors.push(FieldError::invalid(
            format!("{path}.port"),
            port.port.to_string(),
            "must be between 1 and 65535, inclusive",
        ));
    }
    match port.protocol.as_deref().unwrap_or("") {
        "" => errors.push(FieldError::required(format!("{path}.protocol"), "")),
        p if !PROTOCOLS.contains(&p) => errors.push(FieldError::not_supported(
            format!("{path}.protocol"),
            go_quote(p),
            &PROTOCOLS,
        )),
        _ => {}
    }
    if let Some(target) = &port.target_port {
        errors.extend(validate_port_num_or_name(
            target,
            &format!("{path}.targetPort"),
        ));
    }
    errors
}

/// `ValidateServiceUpdate`'s cluster IP rule: once allocated, `clusterIPs` may not change.
#[doc(alias = "ValidateServiceUpdate")]
pub fn validate_service_update(old: &Service, new: &Service) -> Vec<FieldError> {
    let ips = |s: &Service| {
        s.spec
            .as_ref()
            .and_then(|s| s.cluster_ips.clone())
            .unwrap_or_default()
    };
    let (old_ips, new_ips) = (ips(old), ips(new));
    if old_ips.is_empty() || old_ips == new_ips {
        return Vec::new();
    }
    let shown: Vec<String> = new_ips.iter().map(|ip| go_quote(ip)).collect();
    vec![FieldError::invalid(
        "spec.clusterIPs[0]",
        format!("[]string{{{}}}", shown.join(", ")),
        "may not change once set",
    )]
}

/// `ValidateEndpointSlice`: metadata and the address type.
#[doc(alias = "ValidateEndpointSlice")]
pub fn validate_endpoint_slice(slice: &EndpointSlice) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&slice.metadata, true, NameRule::Subdomain, "metadata");
    match slice.address_type.as_str() {
        "" => errors.push(FieldError::required("addressType", "")),
        "IPv4" | "IPv6" | "FQDN" => {}
        other => errors.push(FieldError::not_supported(
            "addressType",
            go_quote(other),
            &["FQDN", "IPv4", "IPv6"],
        )),
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::Object;
    use crate::validation::validate_create;

    fn errors(yaml: &str) -> Vec<String> {
        let svc: Service = serde_yaml::from_str(yaml).expect("yaml");
        validate_create(&Object::Service(svc))
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn validate_service_accepts_a_plain_service() {
        assert!(
            errors("metadata: {name: web, namespace: default}\nspec: {ports: [{port: 80}]}")
                .is_empty()
        );
    }

    #[test]
    fn validate_service_requires_ports_unless_headless() {
        assert_eq!(
            errors("metadata: {name: web}\nspec: {selector: {a: b}}"),
            ["spec.ports: Required value"]
        );
        assert!(errors("metadata: {name: web}\nspec: {clusterIP: None}").is_empty());
    }

    #[test]
    fn validate_service_name_is_a_dns1035_label() {
        assert_eq!(
            errors("metadata: {name: 1web}\nspec: {ports: [{port: 80}]}"),
            ["metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]
        );
    }

    #[test]
    fn validate_service_port_rules() {
        assert_eq!(
            errors("metadata: {name: web}\nspec: {ports: [{port: 80}, {port: 70000, name: b, protocol: HTTP}]}"),
            [
                "spec.ports[0].name: Required value",
                "spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
                "spec.ports[1].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
                // targetPort defaults to the port, so it is out of range too.
                "spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
            ]
        );
    }

    #[test]
    fn validate_service_type_and_policies() {
        assert_eq!(
            errors("metadata: {name: web}\nspec: {type: Foo, internalTrafficPolicy: Node, ports: [{port: 80}]}"),
            [
                "spec.type: Unsupported value: \"Foo\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"",
                "spec.internalTrafficPolicy: Unsupported value: \"Node\": supported values: \"Cluster\", \"Local\"",
            ]
        );
        assert_eq!(
            errors("metadata: {name: web}\nspec: {ports: [{port: 80, nodePort: 30001}]}"),
            ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]
        );
    }

    #[test]
    fn validate_service_update_cluster_ip_is_immutable() {
        let svc = |ip: &str| -> Service {
            serde_yaml::from_str(&format!(
                "metadata: {{name: web}}\nspec: {{clusterIP: {ip}, clusterIPs: [{ip}], ports: [{{port: 80}}]}}"
            ))
            .unwrap()
        };
        assert!(validate_service_update(&svc("10.96.1.1"), &svc("10.96.1.1")).is_empty());
        assert_eq!(
            validate_service_update(&svc("10.96.1.1"), &svc("10.96.1.2"))[0].to_string(),
            "spec.clusterIPs[0]: Invalid value: []string{\"10.96.1.2\"}: may not change once set"
        );
    }
}
