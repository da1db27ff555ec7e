//! `cargo xtask dist`: the self-contained static site in `dist/`.
//!
//! Layout (relative URLs only, so any static host can serve the folder as is):
//! `index.html` (with the app's first paint, prerendered), `style.css` (and anything else in `web/`), `dsplay_web.js`, `dsplay_web_bg.wasm`,
//! and `editor.js`: the CodeMirror editor, bundled from `web/editor/` and its npm packages by esbuild;
//! `embed.js` (from `web/`, as is: the standalone `<dsplay-embed>` script) and `embed.html`, the
//! demo page of embeds (`docs/embed.html`);
//! `lessons/`: the built-in lesson files and `index.json`, the list of their names, which the app
//! fetches when the learner opens the catalogue (so they add nothing to the first load).

use crate::{output, root, setup, sh, size_budget, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Cargo profile of the WebAssembly the page ships (and `cargo xtask bench-wasm` measures):
/// the release profile tuned for size (the top-level `Cargo.toml`).
pub const WASM_PROFILE: &str = "wasm-release";

/// The editor bundle's source folder: built into `dist/editor.js`, not copied as is.
const EDITOR_SOURCE: &str = "web/editor";

/// Builds the wasm app with [`WASM_PROFILE`] and writes `dist/`; returns its path.
pub fn run() -> Result<PathBuf> {
    setup::build_tools()?;
    let root = root();
    // Honour CARGO_TARGET_DIR, so parallel builds with their own target dirs do not share it.
    let pkg = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("wasm-pkg");
    sh(Command::new("wasm-pack")
        .args([
            "build",
            "crates/web",
            "--target",
            "web",
            "--profile",
            WASM_PROFILE,
            "--mode",
            "no-install",
            "--no-typescript",
        ])
        .arg("--out-dir")
        .arg(&pkg)
        .args(["--out-name", "dsplay_web"]))?;

    let dist = root.join("dist");
    if dist.exists() {
        std::fs::remove_dir_all(&dist).map_err(|e| format!("removing {}: {e}", dist.display()))?;
    }
    copy_dir(&root.join("web"), &dist)?;
    write_index(&root.join("index.html"), &dist.join("index.html"))?;
    copy(&root.join("docs/embed.html"), &dist.join("embed.html"))?;
    for file in ["dsplay_web.js", "dsplay_web_bg.wasm"] {
        copy(&pkg.join(file), &dist.join(file))?;
    }
    bundle_editor(&dist.join("editor.js"))?;
    copy_lessons(&root.join("lessons"), &dist.join("lessons"))?;
    // `kubectl explain`'s descriptions: fetched by the app after its first render.
    copy(
        &root.join("crates/kubectl/src/explain/fields.tsv"),
        &dist.join("explain.tsv"),
    )?;
    size_budget::check(&dist)?;
    Ok(dist)
}

/// Where `index.html` takes the first paint.
const FIRST_PAINT_MARK: &str =
    "<!-- first paint: cargo xtask dist writes the prerendered app here -->";

/// Writes `index.html` with the first paint in place of [`FIRST_PAINT_MARK`]: the app rendered
/// natively as a first visit sees it (`crates/web/src/prerender.rs`, printed by its `prerender`
/// binary), so the node cards show before the wasm has arrived.
fn write_index(from: &Path, to: &Path) -> Result {
    let page =
        std::fs::read_to_string(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    if !page.contains(FIRST_PAINT_MARK) {
        return Err(format!("{} has no `{FIRST_PAINT_MARK}`", from.display()));
    }
    let first_paint = output(Command::new("cargo").args([
        "run",
        "--quiet",
        "-p",
        "dsplay-web",
        "--bin",
        "prerender",
    ]))?;
    std::fs::write(to, page.replace(FIRST_PAINT_MARK, &first_paint))
        .map_err(|e| format!("writing {}: {e}", to.display()))
}

fn copy(from: &Path, to: &Path) -> Result {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))
}

/// Bundles the editor (CodeMirror and its npm packages) into one minified ES module.
fn bundle_editor(out: &Path) -> Result {
    sh(Command::new(root().join("node_modules/.bin/esbuild"))
        .arg(format!("{EDITOR_SOURCE}/index.js"))
        .args([
            "--bundle",
            "--minify",
            "--format=esm",
            "--target=es2020",
            "--log-level=warning",
        ])
        .arg(format!("--outfile={}", out.display())))
}

/// Copies the `*.yaml` lesson files in name order and writes `index.json`, the JSON list of their
/// names.
fn copy_lessons(from: &Path, to: &Path) -> Result {
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    for name in &names {
        copy(&from.join(name), &to.join(name))?;
    }
    let index = names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(",");
    let path = to.join("index.json");
    std::fs::write(&path, format!("[{index}]\n"))
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Copies the static assets, skipping what only the build needs (npm sources, the editor's
/// source).
fn copy_dir(from: &Path, to: &Path) -> Result {
    std::fs::create_dir_all(to).map_err(|e| format!("creating {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name();
        if name == "node_modules" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path == root().join(EDITOR_SOURCE) {
            continue;
        }
        if path.is_dir() {
            copy_dir(&path, &to.join(&name))?;
        } else {
            copy(&path, &to.join(&name))?;
        }
    }
    Ok(())
}
