//! `cargo xtask test`: the whole suite, in the order a failure is cheapest to find.
//!
//! 1. `cargo test --workspace` (native: unit, property, transcript tests, this xtask's tidy test),
//!    then `dsplay lesson check lessons/` (every built-in lesson's setup and solutions, ~2 s), then
//!    the parity harness (`cargo xtask parity`: every transcript replayed with the real kubectl
//!    against `dsplay serve`, ~40 s; skipped when kubectl is not on PATH).
//! 2. `wasm-pack test --headless --chrome` on the web crate (browser-only unit tests).
//! 3. `cargo xtask dist`, then `node --test tests/e2e/` (Playwright on Debian Chromium; the tests
//!    start their own static server on 127.0.0.1 serving `dist/`).

use crate::{dist, parity, setup, sh, Result};
use std::process::Command;

/// Runs the suite; `skip_*` leave out the slower browser parts.
pub fn run(skip_wasm: bool, skip_e2e: bool) -> Result {
    sh(Command::new("cargo").args(["test", "--workspace"]))?;
    sh(Command::new("cargo").args([
        "run", "-q", "-p", "dsplay", "--", "lesson", "check", "lessons/",
    ]))?;
    parity::run(None)?;
    if !(skip_wasm && skip_e2e) {
        setup::test_tools()?;
    }
    if !skip_wasm {
        setup::build_tools()?;
        sh(Command::new("wasm-pack").args([
            "test",
            "--headless",
            "--chrome",
            "--mode",
            "no-install",
            "crates/web",
        ]))?;
    }
    if !skip_e2e {
        dist::run()?;
        sh(Command::new("node").args(["--test", "--test-concurrency=1", "tests/e2e/"]))?;
    }
    Ok(())
}
