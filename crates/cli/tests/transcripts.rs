//! Transcript tests: every `tests/transcripts/*.sh` script is run through the real `dsplay run` binary
//! and its whole transcript (and exit status) compared with the reviewed `*.out` file beside it.
//!
//! Not trycmd: trycmd's `$ command` syntax collides with the `$ command` lines our transcripts print,
//! so a plain runner is clearer. After an intended change, regenerate with
//! `DSPLAY_BLESS=1 cargo test -p dsplay --test transcripts` and review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

fn transcripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/transcripts")
}

fn run_script(script: &Path) -> (String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_dsplay"))
        .arg("run")
        .arg(script)
        .output()
        .expect("dsplay runs");
    let code = output.status.code().unwrap_or(-1);
    (String::from_utf8_lossy(&output.stdout).into_owned(), code)
}

#[test]
fn transcripts_match_reviewed_output() {
    let bless = std::env::var_os("DSPLAY_BLESS").is_some();
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(transcripts_dir())
        .expect("tests/transcripts exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sh"))
        .collect();
    scripts.sort();
    assert!(
        scripts.len() >= 8,
        "expected the scenario scripts, found {}",
        scripts.len()
    );
    let mut failures = Vec::new();
    for script in &scripts {
        let (stdout, code) = run_script(script);
        let actual = format!("{stdout}# exit status: {code}\n");
        let expected_path = script.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &actual).expect("write .out");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0)
                + 1;
            failures.push(format!(
                "{}: differs from {} at line {line}",
                script.display(),
                expected_path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "transcripts changed (DSPLAY_BLESS=1 to accept):\n{}",
        failures.join("\n")
    );
}

#[test]
fn same_script_same_transcript() {
    let script = transcripts_dir().join("06-simple-daemonset-rollout.sh");
    assert_eq!(
        run_script(&script),
        run_script(&script),
        "determinism: two runs differ"
    );
}
