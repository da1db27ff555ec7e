//! The cluster facade: the virtual clock and timer queue, and the control loop that runs every
//! controller until nothing changes after each API write or timer.

use crate::images::ImageBehavior;
use crate::kubelet::{NodeRuntime, PodRuntime};
use crate::lookup_map::LookupMap;
use crate::store::{ChangeCursor, Store};
use chrono::{DateTime, TimeZone, Utc};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::BTreeMap;
use std::time::Duration;

/// Default epoch of the virtual clock: 2026-01-01T00:00:00Z.
pub const EPOCH_MS: i64 = 1_767_225_600_000;

/// How many rounds of every loop [`Cluster::reconcile`] runs at one instant before it stops.
pub const MAX_RECONCILE_ROUNDS: usize = 200;

/// How long `settle` runs at most by default (`docs/timing-model.md`, Settling).
pub const DEFAULT_SETTLE_MAX: Duration = Duration::from_secs(600);

/// The longest stretch of virtual time one command may move the clock over (`sim advance`,
/// `sim settle --max`, the `--timeout` of kubectl's waiting commands). Advancing costs work per
/// event that falls due, so this bounds what a single command (or a share link) can ask for.
pub const MAX_ADVANCE: Duration = Duration::from_secs(24 * 3600);

/// Something scheduled to happen at a virtual instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Timer {
    /// A kubelet stage of one pod finishes; `epoch` invalidates timers of an older pod runtime state.
    Kubelet { pod_uid: String, epoch: u64 },
    /// A failed node's grace period ends: mark it unreachable.
    NodeMonitorGrace { node: String, epoch: u64 },
    /// Re-sync DaemonSets (minReadySeconds, failed-pod back-off).
    ResyncDaemonSets,
    /// A taint-based eviction falls due.
    TaintEviction { namespace: String, pod: String },
    /// Pod GC: delete pods bound to nodes that no longer exist.
    PodGc,
    /// Re-sync ReplicaSets and Deployments (minReadySeconds, progress deadlines).
    ResyncApps,
    /// A Deployment's progress deadline passes (dropped once its rollout completes).
    ProgressDeadline { namespace: String, name: String },
    /// Re-sync StatefulSets (minReadySeconds).
    ResyncStatefulSets,
}

/// Where each loop has read the watch log up to: a pass handles only what changed since its last
/// one (upstream's informers feed work queues the same way).
#[derive(Clone, Debug, Default)]
pub(crate) struct LoopCursors {
    pub node_lifecycle: ChangeCursor,
    pub taint_eviction: ChangeCursor,
    pub gc: ChangeCursor,
    pub scheduling: ChangeCursor,
    pub kubelet: ChangeCursor,
    pub volume_binding: ChangeCursor,
}

/// One simulated cluster: the store, the clock, and the state of every loop.
#[derive(Clone, Debug)]
pub struct Cluster {
    pub(crate) store: Store,
    pub(crate) now_ms: i64,
    pub(crate) rng: ChaCha8Rng,
    /// A second stream of the seed for Services and EndpointSlices (uids, cluster IPs, node ports,
    /// slice names), so adding a Service leaves every other random name of a run unchanged.
    pub(crate) service_rng: ChaCha8Rng,
    /// A third stream for storage objects (StorageClasses, PersistentVolumeClaims and the volumes
    /// provisioned for them), so kind's default StorageClass leaves every other name unchanged.
    pub(crate) storage_rng: ChaCha8Rng,
    /// A fourth stream for v1 Endpoints, which the Endpoints controller and the API server write
    /// next to EndpointSlices, so they leave every other random name unchanged.
    pub(crate) endpoints_rng: ChaCha8Rng,
    pub(crate) seed: u64,
    pub(crate) timers: BTreeMap<(i64, u64), Timer>,
    pub(crate) timer_seq: u64,
    pub(crate) event_seq: u64,
    pub(crate) images: BTreeMap<String, ImageBehavior>,
    /// The kubelets' state of each pod, by uid, and of each node, by name (read on every pod write).
    pub(crate) pods_runtime: LookupMap<String, PodRuntime>,
    pub(crate) nodes_runtime: LookupMap<String, NodeRuntime>,
    /// The DaemonSet controller's private state.
    pub(crate) daemon_sets: crate::controller::daemonset::DaemonSetController,
    /// The taint eviction controller's private state.
    pub(crate) taint_eviction: crate::controller::taint_eviction::TaintEviction,
    /// The StatefulSet controller's private state.
    pub(crate) stateful_sets: crate::controller::statefulset::StatefulSetController,
    /// The EndpointSlice controller's private state.
    pub(crate) endpoint_slices: crate::controller::endpointslice::EndpointSliceController,
    /// The scheduler loop's memory of pods that did not fit.
    pub(crate) scheduling_queue: crate::scheduling::SchedulingQueue,
    pub(crate) next_pod_cidr: u32,
    /// Each loop's position in the watch log.
    pub(crate) cursors: LoopCursors,
    /// Event identity hash → the store keys of the events repeats aggregate into, one per identity
    /// with that hash (`record_event`). Only looked up (hashed: with tens of thousands of events
    /// the B-tree's searches were a tenth of their expiry).
    pub(crate) event_index: crate::lookup_map::LookupMap<u64, Vec<crate::store::Key>>,
    /// The store's events version the index reflects (see `Store::events_version`).
    pub(crate) event_index_version: u64,
    /// When events' TTLs run out (virtual ms → keys and identity hashes), one entry per write
    /// (`event_recorder.rs`). Grouped by instant: the clock only moves forward, so a write adds to
    /// the last group.
    pub(crate) event_expiry: BTreeMap<i64, Vec<(crate::store::Key, u64)>>,
    /// Called at every instant the clock passes through (`observer.rs`).
    pub(crate) observer: Option<Box<dyn crate::observer::ClockObserver>>,
    /// The ReplicaSet and Deployment controllers' memory between passes.
    pub(crate) apps: crate::controller::replicaset::AppsState,
    /// Deployment key → the key of its pending `ProgressDeadline` timer.
    pub(crate) deadline_timers: BTreeMap<crate::store::Key, (i64, u64)>,
    /// The last generated-name pods that passed validation (`validation_memo.rs`).
    pub(crate) validation_memo: crate::validation_memo::ValidationMemo,
    /// The instant [`Cluster::step_part`] is in the middle of (its timers are being fired).
    stepping_to: Option<i64>,
    /// The loops that follow that instant's last timer, when [`Cluster::step_part`] runs them
    /// one per part.
    reconciling: Option<ReconcileProgress>,
}

/// A loop of a reconcile round.
#[derive(Clone, Copy)]
enum Loop {
    /// A loop run in one go.
    Whole(fn(&mut Cluster)),
    /// The DaemonSet controller, a DaemonSet at a time
    /// ([`crate::controller::daemonset::SyncPass`]): a reconcile in parts runs one per part.
    DaemonSets,
}

/// The loops one reconcile round runs, in order.
const LOOPS: [Loop; 11] = [
    Loop::Whole(crate::controller::node_lifecycle::sync),
    Loop::Whole(crate::controller::taint_eviction::sync),
    Loop::Whole(crate::controller::gc::sync),
    Loop::DaemonSets,
    Loop::Whole(crate::controller::deployment::sync_all),
    Loop::Whole(crate::controller::replicaset::sync_all),
    Loop::Whole(crate::controller::statefulset::sync_all),
    Loop::Whole(crate::volume_binding::sync),
    Loop::Whole(crate::scheduling::sync),
    Loop::Whole(crate::kubelet::sync),
    Loop::Whole(crate::controller::endpointslice::sync_all),
];

/// How far a reconcile has got: its round, the next loop of the round (and how far the DaemonSet
/// controller's pass has got), and the store's and timers' counters when the round began (a
/// round that changed neither ends the reconcile).
#[derive(Clone, Debug)]
struct ReconcileProgress {
    round: usize,
    next_loop: usize,
    daemon_sets: Option<crate::controller::daemonset::SyncPass>,
    before: (u64, u64),
}

impl Cluster {
    /// The default kind-like cluster (`docs/command-language.md`, The default cluster), with kube-proxy
    /// and kindnet rolled out.
    pub fn new(seed: u64) -> Cluster {
        let mut cluster = Cluster::new_empty(seed);
        crate::default_cluster::install_kind_cluster(&mut cluster);
        cluster
    }

    /// A cluster with no nodes: the namespaces and the two system PriorityClasses only.
    pub fn new_empty(seed: u64) -> Cluster {
        let mut cluster = Cluster {
            store: Store::default(),
            now_ms: EPOCH_MS,
            rng: ChaCha8Rng::seed_from_u64(seed),
            service_rng: rng_stream(seed, 1),
            storage_rng: rng_stream(seed, 2),
            endpoints_rng: rng_stream(seed, 3),
            seed,
            timers: BTreeMap::new(),
            timer_seq: 0,
            event_seq: 0,
            images: BTreeMap::new(),
            pods_runtime: LookupMap::default(),
            nodes_runtime: LookupMap::default(),
            daemon_sets: Default::default(),
            taint_eviction: Default::default(),
            scheduling_queue: Default::default(),
            endpoint_slices: Default::default(),
            stateful_sets: Default::default(),
            next_pod_cidr: 0,
            cursors: LoopCursors::default(),
            event_index: Default::default(),
            event_index_version: 0,
            event_expiry: Default::default(),
            observer: None,
            apps: Default::default(),
            deadline_timers: BTreeMap::new(),
            stepping_to: None,
            reconciling: None,
            validation_memo: Default::default(),
        };
        crate::default_cluster::install_base_objects(&mut cluster);
        cluster
    }

    /// The seed the cluster was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The virtual time.
    pub fn now(&self) -> DateTime<Utc> {
        to_datetime(self.now_ms)
    }

    /// The virtual time in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }

    /// Read access to every object.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// When the next timer fires, if any is pending.
    pub fn next_timer(&self) -> Option<DateTime<Utc>> {
        self.timers.keys().next().map(|(t, _)| to_datetime(*t))
    }

    /// Advances the virtual clock by `d`, firing every timer that falls due, in order.
    pub fn advance(&mut self, d: Duration) {
        let target = self
            .now_ms
            .saturating_add(d.as_millis().min(i64::MAX as u128) as i64);
        self.run_until(target);
    }

    /// Jumps to the next timer and runs it (the UI's "step"); returns false when nothing is pending.
    pub fn step(&mut self) -> bool {
        match self.timers.keys().next().map(|(t, _)| *t) {
            Some(t) => {
                self.run_until(t);
                true
            }
            None => false,
        }
    }

    /// Steps the clock one timer instant at a time until `done` holds (it is checked first, and after
    /// every step), or until no timer is due by `deadline_ms`; the clock then moves to the deadline.
    /// Returns whether `done` held. This is how kubectl's waiting commands (`wait`, `delete --wait`,
    /// `rollout status`, watches) spend virtual time: they observe every instant, like a watch would.
    pub fn advance_until(
        &mut self,
        deadline_ms: i64,
        mut done: impl FnMut(&Cluster) -> bool,
    ) -> bool {
        loop {
            if done(self) {
                return true;
            }
            match self.timers.keys().next() {
                Some(&(t, _)) if t <= deadline_ms => {
                    self.step();
                }
                _ => {
                    self.run_until(deadline_ms.max(self.now_ms));
                    return false;
                }
            }
        }
    }

    /// Advances until no timer is pending, or until `max` has passed. Returns the time advanced.
    pub fn settle(&mut self, max: Duration) -> Duration {
        let start = self.now_ms;
        let limit = self.settle_limit_ms(max);
        while let Some(t) = self.timers.keys().next().map(|(t, _)| *t) {
            if t > limit {
                break;
            }
            self.run_until(t);
        }
        Duration::from_millis((self.now_ms - start).max(0) as u64)
    }

    /// Runs the loops until quiescent at the current instant (after an API write): each round runs
    /// every loop once and the next round only acts on what the previous one changed, so a few rounds
    /// suffice. Still changing after [`MAX_RECONCILE_ROUNDS`] means two loops keep undoing each other's
    /// writes, a bug: debug and test builds panic with the instant; a shipped build goes on rather
    /// than hang.
    pub fn reconcile(&mut self) {
        let mut progress = self.start_reconcile();
        while !self.reconcile_loop(&mut progress) {}
    }

    /// Begins a reconcile: the events whose TTL ran out go first.
    fn start_reconcile(&mut self) -> ReconcileProgress {
        self.expire_events();
        ReconcileProgress {
            round: 0,
            next_loop: 0,
            daemon_sets: None,
            before: self.write_counters(),
        }
    }

    /// The store's resourceVersion and the timers scheduled so far: what a loop's work changes.
    fn write_counters(&self) -> (u64, u64) {
        (self.store.resource_version(), self.timer_seq)
    }

    /// Runs the next loop of a reconcile; returns whether the reconcile is complete.
    fn reconcile_loop(&mut self, progress: &mut ReconcileProgress) -> bool {
        match LOOPS[progress.next_loop] {
            Loop::Whole(run) => run(self),
            Loop::DaemonSets => {
                let pass = (progress.daemon_sets)
                    .get_or_insert_with(|| crate::controller::daemonset::SyncPass::start(self));
                if !pass.sync_next(self) {
                    return false;
                }
                progress.daemon_sets = None;
            }
        }
        progress.next_loop += 1;
        if progress.next_loop < LOOPS.len() {
            return false;
        }
        let after = self.write_counters();
        if after == progress.before {
            return true;
        }
        progress.round += 1;
        if progress.round == MAX_RECONCILE_ROUNDS {
            if cfg!(debug_assertions) {
                panic!(
                    "reconcile: the loops still write after {MAX_RECONCILE_ROUNDS} rounds at {} ms \
                     (resourceVersion {})",
                    self.now_ms,
                    self.store.resource_version()
                );
            }
            return true;
        }
        progress.next_loop = 0;
        progress.before = after;
        false
    }

    fn run_until(&mut self, target: i64) {
        self.complete_step();
        self.reconcile();
        // The settled state before the clock moves (a command's writes) is an instant too.
        self.observe_now();
        while self.fire_next(target) {}
        self.arrive_at(target);
    }

    /// [`Cluster::step`] in parts, for a caller that must yield within one instant (the web app,
    /// with thousands of pods due at the same instant): a part fires at most `max_timers` of the
    /// timers due by the next instant, or runs one loop of the reconcile that follows its last
    /// timer (the DaemonSet controller for one DaemonSet: after thousands of timers, one loop's
    /// work can take tens of milliseconds in the browser, all of them together a fifth of a
    /// second). Returns whether the step is complete (also when nothing was pending). Nothing
    /// else may change the cluster between the parts of a step: the parts then end exactly where
    /// one `step` does. (Any other clock call first completes a step left in parts.)
    pub fn step_part(&mut self, max_timers: usize) -> bool {
        let target = match self.stepping_to {
            Some(target) => target,
            None => {
                let Some(&(target, _)) = self.timers.keys().next() else {
                    return true;
                };
                // As `run_until(target)` begins.
                self.reconcile();
                self.observe_now();
                self.stepping_to = Some(target);
                target
            }
        };
        if let Some(mut progress) = self.reconciling.take() {
            if !self.reconcile_loop(&mut progress) {
                self.reconciling = Some(progress);
                return false;
            }
            self.observe_now();
        }
        for _ in 0..max_timers {
            match self.fire_due(target) {
                None => break,
                Some(false) => {}
                Some(true) => {
                    self.reconciling = Some(self.start_reconcile());
                    return false;
                }
            }
        }
        if self.timers.keys().next().is_some_and(|(t, _)| *t <= target) {
            return false;
        }
        self.stepping_to = None;
        self.arrive_at(target);
        true
    }

    /// Whether a step [`Cluster::step_part`] began is not complete yet (its timers or the loops
    /// after them are still to run).
    pub fn stepping(&self) -> bool {
        self.stepping_to.is_some()
    }

    /// Where [`Cluster::settle`] with `max` started now stops: no timer after this instant runs.
    pub fn settle_limit_ms(&self, max: Duration) -> i64 {
        self.now_ms
            .saturating_add(max.as_millis().min(i64::MAX as u128) as i64)
    }

    /// Whether a step is due by `limit_ms`: one left in parts, or a timer at or before it. A settle
    /// (or an advance) run in parts steps while this holds.
    pub fn step_due_by(&self, limit_ms: i64) -> bool {
        self.stepping()
            || self
                .timers
                .keys()
                .next()
                .is_some_and(|(t, _)| *t <= limit_ms)
    }

    /// Completes a step [`Cluster::step_part`] left in parts (nothing if there is none): what a
    /// caller that stops between parts (a cancelled command) does before anything else.
    pub fn complete_step(&mut self) {
        if self.stepping_to.is_some() {
            while !self.step_part(usize::MAX) {}
        }
    }

    /// Fires the first timer due by `target`; after the last timer of its instant, lets the loops
    /// run (every timer of an instant fires before they do, as one instant). Returns false when
    /// no timer is due by `target`.
    fn fire_next(&mut self, target: i64) -> bool {
        match self.fire_due(target) {
            None => false,
            Some(last_of_instant) => {
                if last_of_instant {
                    self.reconcile();
                    self.observe_now();
                }
                true
            }
        }
    }

    /// Fires the first timer due by `target`, if any: whether it was the last of its instant
    /// (the loops are to run next).
    fn fire_due(&mut self, target: i64) -> Option<bool> {
        let (&(t, seq), _) = self.timers.iter().next()?;
        if t > target {
            return None;
        }
        let timer = self.timers.remove(&(t, seq)).expect("timer just seen");
        self.now_ms = self.now_ms.max(t);
        self.fire(timer);
        Some(self.timers.keys().next().is_none_or(|(next, _)| *next != t))
    }

    /// The clock reaches `target` once its timers have fired; the loops see that instant.
    fn arrive_at(&mut self, target: i64) {
        self.now_ms = self.now_ms.max(target);
        self.reconcile();
        self.observe_now();
    }

    fn fire(&mut self, timer: Timer) {
        match timer {
            Timer::Kubelet { pod_uid, epoch } => crate::kubelet::on_timer(self, &pod_uid, epoch),
            Timer::NodeMonitorGrace { node, epoch } => {
                crate::controller::node_lifecycle::on_grace_expired(self, &node, epoch)
            }
            Timer::ResyncDaemonSets => self.daemon_sets.resync = true,
            Timer::TaintEviction { namespace, pod } => {
                crate::controller::taint_eviction::on_due(self, &namespace, &pod)
            }
            Timer::PodGc => crate::controller::gc::pod_gc(self),
            // The next pass syncs every ReplicaSet and Deployment (time moved, not the store).
            Timer::ResyncApps => self.apps.resync = true,
            Timer::ResyncStatefulSets => self.stateful_sets.resync = true,
            Timer::ProgressDeadline { namespace, name } => {
                self.deadline_timers.remove(&(namespace, name));
                self.apps.resync = true;
            }
        }
    }

    /// Schedules a timer `after_ms` from now.
    pub(crate) fn schedule(&mut self, after_ms: i64, timer: Timer) {
        self.timer_seq += 1;
        let at = self.now_ms.saturating_add(after_ms.max(0));
        self.timers.insert((at, self.timer_seq), timer);
    }

    /// Schedules a timer at an absolute time unless an identical one is already due then.
    pub(crate) fn schedule_at_unless_due(&mut self, at_ms: i64, timer: Timer) {
        let at_ms = at_ms.max(self.now_ms);
        if self
            .timers
            .range((at_ms, 0)..=(at_ms, u64::MAX))
            .any(|(_, existing)| *existing == timer)
        {
            return;
        }
        self.timer_seq += 1;
        self.timers.insert((at_ms, self.timer_seq), timer);
    }

    /// Sets how an image behaves in the kubelet model (`sim image`).
    pub fn set_image_behavior(&mut self, image: &str, behavior: ImageBehavior) {
        self.images.insert(image.to_string(), behavior);
        self.reconcile();
    }

    /// How an image behaves (defaults unless `sim image` changed it). Matches the image with and without tag.
    pub fn image_behavior(&self, image: &str) -> ImageBehavior {
        if let Some(b) = self.images.get(image) {
            return b.clone();
        }
        let untagged = image
            .rsplit_once(':')
            .filter(|(_, tag)| !tag.contains('/'))
            .map(|(name, _)| name);
        untagged
            .and_then(|name| self.images.get(name))
            .cloned()
            .unwrap_or_default()
    }

    /// Five random characters of the `utilrand.String` alphabet, from the seeded RNG (names a
    /// client invents, like `kubectl create deployment`'s container name suffix).
    pub fn random_suffix(&mut self) -> String {
        crate::names::generate_name(&mut self.rng, "")
    }

    /// Reseeds the RNG (`sim seed N`).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.service_rng = rng_stream(seed, 1);
        self.storage_rng = rng_stream(seed, 2);
    }

    /// Whether a node has been failed with `sim node fail` and not recovered.
    pub fn node_failed(&self, node: &str) -> bool {
        self.nodes_runtime.get(node).is_some_and(|n| n.failed)
    }
}

/// Another stream of the seed: 1 for the Service registry and the EndpointSlice controller, 2
/// for storage objects, 3 for v1 Endpoints.
fn rng_stream(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// Milliseconds since the Unix epoch → UTC time, saturating at the representable range (a deadline
/// of `i64::MAX` seconds stays in the far future instead of wrapping to 1970).
pub fn to_datetime(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or(if ms > 0 {
        DateTime::<Utc>::MAX_UTC
    } else {
        DateTime::<Utc>::MIN_UTC
    })
}

/// A k8s `Time` for milliseconds since the epoch (the API truncates to seconds).
pub(crate) fn k8s_time(ms: i64) -> dsplay_api::types::Time {
    dsplay_api::types::Time(to_datetime(ms - ms.rem_euclid(1000)))
}
