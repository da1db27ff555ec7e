//! Command-line flags of `cargo xtask`.

/// What `cargo xtask` was asked to do.
#[derive(Debug, PartialEq, Eq)]
pub enum Task {
    /// Print usage.
    Help,
    /// Install whatever the build and the tests need (skipping what is present).
    Setup,
    /// Build the self-contained static site into `dist/`.
    Dist,
    /// Build `dist/` and serve it on 127.0.0.1.
    Serve { port: u16 },
    /// Replay the transcripts through real kubectl against `dsplay serve` (names containing `filter`).
    Parity { filter: Option<String> },
    /// Run every test: native, wasm, browser end-to-end.
    Test { skip_wasm: bool, skip_e2e: bool },
    /// Time the rollout benchmark natively and in WebAssembly in headless Chromium.
    BenchWasm { nodes: usize },
}

/// Usage text.
pub const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  serve [--port N]   build everything into dist/ and serve it on http://127.0.0.1:8080
  dist               build the self-contained static site into dist/
  test [--no-wasm] [--no-e2e]
                     cargo test --workspace, wasm tests (headless Chromium), browser e2e tests
  parity [FILTER]    only the parity harness: transcripts replayed through the real kubectl
                     against dsplay serve (those whose file name contains FILTER)
  bench-wasm [NODES] the rollout benchmark (default 5000 nodes) natively and as WebAssembly
                     in headless Chromium, both with the shipped release profile
  setup              only install missing tools (rustup target, wasm-pack, wasm-bindgen-cli,
                     chromium, npm packages)";

/// Parses the arguments after `cargo xtask`.
pub fn parse(args: &[String]) -> Result<Task, String> {
    let mut it = args.iter().map(String::as_str);
    let task = match it.next() {
        None | Some("help" | "-h" | "--help") => Task::Help,
        Some("setup") => Task::Setup,
        Some("dist") => Task::Dist,
        Some("serve") => {
            let mut port = 8080;
            while let Some(arg) = it.next() {
                match arg {
                    "--port" => {
                        let value = it.next().ok_or("--port needs a value")?;
                        port = value.parse().map_err(|_| format!("bad port {value:?}"))?;
                    }
                    other => return Err(format!("unknown flag {other:?} for serve")),
                }
            }
            return Ok(Task::Serve { port });
        }
        Some("bench-wasm") => Task::BenchWasm {
            nodes: match it.next() {
                None => 5000,
                Some(n) => n.parse().map_err(|_| format!("bad node count {n:?}"))?,
            },
        },
        Some("parity") => Task::Parity {
            filter: it.next().map(str::to_string),
        },
        Some("test") => {
            let (mut skip_wasm, mut skip_e2e) = (false, false);
            for arg in it.by_ref() {
                match arg {
                    "--no-wasm" => skip_wasm = true,
                    "--no-e2e" => skip_e2e = true,
                    other => return Err(format!("unknown flag {other:?} for test")),
                }
            }
            return Ok(Task::Test {
                skip_wasm,
                skip_e2e,
            });
        }
        Some(other) => return Err(format!("unknown task {other:?}")),
    };
    match it.next() {
        None => Ok(task),
        Some(extra) => Err(format!("unexpected argument {extra:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Task, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_tasks() {
        assert_eq!(p(&[]), Ok(Task::Help));
        assert_eq!(p(&["serve"]), Ok(Task::Serve { port: 8080 }));
        assert_eq!(
            p(&["serve", "--port", "9000"]),
            Ok(Task::Serve { port: 9000 })
        );
        assert_eq!(
            p(&["test", "--no-e2e"]),
            Ok(Task::Test {
                skip_wasm: false,
                skip_e2e: true
            })
        );
        assert_eq!(p(&["dist"]), Ok(Task::Dist));
        assert!(p(&["dist", "x"]).is_err());
        assert!(p(&["nope"]).is_err());
    }
}
