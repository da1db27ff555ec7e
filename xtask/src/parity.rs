//! The parity harness: every `tests/transcripts/*.sh` replayed against `dsplay serve --clock manual`
//! with the real `kubectl` on PATH for `kubectl` lines and `dsplay sim --server` for `sim` lines, each
//! command's output compared with the reviewed in-process transcript (`*.out`).
//!
//! **Normalisation** (the only one): whitespace runs become one space and duration tokens (`3s`,
//! `5m2s`, `336d`, `<invalid>`, also inside `(x2 over 5s)`) become `<age>`. Real kubectl computes
//! some ages itself from the wall clock (describe's events) while the server computes table cells
//! from the virtual clock, and a different age width re-aligns the columns after it.
//!
//! `kubectl get -w` runs in the background until the next `sim` command has run; the in-process
//! transcript prints its rows under that `sim` command, so they are compared together. A command
//! still running after [`COMMAND_TIMEOUT`] is stopped (a real `--timeout=30s` waits wall time).
//! **Waits that time out in-process** (`kubectl rollout status`/`wait` whose reviewed output ends in
//! `timed out waiting for the condition`) are not run through the real client: its `--timeout`
//! counts wall time, the playground's counts virtual time, so the two can never agree. The harness
//! moves the server's clock by the same span instead (`sim advance D`, `D` from `--timeout` or the
//! in-process default), so the commands after it see the same state, and reports it as replaced.
//!
//! **The client**: the Google Cloud SDK's `kubectl` is a dispatcher that parses flags itself (its
//! flag errors start with `Error:`) and reports its own version; when a `kubectl.1.32` sits next
//! to it, the harness runs that bundled client directly.
//!
//! `DSPLAY_PARITY_FULL=1` prints both outputs in full for every difference.
//!
//! Differences listed in `tests/parity-allow.txt` (script, command, reason) are reported but do not
//! fail; any other difference fails. Skipped, with a message, only when `kubectl` is not on PATH.

use crate::{root, sh, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long one command may run.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(5);

/// One command of a transcript and what the in-process run printed for it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Step {
    command: String,
    expected: String,
}

/// Splits a reviewed transcript into commands (here-document bodies included) and their output.
fn steps(transcript: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut lines = transcript.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("# exit status:") {
            break;
        }
        let Some(first) = line.strip_prefix("$ ") else {
            if let Some(step) = steps.last_mut() {
                step.expected.push_str(line);
                step.expected.push('\n');
            }
            continue;
        };
        let mut command = first.to_string();
        if let Some(idx) = first.find("<<") {
            let delimiter = first[idx + 2..]
                .trim()
                .trim_start_matches('-')
                .trim_matches(|c| c == '\'' || c == '"')
                .to_string();
            for body in lines.by_ref() {
                command.push('\n');
                command.push_str(body);
                if body.trim() == delimiter {
                    break;
                }
            }
        }
        steps.push(Step {
            command,
            expected: String::new(),
        });
    }
    steps
}

fn is_age(token: &str) -> bool {
    let t = token.trim_matches(|c| c == '(' || c == ')' || c == ',');
    if t == "<invalid>" {
        return true;
    }
    let mut rest = t;
    let mut groups = 0;
    while !rest.is_empty() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return false;
        }
        rest = &rest[digits..];
        let unit = ["ms", "s", "m", "h", "d", "y"]
            .into_iter()
            .find(|u| rest.starts_with(u));
        let Some(unit) = unit else { return false };
        rest = &rest[unit.len()..];
        groups += 1;
    }
    groups > 0
}

/// The documented normalisation (module doc).
fn normalise(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.split_whitespace()
                .map(|t| if is_age(t) { "<age>" } else { t })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// An allow-list entry: (script file name, command's first line, reason).
type Allowed = (String, String, String);

fn allow_list(path: &Path) -> Result<Vec<Allowed>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut entries = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let parts: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
        match parts.as_slice() {
            [script, command, reason] if !reason.is_empty() => {
                entries.push((script.to_string(), command.to_string(), reason.to_string()))
            }
            _ => {
                return Err(format!(
                    "{}: bad line (script | command | reason): {line}",
                    path.display()
                ))
            }
        }
    }
    if entries.len() > 10 {
        return Err(format!("{}: at most 10 entries", path.display()));
    }
    Ok(entries)
}

/// A child process killed (and reaped) when dropped, so every server the harness starts is stopped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The `PATH` the commands run with: when `kubectl` is the Cloud SDK dispatcher with a bundled
/// `kubectl.1.32` beside it, a folder in `dir` whose `kubectl` is that client comes first.
fn client_path(kubectl: &Path, dir: &Path) -> Result<std::ffi::OsString> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let resolved = std::fs::canonicalize(kubectl).map_err(|e| e.to_string())?;
    let bundled = resolved.with_file_name("kubectl.1.32");
    if !bundled.is_file() {
        return Ok(path);
    }
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).map_err(|e| e.to_string())?;
    let link = bin.join("kubectl");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&bundled, &link).map_err(|e| e.to_string())?;
    eprintln!(
        "xtask: parity: running {} (bundled beside the kubectl dispatcher)",
        bundled.display()
    );
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path)))
        .map_err(|e| e.to_string())
}

/// A running `dsplay serve --clock manual` and the kubeconfig pointing at it.
struct ServerRun {
    _child: Killed,
    url: String,
    kubeconfig: PathBuf,
    /// The `PATH` of every command ([`client_path`]).
    path: std::ffi::OsString,
}

fn start_server(dsplay: &Path, dir: &Path, path: &std::ffi::OsStr) -> Result<ServerRun> {
    let kubeconfig = dir.join("kubeconfig");
    let _ = std::fs::remove_file(&kubeconfig);
    let child = Command::new(dsplay)
        .args(["serve", "--port", "0", "--clock", "manual", "--kubeconfig"])
        .arg(&kubeconfig)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start dsplay serve: {e}"))?;
    let child = Killed(child);
    let started = Instant::now();
    while !kubeconfig.exists() {
        if started.elapsed() > Duration::from_secs(10) {
            return Err("dsplay serve did not write its kubeconfig within 10s".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = std::fs::read_to_string(&kubeconfig).map_err(|e| e.to_string())?;
    let url = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("server: "))
        .ok_or("no server in the kubeconfig")?
        .to_string();
    Ok(ServerRun {
        _child: child,
        url,
        kubeconfig,
        path: path.to_os_string(),
    })
}

/// Starts one transcript command through bash (here-documents and quoting as written), its stdout
/// and stderr interleaved into `out`.
fn spawn(step: &str, server: &ServerRun, dsplay: &Path, out: &Path) -> Result<Child> {
    let script = match step.strip_prefix("sim") {
        Some(rest) => format!("\"$DSPLAY\" sim --server \"$DSPLAY_URL\"{rest}"),
        None => step.to_string(),
    };
    let file = File::create(out).map_err(|e| e.to_string())?;
    Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1\n{script}"))
        .env("KUBECONFIG", &server.kubeconfig)
        // The client's discovery cache (default ~/.kube/cache, kept for hours and keyed by host
        // and port) of its own per server run: a port reused by an older build must not answer
        // with that build's resource list.
        .env("KUBECACHEDIR", server.kubeconfig.with_extension("cache"))
        .env("PATH", &server.path)
        .env("DSPLAY", dsplay)
        .env("DSPLAY_URL", &server.url)
        .current_dir(root().join("crates/cli"))
        .stdin(Stdio::null())
        .stdout(Stdio::from(file))
        .spawn()
        .map_err(|e| format!("cannot run bash: {e}"))
}

/// Waits for `child` at most `limit`, then stops it; returns what it printed.
fn finish(child: Child, out: &Path, limit: Duration) -> String {
    let mut child = Killed(child);
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Ok(Some(_)) = child.0.try_wait() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(child);
    std::fs::read_to_string(out).unwrap_or_default()
}

fn is_watch(command: &str) -> bool {
    command.starts_with("kubectl ")
        && command
            .split_whitespace()
            .any(|w| w == "-w" || w == "--watch" || w == "--watch=true")
}

/// One compared command.
struct Outcome {
    command: String,
    expected: String,
    actual: String,
    /// `Some(span)` when the command was a timed-out wait replaced by `sim advance span`.
    replaced: Option<String>,
}

/// The span a timed-out in-process wait covered: its `--timeout`, else the in-process default
/// (`rollout status` gives up after an hour of virtual time, `kubectl wait` after 30s).
/// `None` when the step is not a wait that timed out.
fn timed_out_wait(step: &Step) -> Option<String> {
    let last = step.expected.lines().last()?;
    if !last.starts_with("error: timed out waiting for the condition") {
        return None;
    }
    let words: Vec<&str> = step.command.split_whitespace().collect();
    let default = match words.get(..3)? {
        ["kubectl", "rollout", "status"] => "1h",
        ["kubectl", "wait", _] => "30s",
        _ => return None,
    };
    let given = words
        .iter()
        .enumerate()
        .find_map(|(k, w)| match w.strip_prefix("--timeout") {
            Some(rest) if rest.starts_with('=') => Some(rest[1..].to_string()),
            Some("") => words.get(k + 1).map(|v| v.to_string()),
            _ => None,
        });
    Some(given.unwrap_or_else(|| default.to_string()))
}

fn replay(
    script: &Path,
    dsplay: &Path,
    dir: &Path,
    path: &std::ffi::OsStr,
) -> Result<Vec<Outcome>> {
    let transcript = std::fs::read_to_string(script.with_extension("out"))
        .map_err(|e| format!("{}: {e}", script.display()))?;
    let steps = steps(&transcript);
    let server = start_server(dsplay, dir, path)?;
    let mut outcomes = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let step = &steps[i];
        let out = dir.join("out");
        if is_watch(&step.command) {
            // The watch, the commands up to the next `sim` line, then that line.
            let watch_out = dir.join("watch");
            let watch = spawn(&step.command, &server, dsplay, &watch_out)?;
            std::thread::sleep(Duration::from_millis(500));
            let mut expected = step.expected.clone();
            let mut j = i + 1;
            while j < steps.len() {
                let next = &steps[j];
                let child = spawn(&next.command, &server, dsplay, &out)?;
                let actual = finish(child, &out, COMMAND_TIMEOUT);
                let ends = next.command.starts_with("sim");
                if ends {
                    expected.push_str(&next.expected);
                }
                outcomes.push(Outcome {
                    command: next.command.clone(),
                    expected: if ends {
                        String::new()
                    } else {
                        next.expected.clone()
                    },
                    actual,
                    replaced: None,
                });
                j += 1;
                if ends {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(500));
            let actual = finish(watch, &watch_out, Duration::ZERO);
            outcomes.push(Outcome {
                command: step.command.clone(),
                expected,
                actual,
                replaced: None,
            });
            i = j;
            continue;
        }
        let replaced = timed_out_wait(step);
        let command = match &replaced {
            Some(span) => format!("sim advance {span}"),
            None => step.command.clone(),
        };
        let child = spawn(&command, &server, dsplay, &out)?;
        outcomes.push(Outcome {
            command: step.command.clone(),
            expected: step.expected.clone(),
            actual: finish(child, &out, COMMAND_TIMEOUT),
            replaced,
        });
        i += 1;
    }
    Ok(outcomes)
}

fn first_difference(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let line = (0..e.len().max(a.len()))
        .find(|&n| e.get(n) != a.get(n))
        .unwrap_or(0);
    format!(
        "      line {}:\n        in-process: {}\n        real:       {}",
        line + 1,
        e.get(line).unwrap_or(&"<nothing>"),
        a.get(line).unwrap_or(&"<nothing>")
    )
}

/// Runs the harness over every transcript (all of them, or those whose name contains `filter`).
pub fn run(filter: Option<&str>) -> Result {
    let Some(kubectl) = on_path("kubectl") else {
        eprintln!("xtask: parity: SKIPPED: kubectl is not on PATH (the parity harness needs the real kubectl v1.32)");
        return Ok(());
    };
    sh(Command::new("cargo").args(["build", "-p", "dsplay"]))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"));
    let dsplay = target.join("debug/dsplay");
    let allowed = allow_list(&root().join("tests/parity-allow.txt"))?;
    let dir = std::env::temp_dir().join(format!("dsplay-parity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = client_path(&kubectl, &dir)?;
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(root().join("tests/transcripts"))
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sh"))
        .filter(|p| filter.is_none_or(|f| p.to_string_lossy().contains(f)))
        .collect();
    scripts.sort();
    let (mut compared, mut equal, mut allow_listed, mut failed, mut replaced) = (0, 0, 0, 0, 0);
    let mut used = vec![false; allowed.len()];
    for script in &scripts {
        let name = script
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let started = Instant::now();
        let outcomes = replay(script, &dsplay, &dir, &path)?;
        let mut report = Vec::new();
        for o in &outcomes {
            let first_line = o.command.lines().next().unwrap_or("");
            if let Some(span) = &o.replaced {
                replaced += 1;
                if !o.actual.trim().is_empty() {
                    return Err(format!(
                        "parity: {name}: `sim advance {span}` (for `{first_line}`) failed: {}",
                        o.actual.trim()
                    ));
                }
                continue;
            }
            compared += 1;
            let (e, a) = (normalise(&o.expected), normalise(&o.actual));
            if e == a {
                equal += 1;
                continue;
            }
            let entry = allowed
                .iter()
                .position(|(s, c, _)| *s == name && c == first_line);
            let verdict = match entry {
                Some(k) => {
                    used[k] = true;
                    allow_listed += 1;
                    format!("allow-listed ({})", allowed[k].2)
                }
                None => {
                    failed += 1;
                    "DIFFERS".to_string()
                }
            };
            let mut entry = format!(
                "    {verdict}: $ {first_line}\n{}",
                first_difference(&e, &a)
            );
            if std::env::var_os("DSPLAY_PARITY_FULL").is_some() {
                entry.push_str(&format!("\n      in-process:\n{e}\n      real:\n{a}"));
            }
            report.push(entry);
        }
        eprintln!(
            "xtask: parity: {name}: {} commands, {} differ ({:.1}s)",
            outcomes.len(),
            report.len(),
            started.elapsed().as_secs_f64()
        );
        for line in report {
            eprintln!("{line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for (k, (script, command, _)) in allowed.iter().enumerate() {
        if !used[k] && filter.is_none() {
            eprintln!("xtask: parity: unused allow-list entry: {script} | {command}");
        }
    }
    eprintln!("xtask: parity: {compared} commands compared, {equal} equal, {allow_listed} allow-listed, {failed} differ; {replaced} timed-out waits replaced by sim advance");
    if failed > 0 {
        return Err(format!("parity: {failed} commands differ from the in-process transcripts (see above; tests/parity-allow.txt lists the reviewed exceptions)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_waits_that_timed_out_in_process_are_replaced() {
        let step = |command: &str, expected: &str| Step {
            command: command.into(),
            expected: expected.into(),
        };
        let timed_out = "Waiting for daemon set \"x\" rollout to finish...\nerror: timed out waiting for the condition\n";
        assert_eq!(
            timed_out_wait(&step(
                "kubectl rollout status ds/x --timeout=10s",
                timed_out
            )),
            Some("10s".into())
        );
        assert_eq!(
            timed_out_wait(&step("kubectl rollout status ds/x --timeout 2m", timed_out)),
            Some("2m".into())
        );
        assert_eq!(
            timed_out_wait(&step("kubectl rollout status ds/x", timed_out)),
            Some("1h".into())
        );
        assert_eq!(
            timed_out_wait(&step(
                "kubectl wait --for=delete pod/p",
                "error: timed out waiting for the condition on pods/p\n"
            )),
            Some("30s".into())
        );
        assert_eq!(
            timed_out_wait(&step(
                "kubectl rollout status ds/x --timeout=10s",
                "daemon set \"x\" successfully rolled out\n"
            )),
            None
        );
        assert_eq!(timed_out_wait(&step("kubectl get ds", timed_out)), None);
    }

    #[test]
    fn transcripts_split_into_commands_with_here_documents() {
        let text = "$ kubectl apply -f - <<EOF\nkind: X\nEOF\nx created\n$ sim settle\n$ kubectl get ds\nNAME AGE\n# exit status: 0\n";
        let s = steps(text);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].command, "kubectl apply -f - <<EOF\nkind: X\nEOF");
        assert_eq!(s[0].expected, "x created\n");
        assert_eq!(s[1].expected, "");
        assert_eq!(s[2].expected, "NAME AGE\n");
    }

    #[test]
    fn only_ages_and_spacing_are_normalised() {
        assert_eq!(
            normalise("demo   2     3s    app=demo\nx  5m2s (x2 over 336d)"),
            "demo 2 <age> app=demo\nx <age> (x2 over <age>"
        );
        assert_eq!(
            normalise("busybox:1.36  10.244.1.2"),
            "busybox:1.36 10.244.1.2"
        );
        assert!(!is_age("2s3"));
        assert!(!is_age("x2"));
    }
}
