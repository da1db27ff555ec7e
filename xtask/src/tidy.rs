//! Tidy checks run by `cargo test`: conventions that are cheap to keep and easy to forget.

use crate::root;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crates of the workspace: the directories of `crates/` with a `Cargo.toml`, sorted.
fn crates() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every Rust file of the workspace: each crate's `src`, `tests`, `benches`, `examples`, and xtask.
fn workspace_rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in crates() {
        for dir in ["src", "tests", "benches", "examples"] {
            rust_files(&root().join("crates").join(&krate).join(dir), &mut files);
        }
    }
    rust_files(&root().join("xtask/src"), &mut files);
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Every Rust file of the workspace opens with a `//!` module doc.
#[test]
fn module_docs_present() {
    let files = workspace_rust_files();
    assert!(files.len() > 100, "found only {} files", files.len());
    let missing: Vec<String> = files
        .iter()
        .filter(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty() && !l.starts_with("#!"))
                .unwrap_or("");
            !first.starts_with("//!")
        })
        .map(|file| relative(file))
        .collect();
    assert!(
        missing.is_empty(),
        "these files should open with a //! module doc: {missing:?}"
    );
}

/// Longest non-test source file, in lines (a test module at the end does not count).
const MAX_SOURCE_LINES: usize = 700;

/// No non-test source file is over [`MAX_SOURCE_LINES`] lines: small modules with one job. Test files
/// (`tests/`, `tests.rs`, `*_tests.rs`) and a trailing `#[cfg(test)]` module are not counted.
#[test]
fn no_source_file_over_700_lines() {
    let mut long = Vec::new();
    for file in workspace_rust_files() {
        let rel = relative(&file);
        let name = file.file_name().unwrap().to_string_lossy();
        if rel.contains("/tests/") || name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .count();
        if lines > MAX_SOURCE_LINES {
            long.push(format!("{rel}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "split these files (at most {MAX_SOURCE_LINES} lines of non-test code): {long:?}"
    );
}

/// Code and docs cite the upstream source (`Upstream: <file> <function>`) or this repository's
/// `docs/`, never planning documents the next engineer does not have.
#[test]
fn no_citations_of_documents_outside_the_repository() {
    // Built from pieces so this file does not match itself.
    let spec = ["SPEC", "-"].concat();
    let shared = ["shared", "/"].concat();
    let mut texts: Vec<PathBuf> = workspace_rust_files();
    for doc in ["README.md", "ARCHITECTURE.md"] {
        texts.push(root().join(doc));
    }
    for entry in std::fs::read_dir(root().join("docs"))
        .into_iter()
        .flatten()
        .flatten()
    {
        if entry.path().extension().is_some_and(|e| e == "md") {
            texts.push(entry.path());
        }
    }
    let mut found = Vec::new();
    for file in texts {
        let rel = relative(&file);
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains(&spec) || line.contains(&shared) {
                found.push(format!("{rel}:{}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite upstream files/functions or docs/ instead: {found:?}"
    );
}

/// The simulator core is deterministic: no hash-order iteration, wall clock or OS randomness in `api`
/// or `sim` (time is virtual, randomness comes from the seeded ChaCha RNG). The one hash map is
/// `LookupMap` (`crates/sim/src/lookup_map.rs`), whose walks are in key order.
#[test]
fn core_crates_are_deterministic() {
    let mut files = Vec::new();
    for krate in ["api", "sim"] {
        rust_files(&root().join("crates").join(krate).join("src"), &mut files);
    }
    assert!(!files.is_empty());
    let lookup_map = root().join("crates/sim/src/lookup_map.rs");
    assert!(
        files.contains(&lookup_map),
        "LookupMap moved: update this test"
    );
    let mut found = Vec::new();
    for file in files.into_iter().filter(|f| *f != lookup_map) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for banned in ["HashMap", "HashSet", "Instant", "SystemTime", "thread_rng"] {
                if code.contains(banned) {
                    found.push(format!("{}:{}: {banned}", relative(&file), i + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "nondeterminism in the core: {found:?}");
}

/// The layering api ← sim ← kubectl ← web/cli/serve/bench: no crate depends on (or names) a crate
/// above it.
#[test]
fn crate_boundaries_hold() {
    // The front ends and tools: nothing in the core may depend on them.
    let front = ["dsplay-web", "dsplay", "dsplay-serve", "dsplay-bench"];
    let above: [(&str, Vec<&str>); 3] = [
        (
            "api",
            [&["dsplay-sim", "dsplay-kubectl"][..], &front].concat(),
        ),
        ("sim", [&["dsplay-kubectl"][..], &front].concat()),
        ("kubectl", front.to_vec()),
    ];
    let mut found = Vec::new();
    for (krate, forbidden) in above {
        let dir = root().join("crates").join(krate);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        for line in manifest.lines() {
            let dep = line.split(['=', '.', ' ']).next().unwrap_or("");
            if forbidden.contains(&dep) {
                found.push(format!("crates/{krate}/Cargo.toml: {line}"));
            }
        }
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for dep in forbidden.iter().filter(|d| **d != "dsplay") {
                if text.contains(&dep.replace('-', "_")) {
                    found.push(format!("{} names {dep}", relative(&file)));
                }
            }
        }
    }
    assert!(found.is_empty(), "crate boundaries crossed: {found:?}");
}

/// Benchmarks measure the shipped code: the package that holds them enables the test-only
/// `cache-oracle` nowhere (not even through a dev-dependency), and no other package has benches.
#[test]
fn benchmarks_build_without_the_cache_oracle() {
    let bench = std::fs::read_to_string(root().join("crates/bench/Cargo.toml")).unwrap();
    assert!(
        !bench
            .lines()
            .any(|l| l.contains("features") && l.contains("cache-oracle")),
        "crates/bench must not enable cache-oracle"
    );
    let all = crates();
    assert!(all.len() >= 6, "crates: {all:?}");
    for krate in all.iter().filter(|k| *k != "bench") {
        let dir = root().join("crates").join(krate);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            !manifest.contains("[[bench]]") && !dir.join("benches").exists(),
            "crates/{krate}: benchmarks belong in crates/bench"
        );
    }
}

/// The README shows exactly the two commands the issue promises.
#[test]
fn readme_shows_the_two_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for command in ["cargo xtask serve", "cargo xtask test", "cargo xtask dist"] {
        assert!(
            readme.contains(command),
            "README.md should mention `{command}`"
        );
    }
}

/// The static site uses relative URLs only, so it can be hosted under any path.
#[test]
fn index_html_uses_relative_urls() {
    let html = std::fs::read_to_string(root().join("index.html")).unwrap();
    for bad in [
        "src=\"/", "href=\"/", "from '/", "from \"/", "http://", "https://",
    ] {
        assert!(!html.contains(bad), "index.html should not contain {bad:?}");
    }
}
