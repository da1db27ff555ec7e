//! When a controller tries again after a failed sync: upstream's controllers put the object back
//! on their work queue with a per-object exponential back-off (5 ms, 10 ms, 20 ms, … at most
//! 1 000 s), reset once a sync succeeds. Without it nothing would retry a create refused for want
//! of room until some unrelated write woke the controller.
//!
//! Upstream: `staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go`
//! `DefaultTypedControllerRateLimiter` (`NewTypedItemExponentialFailureRateLimiter(5ms, 1000s)`;
//! its 10 qps bucket never binds for one object).

use crate::cluster::{Cluster, Timer};
use crate::error::ApiError;
use std::collections::BTreeMap;

const BASE_DELAY_MS: i64 = 5;
const MAX_DELAY_MS: i64 = 1_000_000;

/// Whether a sync that failed with `error` is tried again: only when the cluster had no room
/// (`crate::capacity`), which frees up without any write the owner's controller watches. Upstream
/// retries every error; here the others (an invalid template, a missing PriorityClass) wait, as
/// before, for a write that syncs the owner: without upstream's event aggregator each retry of an
/// invalid pod (a new generated name each time) would add an event, and `sim settle` would run to
/// its limit while any owner kept failing.
pub(crate) fn retries(error: &ApiError) -> bool {
    matches!(error, ApiError::OverCapacity(_))
}

/// Failed syncs in a row, per object uid.
#[derive(Clone, Debug, Default)]
pub(crate) struct RequeueBackoff(BTreeMap<String, u32>);

impl RequeueBackoff {
    /// Counts a failed sync of `uid`; the delay until it is synced again.
    #[doc(alias = "AddRateLimited")]
    pub(crate) fn failed(&mut self, uid: &str) -> i64 {
        let failures = self.0.entry(uid.to_string()).or_insert(0);
        let delay = 1i64
            .checked_shl(*failures)
            .and_then(|factor| BASE_DELAY_MS.checked_mul(factor))
            .map_or(MAX_DELAY_MS, |d| d.min(MAX_DELAY_MS));
        *failures = failures.saturating_add(1);
        delay
    }

    /// A sync of `uid` succeeded: the next failure starts over.
    #[doc(alias = "Forget")]
    pub(crate) fn forget(&mut self, uid: &str) {
        self.0.remove(uid);
    }

    /// Forgets the objects `live` says are gone (upstream's sync of a deleted object finds it
    /// missing, returns no error and the queue forgets it).
    pub(crate) fn retain_live(&mut self, mut live: impl FnMut(&str) -> bool) {
        self.0.retain(|uid, _| live(uid));
    }

    /// No object is backing off.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Where a controller keeps its [`RequeueBackoff`] in the cluster.
pub(crate) type Backoff = fn(&mut Cluster) -> &mut RequeueBackoff;

/// After a sync of `uid`: when a create was `refused` for a reason worth retrying
/// ([`retries`]), arms `timer` (the controller's resync) after the back-off `backoff` picks,
/// else resets the back-off.
pub(crate) fn after_sync(
    cluster: &mut Cluster,
    backoff: Backoff,
    uid: &str,
    refused: bool,
    timer: Timer,
) {
    if !refused {
        backoff(cluster).forget(uid);
        return;
    }
    let delay = backoff(cluster).failed(uid);
    cluster.schedule_at_unless_due(cluster.now_ms + delay, timer);
}

#[cfg(test)]
mod tests {
    use super::RequeueBackoff;

    #[test]
    fn the_delay_doubles_per_failure_up_to_its_cap_and_starts_over_after_a_success() {
        let mut backoff = RequeueBackoff::default();
        let delays: Vec<i64> = (0..4).map(|_| backoff.failed("a")).collect();
        assert_eq!(delays, [5, 10, 20, 40]);
        assert_eq!(backoff.failed("b"), 5);
        for _ in 0..60 {
            backoff.failed("a");
        }
        assert_eq!(backoff.failed("a"), 1_000_000);
        backoff.forget("a");
        assert_eq!(backoff.failed("a"), 5);
    }
}
