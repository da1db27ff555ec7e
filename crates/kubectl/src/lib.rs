//! The command language: `kubectl …` and `sim …` commands with kubectl's output text.
//!
//! **API Boundary:** `Session` is what the web app and the `dsplay` CLI drive; everything a user can do
//! is a command string run through it. This is the only crate that renders kubectl-style text.

pub mod command_output;
mod commands;
mod explain;
mod file_input;
pub mod flags;
mod help;
pub mod inspect;
pub mod printers;
pub mod selection;
pub mod session;
pub mod tokenizer;

pub use command_output::{Chunk, CommandOutput, Stream};
pub use commands::sim_node_add::NodeAdd;
pub use commands::{parse_duration, EditTarget, Request};

/// Installs `kubectl explain`'s field descriptions from the text of `explain.tsv` (the web app
/// fetches it after its first render; native builds have it compiled in).
pub fn install_explain_data(text: &str) {
    explain::Schema::install(text);
}
pub use file_input::read_manifest_file;
pub use selection::Selection;
pub use session::{Session, SessionOptions};
