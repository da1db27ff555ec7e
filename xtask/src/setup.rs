//! Installs the tools the build and the tests need, skipping each one already present at the
//! right version. Only package registries are used (crates.io via `cargo install`, npm, Debian
//! apt): wasm-pack's own binary downloads are never triggered (`--mode no-install` everywhere).
//!
//! Deliberately absent: `wasm-opt`. Debian's binaryen is too old to parse today's wasm and the
//! crates.io `wasm-opt` crate takes ~24 minutes to build. npm's `binaryen` 132 works (with
//! `--enable-bulk-memory --enable-nontrapping-float-to-int` at least), but measured on this app
//! (2026-12-03) `-Oz`, `-Os` and `-O2` shrink the raw wasm 10–14% and *grow* it gzipped by ~22%
//! (~800 KB → 970–987 KB), while `-O1` saves 2% gzipped (15 KB) for ~30 s per build: not worth it.

use crate::{output_of, root, sh, Result};
use std::path::Path;
use std::process::Command;

/// The wasm-pack version the build recipe is verified with.
pub const WASM_PACK_VERSION: &str = "0.15.1";

/// Everything: build tools and test tools.
pub fn all() -> Result {
    build_tools()?;
    test_tools()
}

/// What `cargo xtask dist` needs: the wasm target, wasm-pack, a matching wasm-bindgen-cli, and
/// node with the npm packages (esbuild and CodeMirror, for the editor bundle).
pub fn build_tools() -> Result {
    rust_target()?;
    wasm_pack()?;
    wasm_bindgen_cli()?;
    node_packages()
}

/// What the browser tests need besides the build tools: Debian Chromium + chromedriver (and the
/// npm packages: `playwright-core`).
pub fn test_tools() -> Result {
    chromium()?;
    node_packages()
}

fn rust_target() -> Result {
    let installed = output_of("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    sh(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
}

fn wasm_pack() -> Result {
    let want = format!("wasm-pack {WASM_PACK_VERSION}");
    if output_of("wasm-pack", &["--version"]).as_deref() == Some(want.as_str()) {
        return Ok(());
    }
    sh(Command::new("cargo").args([
        "install",
        "wasm-pack",
        "--version",
        WASM_PACK_VERSION,
        "--locked",
    ]))
}

fn wasm_bindgen_cli() -> Result {
    let version = wasm_bindgen_version()?;
    let want = format!("wasm-bindgen {version}");
    if output_of("wasm-bindgen", &["--version"]).as_deref() == Some(want.as_str()) {
        return Ok(());
    }
    // No `--locked`: the CLI's own lock file names a crate version the registry lacks.
    sh(Command::new("cargo").args(["install", "wasm-bindgen-cli", "--version", &version]))
}

/// The exact `wasm-bindgen` version in `Cargo.lock` (the CLI must match it byte for byte).
pub fn wasm_bindgen_version() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("reading Cargo.lock: {e}"))?;
    lock_version(&lock, "wasm-bindgen")
        .ok_or_else(|| "Cargo.lock has no wasm-bindgen package".to_string())
}

/// Finds `version = "…"` of the package `name` in a Cargo.lock text.
fn lock_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines
                .next()?
                .trim()
                .strip_prefix("version = \"")?
                .strip_suffix('"')?;
            return Some(version.to_string());
        }
    }
    None
}

fn chromium() -> Result {
    if Path::new("/usr/bin/chromium").exists() && Path::new("/usr/bin/chromedriver").exists() {
        return Ok(());
    }
    apt_install(&["chromium", "chromium-driver"])
}

fn node_packages() -> Result {
    if output_of("node", &["--version"]).is_none() || output_of("npm", &["--version"]).is_none() {
        apt_install(&["nodejs", "npm"])?;
    }
    let root = root();
    let lock = root.join("package-lock.json");
    let installed = root.join("node_modules/.package-lock.json");
    let fresh = match (std::fs::metadata(&lock), std::fs::metadata(&installed)) {
        (Ok(l), Ok(i)) => match (l.modified(), i.modified()) {
            (Ok(l), Ok(i)) => i >= l,
            _ => false,
        },
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    sh(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]))
}

/// `apt-get install -y` (non-interactive), through `sudo` when not root.
fn apt_install(packages: &[&str]) -> Result {
    let is_root = output_of("id", &["-u"]).as_deref() == Some("0");
    let apt = |args: &[&str]| {
        let mut cmd = if is_root {
            Command::new("apt-get")
        } else {
            Command::new("sudo")
        };
        if !is_root {
            cmd.arg("apt-get");
        }
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    sh(&mut apt(&["update"]))?;
    let mut install = apt(&["install", "-y"]);
    install.args(packages);
    sh(&mut install)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_versions_from_a_lock_file() {
        let lock = "[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"1.0.0\"\n\n\
                    [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n";
        assert_eq!(
            lock_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(lock_version(lock, "yew"), None);
    }

    #[test]
    fn workspace_pins_wasm_bindgen() {
        assert!(
            wasm_bindgen_version().is_ok(),
            "the web crate depends on wasm-bindgen"
        );
    }
}
