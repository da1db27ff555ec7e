//! kubectl's output formats as pure functions of objects and `now`: ages, tables, `get` rows,
//! `-o yaml|json|name|jsonpath`, `describe`, events.
//!
//! **Architecture Invariant:** nothing here reads the cluster or the clock; callers pass the objects
//! and `now`, and get text back (stdout text; the `No resources found…` notices go to stderr).

pub mod age;
pub mod apps_tables;
pub mod describe;
pub mod events;
pub mod get;
pub mod output;
pub mod rollout_status;
pub mod service;
pub mod storage_tables;
pub mod table;
pub mod tabwriter;
