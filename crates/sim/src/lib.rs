//! The simulated cluster: object store, virtual clock and event queue, and the control loops
//! (DaemonSet controller, scheduler, kubelet, node lifecycle, taint eviction, garbage collectors).
//!
//! **Architecture Invariant:** no I/O, no wall clock, no OS randomness. A `Cluster` is a pure function
//! of its seed and the calls made on it; iteration is always over ordered maps.

pub mod cluster;
pub mod store;

pub use cluster::Cluster;
pub use store::{Store, WatchEvent, WatchEventType};
