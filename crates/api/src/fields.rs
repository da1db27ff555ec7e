//! Field selectors (`--field-selector`, `fieldSelector=`): the fields the API server supports per kind
//! and how a term matches an object.
//!
//! Upstream: `pkg/registry/core/pod/strategy.go` `ToSelectableFields`, `pkg/registry/core/event/strategy.go`
//! `ToSelectableFields`, `staging/src/k8s.io/apimachinery/pkg/fields/selector.go` `ParseSelector`.

use crate::{Kind, Object};

/// One term: (field, negated, value), e.g. `("spec.nodeName", false, "kind-worker")`.
pub type FieldTerm = (String, bool, String);

/// The pod fields a field selector may name besides `metadata.*`.
const POD_FIELDS: &[&str] = &[
    "spec.nodeName",
    "status.phase",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "status.podIP",
    "status.nominatedNodeName",
    "spec.hostNetwork",
];

/// Parses `key=value,key!=value,key==value` (empty text: no terms).
pub fn parse(text: &str) -> Result<Vec<FieldTerm>, String> {
    let mut fields = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (key, negate, value) = if let Some((k, v)) = part.split_once("!=") {
            (k, true, v)
        } else if let Some((k, v)) = part.split_once("==") {
            (k, false, v)
        } else if let Some((k, v)) = part.split_once('=') {
            (k, false, v)
        } else {
            return Err(format!("invalid field selector: '{part}'"));
        };
        fields.push((key.trim().to_string(), negate, value.trim().to_string()));
    }
    Ok(fields)
}

/// Whether the API server accepts `key` in a field selector on `kind`.
pub fn supported(kind: Kind, key: &str) -> bool {
    let probe = if kind == Kind::Event {
        Object::Event(Default::default())
    } else {
        Object::Namespace(Default::default())
    };
    field_value(&probe, key).is_some() || (kind == Kind::Pod && POD_FIELDS.contains(&key))
}

/// Whether `object` satisfies every term.
pub fn matches(object: &Object, terms: &[FieldTerm]) -> bool {
    terms.iter().all(|(key, negate, value)| {
        let actual = field_value(object, key).unwrap_or_default();
        (actual == *value) != *negate
    })
}

/// The value of a selectable field of `o`, or None if the field is not selectable on its kind.
pub fn field_value(o: &Object, key: &str) -> Option<String> {
    let meta = o.metadata();
    match key {
        "metadata.name" => return Some(meta.name.clone().unwrap_or_default()),
        "metadata.namespace" => return Some(meta.namespace.clone().unwrap_or_default()),
        _ => {}
    }
    if let Object::Event(event) = o {
        let involved = &event.involved_object;
        return Some(match key {
            "involvedObject.kind" => involved.kind.clone().unwrap_or_default(),
            "involvedObject.name" => involved.name.clone().unwrap_or_default(),
            "involvedObject.namespace" => involved.namespace.clone().unwrap_or_default(),
            "involvedObject.uid" => involved.uid.clone().unwrap_or_default(),
            "involvedObject.fieldPath" => involved.field_path.clone().unwrap_or_default(),
            "involvedObject.apiVersion" => involved.api_version.clone().unwrap_or_default(),
            "involvedObject.resourceVersion" => {
                involved.resource_version.clone().unwrap_or_default()
            }
            "reason" => event.reason.clone().unwrap_or_default(),
            "type" => event.type_.clone().unwrap_or_default(),
            "source" => event
                .source
                .as_ref()
                .and_then(|s| s.component.clone())
                .unwrap_or_default(),
            _ => return None,
        });
    }
    let Object::Pod(pod) = o else { return None };
    let spec = pod.spec.clone().unwrap_or_default();
    let status = pod.status.clone().unwrap_or_default();
    Some(match key {
        "spec.nodeName" => spec.node_name.unwrap_or_default(),
        "status.phase" => status.phase.unwrap_or_default(),
        "spec.restartPolicy" => spec.restart_policy.unwrap_or_default(),
        "spec.schedulerName" => spec.scheduler_name.unwrap_or_default(),
        "spec.serviceAccountName" => spec.service_account_name.unwrap_or_default(),
        "status.podIP" => status.pod_ip.unwrap_or_default(),
        "status.nominatedNodeName" => status.nominated_node_name.unwrap_or_default(),
        "spec.hostNetwork" => spec.host_network.unwrap_or(false).to_string(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Pod, PodSpec};

    #[test]
    fn terms_parse_and_match_pod_fields() {
        let terms = parse("spec.nodeName=kind-worker,metadata.name!=x").unwrap();
        assert_eq!(terms[1], ("metadata.name".into(), true, "x".into()));
        let pod = Pod {
            spec: Some(PodSpec {
                node_name: Some("kind-worker".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(matches(&Object::Pod(pod), &terms));
        assert!(supported(Kind::Pod, "spec.nodeName"));
        assert!(!supported(Kind::DaemonSet, "spec.nodeName"));
        assert!(supported(Kind::Event, "involvedObject.uid"));
        assert!(supported(Kind::Event, "involvedObject.apiVersion"));
        assert_eq!(parse("nope").unwrap_err(), "invalid field selector: 'nope'");
    }
}
