//! The control loops, each shaped like its upstream counterpart.

pub mod daemonset;
pub mod endpointslice;
pub mod gc;
pub mod node_lifecycle;
pub mod taint_eviction;
