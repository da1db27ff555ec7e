//! `dsplay lesson check PATH…` and `dsplay lesson list [PATH…]`: the lesson checker and catalogue
//! on the command line (the engine is `dsplay_lesson`). A folder means the `*.yaml` files in it.

use dsplay_lesson::{check_lesson, parse};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Usage lines of the `lesson` subcommands.
pub const USAGE: &str = "  dsplay lesson check PATH...               check lesson files (or folders of them)\n  dsplay lesson list [PATH...]              id, level, minutes and title of each lesson (default: lessons/)\n  dsplay lesson link FILE [PLAYGROUND_URL]  a link that carries the lesson (no hosting needed)\n";

/// Runs `dsplay lesson ARGS`.
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("check") if args.len() > 1 => check(&args[1..]),
        Some("list") => list(if args.len() > 1 { &args[1..] } else { &[] }),
        Some("link") if (2..=3).contains(&args.len()) => link(&args[1], args.get(2)),
        _ => {
            eprint!("error: dsplay lesson needs check PATH..., list or link FILE\nUsage:\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `dsplay lesson link FILE [URL]`: the playground URL with the lesson in its hash, after checking
/// that the file parses (a link to a broken lesson helps no one).
fn link(file: &str, base: Option<&String>) -> ExitCode {
    let text = match read(Path::new(file)) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = parse(file, &text) {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    let base = base.map_or("index.html", String::as_str);
    let base = base.split('#').next().unwrap_or(base);
    println!(
        "{base}#{}={}",
        dsplay_lesson::link::HASH_KEY,
        dsplay_lesson::link::encode(&text)
    );
    ExitCode::SUCCESS
}

/// The lesson files a path names: the file, or a folder's `*.yaml` / `*.yml` files in name order.
fn lesson_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    Ok(files)
}

/// Every file the paths name, or the first error.
fn all_files(paths: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        files.extend(lesson_files(Path::new(path))?);
    }
    Ok(files)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

fn check(paths: &[String]) -> ExitCode {
    let files = match all_files(paths) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut bad = 0;
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    for file in &files {
        let name = file.display().to_string();
        let mut report = match read(file) {
            Ok(text) => check_lesson(&name, &text),
            Err(e) => {
                println!("FAIL {name}\n  {e}");
                bad += 1;
                continue;
            }
        };
        if let Some(id) = &report.id {
            if let Some(other) = ids.insert(id.clone(), name.clone()) {
                report
                    .problems
                    .push(format!("lesson id \"{id}\" is also the id of {other}"));
            }
        }
        if report.ok() {
            println!(
                "ok   {name}: {} ({} steps; {})",
                report.id.as_deref().unwrap_or(""),
                report.steps,
                report.languages.join(", ")
            );
        } else {
            bad += 1;
            println!("FAIL {name}");
            for problem in &report.problems {
                println!("  {problem}");
            }
        }
    }
    println!(
        "{} lesson file(s) checked, {} with problems",
        files.len(),
        bad
    );
    if bad == 0 && !files.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn list(paths: &[String]) -> ExitCode {
    let default = ["lessons".to_string()];
    let files = match all_files(if paths.is_empty() { &default } else { paths }) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut ok = true;
    for file in files {
        let name = file.display().to_string();
        match read(&file).and_then(|text| parse(&name, &text).map_err(|e| e.to_string())) {
            Ok(lesson) => println!(
                "{}\t{}\t{} min\t{}",
                lesson.id,
                lesson.level.as_str(),
                lesson.minutes,
                lesson.title.get("en")
            ),
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
