//! The download size budget of `dist/`: prints raw and gzip sizes of every file a browser may
//! fetch, and fails when a file, what the page needs for its first paint, or what it fetches
//! before the app starts, grows past its budget. The budgets are today's sizes plus a little headroom: a ratchet against regressions,
//! lowered as the size work lands (the goals are in the README's "Size" notes).

use crate::Result;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Per-file gzip budgets in bytes. Files not listed have no budget of their own.
const FILE_BUDGETS: &[(&str, u64)] = &[
    ("dsplay_web_bg.wasm", 1_221_000),
    ("dsplay_web.js", 10_000),
    ("editor.js", 125_000),
    ("style.css", 9_100),
    ("boot.js", 1_500),
    ("index.html", 7_000),
    ("first-paint.js", 1_000),
    ("embed.js", 6_000),
];

/// What the page's first paint needs: the page with the prerendered app in it, its stylesheet,
/// and the script that decides whether the prerendered app may show.
const FIRST_PAINT: &[&str] = &["index.html", "style.css", "first-paint.js"];

/// Budget of the first paint, gzip bytes.
const FIRST_PAINT_BUDGET: u64 = 17_000;

/// What `index.html` fetches before the app starts (the editor bundle, lessons and explain data
/// come later, on demand).
const APP_START: &[&str] = &[
    "index.html",
    "style.css",
    "first-paint.js",
    "boot.js",
    "dsplay_web.js",
    "dsplay_web_bg.wasm",
];

/// Budget of what the app needs to start, gzip bytes.
const APP_START_BUDGET: u64 = 1_247_000;

/// The downloads that have a budget of their own: (what, files, gzip bytes).
const GROUP_BUDGETS: &[(&str, &[&str], u64)] = &[
    ("the first paint", FIRST_PAINT, FIRST_PAINT_BUDGET),
    ("the app's start", APP_START, APP_START_BUDGET),
];

/// One file's sizes.
struct Sized {
    name: String,
    raw: u64,
    gzip: u64,
}

/// Prints the table and fails if a budget is exceeded.
pub fn check(dist: &Path) -> Result {
    let files = measure(dist)?;
    let mut over = Vec::new();
    eprintln!("xtask: size of dist/ (gzip -9)             raw        gzip      budget");
    for f in &files {
        let budget = FILE_BUDGETS
            .iter()
            .find(|(name, _)| *name == f.name)
            .map(|(_, b)| *b);
        let mark = match budget {
            Some(b) if f.gzip > b => {
                over.push(format!(
                    "{} is {} bytes gzip, over its budget of {b}",
                    f.name, f.gzip
                ));
                "  OVER"
            }
            _ => "",
        };
        let budget = budget.map(|b| b.to_string()).unwrap_or_default();
        eprintln!(
            "xtask:   {:<30} {:>10} {:>10} {:>10}{mark}",
            f.name, f.raw, f.gzip, budget
        );
    }
    for (what, names, budget) in GROUP_BUDGETS {
        let gzip: u64 = files
            .iter()
            .filter(|f| names.contains(&f.name.as_str()))
            .map(|f| f.gzip)
            .sum();
        eprintln!("xtask:   {what:<41} {gzip:>10} {budget:>10}");
        if gzip > *budget {
            over.push(format!(
                "{what} needs {gzip} bytes gzip, over its budget of {budget}"
            ));
        }
    }
    let total: u64 = files.iter().map(|f| f.gzip).sum();
    eprintln!("xtask:   everything in dist/ (top level)          {total:>10}");
    if over.is_empty() {
        Ok(())
    } else {
        Err(format!("size budget exceeded:\n  {}", over.join("\n  ")))
    }
}

/// Raw and gzip sizes of the top-level files of `dist` (gzip by the `gzip` tool, as a server would).
fn measure(dist: &Path) -> Result<Vec<Sized>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dist)
        .map_err(|e| format!("reading {}: {e}", dist.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let raw = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            let out = Command::new("gzip")
                .args(["-9", "-c"])
                .arg(&path)
                .output()
                .map_err(|e| format!("cannot run gzip: {e}"))?;
            Ok(Sized {
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into(),
                raw,
                gzip: out.stdout.len() as u64,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_a_group_has_a_budget() {
        for (what, names, budget) in GROUP_BUDGETS {
            for name in *names {
                assert!(
                    FILE_BUDGETS.iter().any(|(n, _)| n == name),
                    "{name} has no budget"
                );
            }
            let sum: u64 = FILE_BUDGETS
                .iter()
                .filter(|(n, _)| names.contains(n))
                .map(|(_, b)| b)
                .sum();
            assert!(*budget <= sum, "the budget of {what} is reachable");
        }
    }

    #[test]
    fn a_file_over_its_budget_fails_with_the_table() {
        let dir = std::env::temp_dir().join(format!("dsplay-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Random-looking bytes do not compress: 20 KB of them is over boot.js's budget.
        let noise: Vec<u8> = (0u32..20_000)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        std::fs::write(dir.join("boot.js"), noise).unwrap();
        let error = check(&dir).unwrap_err();
        assert!(error.contains("boot.js is"), "{error}");
        std::fs::write(dir.join("boot.js"), "ok").unwrap();
        assert_eq!(check(&dir), Ok(()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
