//! The instant observer: a hook that sees the cluster at every instant the clock passes through.
//!
//! Lesson goals such as "never more than one worker without a ready pod during the rollout" must look
//! at every instant, including the ones inside one `sim advance 5m` or `kubectl rollout status`. The
//! cluster calls its observer (if one is set) after the loops have settled: before the clock moves,
//! at each timer instant and at the end of every move; `Session::execute` calls it after each command. It only reads: it cannot change the cluster or print anything.
//! The observer travels with the cluster (a clone of the cluster clones it), so scratch copies and
//! replays never report into someone else's state.

use crate::Cluster;
use std::any::Any;
use std::fmt::Debug;

/// Looks at the cluster at each instant the clock passes through (see the module docs).
pub trait ClockObserver: Debug + Send {
    /// Called with the settled cluster at one instant.
    fn observe(&mut self, cluster: &Cluster);
    /// A boxed copy (so `Cluster` stays `Clone`).
    fn box_clone(&self) -> Box<dyn ClockObserver>;
    /// For reading the observer's state back (`downcast_ref`).
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn ClockObserver> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

impl Cluster {
    /// Sets (or with `None` removes) the observer called at every instant the clock passes through.
    pub fn set_observer(&mut self, observer: Option<Box<dyn ClockObserver>>) {
        self.observer = observer;
    }

    /// Removes the observer and gives it back (e.g. to copy the cluster without it).
    pub fn take_observer(&mut self) -> Option<Box<dyn ClockObserver>> {
        self.observer.take()
    }

    /// The observer, to read its state.
    pub fn observer(&self) -> Option<&dyn ClockObserver> {
        self.observer.as_deref()
    }

    /// Lets the observer look at the cluster now: the clock calls it at each instant, the command
    /// language after each command (API writes change the cluster without moving the clock).
    pub fn observe_now(&mut self) {
        if let Some(mut observer) = self.observer.take() {
            observer.observe(self);
            self.observer = Some(observer);
        }
    }

    /// Whether the watch log keeps every written object from now on, for watches that show each
    /// intermediate state (see [`crate::store::WatchEvent::object`]).
    pub fn keep_watch_snapshots(&mut self, on: bool) {
        self.store.keep_watch_snapshots(on);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Records the instants it saw.
    #[derive(Clone, Debug, Default)]
    struct Moments(Vec<i64>);

    impl ClockObserver for Moments {
        fn observe(&mut self, cluster: &Cluster) {
            self.0.push(cluster.now_ms());
        }
        fn box_clone(&self) -> Box<dyn ClockObserver> {
            Box::new(self.clone())
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    fn seen(cluster: &Cluster) -> Vec<i64> {
        let observer = cluster.observer().expect("observer set");
        let instants = observer
            .as_any()
            .downcast_ref::<Moments>()
            .expect("Moments");
        instants.0.clone()
    }

    #[test]
    fn sees_every_timer_instant_of_one_advance() {
        let mut cluster = Cluster::new(1);
        cluster.set_observer(Some(Box::new(Moments::default())));
        // A new node makes kube-proxy and kindnet pods go through several kubelet stages.
        cluster
            .add_node(&crate::NodeOptions::new("kind-worker3"))
            .expect("node added");
        let start = cluster.now_ms();
        let timers: Vec<i64> = cluster
            .timers
            .keys()
            .map(|(t, _)| *t)
            .filter(|t| *t <= start + 60_000)
            .collect();
        assert!(timers.len() >= 2, "the new node schedules kubelet timers");
        cluster.advance(Duration::from_secs(60));
        let seen = seen(&cluster);
        for t in timers {
            assert!(seen.contains(&t), "instant {t} observed in {seen:?}");
        }
        assert_eq!(
            seen.last(),
            Some(&(start + 60_000)),
            "the end of the move too"
        );
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "in clock order");
    }

    #[test]
    fn a_clone_carries_its_own_copy() {
        let mut cluster = Cluster::new(1);
        cluster.set_observer(Some(Box::new(Moments::default())));
        let mut copy = cluster.clone();
        copy.advance(Duration::from_secs(5));
        assert!(seen(&cluster).is_empty());
        assert_eq!(seen(&copy).last(), Some(&copy.now_ms()));
    }
}
