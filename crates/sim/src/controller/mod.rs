//! The control loops, each shaped like its upstream counterpart.

pub mod daemonset;
pub mod deployment;
pub mod endpoint;
pub mod endpointslice;
pub mod gc;
pub mod node_lifecycle;
pub mod replicaset;
pub(crate) mod requeue;
pub mod statefulset;
pub mod taint_eviction;
