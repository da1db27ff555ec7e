//! A typed enum over the kinds the playground simulates, and the kind table kubectl resolves names with.

use crate::types::*;
use serde::Serialize;

/// The kinds the simulator stores. Order is the order `kubectl get all` and `api-resources` list them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// core/v1 Namespace (cluster scoped).
    Namespace,
    /// core/v1 Node (cluster scoped).
    Node,
    /// core/v1 Pod.
    Pod,
    /// apps/v1 DaemonSet.
    DaemonSet,
    /// apps/v1 ControllerRevision.
    ControllerRevision,
    /// core/v1 Event.
    Event,
    /// scheduling.k8s.io/v1 PriorityClass (cluster scoped).
    PriorityClass,
    /// apps/v1 Deployment.
    Deployment,
    /// apps/v1 ReplicaSet.
    ReplicaSet,
    /// core/v1 Service.
    Service,
    /// discovery.k8s.io/v1 EndpointSlice.
    EndpointSlice,
    /// apps/v1 StatefulSet.
    StatefulSet,
    /// core/v1 PersistentVolumeClaim.
    PersistentVolumeClaim,
    /// core/v1 PersistentVolume (cluster scoped).
    PersistentVolume,
    /// storage.k8s.io/v1 StorageClass (cluster scoped).
    StorageClass,
    /// core/v1 Endpoints (deprecated since v1.33 in favour of EndpointSlice).
    Endpoints,
}

impl Kind {
    /// Every kind, in a fixed order.
    pub const ALL: [Kind; 16] = [
        Kind::Namespace,
        Kind::Node,
        Kind::Pod,
        Kind::DaemonSet,
        Kind::ControllerRevision,
        Kind::Event,
        Kind::PriorityClass,
        Kind::Deployment,
        Kind::ReplicaSet,
        Kind::Service,
        Kind::EndpointSlice,
        Kind::StatefulSet,
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
        Kind::StorageClass,
        Kind::Endpoints,
    ];

    /// The `kind:` string of manifests.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Namespace => "Namespace",
            Kind::Node => "Node",
            Kind::Pod => "Pod",
            Kind::DaemonSet => "DaemonSet",
            Kind::ControllerRevision => "ControllerRevision",
            Kind::Event => "Event",
            Kind::PriorityClass => "PriorityClass",
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Service => "Service",
            Kind::EndpointSlice => "EndpointSlice",
            Kind::StatefulSet => "StatefulSet",
            Kind::PersistentVolumeClaim => "PersistentVolumeClaim",
            Kind::PersistentVolume => "PersistentVolume",
            Kind::StorageClass => "StorageClass",
            Kind::Endpoints => "Endpoints",
        }
    }

    /// The `apiVersion:` the API server serves the kind at.
    pub fn api_version(self) -> &'static str {
        match self {
            Kind::DaemonSet
            | Kind::ControllerRevision
            | Kind::Deployment
            | Kind::ReplicaSet
            | Kind::StatefulSet => "apps/v1",
            Kind::PriorityClass => "scheduling.k8s.io/v1",
            Kind::EndpointSlice => "discovery.k8s.io/v1",
            Kind::StorageClass => "storage.k8s.io/v1",
            _ => "v1",
        }
    }

    /// The API group ("" for core), used in `daemonset.apps/x` style names.
    pub fn group(self) -> &'static str {
        match self {
            Kind::DaemonSet
            | Kind::ControllerRevision
            | Kind::Deployment
            | Kind::ReplicaSet
            | Kind::StatefulSet => "apps",
            Kind::PriorityClass => "scheduling.k8s.io",
            Kind::EndpointSlice => "discovery.k8s.io",
            Kind::StorageClass => "storage.k8s.io",
            _ => "",
        }
    }

    /// The plural resource name (`daemonsets`).
    pub fn plural(self) -> &'static str {
        match self {
            Kind::Namespace => "namespaces",
            Kind::Node => "nodes",
            Kind::Pod => "pods",
            Kind::DaemonSet => "daemonsets",
            Kind::ControllerRevision => "controllerrevisions",
            Kind::Event => "events",
            Kind::PriorityClass => "priorityclasses",
            Kind::Deployment => "deployments",
            Kind::ReplicaSet => "replicasets",
            Kind::Service => "services",
            Kind::EndpointSlice => "endpointslices",
            Kind::StatefulSet => "statefulsets",
            Kind::PersistentVolumeClaim => "persistentvolumeclaims",
            Kind::PersistentVolume => "persistentvolumes",
            Kind::StorageClass => "storageclasses",
            Kind::Endpoints => "endpoints",
        }
    }

    /// kubectl's short names (`ds`, `po`…), as `api-resources` lists them.
    pub fn short_names(self) -> &'static [&'static str] {
        match self {
            Kind::Namespace => &["ns"],
            Kind::Node => &["no"],
            Kind::Pod => &["po"],
            Kind::DaemonSet => &["ds"],
            Kind::ControllerRevision => &[],
            Kind::Event => &["ev"],
            Kind::PriorityClass => &["pc"],
            Kind::Deployment => &["deploy"],
            Kind::ReplicaSet => &["rs"],
            Kind::Service => &["svc"],
            Kind::EndpointSlice => &[],
            Kind::StatefulSet => &["sts"],
            Kind::PersistentVolumeClaim => &["pvc"],
            Kind::PersistentVolume => &["pv"],
            Kind::StorageClass => &["sc"],
            Kind::Endpoints => &["ep"],
        }
    }

    /// Whether objects of the kind live in a namespace.
    pub fn namespaced(self) -> bool {
        !matches!(
            self,
            Kind::Namespace
                | Kind::Node
                | Kind::PriorityClass
                | Kind::PersistentVolume
                | Kind::StorageClass
        )
    }

    /// The warning the API server sends with every request on a deprecated kind (v1 Endpoints
    /// since v1.33), which kubectl prints on stderr as `Warning: …`.
    ///
    /// Upstream: staging/src/k8s.io/apiserver/pkg/endpoints/deprecation/deprecation.go
    /// WarningMessage (Endpoints' APILifecycleDeprecated 1.33, replacement EndpointSlice).
    pub fn deprecation_warning(self) -> Option<&'static str> {
        match self {
            Kind::Endpoints => {
                Some("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice")
            }
            _ => None,
        }
    }

    /// `daemonset.apps` / `pod`: the qualified lower-case singular kubectl prints before `/name`.
    pub fn qualified_singular(self) -> String {
        let singular = self.name().to_ascii_lowercase();
        if self.group().is_empty() {
            singular
        } else {
            format!("{singular}.{}", self.group())
        }
    }

    /// `daemonsets.apps` / `pods`: the qualified plural used in API error messages.
    pub fn qualified_plural(self) -> String {
        if self.group().is_empty() {
            self.plural().to_string()
        } else {
            format!("{}.{}", self.plural(), self.group())
        }
    }

    /// Resolves what a user types after `kubectl get` (`ds`, `daemonset`, `daemonsets.apps`, `DaemonSet`).
    pub fn from_resource_name(text: &str) -> Option<Kind> {
        let lower = text.to_ascii_lowercase();
        Kind::ALL.into_iter().find(|kind| {
            let singular = kind.name().to_ascii_lowercase();
            lower == singular
                || lower == kind.plural()
                || lower == kind.qualified_plural()
                || lower == kind.qualified_singular()
                || kind.short_names().contains(&lower.as_str())
        })
    }

    /// Resolves a manifest's `kind:` (case-sensitive, as the API server does).
    pub fn from_kind_name(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == text)
    }
}

/// One object of any simulated kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Object {
    /// A namespace.
    Namespace(Namespace),
    /// A node.
    Node(Node),
    /// A pod.
    Pod(Pod),
    /// A DaemonSet.
    DaemonSet(DaemonSet),
    /// A ControllerRevision.
    ControllerRevision(ControllerRevision),
    /// An event.
    Event(Event),
    /// A PriorityClass.
    PriorityClass(PriorityClass),
    /// A Deployment.
    Deployment(Deployment),
    /// A ReplicaSet.
    ReplicaSet(ReplicaSet),
    /// A Service.
    Service(Service),
    /// An EndpointSlice.
    EndpointSlice(EndpointSlice),
    /// A StatefulSet.
    StatefulSet(StatefulSet),
    /// A PersistentVolumeClaim.
    PersistentVolumeClaim(PersistentVolumeClaim),
    /// A PersistentVolume (boxed: its spec lists every volume source, which makes it the largest
    /// object by far).
    PersistentVolume(Box<PersistentVolume>),
    /// A StorageClass.
    StorageClass(StorageClass),
    /// An Endpoints object.
    Endpoints(Endpoints),
}

impl Object {
    /// The kind of the wrapped object.
    pub fn kind(&self) -> Kind {
        match self {
            Object::Namespace(_) => Kind::Namespace,
            Object::Node(_) => Kind::Node,
            Object::Pod(_) => Kind::Pod,
            Object::DaemonSet(_) => Kind::DaemonSet,
            Object::ControllerRevision(_) => Kind::ControllerRevision,
            Object::Event(_) => Kind::Event,
            Object::PriorityClass(_) => Kind::PriorityClass,
            Object::Deployment(_) => Kind::Deployment,
            Object::ReplicaSet(_) => Kind::ReplicaSet,
            Object::Service(_) => Kind::Service,
            Object::EndpointSlice(_) => Kind::EndpointSlice,
            Object::StatefulSet(_) => Kind::StatefulSet,
            Object::PersistentVolumeClaim(_) => Kind::PersistentVolumeClaim,
            Object::PersistentVolume(_) => Kind::PersistentVolume,
            Object::StorageClass(_) => Kind::StorageClass,
            Object::Endpoints(_) => Kind::Endpoints,
        }
    }

    /// The object's metadata.
    pub fn metadata(&self) -> &ObjectMeta {
        match self {
            Object::Namespace(o) => &o.metadata,
            Object::Node(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::DaemonSet(o) => &o.metadata,
            Object::ControllerRevision(o) => &o.metadata,
            Object::Event(o) => &o.metadata,
            Object::PriorityClass(o) => &o.metadata,
            Object::Deployment(o) => &o.metadata,
            Object::ReplicaSet(o) => &o.metadata,
            Object::Service(o) => &o.metadata,
            Object::EndpointSlice(o) => &o.metadata,
            Object::StatefulSet(o) => &o.metadata,
            Object::PersistentVolumeClaim(o) => &o.metadata,
            Object::PersistentVolume(o) => &o.metadata,
            Object::StorageClass(o) => &o.metadata,
            Object::Endpoints(o) => &o.metadata,
        }
    }

    /// The object's metadata, mutably.
    pub fn metadata_mut(&mut self) -> &mut ObjectMeta {
        match self {
            Object::Namespace(o) => &mut o.metadata,
            Object::Node(o) => &mut o.metadata,
            Object::Pod(o) => &mut o.metadata,
            Object::DaemonSet(o) => &mut o.metadata,
            Object::ControllerRevision(o) => &mut o.metadata,
            Object::Event(o) => &mut o.metadata,
            Object::PriorityClass(o) => &mut o.metadata,
            Object::Deployment(o) => &mut o.metadata,
            Object::ReplicaSet(o) => &mut o.metadata,
            Object::Service(o) => &mut o.metadata,
            Object::EndpointSlice(o) => &mut o.metadata,
            Object::StatefulSet(o) => &mut o.metadata,
            Object::PersistentVolumeClaim(o) => &mut o.metadata,
            Object::PersistentVolume(o) => &mut o.metadata,
            Object::StorageClass(o) => &mut o.metadata,
            Object::Endpoints(o) => &mut o.metadata,
        }
    }

    /// `metadata.name`, or "" when unset.
    pub fn name(&self) -> &str {
        self.metadata().name.as_deref().unwrap_or("")
    }

    /// The object as JSON with `apiVersion` and `kind` set (k8s-openapi adds them on serialize),
    /// as the API server writes it: an Event's `eventTime` is `null` when unset (Go's `MicroTime`
    /// is a struct, which `omitempty` never omits), where k8s-openapi leaves the field out.
    ///
    /// Upstream: staging/src/k8s.io/api/core/v1/types.go Event (`EventTime metav1.MicroTime`).
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let (Object::Event(_), serde_json::Value::Object(fields)) = (self, &mut json) {
            fields.entry("eventTime").or_insert(serde_json::Value::Null);
        }
        json
    }
}

/// Older first by `metadata.creationTimestamp`, then by name: the tie-break upstream's sorts share
/// (`podByCreationTimestampAndPhase`, `ActivePods`); a missing timestamp sorts first.
///
/// Upstream: pkg/controller/controller_utils.go ActivePods.Less (its timestamp/name tail).
pub fn older_first(a: &ObjectMeta, b: &ObjectMeta) -> std::cmp::Ordering {
    a.creation_timestamp
        .as_ref()
        .map(|t| t.0)
        .cmp(&b.creation_timestamp.as_ref().map(|t| t.0))
        .then_with(|| a.name.cmp(&b.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_without_event_time_serialises_it_as_null_like_the_api_server() {
        let event = Object::Event(Event {
            metadata: ObjectMeta {
                name: Some("demo.1".into()),
                ..Default::default()
            },
            ..Default::default()
        });
        let json = event.to_json();
        assert_eq!(json.get("eventTime"), Some(&serde_json::Value::Null));
        // Other kinds are left as k8s-openapi writes them.
        let node = Object::Node(Default::default());
        assert_eq!(node.to_json().get("eventTime"), None);
    }
}
