//! Validation with the API server's own message text (`pkg/apis/apps/validation/validation.go`,
//! `pkg/apis/core/validation/validation.go`, `pkg/apis/scheduling/validation/validation.go`,
//! `apimachinery/pkg/util/validation`) and kubectl's `The DaemonSet "x" is invalid: …` formatting.
//!
//! Each upstream check is one small function that appends `FieldError`s in the order the API server
//! emits them (metadata first, then spec fields in struct order). Values are rendered as
//! `field.Error.ErrorBody` does: strings quoted with Go's `%q`, integers bare, structs as Go's `%#v`
//! ([`go_value`]). One module per object: [`daemon_set`], [`pod`] (with [`container`],
//! [`node_affinity`] and [`toleration`]), [`node`], [`priority_class`]; the shared pieces are
//! [`meta`] (ObjectMeta, labels, selectors) and [`syntax`] (DNS names, qualified names, label values).
//!
//! **Architecture Invariant:** validation never fails on a merely non-defaulted object: `validate_create`
//! and `validate_update` validate a defaulted copy, as the API server defaults before it validates.

pub mod container;
pub mod daemon_set;
pub mod deployment;
pub mod go_value;
pub mod meta;
pub mod node;
pub mod node_affinity;
pub mod pod;
pub mod pod_affinity;
pub mod priority_class;
pub mod probe;
pub mod service;
pub mod stateful_set;
pub mod storage;
pub mod syntax;
pub mod toleration;

pub use container::QUANTITY_FORMAT_ERROR;
pub use daemon_set::validate_daemon_set;
pub use deployment::{validate_deployment, validate_replica_set};
pub use go_value::{go_label_selector, go_quote, go_string_map};
pub use meta::{validate_labels, validate_object_meta, NameRule};
pub use node::{validate_node, validate_node_taints};
pub use pod::{validate_pod, validate_pod_spec};
pub use priority_class::validate_priority_class;
pub use syntax::{
    is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_label_value,
    is_valid_percent,
};
pub use toleration::validate_tolerations;

use crate::defaults;
use crate::object::Object;
use crate::types::*;
use meta::validate_nonnegative;
use std::collections::BTreeMap;

/// One field error, as `field.Error` renders: `<path>: <type>: <detail>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field path (`spec.template.metadata.labels`).
    pub path: String,
    /// The rendered `Type: detail` part (`Invalid value: "x": must be …`).
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl FieldError {
    /// `field.Invalid`: `Invalid value: <value>: <detail>` (`value` already rendered, e.g. by [`go_quote`]).
    pub fn invalid(path: impl Into<String>, value: impl Into<String>, detail: &str) -> Self {
        Self::with_detail(path, format!("Invalid value: {}", value.into()), detail)
    }

    /// `field.Required`: `Required value` (with an optional detail).
    pub fn required(path: impl Into<String>, detail: &str) -> Self {
        Self::with_detail(path, "Required value".to_string(), detail)
    }

    /// `field.Forbidden`: `Forbidden: <detail>`.
    pub fn forbidden(path: impl Into<String>, detail: &str) -> Self {
        Self::with_detail(path, "Forbidden".to_string(), detail)
    }

    /// `field.NotSupported`: `Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported(
        path: impl Into<String>,
        value: impl Into<String>,
        supported: &[&str],
    ) -> Self {
        let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
        Self::with_detail(
            path,
            format!("Unsupported value: {}", value.into()),
            &format!("supported values: {}", list.join(", ")),
        )
    }

    /// `field.Duplicate`: `Duplicate value: <value>`.
    pub fn duplicate(path: impl Into<String>, value: impl Into<String>) -> Self {
        Self::with_detail(path, format!("Duplicate value: {}", value.into()), "")
    }

    /// `field.NotFound`: `Not found: <value>`.
    pub fn not_found(path: impl Into<String>, value: impl Into<String>) -> Self {
        Self::with_detail(path, format!("Not found: {}", value.into()), "")
    }

    /// `field.TooLong`: `Too long: <detail>`.
    pub fn too_long(path: impl Into<String>, detail: &str) -> Self {
        Self::with_detail(path, "Too long".to_string(), detail)
    }

    fn with_detail(path: impl Into<String>, head: String, detail: &str) -> Self {
        let message = if detail.is_empty() {
            head
        } else {
            format!("{head}: {detail}")
        };
        FieldError {
            path: path.into(),
            message,
        }
    }
}

type Errors = Vec<FieldError>;

/// Validates an object for create (on a defaulted copy: the API server defaults first).
pub fn validate_create(object: &Object) -> Vec<FieldError> {
    let mut object = object.clone();
    defaults::apply_defaults(&mut object);
    validate_defaulted(&object)
}

/// Validates an already-defaulted object exactly as written (no defaulting).
pub fn validate_defaulted(object: &Object) -> Vec<FieldError> {
    match object {
        Object::DaemonSet(ds) => validate_daemon_set(ds),
        Object::Pod(pod) => validate_pod(pod),
        Object::Node(node) => validate_node(node),
        Object::Namespace(ns) => validate_namespace(ns),
        Object::PriorityClass(pc) => validate_priority_class(pc),
        Object::ControllerRevision(cr) => validate_controller_revision(cr),
        Object::Event(ev) => {
            validate_object_meta(&ev.metadata, true, NameRule::Subdomain, "metadata")
        }
        Object::Deployment(d) => validate_deployment(d),
        Object::ReplicaSet(rs) => validate_replica_set(rs),
        Object::Service(svc) => service::validate_service(svc),
        Object::EndpointSlice(slice) => service::validate_endpoint_slice(slice),
        Object::StatefulSet(sts) => stateful_set::validate_stateful_set(sts),
        Object::PersistentVolumeClaim(pvc) => storage::validate_persistent_volume_claim(pvc),
        Object::PersistentVolume(pv) => {
            validate_object_meta(&pv.metadata, false, NameRule::Subdomain, "metadata")
        }
        Object::StorageClass(sc) => storage::validate_storage_class(sc),
        Object::Endpoints(ep) => {
            validate_object_meta(&ep.metadata, true, NameRule::Subdomain, "metadata")
        }
    }
}

/// Validates an update of `old` into `new` (create rules plus immutability).
pub fn validate_update(old: &Object, new: &Object) -> Vec<FieldError> {
    let mut errors = validate_create(new);
    if let (Object::DaemonSet(old), Object::DaemonSet(new)) = (old, new) {
        errors.extend(validate_daemon_set_selector_immutable(old, new));
    }
    let selectors = match (old, new) {
        (Object::Deployment(old), Object::Deployment(new)) => Some((
            old.spec.as_ref().map(|s| &s.selector),
            new.spec.as_ref().map(|s| &s.selector),
        )),
        (Object::ReplicaSet(old), Object::ReplicaSet(new)) => Some((
            old.spec.as_ref().map(|s| &s.selector),
            new.spec.as_ref().map(|s| &s.selector),
        )),
        _ => None,
    };
    if let Some((old_selector, new_selector)) = selectors {
        errors.extend(validate_selector_immutable(old_selector, new_selector));
    }
    if let (Object::Service(old), Object::Service(new)) = (old, new) {
        errors.extend(service::validate_service_update(old, new));
    }
    if let (Object::StatefulSet(old), Object::StatefulSet(new)) = (old, new) {
        errors.extend(stateful_set::validate_stateful_set_update(old, new));
    }
    if let (Object::StorageClass(old), Object::StorageClass(new)) = (old, new) {
        errors.extend(storage::validate_storage_class_update(old, new));
    }
    errors
}

/// `spec.selector: Invalid value: v1.LabelSelector{…}: field is immutable` (apps/v1 `ValidateUpdate`).
fn validate_daemon_set_selector_immutable(old: &DaemonSet, new: &DaemonSet) -> Errors {
    validate_selector_immutable(
        old.spec.as_ref().map(|s| &s.selector),
        new.spec.as_ref().map(|s| &s.selector),
    )
}

/// The apps/v1 selector immutability shared by DaemonSets, Deployments and ReplicaSets.
fn validate_selector_immutable(old: Option<&LabelSelector>, new: Option<&LabelSelector>) -> Errors {
    if old.map(normalized_selector) == new.map(normalized_selector) {
        return Vec::new();
    }
    let shown = new;
    vec![FieldError::invalid(
        "spec.selector",
        go_label_selector(shown),
        "field is immutable",
    )]
}

/// `apiequality.Semantic.DeepEqual` treats nil and empty the same.
fn normalized_selector(
    s: &LabelSelector,
) -> (BTreeMap<String, String>, Vec<LabelSelectorRequirement>) {
    (
        s.match_labels.clone().unwrap_or_default(),
        s.match_expressions.clone().unwrap_or_default(),
    )
}

/// Formats kubectl's message for a rejected object: one cause on the same line, several as a `* ` list.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go StandardErrorMessage,
/// statusCausesToAggrError, MultilineError.
pub fn format_invalid(kind: &str, name: &str, errors: &[FieldError]) -> String {
    // kubectl prints each distinct cause once (upstream `statusCausesToAggrError`).
    let mut causes: Vec<String> = Vec::new();
    for e in errors.iter().map(ToString::to_string) {
        if !causes.contains(&e) {
            causes.push(e);
        }
    }
    if causes.len() == 1 {
        format!("The {kind} \"{name}\" is invalid: {}", causes[0])
    } else {
        let mut out = format!("The {kind} \"{name}\" is invalid: ");
        for cause in causes {
            out.push_str(&format!("\n* {cause}"));
        }
        out
    }
}

/// `ValidateNamespace`: the name is a DNS-1123 label.
#[doc(alias = "ValidateNamespace")]
pub fn validate_namespace(ns: &Namespace) -> Vec<FieldError> {
    validate_object_meta(&ns.metadata, false, NameRule::Label, "metadata")
}

/// `ValidateControllerRevision`: metadata, `data` required, `revision` ≥ 0.
#[doc(alias = "ValidateControllerRevision")]
pub fn validate_controller_revision(cr: &ControllerRevision) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&cr.metadata, true, NameRule::Subdomain, "metadata");
    if cr.data.is_none() {
        errors.push(FieldError::required("data", "data is mandatory"));
    }
    errors.extend(validate_nonnegative(cr.revision, "revision"));
    errors
}

#[cfg(test)]
mod tests;
