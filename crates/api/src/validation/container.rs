//! Container validation (`pkg/apis/core/validation/validation.go` `validateContainers`,
//! `validateInitContainers`, ports, env, volume mounts, pull policy, resources).

use super::go_value::go_quote;
use super::probe::{forbid_init_container_probes, validate_container_probes};
use super::syntax::{is_dns1123_label, is_qualified_name, is_valid_port_name};
use super::{Errors, FieldError};
use crate::quantity;
use crate::types::*;
use k8s_openapi::api::core::v1::{ContainerPort, EnvVar, ResourceRequirements, VolumeMount};
use std::collections::{BTreeMap, BTreeSet};

/// `validateContainers`: at least one; each container's common checks, unique name, lifecycle and
/// probes; unique host ports. `grace` is the pod's terminationGracePeriodSeconds.
#[doc(alias = "validateContainers")]
pub(super) fn validate_containers(
    containers: &[Container],
    volumes: &BTreeSet<String>,
    grace: Option<i64>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    if containers.is_empty() {
        errors.push(FieldError::required(path, ""));
        return errors;
    }
    let mut names = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        errors.extend(validate_named_container(c, &mut names, volumes, &idx));
        errors.extend(validate_container_probes(c, grace, &idx));
    }
    errors.extend(validate_unique_host_ports(containers, path));
    errors
}

/// The common checks of the container at `idx`, and `Duplicate value` for a name already in
/// `names` (which collects them).
fn validate_named_container(
    c: &Container,
    names: &mut BTreeSet<String>,
    volumes: &BTreeSet<String>,
    idx: &str,
) -> Errors {
    let mut errors = validate_container_common(c, volumes, idx);
    if !names.insert(c.name.clone()) {
        errors.push(FieldError::duplicate(
            format!("{idx}.name"),
            go_quote(&c.name),
        ));
    }
    errors
}

/// `validateInitContainers`: the common checks; names unique across init and regular containers;
/// host ports unique per init container; probes and lifecycle only with `restartPolicy: Always`.
#[doc(alias = "validateInitContainers")]
pub(super) fn validate_init_containers(
    init: &[Container],
    regular: &[Container],
    volumes: &BTreeSet<String>,
    grace: Option<i64>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    let mut names: BTreeSet<String> = regular.iter().map(|c| c.name.clone()).collect();
    for (i, c) in init.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        errors.extend(validate_named_container(c, &mut names, volumes, &idx));
        errors.extend(validate_unique_host_ports(std::slice::from_ref(c), path));
        if c.restart_policy.as_deref() == Some("Always") {
            errors.extend(validate_container_probes(c, grace, &idx));
        } else {
            errors.extend(forbid_init_container_probes(c, &idx));
        }
    }
    errors
}

/// `validateContainerCommon`: name, image, terminationMessagePolicy, ports, env, volumeMounts,
/// imagePullPolicy, resources.
#[doc(alias = "validateContainerCommon")]
fn validate_container_common(c: &Container, volumes: &BTreeSet<String>, path: &str) -> Errors {
    let mut errors = Vec::new();
    if c.name.is_empty() {
        errors.push(FieldError::required(format!("{path}.name"), ""));
    } else {
        for msg in is_dns1123_label(&c.name) {
            errors.push(FieldError::invalid(
                format!("{path}.name"),
                go_quote(&c.name),
                &msg,
            ));
        }
    }
    if c.image.as_deref().unwrap_or("").is_empty() {
        errors.push(FieldError::required(format!("{path}.image"), ""));
    }
    match c.termination_message_policy.as_deref() {
        None | Some("File") | Some("FallbackToLogsOnError") => {}
        Some("") => errors.push(FieldError::required(
            format!("{path}.terminationMessagePolicy"),
            "",
        )),
        Some(other) => errors.push(FieldError::not_supported(
            format!("{path}.terminationMessagePolicy"),
            go_quote(other),
            &["File", "FallbackToLogsOnError"],
        )),
    }
    errors.extend(validate_container_ports(
        c.ports.as_deref().unwrap_or(&[]),
        &format!("{path}.ports"),
    ));
    errors.extend(validate_env(
        c.env.as_deref().unwrap_or(&[]),
        &format!("{path}.env"),
    ));
    errors.extend(validate_volume_mounts(
        c.volume_mounts.as_deref().unwrap_or(&[]),
        volumes,
        &format!("{path}.volumeMounts"),
    ));
    errors.extend(validate_pull_policy(
        c.image_pull_policy.as_deref(),
        &format!("{path}.imagePullPolicy"),
    ));
    if let Some(resources) = &c.resources {
        errors.extend(validate_resource_requirements(
            resources,
            &format!("{path}.resources"),
        ));
    }
    errors
}

/// `validateContainerPorts`: names (IANA service names, unique), containerPort, hostPort, protocol.
#[doc(alias = "validateContainerPorts")]
fn validate_container_ports(ports: &[ContainerPort], path: &str) -> Errors {
    let mut errors = Vec::new();
    let mut names = BTreeSet::new();
    for (i, p) in ports.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        if let Some(name) = p.name.as_deref().filter(|n| !n.is_empty()) {
            let msgs = is_valid_port_name(name);
            if !msgs.is_empty() {
                errors.extend(
                    msgs.iter()
                        .map(|m| FieldError::invalid(format!("{idx}.name"), go_quote(name), m)),
                );
            } else if !names.insert(name.to_string()) {
                errors.push(FieldError::duplicate(format!("{idx}.name"), go_quote(name)));
            }
        }
        if p.container_port == 0 {
            errors.push(FieldError::required(format!("{idx}.containerPort"), ""));
        } else if !(1..=65535).contains(&p.container_port) {
            errors.push(FieldError::invalid(
                format!("{idx}.containerPort"),
                p.container_port.to_string(),
                "must be between 1 and 65535, inclusive",
            ));
        }
        if let Some(host_port) = p.host_port.filter(|h| *h != 0) {
            if !(1..=65535).contains(&host_port) {
                errors.push(FieldError::invalid(
                    format!("{idx}.hostPort"),
                    host_port.to_string(),
                    "must be between 1 and 65535, inclusive",
                ));
            }
        }
        match p.protocol.as_deref() {
            None | Some("TCP") | Some("UDP") | Some("SCTP") => {}
            Some("") => errors.push(FieldError::required(format!("{idx}.protocol"), "")),
            Some(other) => errors.push(FieldError::not_supported(
                format!("{idx}.protocol"),
                go_quote(other),
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
    errors
}

/// `AccumulateUniqueHostPorts`: `…hostPort: Duplicate value: "TCP//80"` (protocol/hostIP/port).
#[doc(alias = "AccumulateUniqueHostPorts")]
fn validate_unique_host_ports(containers: &[Container], path: &str) -> Errors {
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, p) in c.ports.iter().flatten().enumerate() {
            let Some(host_port) = p.host_port.filter(|h| *h != 0) else {
                continue;
            };
            let key = format!(
                "{}/{}/{host_port}",
                p.protocol.as_deref().unwrap_or("TCP"),
                p.host_ip.as_deref().unwrap_or("")
            );
            if !seen.insert(key.clone()) {
                errors.push(FieldError::duplicate(
                    format!("{path}[{ci}].ports[{pi}].hostPort"),
                    go_quote(&key),
                ));
            }
        }
    }
    errors
}

/// `validateContainersOnlyForPod`: what a Pod's containers may not have though a pod template's
/// may — an image with leading or trailing whitespace.
#[doc(alias = "validateContainersOnlyForPod")]
pub(super) fn validate_containers_only_for_pod(containers: &[Container], path: &str) -> Errors {
    containers
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let image = c.image.as_deref().unwrap_or("");
            (image.trim() != image).then(|| {
                FieldError::invalid(
                    format!("{path}[{i}].image"),
                    go_quote(image),
                    "must not have leading or trailing whitespace",
                )
            })
        })
        .collect()
}

/// `ValidateEnv` (names): required; a valid variable name.
#[doc(alias = "ValidateEnv")]
fn validate_env(env: &[EnvVar], path: &str) -> Errors {
    let mut errors = Vec::new();
    for (i, e) in env.iter().enumerate() {
        if e.name.is_empty() {
            errors.push(FieldError::required(format!("{path}[{i}].name"), ""));
        } else if !e.name.chars().all(|c| c.is_ascii_graphic() && c != '=') {
            errors.push(FieldError::invalid(
                format!("{path}[{i}].name"),
                go_quote(&e.name),
                "a valid environment variable name must consist only of printable ASCII characters other than '='",
            ));
        }
    }
    errors
}

/// `ValidateVolumeMounts`: name required and declared, mountPath required.
#[doc(alias = "ValidateVolumeMounts")]
fn validate_volume_mounts(
    mounts: &[VolumeMount],
    volumes: &BTreeSet<String>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    for (i, m) in mounts.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        if m.name.is_empty() {
            errors.push(FieldError::required(format!("{idx}.name"), ""));
        } else if !volumes.contains(&m.name) {
            errors.push(FieldError::not_found(
                format!("{idx}.name"),
                go_quote(&m.name),
            ));
        }
        if m.mount_path.is_empty() {
            errors.push(FieldError::required(format!("{idx}.mountPath"), ""));
        }
    }
    errors
}

/// `validatePullPolicy`: Always, Never or IfNotPresent.
#[doc(alias = "validatePullPolicy")]
fn validate_pull_policy(policy: Option<&str>, path: &str) -> Errors {
    match policy {
        None | Some("Always") | Some("IfNotPresent") | Some("Never") => Vec::new(),
        Some("") => vec![FieldError::required(path, "")],
        Some(other) => vec![FieldError::not_supported(
            path,
            go_quote(other),
            &["Always", "IfNotPresent", "Never"],
        )],
    }
}

/// The quantity grammar error (`resource.ErrFormatWrong`).
pub const QUANTITY_FORMAT_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// `ValidateResourceRequirements`: names, quantities ≥ 0 and parseable, requests ≤ limits.
#[doc(alias = "ValidateResourceRequirements")]
fn validate_resource_requirements(r: &ResourceRequirements, path: &str) -> Errors {
    let mut errors = Vec::new();
    let empty = BTreeMap::new();
    let limits = r.limits.as_ref().unwrap_or(&empty);
    let requests = r.requests.as_ref().unwrap_or(&empty);
    for (name, q) in limits {
        errors.extend(validate_resource_quantity(
            name,
            q,
            &format!("{path}.limits[{name}]"),
        ));
    }
    for (name, q) in requests {
        errors.extend(validate_resource_quantity(
            name,
            q,
            &format!("{path}.requests[{name}]"),
        ));
        let (Some(request), Some(limit)) = (
            quantity::milli(q),
            limits.get(name).and_then(quantity::milli),
        ) else {
            continue;
        };
        if request > limit {
            let limit_text = &limits[name].0;
            errors.push(FieldError::invalid(
                format!("{path}.requests"),
                go_quote(&q.0),
                &format!("must be less than or equal to {name} limit of {limit_text}"),
            ));
        }
    }
    errors
}

/// `validateContainerResourceName` + `ValidateResourceQuantityValue`.
#[doc(alias = "validateContainerResourceName")]
fn validate_resource_quantity(name: &str, q: &Quantity, path: &str) -> Errors {
    let mut errors = Vec::new();
    let standard =
        matches!(name, "cpu" | "memory" | "ephemeral-storage") || name.starts_with("hugepages-");
    if !standard {
        let msgs = is_qualified_name(name);
        if !msgs.is_empty() {
            errors.extend(
                msgs.iter()
                    .map(|m| FieldError::invalid(path, go_quote(name), m)),
            );
        } else if !name.contains('/') || name.starts_with("kubernetes.io/") {
            errors.push(FieldError::invalid(
                path,
                go_quote(name),
                "must be a standard resource for containers",
            ));
        }
    }
    errors.extend(validate_resource_quantity_value(q, path));
    errors
}

/// `ValidateResourceQuantityValue` (`ValidateNonnegativeQuantity`): a parsable, non-negative quantity.
pub(super) fn validate_resource_quantity_value(q: &Quantity, path: &str) -> Errors {
    match quantity::milli(q) {
        None => vec![FieldError::invalid(
            path,
            go_quote(&q.0),
            QUANTITY_FORMAT_ERROR,
        )],
        Some(v) if v < 0 => vec![FieldError::invalid(
            path,
            go_quote(&q.0),
            "must be greater than or equal to 0",
        )],
        Some(_) => Vec::new(),
    }
}
