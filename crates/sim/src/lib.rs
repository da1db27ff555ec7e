//! The simulated cluster: object store, virtual clock and event queue, and the control loops
//! (DaemonSet controller, scheduler, kubelet, node lifecycle, taint eviction, garbage collectors).
//!
//! **Architecture Invariant:** no I/O, no wall clock, no OS randomness. A `Cluster` is a pure function
//! of its seed and the calls made on it; iteration is always over ordered maps.

pub mod api_server;
pub mod capacity;
pub mod cluster;
pub mod controller;
pub mod default_cluster;
pub mod error;
mod event_recorder;
pub mod explain;
pub mod images;
pub mod kind_addons;
pub mod kubelet;
mod lookup_map;
pub mod names;
pub mod observer;
pub mod pod_log;
mod pod_status;
mod priority_admission;
pub mod routing;
pub mod scheduler;
mod scheduling;
mod service_account_admission;
mod service_alloc;
pub mod store;
mod validation_memo;
pub mod volume_binding;

pub use api_server::{DeleteOptions, Propagation};
pub use cluster::Cluster;
pub use default_cluster::{KindClusterBuild, NodeOptions};
pub use error::{ApiError, ApiResult};
pub use images::ImageBehavior;
pub use observer::ClockObserver;
pub use store::{Store, WatchEvent, WatchEventType};
