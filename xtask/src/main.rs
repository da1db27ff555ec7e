//! `cargo xtask`: the build, serve and test driver behind the README's two commands.
//!
//! Plain `std` only: every step shells out to the same tools a person would run by hand
//! (`rustup`, `cargo`, `wasm-pack`, `npm`, `node`, `apt-get`), and skips installs whose tool is
//! already present at the right version.

mod bench_wasm;
mod dist;
mod flags;
mod parity;
mod serve;
mod setup;
mod size_budget;
mod test;
#[cfg(test)]
mod tidy;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Result alias for xtask steps: errors are plain messages for a human.
pub type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = match flags::parse(&args) {
        Ok(task) => task,
        Err(message) => {
            eprintln!("error: {message}\n\n{}", flags::USAGE);
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let result = match task {
        flags::Task::Help => {
            println!("{}", flags::USAGE);
            Ok(())
        }
        flags::Task::Setup => setup::all(),
        flags::Task::Dist => dist::run().map(|_| ()),
        flags::Task::Serve { port } => serve::run(port),
        flags::Task::Parity { filter } => parity::run(filter.as_deref()),
        flags::Task::BenchWasm { nodes } => bench_wasm::run(nodes),
        flags::Task::Test {
            skip_wasm,
            skip_e2e,
        } => test::run(skip_wasm, skip_e2e),
    };
    match result {
        Ok(()) => {
            eprintln!("xtask: done in {:.1}s", started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("xtask: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (the parent of `xtask/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Runs `cmd` (inheriting stdio) from the workspace root and fails unless it exits 0.
/// Prints the command line and how long it took, so CI logs show each step's timing.
pub fn sh(cmd: &mut Command) -> Result {
    let shown = format!("{cmd:?}").replace('"', "");
    eprintln!("xtask: $ {shown}");
    let started = Instant::now();
    let status = cmd
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    eprintln!("xtask: ({:.1}s) {shown}", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed with {status}"))
    }
}

/// A command's standard output (its standard error passes through); an error if it fails.
pub fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .current_dir(root())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("running {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed: {}", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs `program args…` and returns its trimmed stdout, or `None` if it is missing or fails.
pub fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(root())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
