//! A libFuzzer-less fuzz loop for stable Rust (the `fuzz/` target `command` needs nightly): mutates
//! the transcript scripts of `tests/transcripts/` with a seeded ChaCha RNG and runs each mutant
//! through a fresh `Session`. Usage:
//! `cargo run --release -p dsplay-kubectl --example fuzz_commands -- [iterations] [seed]`.
//! A panic aborts with the seed and iteration so the input can be reproduced. Build it with
//! `RUSTFLAGS="-C overflow-checks=on"` (or a dev profile) so arithmetic overflow is a finding too.

use dsplay_kubectl::{Session, SessionOptions};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::path::Path;

/// A uniform-enough index below `n` (0 when `n` is 0) from the seeded ChaCha RNG the simulator uses.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

const TOKENS: &[&str] = &[
    "\"",
    "'",
    "\\\n",
    "<<EOF\n",
    "\nEOF\n",
    " -n ",
    " --",
    " -o yaml",
    " ds/",
    "=",
    ":NoExecute",
    "-",
    " 99999999999s",
    " 1e300",
    " 25h",
    " --timeout=1000h",
    " --grace-period=9223372036854775807",
    " 9223372036854775807",
    " 170141183460469231.731687303715884105",
    " -l '((('",
    " -l 'a notin ()'",
    " --sort-by '{{{'",
    " -o jsonpath='{range .}{range .}{range .}'",
    " -o jsonpath='{.items[-9223372036854775808:]}'",
    " --all",
    " --cpu -4",
    " kube-system",
    "<<: *a",
    "\0",
    "é",
    " | ",
    "#",
    "\n",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let iterations: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/transcripts");
    let mut corpus: Vec<Vec<String>> = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/transcripts") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "sh") {
            let text = std::fs::read_to_string(&path).expect("script");
            corpus.push(text.lines().map(str::to_string).collect());
        }
    }
    // Cloning a built session is much cheaper than building the default cluster every time.
    let fresh = Session::new(SessionOptions::default());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let started = std::time::Instant::now();
    for i in 0..iterations {
        let script = &corpus[below(&mut rng, corpus.len())];
        let start = below(&mut rng, script.len());
        let mut lines: Vec<String> =
            script[start..(start + 1 + below(&mut rng, 12)).min(script.len())].to_vec();
        for _ in 0..=below(&mut rng, 3) {
            let l = below(&mut rng, lines.len());
            let line = &mut lines[l];
            let at = (0..=line.len())
                .filter(|p| line.is_char_boundary(*p))
                .nth(below(&mut rng, line.len() + 1))
                .unwrap_or(0);
            match below(&mut rng, 3) {
                0 => line.insert_str(at, TOKENS[below(&mut rng, TOKENS.len())]),
                1 => line.truncate(at),
                _ => {
                    let other = &corpus[below(&mut rng, corpus.len())];
                    line.insert_str(at, &other[below(&mut rng, other.len())]);
                }
            }
        }
        let input = lines.join("\n");
        // A panic ends the run right after, so no broken state is observed afterwards.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut session = fresh.clone();
            session.execute(&input).len()
        }));
        if result.is_err() {
            eprintln!("panic at iteration {i} (seed {seed}) on input:\n{input}");
            std::process::exit(1);
        }
    }
    println!(
        "{iterations} executions, no panic ({:.1}s)",
        started.elapsed().as_secs_f64()
    );
}
