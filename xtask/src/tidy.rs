//! Tidy checks run by `cargo test`: conventions that are cheap to keep and easy to forget.

use crate::root;
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust file of the crates owned by the build (xtask, web) opens with a `//!` module doc.
#[test]
fn module_docs_present() {
    let mut files = Vec::new();
    for dir in ["xtask/src", "crates/web/src", "crates/web/tests"] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with("#!"))
            .unwrap_or("");
        assert!(
            first.starts_with("//!"),
            "{} should open with a //! module doc",
            file.display()
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
