//! `dsplay lesson check`, `list` and `link` as a user runs them: exit status and report.

use std::process::Command;

fn dsplay(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dsplay"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("dsplay runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn check_fails_with_file_and_line_on_a_broken_lesson() {
    let dir = std::env::temp_dir().join(format!("dsplay-lesson-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.yaml");
    std::fs::write(&path, "id: broken\ntitle: Broken\nlevel: expert\n").unwrap();
    let (ok, out) = dsplay(&["lesson", "check", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!ok, "{out}");
    let file = path.display().to_string();
    assert!(
        out.contains(&format!(
            "FAIL {file}\n  {file}:3:8: level: unknown variant `expert`"
        )),
        "{out}"
    );
    assert!(
        out.ends_with("1 lesson file(s) checked, 1 with problems\n"),
        "{out}"
    );
}

#[test]
fn list_prints_each_built_in_lesson() {
    let (ok, out) = dsplay(&["lesson", "list"]);
    assert!(ok, "{out}");
    assert!(
        out.lines()
            .any(|l| l == "what-is-a-daemonset\tbeginner\t8 min\tWhat a DaemonSet is"),
        "{out}"
    );
    assert!(out.lines().count() >= 12, "{out}");
}

#[test]
fn link_carries_the_lesson_and_refuses_a_broken_one() {
    let file = "lessons/01-what-is-a-daemonset.yaml";
    let (ok, out) = dsplay(&["lesson", "link", file, "https://example.org/play/"]);
    assert!(ok, "{out}");
    let encoded = out
        .trim_end()
        .strip_prefix("https://example.org/play/#lesson-text=")
        .unwrap_or_else(|| panic!("{out}"));
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(file),
    )
    .unwrap();
    assert_eq!(dsplay_lesson::link::decode(encoded).unwrap(), text);
    let dir = std::env::temp_dir().join(format!("dsplay-lesson-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.yaml");
    std::fs::write(&broken, "id: broken\nlevel: expert\n").unwrap();
    let (ok, out) = dsplay(&["lesson", "link", broken.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!ok && out.contains("expert"), "{out}");
}
