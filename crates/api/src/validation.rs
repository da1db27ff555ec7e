//! Validation with the API server's own message text (`pkg/apis/apps/validation/validation.go`,
//! `pkg/apis/core/validation/validation.go`, `pkg/apis/scheduling/validation/validation.go`,
//! `apimachinery/pkg/util/validation`) and kubectl's `The DaemonSet "x" is invalid: …` formatting.
//!
//! Each upstream check is one small function that appends `FieldError`s in the order the API server
//! emits them (metadata first, then spec fields in struct order). Values are rendered as
//! `field.Error.ErrorBody` does: strings quoted with Go's `%q`, integers bare, structs as Go's `%#v`.
//!
//! **Architecture Invariant:** validation never fails on a merely non-defaulted object: `validate_create`
//! and `validate_update` validate a defaulted copy, as the API server defaults before it validates.

use crate::defaults;
use crate::object::Object;
use crate::quantity;
use crate::selector;
use crate::types::*;
use k8s_openapi::api::core::v1::{
    ContainerPort, EnvVar, ResourceRequirements, Volume, VolumeMount,
};
use std::collections::{BTreeMap, BTreeSet};

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
    }
}

/// Validates an update of `old` into `new` (create rules plus immutability).
pub fn validate_update(old: &Object, new: &Object) -> Vec<FieldError> {
    let mut errors = validate_create(new);
    if let (Object::DaemonSet(old), Object::DaemonSet(new)) = (old, new) {
        errors.extend(validate_daemon_set_selector_immutable(old, new));
    }
    errors
}

/// `spec.selector: Invalid value: v1.LabelSelector{…}: field is immutable` (apps/v1 `ValidateUpdate`).
fn validate_daemon_set_selector_immutable(old: &DaemonSet, new: &DaemonSet) -> Errors {
    let old_sel = old.spec.as_ref().map(|s| normalized_selector(&s.selector));
    let new_sel = new.spec.as_ref().map(|s| normalized_selector(&s.selector));
    if old_sel == new_sel {
        return Vec::new();
    }
    let shown = new.spec.as_ref().map(|s| &s.selector);
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
pub fn format_invalid(kind: &str, name: &str, errors: &[FieldError]) -> String {
    if errors.len() == 1 {
        format!("The {kind} \"{name}\" is invalid: {}", errors[0])
    } else {
        let mut out = format!("The {kind} \"{name}\" is invalid: ");
        for e in errors {
            out.push_str(&format!("\n* {e}"));
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------------
// Kinds
// ---------------------------------------------------------------------------------------------------

/// `ValidateDaemonSet`: metadata (name is a DNS-1123 subdomain), then the spec.
pub fn validate_daemon_set(ds: &DaemonSet) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&ds.metadata, true, NameRule::Subdomain, "metadata");
    let default_spec = DaemonSetSpec::default();
    errors.extend(validate_daemon_set_spec(
        ds.spec.as_ref().unwrap_or(&default_spec),
    ));
    errors
}

/// `ValidateDaemonSetSpec`, in upstream order.
fn validate_daemon_set_spec(spec: &DaemonSetSpec) -> Errors {
    let mut errors = validate_label_selector(&spec.selector, "spec.selector");
    // `LabelSelectorAsSelector` fails on the same defects, and then no match is attempted.
    if errors.is_empty() {
        errors.extend(validate_selector_matches_template(spec));
    }
    errors.extend(validate_selector_not_empty(&spec.selector));
    errors.extend(validate_pod_template_spec(&spec.template, "spec.template"));
    let pod_spec = spec.template.spec.clone().unwrap_or_default();
    errors.extend(validate_daemon_set_restart_policy(&pod_spec));
    errors.extend(validate_daemon_set_active_deadline(&pod_spec));
    errors.extend(validate_nonnegative(
        i64::from(spec.min_ready_seconds.unwrap_or(0)),
        "spec.minReadySeconds",
    ));
    errors.extend(validate_daemon_set_update_strategy(
        spec.update_strategy.as_ref(),
        "spec.updateStrategy",
    ));
    if let Some(limit) = spec.revision_history_limit {
        // Zero is a valid revisionHistoryLimit.
        errors.extend(validate_nonnegative(
            i64::from(limit),
            "spec.revisionHistoryLimit",
        ));
    }
    errors
}

/// A nil selector (absent in the manifest) selects nothing. k8s-openapi cannot tell nil from `{}`, so the
/// manifest decoder marks an explicit `{}` with an empty (non-nil) `matchExpressions` list.
fn selector_is_nil(s: &LabelSelector) -> bool {
    s.match_labels.is_none() && s.match_expressions.is_none()
}

fn selector_is_empty(s: &LabelSelector) -> bool {
    s.match_labels.as_ref().map_or(0, BTreeMap::len)
        + s.match_expressions.as_ref().map_or(0, Vec::len)
        == 0
}

/// ``spec.template.metadata.labels: Invalid value: map[string]string{…}: `selector` does not match template `labels` ``.
fn validate_selector_matches_template(spec: &DaemonSetSpec) -> Errors {
    let labels = spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.labels.clone());
    let selector = if selector_is_nil(&spec.selector) {
        None
    } else {
        Some(&spec.selector)
    };
    let Ok(parsed) = selector::from_label_selector(selector) else {
        return Vec::new(); // an invalid selector was reported by validate_label_selector
    };
    if parsed.matches(labels.as_ref().unwrap_or(&BTreeMap::new())) {
        return Vec::new();
    }
    let shown = match &labels {
        Some(l) => go_string_map(l),
        None => "map[string]string(nil)".to_string(),
    };
    vec![FieldError::invalid(
        "spec.template.metadata.labels",
        shown,
        "`selector` does not match template `labels`",
    )]
}

/// `spec.selector: Invalid value: v1.LabelSelector{…}: empty selector is invalid for daemonset`.
fn validate_selector_not_empty(s: &LabelSelector) -> Errors {
    if selector_is_nil(s) || !selector_is_empty(s) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        "spec.selector",
        go_label_selector(Some(s)),
        "empty selector is invalid for daemonset",
    )]
}

/// `spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`.
fn validate_daemon_set_restart_policy(spec: &PodSpec) -> Errors {
    let policy = spec.restart_policy.as_deref().unwrap_or("");
    if policy == "Always" {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        "spec.template.spec.restartPolicy",
        go_quote(policy),
        &["Always"],
    )]
}

/// `spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported`.
fn validate_daemon_set_active_deadline(spec: &PodSpec) -> Errors {
    if spec.active_deadline_seconds.is_none() {
        return Vec::new();
    }
    vec![FieldError::forbidden(
        "spec.template.spec.activeDeadlineSeconds",
        "activeDeadlineSeconds in DaemonSet is not Supported",
    )]
}

/// `ValidateDaemonSetUpdateStrategy`: type RollingUpdate (rollingUpdate required) or OnDelete.
fn validate_daemon_set_update_strategy(
    strategy: Option<&DaemonSetUpdateStrategy>,
    path: &str,
) -> Errors {
    let default = DaemonSetUpdateStrategy::default();
    let strategy = strategy.unwrap_or(&default);
    match strategy.type_.as_deref().unwrap_or("") {
        "OnDelete" => Vec::new(),
        "RollingUpdate" => match &strategy.rolling_update {
            None => vec![FieldError::required(format!("{path}.rollingUpdate"), "")],
            Some(ru) => validate_rolling_update_daemon_set(ru, &format!("{path}.rollingUpdate")),
        },
        other => {
            let rolling = if strategy.rolling_update.is_some() {
                "(*apps.RollingUpdateDaemonSet)(0xc000a1c0c0)"
            } else {
                "(*apps.RollingUpdateDaemonSet)(nil)"
            };
            let shown = format!(
                "apps.DaemonSetUpdateStrategy{{Type:{}, RollingUpdate:{rolling}}}",
                go_quote(other)
            );
            vec![FieldError::not_supported(
                path,
                shown,
                &["RollingUpdate", "OnDelete"],
            )]
        }
    }
}

/// `ValidateRollingUpdateDaemonSet`: each value a non-negative int or a percent ≤ 100%, and exactly one
/// of maxUnavailable / maxSurge non-zero.
fn validate_rolling_update_daemon_set(ru: &RollingUpdateDaemonSet, path: &str) -> Errors {
    let zero = IntOrString::Int(0);
    let max_unavailable = ru.max_unavailable.as_ref().unwrap_or(&zero);
    let max_surge = ru.max_surge.as_ref().unwrap_or(&zero);
    let unavailable_path = format!("{path}.maxUnavailable");
    let surge_path = format!("{path}.maxSurge");
    let mut errors = validate_positive_int_or_percent(max_unavailable, &unavailable_path);
    errors.extend(validate_positive_int_or_percent(max_surge, &surge_path));
    errors.extend(validate_not_more_than_100_percent(
        max_unavailable,
        &unavailable_path,
    ));
    errors.extend(validate_not_more_than_100_percent(max_surge, &surge_path));
    let has_unavailable = int_or_percent_value(max_unavailable) != 0;
    let has_surge = int_or_percent_value(max_surge) != 0;
    if has_unavailable && has_surge {
        errors.push(FieldError::invalid(
            surge_path,
            crate::int_or_percent::format(max_surge),
            "may not be set when maxUnavailable is non-zero",
        ));
    } else if !has_unavailable && !has_surge {
        errors.push(FieldError::required(
            unavailable_path,
            "cannot be 0 when maxSurge is 0",
        ));
    }
    errors
}

/// `ValidatePositiveIntOrPercent`: a percent string `^[0-9]+%$` or an int ≥ 0.
fn validate_positive_int_or_percent(value: &IntOrString, path: &str) -> Errors {
    match value {
        IntOrString::String(s) => is_valid_percent(s)
            .into_iter()
            .map(|msg| FieldError::invalid(path, go_quote(s), &msg))
            .collect(),
        IntOrString::Int(i) => validate_nonnegative(i64::from(*i), path),
    }
}

/// `IsNotMoreThan100Percent`: `Invalid value: 150%: must not be greater than 100%`.
fn validate_not_more_than_100_percent(value: &IntOrString, path: &str) -> Errors {
    match percent_value(value) {
        Some(p) if p > 100 => vec![FieldError::invalid(
            path,
            crate::int_or_percent::format(value),
            "must not be greater than 100%",
        )],
        _ => Vec::new(),
    }
}

/// `getPercentValue`: the number of a valid percent string (saturating like `strconv.Atoi`).
fn percent_value(value: &IntOrString) -> Option<i64> {
    let IntOrString::String(s) = value else {
        return None;
    };
    if !is_valid_percent(s).is_empty() {
        return None;
    }
    Some(s[..s.len() - 1].parse::<i64>().unwrap_or(i64::MAX))
}

/// `getIntOrPercentValue`: the percent, else `IntValue()` (a non-numeric string counts as 0).
fn int_or_percent_value(value: &IntOrString) -> i64 {
    if let Some(p) = percent_value(value) {
        return p;
    }
    match value {
        IntOrString::Int(i) => i64::from(*i),
        IntOrString::String(s) => s.parse::<i64>().unwrap_or(0),
    }
}

/// `ValidatePod`: metadata, then the pod spec at `spec`.
pub fn validate_pod(pod: &Pod) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&pod.metadata, true, NameRule::Subdomain, "metadata");
    errors.extend(validate_pod_spec(
        &pod.spec.clone().unwrap_or_default(),
        "spec",
    ));
    errors
}

/// `ValidateNode`: metadata (DNS subdomain), then `spec.taints`.
pub fn validate_node(node: &Node) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&node.metadata, false, NameRule::Subdomain, "metadata");
    if let Some(taints) = node.spec.as_ref().and_then(|s| s.taints.as_ref()) {
        errors.extend(validate_node_taints(taints, "spec.taints"));
    }
    errors
}

/// `ValidateNamespace`: the name is a DNS-1123 label.
pub fn validate_namespace(ns: &Namespace) -> Vec<FieldError> {
    validate_object_meta(&ns.metadata, false, NameRule::Label, "metadata")
}

/// The priority classes the API server creates itself (`scheduling.SystemPriorityClasses`).
const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];
/// `scheduling.HighestUserDefinablePriority`.
const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;

/// `ValidatePriorityClass`: `system-` names are reserved, user values ≤ 1e9, preemptionPolicy.
pub fn validate_priority_class(pc: &PriorityClass) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&pc.metadata, false, NameRule::Subdomain, "metadata");
    let name = pc.metadata.name.as_deref().unwrap_or("");
    if name.starts_with("system-") {
        if let Err(reason) =
            known_system_priority_class(name, pc.value, pc.global_default.unwrap_or(false))
        {
            errors.push(FieldError::forbidden(
                "metadata.name",
                &format!("priority class names with 'system-' prefix are reserved for system use only. error: {reason}"),
            ));
        }
    } else if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errors.push(FieldError::forbidden("value", &format!("maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}")));
    }
    if let Some(policy) = &pc.preemption_policy {
        if policy != "PreemptLowerPriority" && policy != "Never" {
            errors.push(FieldError::not_supported(
                "preemptionPolicy",
                go_quote(policy),
                &["PreemptLowerPriority", "Never"],
            ));
        }
    }
    errors
}

/// `IsKnownSystemPriorityClass`.
fn known_system_priority_class(name: &str, value: i32, global_default: bool) -> Result<(), String> {
    match SYSTEM_PRIORITY_CLASSES.iter().find(|(n, _)| *n == name) {
        None => Err(format!("{name} is not a known system priority class")),
        Some((n, v)) if *v != value => Err(format!("value of {n} PriorityClass must be {v}")),
        Some((n, _)) if global_default => {
            Err(format!("globalDefault of {n} PriorityClass must be false"))
        }
        Some(_) => Ok(()),
    }
}

/// `ValidateControllerRevision`: metadata, `data` required, `revision` ≥ 0.
pub fn validate_controller_revision(cr: &ControllerRevision) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&cr.metadata, true, NameRule::Subdomain, "metadata");
    if cr.data.is_none() {
        errors.push(FieldError::required("data", "data is mandatory"));
    }
    errors.extend(validate_nonnegative(cr.revision, "revision"));
    errors
}

// ---------------------------------------------------------------------------------------------------
// Metadata, labels, selectors
// ---------------------------------------------------------------------------------------------------

/// Which name function a kind uses (`NameIsDNSSubdomain` / `NameIsDNSLabel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// `NameIsDNSSubdomain` (most kinds).
    Subdomain,
    /// `NameIsDNSLabel` (Namespace).
    Label,
}

impl NameRule {
    fn check(self, name: &str, prefix: bool) -> Vec<String> {
        // A generateName prefix may end with a dash (`maskTrailingDash`).
        let masked;
        let name = if prefix && name.len() > 1 && name.ends_with('-') {
            masked = format!("{}a", &name[..name.len() - 1]);
            masked.as_str()
        } else {
            name
        };
        match self {
            NameRule::Subdomain => is_dns1123_subdomain(name),
            NameRule::Label => is_dns1123_label(name),
        }
    }
}

/// `ValidateObjectMeta`: generateName, name, namespace, generation, labels, annotations.
pub fn validate_object_meta(
    meta: &ObjectMeta,
    namespaced: bool,
    rule: NameRule,
    path: &str,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(generate_name) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
        for msg in rule.check(generate_name, true) {
            errors.push(FieldError::invalid(
                format!("{path}.generateName"),
                go_quote(generate_name),
                &msg,
            ));
        }
    }
    match meta.name.as_deref().unwrap_or("") {
        "" if meta.generate_name.as_deref().unwrap_or("").is_empty() => {
            errors.push(FieldError::required(
                format!("{path}.name"),
                "name or generateName is required",
            ));
        }
        "" => {}
        name => {
            for msg in rule.check(name, false) {
                errors.push(FieldError::invalid(
                    format!("{path}.name"),
                    go_quote(name),
                    &msg,
                ));
            }
        }
    }
    // The namespace comes from the request (kubectl fills `default`); only its syntax is checked here.
    if namespaced {
        if let Some(ns) = meta.namespace.as_deref().filter(|n| !n.is_empty()) {
            for msg in is_dns1123_label(ns) {
                errors.push(FieldError::invalid(
                    format!("{path}.namespace"),
                    go_quote(ns),
                    &msg,
                ));
            }
        }
    }
    errors.extend(validate_nonnegative(
        meta.generation.unwrap_or(0),
        &format!("{path}.generation"),
    ));
    if let Some(labels) = &meta.labels {
        errors.extend(validate_labels(labels, &format!("{path}.labels")));
    }
    if let Some(annotations) = &meta.annotations {
        errors.extend(validate_annotations(
            annotations,
            &format!("{path}.annotations"),
        ));
    }
    errors
}

/// `ValidateLabels`: every key a qualified name, every value a label value (path is the map's path).
pub fn validate_labels(labels: &BTreeMap<String, String>, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (k, v) in labels {
        errors.extend(validate_label_name(k, path));
        for msg in is_valid_label_value(v) {
            errors.push(FieldError::invalid(path, go_quote(v), &msg));
        }
    }
    errors
}

/// `ValidateLabelName`: a qualified name.
fn validate_label_name(key: &str, path: &str) -> Errors {
    is_qualified_name(key)
        .into_iter()
        .map(|msg| FieldError::invalid(path, go_quote(key), &msg))
        .collect()
}

/// `TotalAnnotationSizeLimitB`.
const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// `ValidateAnnotations`: keys are qualified names (case-insensitive), total size ≤ 256 KiB.
fn validate_annotations(annotations: &BTreeMap<String, String>, path: &str) -> Errors {
    let mut errors = Vec::new();
    let mut total = 0usize;
    for (k, v) in annotations {
        for msg in is_qualified_name(&k.to_lowercase()) {
            errors.push(FieldError::invalid(path, go_quote(k), &msg));
        }
        total += k.len() + v.len();
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errors.push(FieldError::too_long(
            path,
            &format!("may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"),
        ));
    }
    errors
}

/// `ValidateLabelSelector`: matchLabels as labels, then each matchExpressions requirement.
fn validate_label_selector(s: &LabelSelector, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(labels) = &s.match_labels {
        errors.extend(validate_labels(labels, &format!("{path}.matchLabels")));
    }
    for (i, req) in s.match_expressions.iter().flatten().enumerate() {
        errors.extend(validate_label_selector_requirement(
            req,
            &format!("{path}.matchExpressions[{i}]"),
        ));
    }
    errors
}

/// `ValidateLabelSelectorRequirement`: operator/values agreement, key, values.
fn validate_label_selector_requirement(req: &LabelSelectorRequirement, path: &str) -> Errors {
    let mut errors = Vec::new();
    let values = req.values.as_deref().unwrap_or(&[]);
    match req.operator.as_str() {
        "In" | "NotIn" if values.is_empty() => {
            errors.push(FieldError::required(
                format!("{path}.values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            ));
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            errors.push(FieldError::forbidden(
                format!("{path}.values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ));
        }
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        other => errors.push(FieldError::invalid(
            format!("{path}.operator"),
            go_quote(other),
            "not a valid selector operator",
        )),
    }
    errors.extend(validate_label_name(&req.key, &format!("{path}.key")));
    for (i, v) in values.iter().enumerate() {
        for msg in is_valid_label_value(v) {
            errors.push(FieldError::invalid(
                format!("{path}.values[{i}]"),
                go_quote(v),
                &msg,
            ));
        }
    }
    errors
}

/// `ValidateNonnegativeField`: `Invalid value: -1: must be greater than or equal to 0`.
fn validate_nonnegative(value: i64, path: &str) -> Errors {
    if value >= 0 {
        return Vec::new();
    }
    vec![FieldError::invalid(
        path,
        value.to_string(),
        "must be greater than or equal to 0",
    )]
}

// ---------------------------------------------------------------------------------------------------
// Pod template and pod spec
// ---------------------------------------------------------------------------------------------------

/// `ValidatePodTemplateSpec`: template labels/annotations (at `<path>.labels`, the internal type embeds
/// ObjectMeta), the pod spec, and no ephemeral containers.
fn validate_pod_template_spec(template: &PodTemplateSpec, path: &str) -> Errors {
    let mut errors = Vec::new();
    let meta = template.metadata.clone().unwrap_or_default();
    if let Some(labels) = &meta.labels {
        errors.extend(validate_labels(labels, &format!("{path}.labels")));
    }
    if let Some(annotations) = &meta.annotations {
        errors.extend(validate_annotations(
            annotations,
            &format!("{path}.annotations"),
        ));
    }
    let spec = template.spec.clone().unwrap_or_else(|| {
        let mut spec = PodSpec::default();
        defaults::default_pod_spec(&mut spec);
        spec
    });
    errors.extend(validate_pod_spec(&spec, &format!("{path}.spec")));
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

/// `ValidatePodSpec` (the parts the playground models), in upstream order.
pub fn validate_pod_spec(spec: &PodSpec, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let volumes = validate_volumes(
        spec.volumes.as_deref().unwrap_or(&[]),
        &format!("{path}.volumes"),
        &mut errors,
    );
    errors.extend(validate_containers(
        &spec.containers,
        &volumes,
        &format!("{path}.containers"),
    ));
    errors.extend(validate_init_containers(
        spec.init_containers.as_deref().unwrap_or(&[]),
        &spec.containers,
        &volumes,
        &format!("{path}.initContainers"),
    ));
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

/// `validateContainers`: at least one; each container's common checks; unique names; unique host ports.
fn validate_containers(containers: &[Container], volumes: &BTreeSet<String>, path: &str) -> Errors {
    let mut errors = Vec::new();
    if containers.is_empty() {
        errors.push(FieldError::required(path, ""));
        return errors;
    }
    let mut names = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        errors.extend(validate_container_common(c, volumes, &idx));
        if !names.insert(c.name.clone()) {
            errors.push(FieldError::duplicate(
                format!("{idx}.name"),
                go_quote(&c.name),
            ));
        }
    }
    errors.extend(validate_unique_host_ports(containers, path));
    errors
}

/// `validateInitContainers`: the common checks; names unique across init and regular containers.
fn validate_init_containers(
    init: &[Container],
    regular: &[Container],
    volumes: &BTreeSet<String>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    let mut names: BTreeSet<String> = regular.iter().map(|c| c.name.clone()).collect();
    for (i, c) in init.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        errors.extend(validate_container_common(c, volumes, &idx));
        if !names.insert(c.name.clone()) {
            errors.push(FieldError::duplicate(
                format!("{idx}.name"),
                go_quote(&c.name),
            ));
        }
    }
    errors
}

/// `validateContainerCommon`: name, image, terminationMessagePolicy, ports, env, volumeMounts,
/// imagePullPolicy, resources.
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

/// `AccumulateUniqueHostPorts`: `…hostPort: Duplicate value: "80/TCP"`.
fn validate_unique_host_ports(containers: &[Container], path: &str) -> Errors {
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, p) in c.ports.iter().flatten().enumerate() {
            let Some(host_port) = p.host_port.filter(|h| *h != 0) else {
                continue;
            };
            let key = format!("{host_port}/{}", p.protocol.as_deref().unwrap_or("TCP"));
            let ip = p.host_ip.clone().unwrap_or_default();
            if !seen.insert((ip, key.clone())) {
                errors.push(FieldError::duplicate(
                    format!("{path}[{ci}].ports[{pi}].hostPort"),
                    go_quote(&key),
                ));
            }
        }
    }
    errors
}

/// `ValidateEnv` (names): required; a valid variable name.
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
    match quantity::milli(q) {
        None => errors.push(FieldError::invalid(
            path,
            go_quote(&q.0),
            QUANTITY_FORMAT_ERROR,
        )),
        Some(v) if v < 0 => errors.push(FieldError::invalid(
            path,
            go_quote(&q.0),
            "must be greater than or equal to 0",
        )),
        Some(_) => {}
    }
    errors
}

/// `validateRestartPolicy`: Always, OnFailure or Never.
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

/// `validateNodeAffinity`: required terms non-empty and well-formed; preferred weights 1–100.
fn validate_node_affinity(na: &NodeAffinity, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(required) = &na.required_during_scheduling_ignored_during_execution {
        let rpath = format!("{path}.requiredDuringSchedulingIgnoredDuringExecution");
        if required.node_selector_terms.is_empty() {
            errors.push(FieldError::required(
                format!("{rpath}.nodeSelectorTerms"),
                "must have at least one node selector term",
            ));
        }
        for (i, term) in required.node_selector_terms.iter().enumerate() {
            errors.extend(validate_node_selector_term(
                term,
                &format!("{rpath}.nodeSelectorTerms[{i}]"),
            ));
        }
    }
    for (i, pref) in na
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .flatten()
        .enumerate()
    {
        let ppath = format!("{path}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
        if !(1..=100).contains(&pref.weight) {
            errors.push(FieldError::invalid(
                format!("{ppath}.weight"),
                pref.weight.to_string(),
                "must be in the range 1-100",
            ));
        }
        errors.extend(validate_node_selector_term(
            &pref.preference,
            &format!("{ppath}.preference"),
        ));
    }
    errors
}

fn validate_node_selector_term(term: &NodeSelectorTerm, path: &str) -> Errors {
    let mut errors = Vec::new();
    for (i, req) in term.match_expressions.iter().flatten().enumerate() {
        errors.extend(validate_node_selector_requirement(
            req,
            &format!("{path}.matchExpressions[{i}]"),
        ));
    }
    for (i, req) in term.match_fields.iter().flatten().enumerate() {
        let fpath = format!("{path}.matchFields[{i}]");
        if req.key != "metadata.name" {
            errors.push(FieldError::invalid(
                format!("{fpath}.key"),
                go_quote(&req.key),
                "not a valid field selector key",
            ));
        }
        match req.operator.as_str() {
            "In" | "NotIn" => {
                if req.values.as_ref().map_or(0, Vec::len) != 1 {
                    errors.push(FieldError::required(format!("{fpath}.values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
                }
            }
            other => errors.push(FieldError::invalid(
                format!("{fpath}.operator"),
                go_quote(other),
                "not a valid selector operator",
            )),
        }
    }
    errors
}

/// `ValidateNodeSelectorRequirement`.
fn validate_node_selector_requirement(req: &NodeSelectorRequirement, path: &str) -> Errors {
    let mut errors = Vec::new();
    let n = req.values.as_ref().map_or(0, Vec::len);
    match req.operator.as_str() {
        "In" | "NotIn" if n == 0 => errors.push(FieldError::required(
            format!("{path}.values"),
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if n > 0 => {
            errors.push(FieldError::forbidden(
                format!("{path}.values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ));
        }
        "Gt" | "Lt" if n != 1 => errors.push(FieldError::required(
            format!("{path}.values"),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
        )),
        "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
        other => errors.push(FieldError::invalid(
            format!("{path}.operator"),
            go_quote(other),
            "not a valid selector operator",
        )),
    }
    errors.extend(validate_label_name(&req.key, &format!("{path}.key")));
    errors
}

// ---------------------------------------------------------------------------------------------------
// Taints and tolerations
// ---------------------------------------------------------------------------------------------------

const TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// `validateTaintEffect`: `Unsupported value: "Foo": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`.
fn validate_taint_effect(effect: &str, allow_empty: bool, path: &str) -> Errors {
    if effect.is_empty() {
        return if allow_empty {
            Vec::new()
        } else {
            vec![FieldError::required(path, "")]
        };
    }
    if TAINT_EFFECTS.contains(&effect) {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        path,
        go_quote(effect),
        &TAINT_EFFECTS,
    )]
}

/// `validateNodeTaints`: key, value, effect, unique by (key, effect).
pub fn validate_node_taints(taints: &[Taint], path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        errors.extend(validate_label_name(&t.key, &format!("{idx}.key")));
        let value = t.value.as_deref().unwrap_or("");
        let msgs = is_valid_label_value(value);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                format!("{idx}.value"),
                go_quote(value),
                &msgs.join(";"),
            ));
        }
        errors.extend(validate_taint_effect(
            &t.effect,
            false,
            &format!("{idx}.effect"),
        ));
        if !seen.insert((t.key.clone(), t.effect.clone())) {
            let shown = format!(
                "core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:<nil>}}",
                go_quote(&t.key),
                go_quote(value),
                go_quote(&t.effect)
            );
            let mut e = FieldError::duplicate(&idx, shown);
            e.message
                .push_str(": taints must be unique by key and effect pair");
            errors.push(e);
        }
    }
    errors
}

/// `ValidateTolerations`: key, operator/key agreement, tolerationSeconds only with NoExecute,
/// operator Equal/Exists with matching value, effect.
pub fn validate_tolerations(tolerations: &[Toleration], path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (i, t) in tolerations.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        let key = t.key.as_deref().unwrap_or("");
        let operator = t.operator.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        if !key.is_empty() {
            errors.extend(validate_label_name(key, &format!("{idx}.key")));
        }
        if key.is_empty() && operator != "Exists" {
            errors.push(FieldError::invalid(
                format!("{idx}.operator"),
                go_quote(operator),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && effect != "NoExecute" {
            errors.push(FieldError::invalid(
                format!("{idx}.effect"),
                go_quote(effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match operator {
            "Equal" | "" => {
                let msgs = is_valid_label_value(value);
                if !msgs.is_empty() {
                    errors.push(FieldError::invalid(
                        format!("{idx}.operator"),
                        go_quote(value),
                        &msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errors.push(FieldError::invalid(
                        format!("{idx}.operator"),
                        go_toleration(t),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errors.push(FieldError::not_supported(
                format!("{idx}.operator"),
                go_quote(other),
                &["Equal", "Exists"],
            )),
        }
        errors.extend(validate_taint_effect(
            effect,
            true,
            &format!("{idx}.effect"),
        ));
    }
    errors
}

/// Go's `%#v` of `core.Toleration`.
fn go_toleration(t: &Toleration) -> String {
    let seconds = if t.toleration_seconds.is_some() {
        "(*int64)(0xc000a1c0c8)"
    } else {
        "(*int64)(nil)"
    };
    format!(
        "core.Toleration{{Key:{}, Operator:{}, Value:{}, Effect:{}, TolerationSeconds:{seconds}}}",
        go_quote(t.key.as_deref().unwrap_or("")),
        go_quote(t.operator.as_deref().unwrap_or("")),
        go_quote(t.value.as_deref().unwrap_or("")),
        go_quote(t.effect.as_deref().unwrap_or("")),
    )
}

// ---------------------------------------------------------------------------------------------------
// String syntax (apimachinery/pkg/util/validation), hand-written instead of regexes
// ---------------------------------------------------------------------------------------------------

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const QUALIFIED_NAME_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `RegexError`: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')`.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let list: Vec<String> = examples.iter().map(|e| format!("'{e}'")).collect();
    format!(
        "{msg} (e.g. {}, regex used for validation is '{fmt}')",
        list.join(",  or ")
    )
}

fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn matches_dns1123_label(v: &str) -> bool {
    let b = v.as_bytes();
    !b.is_empty()
        && is_lower_alnum(b[0])
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
}

fn matches_dns1123_subdomain(v: &str) -> bool {
    v.split('.').all(matches_dns1123_label)
}

fn matches_qualified_name_part(v: &str) -> bool {
    let b = v.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsDNS1123Label`.
pub fn is_dns1123_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !matches_dns1123_label(v) {
        if matches_dns1123_subdomain(v) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`.
pub fn is_dns1123_subdomain(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !matches_dns1123_subdomain(v) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsQualifiedName` (label and annotation keys): `[prefix/]name`.
pub fn is_qualified_name(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = v.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            return vec![format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !matches_qualified_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`: empty, or a qualified-name part of at most 63 characters.
pub fn is_valid_label_value(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !v.is_empty() && !matches_qualified_name_part(v) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPercent`: `^[0-9]+%$`.
pub fn is_valid_percent(v: &str) -> Vec<String> {
    let ok = v
        .strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if ok {
        return Vec::new();
    }
    vec![regex_error(
        "a valid percent string must be a numeric string followed by an ending '%'",
        "[0-9]+%",
        &["1%", "93%"],
    )]
}

/// `IsValidPortName`: an IANA service name.
fn is_valid_port_name(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 15 {
        errs.push(max_len_error(15));
    }
    if !v.bytes().all(|b| is_lower_alnum(b) || b == b'-') {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !v.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if v.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if v.starts_with('-') || v.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

// ---------------------------------------------------------------------------------------------------
// Go value rendering
// ---------------------------------------------------------------------------------------------------

/// Go's `%q` of a string (`strconv.Quote`).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() || c == '\u{feff}' => {
                if (c as u32) > 0xffff {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                } else {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Renders a map as Go's `%#v` of `map[string]string` (keys sorted).
pub fn go_string_map(map: &std::collections::BTreeMap<String, String>) -> String {
    let body: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v)))
        .collect();
    format!("map[string]string{{{}}}", body.join(", "))
}

/// Renders a LabelSelector as Go's `%#v` of `v1.LabelSelector`.
pub fn go_label_selector(selector: Option<&LabelSelector>) -> String {
    let Some(s) = selector else {
        return "(*v1.LabelSelector)(nil)".to_string();
    };
    let labels = match &s.match_labels {
        Some(m) => go_string_map(m),
        None => "map[string]string(nil)".to_string(),
    };
    let exprs = match &s.match_expressions {
        Some(e) if !e.is_empty() => {
            let items: Vec<String> = e
                .iter()
                .map(|r| {
                    let values = match &r.values {
                        Some(v) => format!(
                            "[]string{{{}}}",
                            v.iter().map(|x| go_quote(x)).collect::<Vec<_>>().join(", ")
                        ),
                        None => "[]string(nil)".to_string(),
                    };
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{values}}}",
                        go_quote(&r.key),
                        go_quote(&r.operator)
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", items.join(", "))
        }
        _ => "[]v1.LabelSelectorRequirement(nil)".to_string(),
    };
    format!("v1.LabelSelector{{MatchLabels:{labels}, MatchExpressions:{exprs}}}")
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;

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
