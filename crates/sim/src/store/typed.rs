//! The store's typed accessors: every kind's objects in key order, and one object by key, as
//! shared references (no clone).

use super::{key_ref, Store};
use dsplay_api::types::*;
use dsplay_api::Kind;
use std::sync::Arc;

impl Store {
    /// All namespaces, by name.
    pub fn namespaces(&self) -> impl Iterator<Item = &Namespace> {
        self.namespaces.values()
    }
    /// All nodes, by name.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.values().map(|n| &**n)
    }
    /// How many nodes there are.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
    /// All nodes, by name, as shared handles (cheap to keep across writes).
    pub(crate) fn node_handles(&self) -> impl Iterator<Item = &Arc<Node>> {
        self.nodes.values()
    }
    /// All pods, by namespace then name.
    pub fn pods(&self) -> impl Iterator<Item = &Pod> {
        self.pods.values().map(|p| &**p)
    }
    /// How many pods there are.
    pub fn pod_count(&self) -> usize {
        self.pods.len()
    }
    /// The pods of one namespace, in name order, as shared handles (cheap to keep across writes).
    pub(crate) fn pod_handles_in<'a>(
        &'a self,
        namespace: &'a str,
    ) -> impl Iterator<Item = &'a Arc<Pod>> + 'a {
        self.pods.in_namespace(namespace)
    }
    /// The pods bound to a node, in key order.
    pub fn pods_on_node<'a>(&'a self, node: &str) -> impl Iterator<Item = &'a Pod> + 'a {
        self.pods_by_node
            .get(node)
            .into_iter()
            .flatten()
            .filter_map(|key| self.pods.get(key).map(|p| &**p))
    }
    /// One node as a shared handle.
    pub(crate) fn node_handle(&self, name: &str) -> Option<&Arc<Node>> {
        self.nodes.get(key_ref(&("", name)))
    }
    /// One pod as a shared handle.
    pub(crate) fn pod_handle(&self, namespace: &str, name: &str) -> Option<&Arc<Pod>> {
        self.pods.get(key_ref(&(namespace, name)))
    }
    /// The pods with an ownerReference to `owner` (released ones excluded), in name order. Only
    /// the owner's namespace is walked: a namespaced owner's reference from another namespace
    /// counts as absent, as upstream's garbage collector and controllers read it (they list the
    /// owner's namespace: `getDaemonPods`, `getPodsForStatefulSet`).
    pub fn pods_owned_by<'a>(
        &'a self,
        owner: &'a ObjectMeta,
    ) -> impl Iterator<Item = &'a Pod> + 'a {
        let uid = owner.uid.as_deref().unwrap_or_default();
        let namespace = owner.namespace.as_deref().unwrap_or_default();
        self.pods
            .in_namespace(namespace)
            .map(|p| &**p)
            .filter(move |p| references(&p.metadata, uid))
    }
    /// All DaemonSets, by namespace then name.
    pub fn daemon_sets(&self) -> impl Iterator<Item = &DaemonSet> {
        self.daemon_sets.values().map(|d| &**d)
    }
    /// All ControllerRevisions, by namespace then name.
    pub fn controller_revisions(&self) -> impl Iterator<Item = &ControllerRevision> {
        self.controller_revisions.values()
    }
    /// All events, by namespace then name (sorted here: the store hashes its events, which are
    /// written and expired far more often than listed).
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.events.sorted().into_iter().map(|(_, e)| &**e)
    }
    /// Every event, the newest first by [`event_last_seen`](super::event_last_seen) (events of
    /// the same second by namespace, then name, the greatest first): e.g. the newest of a long
    /// session's tens of thousands without walking them all.
    pub fn events_newest_first(&self) -> impl Iterator<Item = &Event> {
        self.events_by_time.newest_first()
    }
    /// All PriorityClasses, by name.
    pub fn priority_classes(&self) -> impl Iterator<Item = &PriorityClass> {
        self.priority_classes.values()
    }
    /// All Deployments, by namespace then name.
    pub fn deployments(&self) -> impl Iterator<Item = &Deployment> {
        self.deployments.values()
    }
    /// All ReplicaSets, by namespace then name.
    pub fn replica_sets(&self) -> impl Iterator<Item = &ReplicaSet> {
        self.replica_sets.values()
    }
    /// One Deployment.
    pub fn deployment(&self, namespace: &str, name: &str) -> Option<&Deployment> {
        self.deployments.get(key_ref(&(namespace, name)))
    }
    /// One ReplicaSet.
    pub fn replica_set(&self, namespace: &str, name: &str) -> Option<&ReplicaSet> {
        self.replica_sets.get(key_ref(&(namespace, name)))
    }
    /// All Services, by namespace then name.
    pub fn services(&self) -> impl Iterator<Item = &Service> {
        self.services.values()
    }
    /// One Service.
    pub fn service(&self, namespace: &str, name: &str) -> Option<&Service> {
        self.services.get(key_ref(&(namespace, name)))
    }
    /// All EndpointSlices, by namespace then name.
    pub fn endpoint_slices(&self) -> impl Iterator<Item = &EndpointSlice> {
        self.endpoint_slices.values()
    }
    /// All StatefulSets, by namespace then name.
    pub fn stateful_sets(&self) -> impl Iterator<Item = &StatefulSet> {
        self.stateful_sets.values()
    }
    /// One StatefulSet.
    pub fn stateful_set(&self, namespace: &str, name: &str) -> Option<&StatefulSet> {
        self.stateful_sets
            .get(&(namespace.to_string(), name.to_string()))
    }
    /// All PersistentVolumeClaims, by namespace then name.
    pub fn persistent_volume_claims(&self) -> impl Iterator<Item = &PersistentVolumeClaim> {
        self.persistent_volume_claims.values()
    }
    /// One PersistentVolumeClaim.
    pub fn persistent_volume_claim(
        &self,
        namespace: &str,
        name: &str,
    ) -> Option<&PersistentVolumeClaim> {
        self.persistent_volume_claims
            .get(&(namespace.to_string(), name.to_string()))
    }
    /// All PersistentVolumes, by name.
    pub fn persistent_volumes(&self) -> impl Iterator<Item = &PersistentVolume> {
        self.persistent_volumes.values()
    }
    /// One PersistentVolume.
    pub fn persistent_volume(&self, name: &str) -> Option<&PersistentVolume> {
        self.persistent_volumes
            .get(&(String::new(), name.to_string()))
    }
    /// All StorageClasses, by name.
    pub fn storage_classes(&self) -> impl Iterator<Item = &StorageClass> {
        self.storage_classes.values()
    }
    /// One StorageClass.
    pub fn storage_class(&self, name: &str) -> Option<&StorageClass> {
        self.storage_classes.get(&(String::new(), name.to_string()))
    }
    /// One node.
    pub fn node(&self, name: &str) -> Option<&Node> {
        self.nodes.get(key_ref(&("", name))).map(|n| &**n)
    }
    /// One pod.
    pub fn pod(&self, namespace: &str, name: &str) -> Option<&Pod> {
        self.pod_handle(namespace, name).map(|p| &**p)
    }
    /// One event.
    pub fn event(&self, namespace: &str, name: &str) -> Option<&Event> {
        self.events.get(key_ref(&(namespace, name))).map(|e| &**e)
    }
    /// One DaemonSet.
    pub fn daemon_set(&self, namespace: &str, name: &str) -> Option<&DaemonSet> {
        self.daemon_set_handle(namespace, name).map(|d| &**d)
    }
    /// One DaemonSet as a shared handle.
    pub(crate) fn daemon_set_handle(&self, namespace: &str, name: &str) -> Option<&Arc<DaemonSet>> {
        self.daemon_sets.get(key_ref(&(namespace, name)))
    }
    /// One namespace.
    pub fn namespace(&self, name: &str) -> Option<&Namespace> {
        self.namespaces.get(key_ref(&("", name)))
    }
    /// One PriorityClass.
    pub fn priority_class(&self, name: &str) -> Option<&PriorityClass> {
        self.priority_classes.get(key_ref(&("", name)))
    }

    /// The metadata of one object of any kind (`namespace` is ignored for a cluster-scoped one).
    pub fn meta(&self, kind: Kind, namespace: &str, name: &str) -> Option<&ObjectMeta> {
        let namespace = if kind.namespaced() { namespace } else { "" };
        let pair = (namespace, name);
        let key = key_ref(&pair);
        match kind {
            Kind::Namespace => self.namespaces.get(key).map(|o| &o.metadata),
            Kind::Node => self.nodes.get(key).map(|o| &o.metadata),
            Kind::Pod => self.pods.get(key).map(|o| &o.metadata),
            Kind::DaemonSet => self.daemon_sets.get(key).map(|o| &o.metadata),
            Kind::ControllerRevision => self.controller_revisions.get(key).map(|o| &o.metadata),
            Kind::Event => self.events.get(key).map(|o| &o.metadata),
            Kind::PriorityClass => self.priority_classes.get(key).map(|o| &o.metadata),
            Kind::Deployment => self.deployments.get(key).map(|o| &o.metadata),
            Kind::ReplicaSet => self.replica_sets.get(key).map(|o| &o.metadata),
            Kind::Service => self.services.get(key).map(|o| &o.metadata),
            Kind::EndpointSlice => self.endpoint_slices.get(key).map(|o| &o.metadata),
            Kind::StatefulSet => self.stateful_sets.get(key).map(|o| &o.metadata),
            Kind::PersistentVolumeClaim => {
                self.persistent_volume_claims.get(key).map(|o| &o.metadata)
            }
            Kind::PersistentVolume => self.persistent_volumes.get(key).map(|o| &o.metadata),
            Kind::StorageClass => self.storage_classes.get(key).map(|o| &o.metadata),
            Kind::Endpoints => self.endpoints.get(key).map(|o| &o.metadata),
        }
    }

    /// The metadata of the first object of a kind, in key order, that `found` accepts.
    pub fn find_meta(
        &self,
        kind: Kind,
        found: impl Fn(&ObjectMeta) -> bool,
    ) -> Option<&ObjectMeta> {
        let found = |m: &&ObjectMeta| found(m);
        match kind {
            Kind::Namespace => self.namespaces().map(|o| &o.metadata).find(found),
            Kind::Node => self.nodes().map(|o| &o.metadata).find(found),
            Kind::Pod => self.pods().map(|o| &o.metadata).find(found),
            Kind::DaemonSet => self.daemon_sets().map(|o| &o.metadata).find(found),
            Kind::ControllerRevision => {
                self.controller_revisions().map(|o| &o.metadata).find(found)
            }
            Kind::Event => self.events().map(|o| &o.metadata).find(found),
            Kind::PriorityClass => self.priority_classes().map(|o| &o.metadata).find(found),
            Kind::Deployment => self.deployments().map(|o| &o.metadata).find(found),
            Kind::ReplicaSet => self.replica_sets().map(|o| &o.metadata).find(found),
            Kind::Service => self.services().map(|o| &o.metadata).find(found),
            Kind::EndpointSlice => self.endpoint_slices().map(|o| &o.metadata).find(found),
            Kind::StatefulSet => self.stateful_sets().map(|o| &o.metadata).find(found),
            Kind::PersistentVolumeClaim => {
                (self.persistent_volume_claims().map(|o| &o.metadata)).find(found)
            }
            Kind::PersistentVolume => self.persistent_volumes().map(|o| &o.metadata).find(found),
            Kind::StorageClass => self.storage_classes().map(|o| &o.metadata).find(found),
            Kind::Endpoints => self.endpoints.values().map(|o| &o.metadata).find(found),
        }
    }
}

/// Whether `meta` has an ownerReference to `uid`.
pub(crate) fn references(meta: &ObjectMeta, uid: &str) -> bool {
    meta.owner_references.iter().flatten().any(|r| r.uid == uid)
}

#[cfg(test)]
mod tests {
    use crate::store::Store;
    use dsplay_api::types::*;
    use dsplay_api::Object;

    fn meta(namespace: &str, name: &str, owner_uid: Option<&str>) -> ObjectMeta {
        ObjectMeta {
            namespace: Some(namespace.into()),
            name: Some(name.into()),
            uid: Some(format!("uid-{namespace}-{name}")),
            owner_references: owner_uid.map(|uid| {
                vec![OwnerReference {
                    uid: uid.into(),
                    ..Default::default()
                }]
            }),
            ..Default::default()
        }
    }

    /// An owner's pods are those of its namespace that reference its uid: a reference from
    /// another namespace counts as absent (as upstream's garbage collector reads it), and pods
    /// of other owners or of none are not listed.
    #[test]
    fn an_owner_lists_the_pods_of_its_namespace_that_reference_it() {
        let mut store = Store::default();
        let owner = meta("default", "ds", None);
        let uid = owner.uid.as_deref();
        for (namespace, name, owner_uid) in [
            ("default", "ds-b", uid),
            ("default", "ds-a", uid),
            ("default", "other", Some("uid-someone-else")),
            ("default", "bare", None),
            ("kube-system", "ds-x", uid),
        ] {
            let pod = Pod {
                metadata: meta(namespace, name, owner_uid),
                ..Default::default()
            };
            store.put(Object::Pod(pod), 0);
        }
        let owned: Vec<&str> = store
            .pods_owned_by(&owner)
            .filter_map(|p| p.metadata.name.as_deref())
            .collect();
        assert_eq!(owned, ["ds-a", "ds-b"]);
    }
}
