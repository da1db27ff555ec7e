//! How virtual time moves under `dsplay serve`: with wall time (× speed), or only on request.
//!
//! With `manual`, time moves through `dsplay sim --server … advance|settle` and, as in the in-process
//! session, while a client waits for an object ([`crate::watch`]): tests are deterministic.

use crate::state::Shared;
use std::time::{Duration, Instant};

/// `--clock realtime|manual`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClockMode {
    /// Virtual time follows wall time, multiplied by `speed`.
    Realtime {
        /// `--speed` (1.0: real time).
        speed: f64,
    },
    /// Virtual time moves only on request.
    Manual,
}

impl ClockMode {
    /// Parses `--clock` and `--speed`.
    pub fn parse(clock: &str, speed: f64) -> Result<ClockMode, String> {
        if !(speed.is_finite() && speed > 0.0) {
            return Err(format!("--speed must be a positive number, got {speed}"));
        }
        match clock {
            "realtime" => Ok(ClockMode::Realtime { speed }),
            "manual" => Ok(ClockMode::Manual),
            other => Err(format!(
                "--clock must be realtime or manual, got \"{other}\""
            )),
        }
    }
}

/// The tick of the realtime clock (the web app's play loop uses the same 100 ms).
const TICK: Duration = Duration::from_millis(100);

/// Advances the cluster with wall time until the server stops.
pub fn run_realtime(shared: &Shared, speed: f64) {
    let mut last = Instant::now();
    while !shared.stopped() {
        std::thread::sleep(TICK);
        let now = Instant::now();
        let elapsed = now.duration_since(last).mul_f64(speed);
        last = now;
        shared.with(|state| state.cluster_mut().advance(elapsed));
    }
}
