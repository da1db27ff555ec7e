//! API-server behaviour for writes: admission (names, uids, defaults, priority, default tolerations),
//! validation, generation bookkeeping, deletion with grace periods and cascades, and event recording.

use crate::cluster::{k8s_time, Cluster, Timer};
use crate::error::{ApiError, ApiResult};
use crate::names;
use dsplay_api::types::*;
use dsplay_api::{defaults, taints, validation, Kind, Object};
use std::collections::BTreeMap;

/// How many generated names a create tries before AlreadyExists (upstream's
/// `maxNameGenerationCreateAttempts`).
const MAX_NAME_GENERATION_CREATE_ATTEMPTS: usize = 8;

mod pod_deletion;

/// Namespaces the API server refuses to delete. Upstream: the NamespaceLifecycle admission plugin's
/// immortal namespaces (`plugin/pkg/admission/namespace/lifecycle/admission.go` `Register`).
const IMMORTAL_NAMESPACES: [&str; 3] = ["default", "kube-system", "kube-public"];

/// Annotation the API server keeps in step with the DaemonSet's template generation.
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "deprecated.daemonset.template.generation";

/// How dependents are treated when an owner is deleted (`--cascade`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Propagation {
    /// Delete the owner now; the garbage collector deletes dependents (kubectl's default).
    #[default]
    Background,
    /// Delete dependents first; the owner goes when they are gone.
    Foreground,
    /// Remove ownerReferences from dependents and keep them.
    Orphan,
}

/// Options of a delete call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeleteOptions {
    /// Cascade policy.
    pub propagation: Propagation,
    /// Override of the pod's terminationGracePeriodSeconds (0 = immediately).
    pub grace_period_seconds: Option<i64>,
}

impl Cluster {
    /// Creates an object as `kubectl create`/`apply` would: admission, defaulting, validation, store.
    /// Returns the stored object. The cluster is unchanged on error.
    pub fn create(&mut self, mut object: Object) -> ApiResult<Object> {
        self.admit_create(&mut object)?;
        let stored = object.clone();
        self.write(object);
        self.reconcile();
        Ok(self
            .store
            .get(
                stored.kind(),
                stored.metadata().namespace.as_deref().unwrap_or(""),
                stored.name(),
            )
            .unwrap_or(stored))
    }

    /// Replaces an existing object's spec and metadata (status is kept unless the kind has none),
    /// with the API server's update rules. The cluster is unchanged on error.
    pub fn update(&mut self, mut object: Object) -> ApiResult<Object> {
        let kind = object.kind();
        let namespace = self.namespace_for(&object);
        let name = object.name().to_string();
        let Some(old) = self.store.get(kind, &namespace, &name) else {
            return Err(ApiError::NotFound { kind, name });
        };
        object.metadata_mut().namespace = kind.namespaced().then(|| namespace.clone());
        if let (Object::Service(old_svc), Object::Service(new_svc)) = (&old, &mut object) {
            crate::service_alloc::patch_allocated_values(old_svc, new_svc);
        }
        defaults::apply_defaults(&mut object);
        if let (Object::StatefulSet(old_sts), Object::StatefulSet(new_sts)) = (&old, &mut object) {
            drop_stateful_set_disabled_fields(new_sts, Some(old_sts));
        }
        let errors = validation::validate_update(&old, &object);
        if !errors.is_empty() {
            return Err(ApiError::Invalid { kind, name, errors });
        }
        if let Object::Service(svc) = &mut object {
            if matches!(
                dsplay_api::service::service_type(svc),
                "NodePort" | "LoadBalancer"
            ) {
                let used = crate::service_alloc::used_node_ports(self, Some((&namespace, &name)));
                let spec = svc.spec.get_or_insert_with(Default::default);
                self.allocate_node_ports(&name, spec, used)?;
            }
        }
        carry_server_fields(&old, &mut object);
        if let (Object::DaemonSet(old_ds), Object::DaemonSet(new_ds)) = (&old, &mut object) {
            bump_daemon_set_generation(old_ds, new_ds);
        }
        bump_apps_generation(&old, &mut object);
        if let (Object::Node(old_node), Object::Node(new_node)) = (&old, &object) {
            self.record_node_schedulable_event(old_node, new_node);
        }
        if let (Object::Pod(old_pod), Object::Pod(new_pod)) = (&old, &mut object) {
            // Pod spec is mostly immutable; keep the server's view of it.
            new_pod.spec = old_pod.spec.clone();
            new_pod.status = old_pod.status.clone();
        }
        if object == old {
            return Ok(old);
        }
        let result = object.clone();
        self.write(object);
        self.reconcile();
        Ok(self.store.get(kind, &namespace, &name).unwrap_or(result))
    }

    /// Deletes an object. Pods bound to a node terminate gracefully; owners cascade per `options`.
    pub fn delete(
        &mut self,
        kind: Kind,
        namespace: &str,
        name: &str,
        options: DeleteOptions,
    ) -> ApiResult<()> {
        let ns = if kind.namespaced() { namespace } else { "" };
        if kind == Kind::Namespace && IMMORTAL_NAMESPACES.contains(&name) {
            return Err(ApiError::Forbidden(format!(
                "namespaces \"{name}\" is forbidden: this namespace may not be deleted"
            )));
        }
        let Some(object) = self.store.get(kind, ns, name) else {
            return Err(ApiError::NotFound {
                kind,
                name: name.to_string(),
            });
        };
        if let Object::PersistentVolumeClaim(claim) = &object {
            if crate::volume_binding::keep_claim_in_use(self, claim) {
                self.reconcile();
                return Ok(());
            }
        }
        match object {
            Object::Pod(pod) => self.delete_pod(&pod, options.grace_period_seconds),
            Object::Namespace(_) => {
                for k in Kind::ALL.into_iter().filter(|k| k.namespaced()) {
                    let keys: Vec<_> = self
                        .store
                        .list(k)
                        .iter()
                        .filter(|o| o.metadata().namespace.as_deref() == Some(name))
                        .map(|o| o.name().to_string())
                        .collect();
                    for key in keys {
                        let _ = self.delete(
                            k,
                            name,
                            &key,
                            DeleteOptions {
                                propagation: Propagation::Background,
                                grace_period_seconds: Some(0),
                            },
                        );
                    }
                }
                self.remove_object(kind, ns, name);
            }
            other => {
                let uid = other.metadata().uid.clone().unwrap_or_default();
                match options.propagation {
                    Propagation::Background => {
                        self.remove_object(kind, ns, name);
                    }
                    Propagation::Orphan => {
                        self.orphan_dependents(&uid);
                        self.remove_object(kind, ns, name);
                    }
                    Propagation::Foreground => {
                        let mut owner = other.clone();
                        let meta = owner.metadata_mut();
                        meta.deletion_timestamp = Some(k8s_time(self.now_ms));
                        meta.deletion_grace_period_seconds = Some(0);
                        meta.finalizers
                            .get_or_insert_with(Vec::new)
                            .push("foregroundDeletion".to_string());
                        self.write(owner);
                    }
                }
                if kind == Kind::Node {
                    self.scheduling_queue.cluster_change += 1;
                    self.nodes_runtime.remove(name);
                    // Pod GC notices pods bound to a missing node after its quarantine (~40 s).
                    self.schedule(40_000, Timer::PodGc);
                }
            }
        }
        self.reconcile();
        Ok(())
    }

    fn orphan_dependents(&mut self, owner_uid: &str) {
        let dependents: Vec<Object> = [
            Kind::Pod,
            Kind::ControllerRevision,
            Kind::PersistentVolumeClaim,
        ]
        .into_iter()
        .flat_map(|k| self.store.list(k))
        .filter(|o| {
            o.metadata()
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.uid == owner_uid)
        })
        .collect();
        for mut dependent in dependents {
            let meta = dependent.metadata_mut();
            let refs: Vec<OwnerReference> = meta
                .owner_references
                .take()
                .unwrap_or_default()
                .into_iter()
                .filter(|r| r.uid != owner_uid)
                .collect();
            meta.owner_references = (!refs.is_empty()).then_some(refs);
            self.write(dependent);
        }
    }

    /// Stores an object (internal: controllers and admission already ran).
    pub(crate) fn write(&mut self, object: Object) {
        // What can make an unschedulable pod fit: any node change, or a pod being bound/unbound.
        // Pod status updates (kubelet, the scheduler's own Unschedulable condition) are not, so they
        // do not re-trigger scheduling attempts (and duplicate FailedScheduling events).
        // The store tells whether the write created a pod or bound it elsewhere.
        let node = matches!(object, Object::Node(_));
        if self.store.put(object, self.now_ms) || node {
            self.scheduling_queue.cluster_change += 1;
        }
    }

    /// Changes a stored pod in place and records the write as [`Cluster::write`] does: no copy of
    /// the pod while the store holds its only handle. Does nothing when there is no such pod.
    pub(crate) fn modify_pod(&mut self, namespace: &str, name: &str, f: impl FnOnce(&mut Pod)) {
        if self.store.modify_pod(namespace, name, self.now_ms, f) == Some(true) {
            self.scheduling_queue.cluster_change += 1;
        }
    }

    /// Removes an object from the store (internal).
    pub(crate) fn remove_object(&mut self, kind: Kind, namespace: &str, name: &str) {
        if matches!(kind, Kind::Node | Kind::Pod) {
            self.scheduling_queue.cluster_change += 1;
        }
        let ns = if kind.namespaced() { namespace } else { "" };
        let key = (ns.to_string(), name.to_string());
        if kind != Kind::Pod {
            self.store.remove(kind, &key, self.now_ms);
            return;
        }
        if let Some(pod) = self.store.remove_pod(&key, self.now_ms) {
            if let Some(uid) = &pod.metadata.uid {
                self.pods_runtime.remove(uid);
            }
            self.scheduling_queue.forget(&key);
        }
    }

    fn namespace_for(&self, object: &Object) -> String {
        if object.kind().namespaced() {
            object
                .metadata()
                .namespace
                .clone()
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "default".to_string())
        } else {
            String::new()
        }
    }

    /// A name generated from `prefix`, generated again while it is taken, up to
    /// [`MAX_NAME_GENERATION_CREATE_ATTEMPTS`] names in all (the last one then fails the create
    /// with AlreadyExists). Five characters of 27 repeat within a few thousand names: a DaemonSet
    /// of 5 000 pods usually meets one.
    ///
    /// Upstream: staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
    /// `createWithGenerateNameRetry` (feature RetryGenerateName, on by default since v1.31).
    fn untaken_name(&mut self, kind: Kind, namespace: &str, prefix: &str) -> String {
        let mut name = names::generate_name(&mut self.rng, prefix);
        for _ in 1..MAX_NAME_GENERATION_CREATE_ATTEMPTS {
            if self.store.get(kind, namespace, &name).is_none() {
                break;
            }
            name = names::generate_name(&mut self.rng, prefix);
        }
        name
    }

    fn admit_create(&mut self, object: &mut Object) -> ApiResult<()> {
        let kind = object.kind();
        let namespace = self.namespace_for(object);
        if kind.namespaced() && self.store.namespace(&namespace).is_none() {
            return Err(ApiError::NotFound {
                kind: Kind::Namespace,
                name: namespace,
            });
        }
        crate::capacity::admit(&self.store, object)?;
        object.metadata_mut().namespace = kind.namespaced().then(|| namespace.clone());
        // Defaults apply when the request is decoded, then mutating admission runs; both come
        // before the name is generated.
        defaults::apply_defaults(object);
        if let Object::StatefulSet(sts) = object {
            drop_stateful_set_disabled_fields(sts, None);
        }
        if let Object::Pod(pod) = object {
            self.admit_pod(pod)?;
        }
        if let Object::PersistentVolumeClaim(claim) = object {
            crate::volume_binding::admit_claim(self, claim);
        }
        let mut generated = false;
        {
            let meta = object.metadata_mut();
            if meta.name.as_deref().unwrap_or("").is_empty() {
                match meta.generate_name.clone().filter(|g| !g.is_empty()) {
                    Some(prefix) => {
                        meta.name = Some(self.untaken_name(kind, &namespace, &prefix));
                        generated = true;
                    }
                    None => {
                        return Err(ApiError::Invalid {
                            kind,
                            name: String::new(),
                            errors: vec![validation::FieldError {
                                path: "metadata.name".into(),
                                message: "Required value: name or generateName is required".into(),
                            }],
                        })
                    }
                }
            }
        }
        let name = object.name().to_string();
        if self.store.get(kind, &namespace, &name).is_some() {
            return Err(ApiError::AlreadyExists { kind, name });
        }
        // A pod like the last one that passed (same but for its generated name and node) passes.
        let passed_before = match object {
            Object::Pod(pod) if generated => self.validation_memo.passes(pod),
            _ => false,
        };
        // Defaulted above, as decoding does upstream; the mutating admission after it is not
        // defaulted again (upstream validates what admission left), so no defaulted copy is made.
        let errors = if passed_before {
            Vec::new()
        } else {
            validation::validate_defaulted(object)
        };
        if !errors.is_empty() {
            return Err(ApiError::Invalid { kind, name, errors });
        }
        if let (Object::Pod(pod), true, false) = (&*object, generated, passed_before) {
            self.validation_memo.remember(pod);
        }
        if let Object::PriorityClass(pc) = object {
            self.validate_priority_class(pc)?;
        }
        if let Object::Service(svc) = object {
            self.allocate_service(svc)?;
            svc.status = Some(ServiceStatus {
                load_balancer: Some(Default::default()),
                ..Default::default()
            });
        }
        let uid = match kind {
            Kind::Service | Kind::EndpointSlice => names::uid(&mut self.service_rng),
            Kind::StorageClass | Kind::PersistentVolume | Kind::PersistentVolumeClaim => {
                names::uid(&mut self.storage_rng)
            }
            Kind::Endpoints => names::uid(&mut self.endpoints_rng),
            _ => names::uid(&mut self.rng),
        };
        let now = k8s_time(self.now_ms);
        let meta = object.metadata_mut();
        meta.uid = Some(uid);
        meta.creation_timestamp = Some(now);
        meta.deletion_timestamp = None;
        meta.resource_version = None;
        match object {
            Object::DaemonSet(ds) => {
                ds.metadata.generation = Some(1);
                ds.metadata
                    .annotations
                    .get_or_insert_with(BTreeMap::new)
                    .insert(TEMPLATE_GENERATION_ANNOTATION.to_string(), "1".to_string());
                ds.status = Some(DaemonSetStatus::default());
            }
            Object::Deployment(d) => {
                d.metadata.generation = Some(1);
                d.status = Some(DeploymentStatus::default());
            }
            Object::ReplicaSet(rs) => {
                rs.metadata.generation = Some(1);
                rs.status = Some(ReplicaSetStatus::default());
            }
            Object::StatefulSet(sts) => {
                sts.metadata.generation = Some(1);
                sts.status = Some(StatefulSetStatus {
                    available_replicas: Some(0),
                    ..Default::default()
                });
            }
            Object::Namespace(ns) => {
                ns.spec = Some(k8s_openapi::api::core::v1::NamespaceSpec {
                    finalizers: Some(vec!["kubernetes".into()]),
                });
                ns.status = Some(k8s_openapi::api::core::v1::NamespaceStatus {
                    phase: Some("Active".into()),
                    ..Default::default()
                });
                ns.metadata
                    .labels
                    .get_or_insert_with(BTreeMap::new)
                    .insert("kubernetes.io/metadata.name".into(), name.clone());
            }
            Object::Node(node) => {
                crate::default_cluster::complete_node(
                    self.next_pod_cidr,
                    &k8s_time(self.now_ms),
                    node,
                );
                self.next_pod_cidr += 1;
            }
            _ => {}
        }
        Ok(())
    }

    /// Pod admission: priority from the PriorityClass, DefaultTolerationSeconds, service account, status.
    fn admit_pod(&mut self, pod: &mut Pod) -> ApiResult<()> {
        let name = admission_name(&pod.metadata);
        let spec = pod.spec.get_or_insert_with(Default::default);
        let (priority, policy) = self
            .resolve_priority(spec)
            .map_err(|e| ApiError::Forbidden(format!("pods \"{name}\" is forbidden: {e}")))?;
        spec.priority = Some(priority);
        spec.preemption_policy = Some(policy);
        spec.service_account_name
            .get_or_insert_with(|| "default".to_string());
        spec.service_account = spec.service_account_name.clone();
        self.mount_service_account_token(spec);
        spec.enable_service_links.get_or_insert(true);
        let tolerations = spec.tolerations.get_or_insert_with(Vec::new);
        for key in [taints::keys::NOT_READY, taints::keys::UNREACHABLE] {
            let already = tolerations.iter().any(|t| {
                let k = t.key.as_deref().unwrap_or("");
                let e = t.effect.as_deref().unwrap_or("");
                (k.is_empty() || k == key) && (e.is_empty() || e == taints::NO_EXECUTE)
            });
            if !already {
                let mut t = taints::exists_toleration(key, taints::NO_EXECUTE);
                t.toleration_seconds = Some(300);
                tolerations.push(t);
            }
        }
        let qos = dsplay_api::qos::compute_pod_qos(spec).to_string();
        pod.status = Some(PodStatus {
            phase: Some("Pending".into()),
            qos_class: Some(qos),
            ..Default::default()
        });
        dsplay_api::pod_affinity_keys::mutate_pod_affinity(pod);
        Ok(())
    }

    /// The kubelet reports a cordon or uncordon of its node (`NodeNotSchedulable` /
    /// `NodeSchedulable`).
    ///
    /// Upstream: `pkg/kubelet/kubelet_node_status.go` `recordNodeSchedulableEvent`.
    fn record_node_schedulable_event(&mut self, old: &Node, new: &Node) {
        let unschedulable = |n: &Node| n.spec.as_ref().and_then(|s| s.unschedulable) == Some(true);
        if unschedulable(old) == unschedulable(new) {
            return;
        }
        let name = new.metadata.name.clone().unwrap_or_default();
        let status = if unschedulable(new) {
            "NodeNotSchedulable"
        } else {
            "NodeSchedulable"
        };
        // The kubelet's node reference: uid is the node name.
        let mut reference = object_reference(Kind::Node, &new.metadata);
        reference.uid = Some(name.clone());
        reference.resource_version = None;
        self.record_event(
            &reference,
            "Normal",
            status,
            &format!("Node {name} status is now: {status}"),
            "kubelet",
            Some(&name),
        );
    }
}

/// An ObjectReference to a stored object, for events.
pub(crate) fn object_reference(kind: Kind, meta: &ObjectMeta) -> ObjectReference {
    ObjectReference {
        api_version: Some(kind.api_version().to_string()),
        kind: Some(kind.name().to_string()),
        name: meta.name.clone(),
        namespace: if kind.namespaced() {
            meta.namespace.clone()
        } else {
            None
        },
        uid: meta.uid.clone(),
        resource_version: meta.resource_version.clone(),
        field_path: None,
    }
}

/// Copies what the server owns (uid, creation time, generation, status, owner refs) from the stored object.
fn carry_server_fields(old: &Object, new: &mut Object) {
    let old_meta = old.metadata().clone();
    let meta = new.metadata_mut();
    meta.uid = old_meta.uid;
    meta.creation_timestamp = old_meta.creation_timestamp;
    meta.generation = old_meta.generation;
    meta.resource_version = old_meta.resource_version;
    meta.deletion_timestamp = old_meta.deletion_timestamp;
    meta.deletion_grace_period_seconds = old_meta.deletion_grace_period_seconds;
    if meta.owner_references.is_none() {
        meta.owner_references = old_meta.owner_references;
    }
    match (old, new) {
        (Object::DaemonSet(o), Object::DaemonSet(n)) => n.status = o.status.clone(),
        (Object::Node(o), Object::Node(n)) => n.status = o.status.clone(),
        (Object::Deployment(o), Object::Deployment(n)) => n.status = o.status.clone(),
        (Object::ReplicaSet(o), Object::ReplicaSet(n)) => n.status = o.status.clone(),
        (Object::Service(o), Object::Service(n)) => n.status = o.status.clone(),
        (Object::StatefulSet(o), Object::StatefulSet(n)) => n.status = o.status.clone(),
        (Object::PersistentVolumeClaim(o), Object::PersistentVolumeClaim(n)) => {
            n.status = o.status.clone()
        }
        (Object::PersistentVolume(o), Object::PersistentVolume(n)) => n.status = o.status.clone(),
        (Object::Namespace(o), Object::Namespace(n)) => {
            n.status = o.status.clone();
            n.spec = o.spec.clone();
        }
        _ => {}
    }
}

/// `maxUnavailable` of a StatefulSet's RollingUpdate is dropped, before validation, unless the
/// stored object already has one: the `MaxUnavailableStatefulSet` gate is alpha and off on a
/// default v1.32 cluster.
///
/// Upstream: pkg/registry/apps/statefulset/strategy.go dropStatefulSetDisabledFields,
/// maxUnavailableInUse.
fn drop_stateful_set_disabled_fields(new: &mut StatefulSet, old: Option<&StatefulSet>) {
    let rolling = |s: &StatefulSet| {
        s.spec
            .as_ref()
            .and_then(|s| s.update_strategy.as_ref())
            .and_then(|u| u.rolling_update.as_ref())
            .is_some_and(|r| r.max_unavailable.is_some())
    };
    if old.is_some_and(rolling) {
        return;
    }
    if let Some(r) = new
        .spec
        .as_mut()
        .and_then(|s| s.update_strategy.as_mut())
        .and_then(|u| u.rolling_update.as_mut())
    {
        r.max_unavailable = None;
    }
}

/// Generation bookkeeping on Deployment, ReplicaSet and StatefulSet update: any spec change bumps it.
///
/// Upstream: pkg/registry/apps/deployment/strategy.go, replicaset/strategy.go and
/// statefulset/strategy.go PrepareForUpdate.
fn bump_apps_generation(old: &Object, new: &mut Object) {
    let changed = match (old, &*new) {
        (Object::Deployment(o), Object::Deployment(n)) => o.spec != n.spec,
        (Object::ReplicaSet(o), Object::ReplicaSet(n)) => o.spec != n.spec,
        (Object::StatefulSet(o), Object::StatefulSet(n)) => o.spec != n.spec,
        _ => return,
    };
    let generation = old.metadata().generation.unwrap_or(1);
    new.metadata_mut().generation = Some(generation + i64::from(changed));
}

/// Generation and templateGeneration bookkeeping on DaemonSet update.
///
/// Upstream: pkg/registry/apps/daemonset/strategy.go PrepareForUpdate.
fn bump_daemon_set_generation(old: &DaemonSet, new: &mut DaemonSet) {
    let old_spec = old.spec.clone().unwrap_or_default();
    let new_spec = new.spec.clone().unwrap_or_default();
    let old_template_generation: i64 = old
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(TEMPLATE_GENERATION_ANNOTATION))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut template_generation = old_template_generation;
    let mut generation = old.metadata.generation.unwrap_or(1);
    if old_spec.template != new_spec.template {
        template_generation += 1;
        generation += 1;
    } else if old_spec != new_spec {
        generation += 1;
    }
    new.metadata.generation = Some(generation);
    new.metadata
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(
            TEMPLATE_GENERATION_ANNOTATION.to_string(),
            template_generation.to_string(),
        );
}

impl Cluster {
    /// Creates an object from inside a control loop (no nested reconcile); returns its name.
    pub(crate) fn create_internal(&mut self, mut object: Object) -> ApiResult<String> {
        self.admit_create(&mut object)?;
        let name = object.name().to_string();
        self.write(object);
        Ok(name)
    }

    /// `sim node add`: creates a Node object with kind's defaults and the given options.
    /// Like a kind node, it starts with the kind node image's images in its cache.
    /// Nothing is handed back (`create` returns a copy of the stored object, which a `sim node
    /// add` of thousands of nodes would make and drop for each).
    pub fn add_node(&mut self, options: &crate::default_cluster::NodeOptions) -> ApiResult<()> {
        self.create_node(options)?;
        self.reconcile();
        Ok(())
    }

    /// Creates a node as [`Cluster::add_node`] does, without letting the controllers react: for a
    /// batch of nodes joining at once, which the controllers then see together (as upstream's
    /// informers coalesce them: one sync of a DaemonSet for all the nodes that joined).
    pub fn create_node(&mut self, options: &crate::default_cluster::NodeOptions) -> ApiResult<()> {
        let node = crate::default_cluster::build_node(options);
        let name = node.metadata.name.clone().unwrap_or_default();
        // Cached before the create, so the first pods placed on it already find them.
        let had_runtime = self.nodes_runtime.contains_key(&name);
        crate::default_cluster::preload_node_images(self, &name);
        if let Err(e) = self.create_internal(Object::Node(node)) {
            if !had_runtime {
                self.nodes_runtime.remove(&name);
            }
            return Err(e);
        }
        Ok(())
    }
}

/// The name an admission error gives the object: its name, else its generateName (admission
/// runs before the name is generated).
///
/// Upstream: `staging/src/k8s.io/apiserver/pkg/admission/errors.go` `extractResourceName`.
pub(crate) fn admission_name(meta: &ObjectMeta) -> String {
    [&meta.name, &meta.generate_name]
        .into_iter()
        .flatten()
        .find(|n| !n.is_empty())
        .cloned()
        .unwrap_or_else(|| "Unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: Option<&str>, generate_name: Option<&str>) -> Object {
        Object::Pod(Pod {
            metadata: ObjectMeta {
                name: name.map(str::to_string),
                generate_name: generate_name.map(str::to_string),
                namespace: Some("default".into()),
                ..Default::default()
            },
            spec: Some(PodSpec {
                containers: vec![Container {
                    name: "web".into(),
                    image: Some("nginx".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            ..Default::default()
        })
    }

    /// A generated name that is taken is generated again: the create succeeds under the next
    /// name, where without the retry it failed with AlreadyExists.
    #[test]
    fn a_taken_generated_name_is_generated_again() {
        let mut cluster = Cluster::new_empty(3);
        let taken = names::generate_name(&mut cluster.rng.clone(), "web-");
        // Stored as it is (no uid drawn from the generator), so the next create draws `taken`.
        cluster.store.put(pod(Some(&taken), None), cluster.now_ms);
        let created = cluster
            .create_internal(pod(None, Some("web-")))
            .expect("created under another name");
        assert_ne!(created, taken);
        assert!(created.starts_with("web-") && created.len() == taken.len());
        assert!(cluster.store.pod("default", &created).is_some());
    }
}
