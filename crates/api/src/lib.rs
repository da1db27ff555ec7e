//! Kubernetes objects and the rules that need no cluster.
//!
//! **Architecture Invariant:** this crate knows nothing about time, the store or printing; it turns text
//! into typed objects (`manifest`), completes them as the API server would (`defaults`), rejects what the
//! API server rejects (`validation`) and answers matching questions shared by the controller and the
//! scheduler (`selector`, `node_affinity`, `taints`, `quantity`, `int_or_percent`, `qos`, `pod`).

pub mod defaults;
pub mod fields;
pub mod int_or_percent;
pub mod manifest;
pub mod node_affinity;
pub mod object;
pub mod pod;
pub mod pod_affinity_keys;
pub mod qos;
pub mod quantity;
pub mod selector;
pub mod service;
pub mod taints;
pub mod validation;

pub use k8s_openapi;
pub use object::{Kind, Object};

/// Re-exported object types so downstream crates name them from one place.
pub mod types {
    pub use k8s_openapi::api::apps::v1::{
        ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetStatus, DaemonSetUpdateStrategy,
        Deployment, DeploymentCondition, DeploymentSpec, DeploymentStatus, DeploymentStrategy,
        ReplicaSet, ReplicaSetCondition, ReplicaSetSpec, ReplicaSetStatus, RollingUpdateDaemonSet,
        RollingUpdateDeployment, RollingUpdateStatefulSetStrategy, StatefulSet,
        StatefulSetPersistentVolumeClaimRetentionPolicy, StatefulSetSpec, StatefulSetStatus,
        StatefulSetUpdateStrategy,
    };
    pub use k8s_openapi::api::core::v1::{
        Affinity, Container, ContainerStatus, Event, EventSource, Namespace, Node, NodeAffinity,
        NodeCondition, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, NodeSpec,
        NodeStatus, ObjectReference, Pod, PodCondition, PodSpec, PodStatus, PodTemplateSpec, Taint,
        Toleration,
    };
    pub use k8s_openapi::api::core::v1::{
        EndpointAddress, EndpointPort as CoreEndpointPort, EndpointSubset, Endpoints, Service,
        ServicePort, ServiceSpec, ServiceStatus,
    };
    pub use k8s_openapi::api::core::v1::{
        PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimSpec,
        PersistentVolumeClaimStatus, PersistentVolumeClaimVolumeSource, PersistentVolumeSpec,
        PersistentVolumeStatus, Volume,
    };
    pub use k8s_openapi::api::discovery::v1::{
        Endpoint, EndpointConditions, EndpointPort, EndpointSlice,
    };
    pub use k8s_openapi::api::scheduling::v1::PriorityClass;
    pub use k8s_openapi::api::storage::v1::StorageClass;
    pub use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    pub use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
        LabelSelector, LabelSelectorRequirement, MicroTime, ObjectMeta, OwnerReference, Time,
    };
    pub use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
}
