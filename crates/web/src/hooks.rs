//! The app's custom hooks, one per file: each wires one browser event source (timer, keyboard,
//! `postMessage`, storage) to the reducer.

pub mod autosave;
pub mod clock;
pub mod explain_data;
pub mod lessons;
pub mod long_run;
pub mod media_query;
pub mod message_api;
pub mod shortcuts;
