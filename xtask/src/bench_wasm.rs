//! `cargo xtask bench-wasm [NODES]`: the rollout benchmark (`crates/bench`) natively and as
//! WebAssembly in headless Chromium, each built with the profile it ships with (the CLI's release
//! profile, tuned for speed; the page's `wasm-release`, tuned for size), and a table of each
//! phase's milliseconds and their ratio. Numbers for notes and the README, not a test: nothing
//! fails on a slow machine.

use crate::{dist, output, root, setup, sh, Result};
use std::path::PathBuf;
use std::process::Command;

/// The benchmark's phases, as both runs name them.
const PHASES: [&str; 4] = [
    "add nodes",
    "initial rollout",
    "add one node",
    "rolling update",
];

/// Builds both, runs both with `nodes` nodes and maxUnavailable 1, prints the table.
pub fn run(nodes: usize) -> Result {
    setup::build_tools()?;
    let root = root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let pkg = target.join("bench-wasm-pkg");
    sh(Command::new("wasm-pack")
        .args([
            "build",
            "crates/bench",
            "--target",
            "web",
            "--profile",
            dist::WASM_PROFILE,
        ])
        .args(["--mode", "no-install", "--no-typescript"])
        .arg("--out-dir")
        .arg(&pkg)
        .args(["--out-name", "dsplay_bench"]))?;
    let native = output(
        Command::new("cargo")
            .args(["run", "--quiet", "--release", "-p", "dsplay-bench"])
            .args(["--example", "rollout_timing", "--"])
            .arg(nodes.to_string())
            .arg("1"),
    )?;
    let wasm = output(
        Command::new("node")
            .arg("tests/bench/wasm-rollout.mjs")
            .arg(&pkg)
            .arg(nodes.to_string())
            .arg("1"),
    )?;
    println!("rollout benchmark, {nodes} nodes, maxUnavailable 1 (ms):");
    println!(
        "  {:<16} {:>10} {:>10} {:>7}",
        "phase", "native", "wasm", "ratio"
    );
    for phase in PHASES {
        let (native_ms, wasm_ms) = (phase_ms(&native, phase)?, phase_ms(&wasm, phase)?);
        println!(
            "  {phase:<16} {native_ms:>10.1} {wasm_ms:>10.1} {:>6.2}x",
            wasm_ms / native_ms
        );
    }
    let updated = wasm
        .lines()
        .find(|l| l.starts_with("updatedNumberScheduled"));
    println!("  wasm {}", updated.unwrap_or("updatedNumberScheduled: ?"));
    Ok(())
}

/// The milliseconds a run printed for `phase` (`phase: 12.345 ms …`, the native example's lines
/// and the browser script's alike).
fn phase_ms(output: &str, phase: &str) -> Result<f64> {
    output
        .lines()
        .find_map(|line| line.strip_prefix(phase)?.strip_prefix(": "))
        .and_then(|rest| rest.split(" ms").next()?.parse().ok())
        .ok_or(format!("the run printed no {phase:?}:\n{output}"))
}

#[cfg(test)]
mod tests {
    use super::phase_ms;

    #[test]
    fn reads_a_phases_milliseconds() {
        let out = "add nodes: 5.129 ms (200 nodes)\nadd one node: 0.192 ms\n";
        assert_eq!(phase_ms(out, "add nodes"), Ok(5.129));
        assert_eq!(phase_ms(out, "add one node"), Ok(0.192));
        assert!(phase_ms(out, "rolling update").is_err());
    }
}
