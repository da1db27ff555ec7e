//! A libFuzzer-less fuzz loop for stable Rust (the `fuzz/` target needs nightly): mutates the
//! `tests/data/{good,bad}` corpora with a seeded ChaCha RNG and runs parse + defaults + validate on
//! every input. Usage: `cargo run --release -p dsplay-api --example fuzz_manifest -- [iterations] [seed]`.
//! A panic aborts with the seed and iteration so the input can be reproduced. Build it with
//! `RUSTFLAGS="-C overflow-checks=on"` (or a dev profile) so arithmetic overflow is a finding too.

use dsplay_api::defaults::apply_defaults;
use dsplay_api::manifest::parse_manifest_bytes;
use dsplay_api::validation::{format_invalid, validate_create, validate_update};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::path::Path;

/// A uniform-enough index below `n` (0 when `n` is 0) from the seeded ChaCha RNG the simulator uses.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

const TOKENS: &[&[u8]] = &[
    b"- ",
    b": ",
    b"\n",
    b"  ",
    b"\t",
    b"[",
    b"]",
    b"{",
    b"}",
    b"&a ",
    b"*a",
    b"---\n",
    b"\"",
    b"'",
    b"#",
    b"!!str ",
    b"1e999",
    b"-1",
    b"150%",
    b"\0",
    b"\xff",
    b"null",
    b"~",
    b"? ",
    b"9223372036854775807",
    b"-9223372036854775808",
    b"99999999999999999999",
    b"170141183460469231.731687303715884105",
    b"<<: *a\n",
    b"<<: [*a, *a]\n",
    b"&a {}",
    b"tolerationSeconds: ",
    b"terminationGracePeriodSeconds: ",
    b"cpu: ",
    b"Ei",
    b"e30",
];

fn mutate(rng: &mut ChaCha8Rng, input: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    for _ in 0..=below(rng, 4) {
        let at = below(rng, input.len() + 1);
        match below(rng, 6) {
            0 if !input.is_empty() => {
                let end = (at + below(rng, 16)).min(input.len());
                input.drain(at.min(end)..end);
            }
            1 => {
                let t = TOKENS[below(rng, TOKENS.len())];
                input.splice(at..at, t.iter().copied());
            }
            2 if !input.is_empty() => {
                let i = below(rng, input.len());
                input[i] = rng.next_u64() as u8;
            }
            3 => {
                let other = &corpus[below(rng, corpus.len())];
                let start = below(rng, other.len());
                let end = (start + below(rng, 64)).min(other.len());
                input.splice(at..at, other[start..end].iter().copied());
            }
            4 => input.truncate(at),
            _ => {
                if let Some(i) = (0..input.len()).rev().nth(below(rng, input.len().max(1))) {
                    let c = input[i];
                    input.insert(i, c);
                }
            }
        }
    }
}

/// The same checks as the cargo-fuzz target `manifest` (`fuzz/fuzz_targets/manifest.rs`).
fn check(data: &[u8]) {
    let mut previous = None;
    for doc in parse_manifest_bytes(data) {
        match doc {
            Ok(mut manifest) => {
                let errors = validate_create(&manifest.object);
                let _ = format_invalid(
                    manifest.object.kind().name(),
                    manifest.object.name(),
                    &errors,
                );
                apply_defaults(&mut manifest.object);
                let _ = validate_create(&manifest.object);
                if let Some(old) = previous.replace(manifest.object.clone()) {
                    let _ = validate_update(&old, &manifest.object);
                }
                let _ = serde_json::to_string(&manifest.object);
            }
            Err(e) => {
                let _ = (e.to_string(), e.hint());
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x5eed_d5e7);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut corpus = Vec::new();
    for dir in ["good", "bad"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            corpus.push(std::fs::read(entry.unwrap().path()).unwrap());
        }
    }
    corpus.sort();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = std::time::Instant::now();
    for i in 0..iterations {
        let mut input = corpus[below(&mut rng, corpus.len())].clone();
        mutate(&mut rng, &mut input, &corpus);
        if let Err(panic) = std::panic::catch_unwind(|| check(&input)) {
            eprintln!(
                "PANIC at iteration {i} (seed {seed}): {panic:?}\ninput: {:?}",
                String::from_utf8_lossy(&input)
            );
            std::process::exit(1);
        }
    }
    println!(
        "{iterations} executions, no panic, {:.1}s",
        start.elapsed().as_secs_f64()
    );
}
