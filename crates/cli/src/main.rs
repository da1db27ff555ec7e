//! `dsplay`: run DaemonSet Playground scripts as transcripts, or an interactive prompt.
//!
//! `dsplay run FILE|-` echoes each command as `$ <command>` and prints its output; the exit status is
//! 1 if any command failed. With no arguments, an interactive prompt on the default cluster.
//! `dsplay serve` and `dsplay sim --server` are in [`remote`]; `dsplay lesson check|list` checks and
//! lists lessons (`lesson.rs`).

mod lesson;
mod remote;

use dsplay_kubectl::{read_manifest_file, CommandOutput, Session, SessionOptions, Stream};
use std::io::{Read, Write};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the simulator allocates many small objects, and a 5 000-node
/// rolling update spent 30–35% of its time in glibc's malloc and free (`crates/bench` links the same
/// allocator, so its numbers are this binary's).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "Usage:\n  dsplay run FILE|- [--seed N] [--empty]   run a script and print its transcript\n  dsplay [--seed N] [--empty]              interactive prompt\n";

fn usage() -> String {
    format!("{USAGE}{}{}", remote::USAGE, lesson::USAGE)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("serve") => return remote::serve(&args[1..]),
        Some("sim") => return remote::sim(&args[1..]),
        Some("lesson") => return lesson::main(&args[1..]),
        _ => {}
    }
    let mut options = SessionOptions::default();
    let mut positional = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--seed" => {
                let Some(seed) = args.get(i + 1).and_then(|s| s.parse().ok()) else {
                    eprintln!("error: --seed needs a number");
                    return ExitCode::from(2);
                };
                options.seed = seed;
                i += 1;
            }
            s if s.starts_with("--seed=") => match s["--seed=".len()..].parse() {
                Ok(seed) => options.seed = seed,
                Err(_) => {
                    eprintln!("error: --seed needs a number");
                    return ExitCode::from(2);
                }
            },
            "--empty" => options.empty = true,
            "-h" | "--help" => {
                print!("{}", usage());
                return ExitCode::SUCCESS;
            }
            other => positional.push(other.to_string()),
        }
        i += 1;
    }
    match positional.first().map(String::as_str) {
        Some("run") => {
            let Some(path) = positional.get(1) else {
                eprint!(
                    "error: dsplay run needs a FILE (or - for stdin)\n{}",
                    usage()
                );
                return ExitCode::from(2);
            };
            let script = if path == "-" {
                let mut text = String::new();
                if std::io::stdin().read_to_string(&mut text).is_err() {
                    eprintln!("error: stdin is not valid UTF-8");
                    return ExitCode::FAILURE;
                }
                text
            } else {
                match std::fs::read(path) {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(e) => {
                        eprintln!("error: cannot read {path}: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            };
            run(&script, options)
        }
        None => interactive(options),
        Some(other) => {
            eprint!("error: unknown command \"{other}\"\n{}", usage());
            ExitCode::from(2)
        }
    }
}

/// Prints one command's output. In transcripts (`echo`) stdout and stderr are interleaved on stdout, in
/// the order produced, so the transcript reads like a terminal session; interactively stderr stays stderr.
fn print_output(output: &CommandOutput, echo: bool) {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = stdout.lock();
    if echo {
        let _ = writeln!(out, "$ {}", output.command);
    }
    for chunk in &output.chunks {
        if echo || chunk.stream == Stream::Stdout {
            let _ = out.write_all(chunk.text.as_bytes());
        } else {
            let _ = out.flush();
            let _ = stderr.lock().write_all(chunk.text.as_bytes());
        }
    }
    let _ = out.flush();
}

fn run(script: &str, options: SessionOptions) -> ExitCode {
    let mut session = Session::new(options);
    session.set_file_reader(read_manifest_file);
    let mut ok = true;
    for output in session.execute(script) {
        print_output(&output, true);
        ok &= output.success;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn interactive(options: SessionOptions) -> ExitCode {
    let mut session = Session::new(options);
    session.set_file_reader(read_manifest_file);
    let Ok(mut editor) = rustyline::DefaultEditor::new() else {
        eprintln!("error: cannot start the line editor");
        return ExitCode::FAILURE;
    };
    println!("DaemonSet Playground — type kubectl or sim commands; Ctrl-D to quit.");
    let mut pending = String::new();
    loop {
        let prompt = if pending.is_empty() { "$ " } else { "> " };
        match editor.readline(prompt) {
            Ok(line) => {
                pending.push_str(&line);
                pending.push('\n');
                if needs_more(&pending) {
                    continue;
                }
                let _ = editor.add_history_entry(pending.trim_end());
                for output in session.execute(&pending) {
                    print_output(&output, false);
                }
                pending.clear();
            }
            Err(_) => break,
        }
    }
    ExitCode::SUCCESS
}

/// Whether the typed text is an unfinished here-document or continuation line.
fn needs_more(text: &str) -> bool {
    if text.trim_end_matches('\n').ends_with('\\') {
        return true;
    }
    let first = text.lines().next().unwrap_or("");
    if let Some(idx) = first.find("<<") {
        let delimiter = first[idx + 2..]
            .trim()
            .trim_start_matches('-')
            .trim_matches(|c| c == '\'' || c == '"');
        let delimiter = delimiter.split_whitespace().next().unwrap_or("");
        return !delimiter.is_empty() && !text.lines().skip(1).any(|l| l.trim() == delimiter);
    }
    false
}
