//! Probe and lifecycle handler validation (`pkg/apis/core/validation/validation.go`
//! `validateLivenessProbe`, `validateReadinessProbe`, `validateStartupProbe`, `validateProbe`,
//! `validateHandler`, `validateLifecycle`).

use super::go_value::go_quote;
use super::meta::validate_nonnegative;
use super::syntax::is_valid_port_name;
use super::{Errors, FieldError};
use crate::types::*;
use k8s_openapi::api::core::v1::{
    ExecAction, HTTPGetAction, Lifecycle, LifecycleHandler, Probe, SleepAction,
};

/// The probes and lifecycle hooks of a regular container (or a restartable init container).
///
/// Upstream: `validateContainers` (its lifecycle and probe part).
pub(super) fn validate_container_probes(c: &Container, grace: Option<i64>, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(lifecycle) = &c.lifecycle {
        errors.extend(validate_lifecycle(
            lifecycle,
            grace,
            &format!("{path}.lifecycle"),
        ));
    }
    if let Some(probe) = &c.liveness_probe {
        errors.extend(validate_probe_must_succeed_once(
            probe,
            &format!("{path}.livenessProbe"),
        ));
    }
    if let Some(probe) = &c.readiness_probe {
        let probe_path = format!("{path}.readinessProbe");
        errors.extend(validate_probe(probe, &probe_path));
        if let Some(seconds) = probe.termination_grace_period_seconds {
            errors.push(FieldError::invalid(
                format!("{probe_path}.terminationGracePeriodSeconds"),
                seconds.to_string(),
                "must not be set for readinessProbes",
            ));
        }
    }
    if let Some(probe) = &c.startup_probe {
        errors.extend(validate_probe_must_succeed_once(
            probe,
            &format!("{path}.startupProbe"),
        ));
    }
    errors
}

/// What an init container without `restartPolicy: Always` may not have.
///
/// Upstream: `validateInitContainers` (the `default:` branch).
pub(super) fn forbid_init_container_probes(c: &Container, path: &str) -> Errors {
    let set = [
        ("lifecycle", c.lifecycle.is_some()),
        ("livenessProbe", c.liveness_probe.is_some()),
        ("readinessProbe", c.readiness_probe.is_some()),
        ("startupProbe", c.startup_probe.is_some()),
    ];
    set.into_iter()
        .filter(|(_, present)| *present)
        .map(|(field, _)| {
            FieldError::forbidden(
                format!("{path}.{field}"),
                "may not be set for init containers without restartPolicy=Always",
            )
        })
        .collect()
}

/// `validateLivenessProbe` / `validateStartupProbe`: the common checks and `successThreshold` 1.
fn validate_probe_must_succeed_once(probe: &Probe, path: &str) -> Errors {
    let mut errors = validate_probe(probe, path);
    let success = probe.success_threshold.unwrap_or(1);
    if success != 1 {
        errors.push(FieldError::invalid(
            format!("{path}.successThreshold"),
            success.to_string(),
            "must be 1",
        ));
    }
    errors
}

/// `validateProbe`: exactly one handler, non-negative timings, a positive grace period override.
fn validate_probe(probe: &Probe, path: &str) -> Errors {
    let handler = Handler {
        exec: probe.exec.as_ref(),
        http_get: probe.http_get.as_ref(),
        tcp_socket_port: probe.tcp_socket.as_ref().map(|t| &t.port),
        grpc_port: probe.grpc.as_ref().map(|g| g.port),
        sleep: None,
    };
    let mut errors = validate_handler(&handler, None, path);
    for (field, value) in [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ] {
        errors.extend(validate_nonnegative(
            i64::from(value.unwrap_or(0)),
            &format!("{path}.{field}"),
        ));
    }
    if let Some(seconds) = probe.termination_grace_period_seconds.filter(|s| *s <= 0) {
        errors.push(FieldError::invalid(
            format!("{path}.terminationGracePeriodSeconds"),
            seconds.to_string(),
            "must be greater than 0",
        ));
    }
    errors
}

/// `validateLifecycle`: each hook is a handler.
fn validate_lifecycle(lifecycle: &Lifecycle, grace: Option<i64>, path: &str) -> Errors {
    let mut errors = Vec::new();
    for (field, hook) in [
        ("postStart", lifecycle.post_start.as_ref()),
        ("preStop", lifecycle.pre_stop.as_ref()),
    ] {
        if let Some(hook) = hook {
            errors.extend(validate_handler(
                &lifecycle_handler(hook),
                grace,
                &format!("{path}.{field}"),
            ));
        }
    }
    errors
}

fn lifecycle_handler(hook: &LifecycleHandler) -> Handler<'_> {
    Handler {
        exec: hook.exec.as_ref(),
        http_get: hook.http_get.as_ref(),
        tcp_socket_port: hook.tcp_socket.as_ref().map(|t| &t.port),
        grpc_port: None,
        sleep: hook.sleep.as_ref(),
    }
}

/// Upstream `commonHandler`: the handler kinds a probe or a lifecycle hook may name.
struct Handler<'a> {
    exec: Option<&'a ExecAction>,
    http_get: Option<&'a HTTPGetAction>,
    tcp_socket_port: Option<&'a IntOrString>,
    grpc_port: Option<i32>,
    sleep: Option<&'a SleepAction>,
}

/// `validateHandler`: exactly one handler type, each checked in upstream order.
fn validate_handler(handler: &Handler<'_>, grace: Option<i64>, path: &str) -> Errors {
    let mut errors = Vec::new();
    let mut count = 0;
    let mut one = |field: &str, present: bool, errors: &mut Errors| -> bool {
        if !present {
            return false;
        }
        if count > 0 {
            errors.push(FieldError::forbidden(
                format!("{path}.{field}"),
                "may not specify more than 1 handler type",
            ));
            return false;
        }
        count += 1;
        true
    };
    if one("exec", handler.exec.is_some(), &mut errors)
        && handler
            .exec
            .is_some_and(|e| e.command.as_ref().is_none_or(|c| c.is_empty()))
    {
        errors.push(FieldError::required(format!("{path}.exec.command"), ""));
    }
    if one("httpGet", handler.http_get.is_some(), &mut errors) {
        if let Some(http) = handler.http_get {
            errors.extend(validate_http_get(http, &format!("{path}.httpGet")));
        }
    }
    if one("tcpSocket", handler.tcp_socket_port.is_some(), &mut errors) {
        if let Some(port) = handler.tcp_socket_port {
            errors.extend(validate_port_num_or_name(
                port,
                &format!("{path}.tcpSocket.port"),
            ));
        }
    }
    if one("grpc", handler.grpc_port.is_some(), &mut errors) {
        if let Some(port) = handler.grpc_port {
            errors.extend(validate_port_num_or_name(
                &IntOrString::Int(port),
                &format!("{path}.grpc.port"),
            ));
        }
    }
    if one("sleep", handler.sleep.is_some(), &mut errors) {
        if let (Some(sleep), Some(grace)) = (handler.sleep, grace) {
            if sleep.seconds <= 0 || sleep.seconds > grace {
                errors.push(FieldError::invalid(
                    format!("{path}.sleep"),
                    sleep.seconds.to_string(),
                    &format!("must be greater than 0 and less than terminationGracePeriodSeconds ({grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."),
                ));
            }
        }
    }
    if count == 0 {
        errors.push(FieldError::required(path, "must specify a handler type"));
    }
    errors
}

/// `validateHTTPGetAction`: path, port, scheme HTTP or HTTPS.
fn validate_http_get(http: &HTTPGetAction, path: &str) -> Errors {
    let mut errors = Vec::new();
    if http.path.as_deref().unwrap_or("").is_empty() {
        errors.push(FieldError::required(format!("{path}.path"), ""));
    }
    errors.extend(validate_port_num_or_name(
        &http.port,
        &format!("{path}.port"),
    ));
    let scheme = http.scheme.as_deref().unwrap_or("");
    if scheme != "HTTP" && scheme != "HTTPS" {
        errors.push(FieldError::not_supported(
            format!("{path}.scheme"),
            go_quote(scheme),
            &["HTTP", "HTTPS"],
        ));
    }
    errors
}

/// `ValidatePortNumOrName`: a number in 1–65535 or an IANA service name.
pub(super) fn validate_port_num_or_name(port: &IntOrString, path: &str) -> Errors {
    match port {
        IntOrString::Int(n) if !(1..=65535).contains(n) => vec![FieldError::invalid(
            path,
            n.to_string(),
            "must be between 1 and 65535, inclusive",
        )],
        IntOrString::Int(_) => Vec::new(),
        IntOrString::String(name) => is_valid_port_name(name)
            .iter()
            .map(|m| FieldError::invalid(path, go_quote(name), m))
            .collect(),
    }
}
