//! Per-image behaviour of the kubelet model (`sim image IMAGE …`); the defaults are in
//! `docs/timing-model.md`.

/// How containers of one image behave. Defaults: pull 2 s, start 1 s, become ready, stop on SIGTERM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageBehavior {
    /// Pull succeeds (`--pull ok`) or fails forever (`--pull fail`).
    pub pull_ok: bool,
    /// Pull time on a node that does not have the image, ms.
    pub pull_ms: i64,
    /// Container start time, ms (`--start`).
    pub start_ms: i64,
    /// The container ever becomes ready (`--ready never` → false).
    pub ready: bool,
    /// The container exits with code 1 five seconds after starting (`--crash`).
    pub crash: bool,
    /// The process ignores SIGTERM, so stopping takes the whole grace period (`--ignore-sigterm`).
    pub ignore_sigterm: bool,
    /// The lines each run of the container writes to its log when it starts (`--log TEXT`,
    /// repeatable; none by default, like `sleep infinity`).
    pub log: Vec<String>,
}

impl Default for ImageBehavior {
    fn default() -> Self {
        ImageBehavior {
            pull_ok: true,
            pull_ms: 2000,
            start_ms: 1000,
            ready: true,
            crash: false,
            ignore_sigterm: false,
            log: Vec::new(),
        }
    }
}

/// How long a crashing container runs before it exits.
pub const CRASH_AFTER_MS: i64 = 5000;
/// How long a container takes to exit after SIGTERM when it honours it.
pub const STOP_MS: i64 = 1000;

/// Kubelet back-off after the n-th failure (n ≥ 1): 0 for the first restart, then 10 s, 20 s, 40 s … ≤ 300 s.
pub fn crash_backoff_ms(failures: u32) -> i64 {
    if failures <= 1 {
        return 0;
    }
    let exp = (failures - 2).min(10);
    (10_000i64 << exp).min(300_000)
}

/// Image-pull back-off after the n-th failed pull (n ≥ 1): 10 s, 20 s, 40 s … ≤ 300 s.
pub fn pull_backoff_ms(failures: u32) -> i64 {
    let exp = failures.saturating_sub(1).min(10);
    (10_000i64 << exp).min(300_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoffs_double_and_cap() {
        assert_eq!(
            [1, 2, 3, 4, 7, 20].map(crash_backoff_ms),
            [0, 10_000, 20_000, 40_000, 300_000, 300_000]
        );
        assert_eq!(
            [1, 2, 3, 6, 30].map(pull_backoff_ms),
            [10_000, 20_000, 40_000, 300_000, 300_000]
        );
    }
}
