//! Pod and pod template validation (`pkg/apis/core/validation/validation.go` `ValidatePod`,
//! `ValidatePodTemplateSpec`, `ValidatePodSpec`, volumes, restart and DNS policy).

use super::container::{
    validate_containers, validate_containers_only_for_pod, validate_init_containers,
};
use super::go_value::go_quote;
use super::meta::{
    validate_labels, validate_labels_and_annotations, validate_nonnegative, validate_object_meta,
    NameRule,
};
use super::node_affinity::validate_node_affinity;
use super::pod_affinity::{validate_inter_pod_affinity, validate_topology_spread_constraints};
use super::syntax::{is_dns1123_label, is_dns1123_subdomain};
use super::toleration::validate_tolerations;
use super::{Errors, FieldError};
use crate::defaults;
use crate::types::*;
use k8s_openapi::api::core::v1::Volume;
use std::collections::BTreeSet;

/// `ValidatePod`: metadata, the pod spec at `spec` (as a Pod's), then what only a Pod's
/// containers must satisfy (`validateContainersOnlyForPod`).
#[doc(alias = "ValidatePod")]
pub fn validate_pod(pod: &Pod) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&pod.metadata, true, NameRule::Subdomain, "metadata");
    let no_spec;
    let spec = match &pod.spec {
        Some(spec) => spec,
        None => {
            no_spec = PodSpec::default();
            &no_spec
        }
    };
    errors.extend(validate_pod_spec(spec, "spec", true));
    errors.extend(validate_containers_only_for_pod(
        &spec.containers,
        "spec.containers",
    ));
    errors.extend(validate_containers_only_for_pod(
        spec.init_containers.as_deref().unwrap_or(&[]),
        "spec.initContainers",
    ));
    errors
}

/// `ValidatePodTemplateSpec`: template labels/annotations (at `<path>.labels`, the internal type embeds
/// ObjectMeta), the pod spec, and no ephemeral containers.
#[doc(alias = "ValidatePodTemplateSpec")]
pub(super) fn validate_pod_template_spec(template: &PodTemplateSpec, path: &str) -> Errors {
    let mut errors = Vec::new();
    let meta = template.metadata.clone().unwrap_or_default();
    errors.extend(validate_labels_and_annotations(&meta, path));
    let spec = template.spec.clone().unwrap_or_else(|| {
        let mut spec = PodSpec::default();
        defaults::default_pod_spec(&mut spec);
        spec
    });
    errors.extend(validate_pod_spec(&spec, &format!("{path}.spec"), false));
    if spec
        .ephemeral_containers
        .as_ref()
        .is_some_and(|e| !e.is_empty())
    {
        errors.push(FieldError::forbidden(
            format!("{path}.spec.ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errors
}

/// `ValidatePodSpec` (the parts the playground models), in upstream order. `resource_is_pod` is
/// upstream's `PodValidationOptions.ResourceIsPod`: a Pod's own spec, not a template's.
#[doc(alias = "ValidatePodSpec")]
pub fn validate_pod_spec(spec: &PodSpec, path: &str, resource_is_pod: bool) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let volumes = validate_volumes(
        spec.volumes.as_deref().unwrap_or(&[]),
        &format!("{path}.volumes"),
        &mut errors,
    );
    let grace = spec.termination_grace_period_seconds;
    errors.extend(validate_containers(
        &spec.containers,
        &volumes,
        grace,
        &format!("{path}.containers"),
    ));
    errors.extend(validate_init_containers(
        spec.init_containers.as_deref().unwrap_or(&[]),
        &spec.containers,
        &volumes,
        grace,
        &format!("{path}.initContainers"),
    ));
    errors.extend(validate_pod_host_network_deps(spec, path, resource_is_pod));
    errors.extend(validate_restart_policy(
        spec.restart_policy.as_deref(),
        &format!("{path}.restartPolicy"),
    ));
    errors.extend(validate_dns_policy(
        spec.dns_policy.as_deref(),
        &format!("{path}.dnsPolicy"),
    ));
    if let Some(node_selector) = &spec.node_selector {
        errors.extend(validate_labels(
            node_selector,
            &format!("{path}.nodeSelector"),
        ));
    }
    if let Some(affinity) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
    {
        errors.extend(validate_node_affinity(
            affinity,
            &format!("{path}.affinity.nodeAffinity"),
        ));
    }
    if let Some(affinity) = &spec.affinity {
        errors.extend(validate_inter_pod_affinity(
            affinity,
            &format!("{path}.affinity"),
        ));
    }
    errors.extend(validate_topology_spread_constraints(
        spec.topology_spread_constraints.as_deref().unwrap_or(&[]),
        &format!("{path}.topologySpreadConstraints"),
    ));
    validate_optional_subdomain(
        &mut errors,
        path,
        "serviceAccountName",
        spec.service_account_name.as_deref(),
    );
    validate_optional_subdomain(&mut errors, path, "nodeName", spec.node_name.as_deref());
    if let Some(ads) = spec.active_deadline_seconds {
        if !(1..=i64::from(i32::MAX)).contains(&ads) {
            errors.push(FieldError::invalid(
                format!("{path}.activeDeadlineSeconds"),
                ads.to_string(),
                &format!("must be between 1 and {}, inclusive", i32::MAX),
            ));
        }
    }
    for (field, value) in [("hostname", &spec.hostname), ("subdomain", &spec.subdomain)] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            for msg in is_dns1123_label(v) {
                errors.push(FieldError::invalid(
                    format!("{path}.{field}"),
                    go_quote(v),
                    &msg,
                ));
            }
        }
    }
    if let Some(tolerations) = spec.tolerations.as_ref().filter(|t| !t.is_empty()) {
        errors.extend(validate_tolerations(
            tolerations,
            &format!("{path}.tolerations"),
        ));
    }
    validate_optional_subdomain(
        &mut errors,
        path,
        "priorityClassName",
        spec.priority_class_name.as_deref(),
    );
    if let Some(grace) = spec.termination_grace_period_seconds {
        errors.extend(validate_nonnegative(
            grace,
            &format!("{path}.terminationGracePeriodSeconds"),
        ));
    }
    errors
}

/// `ValidateVolumes` (names only): required, DNS-1123 label, unique. Returns the valid names.
#[doc(alias = "ValidateVolumes")]
fn validate_volumes(volumes: &[Volume], path: &str, errors: &mut Errors) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, v) in volumes.iter().enumerate() {
        let name_path = format!("{path}[{i}].name");
        if v.name.is_empty() {
            errors.push(FieldError::required(name_path, ""));
            continue;
        }
        let msgs = is_dns1123_label(&v.name);
        if !msgs.is_empty() {
            errors.extend(
                msgs.iter()
                    .map(|m| FieldError::invalid(&name_path, go_quote(&v.name), m)),
            );
        } else if !names.insert(v.name.clone()) {
            errors.push(FieldError::duplicate(name_path, go_quote(&v.name)));
        }
    }
    names
}

/// `validatePodHostNetworkDeps`: with `hostNetwork`, each hostPort must equal its containerPort; a
/// template may leave it 0 (the Pod's defaulting fills it in), a Pod may not.
#[doc(alias = "validatePodHostNetworkDeps")]
fn validate_pod_host_network_deps(spec: &PodSpec, path: &str, resource_is_pod: bool) -> Errors {
    if spec.host_network != Some(true) {
        return Vec::new();
    }
    let mut errors = Vec::new();
    for (ci, c) in spec.containers.iter().enumerate() {
        for (pi, port) in c.ports.iter().flatten().enumerate() {
            let host_port = port.host_port.unwrap_or(0);
            if (resource_is_pod || host_port != 0) && host_port != port.container_port {
                errors.push(FieldError::invalid(
                    format!("{path}.containers[{ci}].ports[{pi}].hostPort"),
                    host_port.to_string(),
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
    errors
}

/// `validateRestartPolicy`: Always, OnFailure or Never.
#[doc(alias = "validateRestartPolicy")]
fn validate_restart_policy(policy: Option<&str>, path: &str) -> Errors {
    match policy.unwrap_or("") {
        "Always" | "OnFailure" | "Never" => Vec::new(),
        "" => vec![FieldError::required(path, "")],
        other => vec![FieldError::not_supported(
            path,
            go_quote(other),
            &["Always", "OnFailure", "Never"],
        )],
    }
}

/// `validateDNSPolicy`.
#[doc(alias = "validateDNSPolicy")]
fn validate_dns_policy(policy: Option<&str>, path: &str) -> Errors {
    match policy {
        None
        | Some("ClusterFirstWithHostNet")
        | Some("ClusterFirst")
        | Some("Default")
        | Some("None") => Vec::new(),
        Some("") => vec![FieldError::required(path, "")],
        Some(other) => vec![FieldError::not_supported(
            path,
            go_quote(other),
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )],
    }
}

/// A pod-spec field that, when set, must be a DNS-1123 subdomain (serviceAccountName, nodeName,
/// priorityClassName): one `Invalid value` error per broken rule, at `<path>.<field>`.
fn validate_optional_subdomain(
    errors: &mut Vec<FieldError>,
    path: &str,
    field: &str,
    value: Option<&str>,
) {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return;
    };
    for msg in is_dns1123_subdomain(value) {
        errors.push(FieldError::invalid(
            format!("{path}.{field}"),
            go_quote(value),
            &msg,
        ));
    }
}
