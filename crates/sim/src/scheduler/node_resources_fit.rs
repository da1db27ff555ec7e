//! NodeResourcesFit (Filter + LeastAllocated Score) and NodeResourcesBalancedAllocation (Score).
//!
//! Upstream: `pkg/scheduler/framework/plugins/noderesources/{fit.go,least_allocated.go,
//! balanced_allocation.go,resource_allocation.go}`, `component-helpers/resource/helpers.go` (`PodRequests`).

use super::{Code, NodeInfo, Status};
use dsplay_api::quantity::milli;
use dsplay_api::types::{Node, Pod, Quantity};
use std::collections::BTreeMap;

/// Plugin name.
pub const NAME: &str = "NodeResourcesFit";
/// Score weight of NodeResourcesFit in the default profile.
pub const WEIGHT: i64 = 1;
/// Score weight of NodeResourcesBalancedAllocation in the default profile.
pub const BALANCED_WEIGHT: i64 = 1;
/// CPU counted for a container without a cpu request, for scoring only (`DefaultMilliCPURequest`).
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// Memory counted for a container without a memory request, for scoring only (`DefaultMemoryRequest`).
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;
/// The highest node score.
pub const MAX_NODE_SCORE: i64 = 100;

/// A resource vector as the scheduler keeps it (upstream `framework.Resource`): cpu in milli-cores,
/// memory and ephemeral-storage in bytes, extended resources in their unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// cpu, milli-cores.
    pub milli_cpu: i64,
    /// memory, bytes.
    pub memory: i64,
    /// ephemeral-storage, bytes.
    pub ephemeral_storage: i64,
    /// `pods` (only meaningful for allocatable).
    pub allowed_pod_number: i64,
    /// Extended / hugepages / attachable-volume resources, by name.
    pub scalar: BTreeMap<String, i64>,
}

/// Whether upstream treats a resource name as a scalar (extended, hugepages-, prefixed native,
/// attachable-volumes-) resource. Upstream: `schedutil.IsScalarResourceName`.
pub fn is_scalar_resource_name(name: &str) -> bool {
    let prefixed_native = name.contains("kubernetes.io/");
    let extended = name.contains('/') && !prefixed_native && !name.starts_with("requests.");
    extended
        || prefixed_native
        || name.starts_with("hugepages-")
        || name.starts_with("attachable-volumes-")
}

fn to_i64(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// `Quantity.Value()`: whole units, rounded up.
fn value(q: &Quantity) -> i64 {
    let m = milli(q).unwrap_or(0);
    to_i64(if m >= 0 { (m + 999) / 1000 } else { m / 1000 })
}

fn milli_value(q: &Quantity) -> i64 {
    to_i64(milli(q).unwrap_or(0))
}

impl Resources {
    /// Builds a vector from a ResourceList. Upstream: `Resource.Add`.
    pub fn from_list(list: &BTreeMap<String, Quantity>) -> Self {
        let mut r = Resources::default();
        r.add_list(list);
        r
    }

    fn add_list(&mut self, list: &BTreeMap<String, Quantity>) {
        for (name, q) in list {
            match name.as_str() {
                "cpu" => self.milli_cpu = self.milli_cpu.saturating_add(milli_value(q)),
                "memory" => self.memory = self.memory.saturating_add(value(q)),
                "ephemeral-storage" => {
                    self.ephemeral_storage = self.ephemeral_storage.saturating_add(value(q))
                }
                "pods" => {
                    self.allowed_pod_number = self.allowed_pod_number.saturating_add(value(q))
                }
                // A zero adds nothing and is left out (every reader takes a missing scalar as
                // 0): kind nodes list `hugepages-1Gi: 0` and `hugepages-2Mi: 0`, read at every
                // filter.
                other if is_scalar_resource_name(other) => match value(q) {
                    0 => {}
                    v => {
                        let e = self.scalar.entry(other.to_string()).or_default();
                        *e = e.saturating_add(v);
                    }
                },
                _ => {}
            }
        }
    }

    /// Component-wise sum, saturating: requests are user numbers (two containers asking for
    /// `99999999999999999999` cpu must not wrap around to a request that fits).
    pub fn add(&mut self, other: &Resources) {
        self.milli_cpu = self.milli_cpu.saturating_add(other.milli_cpu);
        self.memory = self.memory.saturating_add(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_add(other.ephemeral_storage);
        self.allowed_pod_number = self
            .allowed_pod_number
            .saturating_add(other.allowed_pod_number);
        for (k, v) in &other.scalar {
            let e = self.scalar.entry(k.clone()).or_default();
            *e = e.saturating_add(*v);
        }
    }

    /// Component-wise max.
    pub fn set_max(&mut self, other: &Resources) {
        self.milli_cpu = self.milli_cpu.max(other.milli_cpu);
        self.memory = self.memory.max(other.memory);
        self.ephemeral_storage = self.ephemeral_storage.max(other.ephemeral_storage);
        for (k, v) in &other.scalar {
            let e = self.scalar.entry(k.clone()).or_default();
            *e = (*e).max(*v);
        }
    }

    /// True when nothing at all is requested (cpu, memory, ephemeral-storage, scalars).
    pub fn is_zero(&self) -> bool {
        self.milli_cpu == 0
            && self.memory == 0
            && self.ephemeral_storage == 0
            && self.scalar.values().all(|v| *v == 0)
    }
}

fn container_requests(reqs: Option<&BTreeMap<String, Quantity>>, non_missing: bool) -> Resources {
    let mut r = reqs.map(Resources::from_list).unwrap_or_default();
    if non_missing {
        let has = |k: &str| reqs.is_some_and(|m| m.contains_key(k));
        if !has("cpu") {
            r.milli_cpu = DEFAULT_MILLI_CPU_REQUEST;
        }
        if !has("memory") {
            r.memory = DEFAULT_MEMORY_REQUEST;
        }
    }
    r
}

fn requests(pod: &Pod, non_missing: bool) -> Resources {
    let Some(spec) = pod.spec.as_ref() else {
        return Resources::default();
    };
    let reqs_of = |c: &dsplay_api::types::Container| {
        container_requests(
            c.resources.as_ref().and_then(|r| r.requests.as_ref()),
            non_missing,
        )
    };
    let mut total = Resources::default();
    for c in &spec.containers {
        total.add(&reqs_of(c));
    }
    // Init containers run one at a time, but restartable ("sidecar") init containers keep running and
    // add to both the steady-state sum and every later init container's peak.
    let mut sidecars = Resources::default();
    let mut init_peak = Resources::default();
    for c in spec.init_containers.iter().flatten() {
        let r = reqs_of(c);
        if c.restart_policy.as_deref() == Some("Always") {
            total.add(&r);
            sidecars.add(&r);
            init_peak.set_max(&sidecars);
        } else {
            let mut peak = r;
            peak.add(&sidecars);
            init_peak.set_max(&peak);
        }
    }
    total.set_max(&init_peak);
    if let Some(overhead) = spec.overhead.as_ref() {
        total.add(&Resources::from_list(overhead));
    }
    total
}

/// The pod's effective request: max(Σ containers (+ sidecars), largest init container (+ sidecars started
/// before it)) + `spec.overhead`. Only explicit requests count. Upstream: `resource.PodRequests`.
pub fn pod_requests(pod: &Pod) -> Resources {
    requests(pod, false)
}

/// The same with 100m cpu / 200Mi memory for each container that sets no request, used for scoring.
/// Upstream: `PodRequests` with `NonMissingContainerRequests`.
pub fn pod_non_zero_requests(pod: &Pod) -> Resources {
    requests(pod, true)
}

/// The node's `status.allocatable`.
pub fn allocatable(node: &Node) -> Resources {
    node.status
        .as_ref()
        .and_then(|s| s.allocatable.as_ref())
        .map(Resources::from_list)
        .unwrap_or_default()
}

/// One insufficient resource (upstream `InsufficientResource`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsufficientResource {
    /// `pods`, `cpu`, `memory`, `ephemeral-storage` or the extended resource name.
    pub resource: String,
    /// `Too many pods`, `Insufficient cpu`, ….
    pub reason: String,
    /// What the pod asks for.
    pub requested: i64,
    /// Already used on the node.
    pub used: i64,
    /// Allocatable.
    pub capacity: i64,
    /// The request exceeds the node's total allocatable: preemption can't help.
    pub unresolvable: bool,
}

/// Every resource the pod does not fit, in upstream order (pods, cpu, memory, ephemeral-storage,
/// extended resources by name). Upstream: `fitsRequest`.
pub fn fits_request(request: &Resources, info: &NodeInfo) -> Vec<InsufficientResource> {
    let alloc = info.allocatable();
    let mut out = Vec::new();
    let count = info.pods().len() as i64;
    if count + 1 > alloc.allowed_pod_number {
        out.push(InsufficientResource {
            resource: "pods".into(),
            reason: "Too many pods".into(),
            requested: 1,
            used: count,
            capacity: alloc.allowed_pod_number,
            unresolvable: false,
        });
    }
    if request.is_zero() {
        return out;
    }
    let used = info.requested();
    let mut check = |resource: &str, req: i64, used: i64, cap: i64| {
        if req > 0 && req > cap.saturating_sub(used) {
            out.push(InsufficientResource {
                resource: resource.to_string(),
                reason: format!("Insufficient {resource}"),
                requested: req,
                used,
                capacity: cap,
                unresolvable: req > cap,
            });
        }
    };
    check("cpu", request.milli_cpu, used.milli_cpu, alloc.milli_cpu);
    check("memory", request.memory, used.memory, alloc.memory);
    check(
        "ephemeral-storage",
        request.ephemeral_storage,
        used.ephemeral_storage,
        alloc.ephemeral_storage,
    );
    for (name, &q) in &request.scalar {
        let u = used.scalar.get(name).copied().unwrap_or(0);
        let c = alloc.scalar.get(name).copied().unwrap_or(0);
        check(name, q, u, c);
    }
    out
}

/// Filter: Unschedulable with one reason per insufficient resource; UnschedulableAndUnresolvable if any
/// request exceeds the node's total allocatable. Upstream: `Fit.Filter`.
pub fn filter(request: &Resources, info: &NodeInfo) -> Result<(), Status> {
    let insufficient = fits_request(request, info);
    if insufficient.is_empty() {
        return Ok(());
    }
    let code = if insufficient.iter().any(|r| r.unresolvable) {
        Code::UnschedulableAndUnresolvable
    } else {
        Code::Unschedulable
    };
    Err(Status {
        code,
        plugin: NAME,
        reasons: insufficient.into_iter().map(|r| r.reason).collect(),
    })
}

fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    // i128: capacity × 100 overflows i64 for a node claiming ~i64::MAX allocatable.
    ((i128::from(capacity) - i128::from(requested)) * i128::from(MAX_NODE_SCORE)
        / i128::from(capacity)) as i64
}

/// LeastAllocated score (0–100) over cpu and memory, weight 1 each, using non-zero requests (node's
/// existing pods + this pod). Upstream: `leastResourceScorer` via `resourceAllocationScorer.score`.
pub fn least_allocated_score(pod_non_zero: &Resources, info: &NodeInfo) -> i64 {
    let (alloc, used) = (info.allocatable(), info.non_zero_requested());
    let pairs = [
        (
            used.milli_cpu.saturating_add(pod_non_zero.milli_cpu),
            alloc.milli_cpu,
        ),
        (
            used.memory.saturating_add(pod_non_zero.memory),
            alloc.memory,
        ),
    ];
    let (mut score, mut weights) = (0, 0);
    for (req, cap) in pairs {
        if cap == 0 {
            continue;
        }
        score += least_requested_score(req, cap);
        weights += 1;
    }
    if weights == 0 {
        0
    } else {
        score / weights
    }
}

/// BalancedAllocation score (0–100): (1 − std-dev of the cpu and memory request fractions) × 100, using
/// actual requests; `None` for a best-effort pod (the plugin skips it since v1.33).
/// Upstream: `balancedResourceScorer`, `BalancedAllocation.PreScore`.
pub fn balanced_allocation_score(pod_request: &Resources, info: &NodeInfo) -> Option<i64> {
    if pod_request.milli_cpu == 0 && pod_request.memory == 0 {
        return None;
    }
    let (alloc, used) = (info.allocatable(), info.requested());
    let pairs = [
        (
            used.milli_cpu.saturating_add(pod_request.milli_cpu),
            alloc.milli_cpu,
        ),
        (used.memory.saturating_add(pod_request.memory), alloc.memory),
    ];
    let fractions: Vec<f64> = pairs
        .iter()
        .filter(|(_, cap)| *cap != 0)
        .map(|(req, cap)| (*req as f64 / *cap as f64).min(1.0))
        .collect();
    let std = if fractions.len() == 2 {
        ((fractions[0] - fractions[1]) / 2.0).abs()
    } else {
        0.0
    };
    Some(((1.0 - std) * MAX_NODE_SCORE as f64) as i64)
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // test tables of tuples
mod tests {
    use super::*;
    use crate::scheduler::testutil::*;

    #[test]
    fn test_compute_pod_resource_request() {
        // Mirrors upstream computePodResourceRequest doc example + TestPodRequests (sidecars, overhead).
        let p = with_init(
            pod_req(
                "p",
                &[
                    &[("cpu", "2"), ("memory", "1G")],
                    &[("cpu", "1"), ("memory", "1G")],
                ],
            ),
            &[
                (&[("cpu", "2"), ("memory", "1G")], false),
                (&[("cpu", "2"), ("memory", "3G")], false),
            ],
        );
        let r = pod_requests(&p);
        assert_eq!(
            (r.milli_cpu, r.memory),
            (3000, 3_000_000_000),
            "init max vs container sum"
        );

        let sidecar = with_init(
            pod_req("p", &[&[("cpu", "1")]]),
            &[(&[("cpu", "1")], true), (&[("cpu", "3")], false)],
        );
        assert_eq!(
            pod_requests(&sidecar).milli_cpu,
            4000,
            "sidecar 1 + later init 3 → peak 4; steady 2"
        );

        let mut with_overhead = pod_req("p", &[&[("cpu", "100m")]]);
        with_overhead.spec.as_mut().unwrap().overhead =
            Some(list(&[("cpu", "250m"), ("memory", "120Mi")]));
        let r = pod_requests(&with_overhead);
        assert_eq!(
            (r.milli_cpu, r.memory),
            (350, 120 * 1024 * 1024),
            "overhead"
        );

        let best_effort = pod_req("p", &[&[], &[("memory", "1Mi")]]);
        let nz = pod_non_zero_requests(&best_effort);
        assert_eq!(
            (nz.milli_cpu, nz.memory),
            (200, DEFAULT_MEMORY_REQUEST + 1024 * 1024),
            "non-zero defaults per container"
        );
    }

    #[test]
    fn test_enough_requests() {
        // Mirrors upstream TestEnoughRequests (noderesources/fit_test.go): node allocatable 10 cpu,
        // 20 memory, 32 pods, 5 example.com/aaa; one existing pod uses cpu 5 / memory 19 or similar.
        let n = node_alloc(
            "n",
            &[
                ("cpu", "10m"),
                ("memory", "20"),
                ("pods", "32"),
                ("example.com/aaa", "5"),
            ],
        );
        let cases: Vec<(&str, Pod, Vec<Pod>, Vec<&str>, Code)> = vec![
            (
                "no resources requested always fits",
                pod_req("p", &[]),
                vec![pod_req("e", &[&[("cpu", "10m"), ("memory", "20")]])],
                vec![],
                Code::Unschedulable,
            ),
            (
                "too many resources fails",
                pod_req("p", &[&[("cpu", "1m"), ("memory", "1")]]),
                vec![pod_req("e", &[&[("cpu", "10m"), ("memory", "20")]])],
                vec!["Insufficient cpu", "Insufficient memory"],
                Code::Unschedulable,
            ),
            (
                "too many resources fails due to init container cpu",
                with_init(
                    pod_req("p", &[&[("cpu", "1m"), ("memory", "1")]]),
                    &[(&[("cpu", "3m"), ("memory", "1")], false)],
                ),
                vec![pod_req("e", &[&[("cpu", "8m"), ("memory", "19")]])],
                vec!["Insufficient cpu"],
                Code::Unschedulable,
            ),
            (
                "both resources fit",
                pod_req("p", &[&[("cpu", "1m"), ("memory", "1")]]),
                vec![pod_req("e", &[&[("cpu", "5m"), ("memory", "5")]])],
                vec![],
                Code::Unschedulable,
            ),
            (
                "one resource memory fits",
                pod_req("p", &[&[("cpu", "2m"), ("memory", "1")]]),
                vec![pod_req("e", &[&[("cpu", "9m"), ("memory", "5")]])],
                vec!["Insufficient cpu"],
                Code::Unschedulable,
            ),
            (
                "one resource cpu fits",
                pod_req("p", &[&[("cpu", "1m"), ("memory", "2")]]),
                vec![pod_req("e", &[&[("cpu", "5m"), ("memory", "19")]])],
                vec!["Insufficient memory"],
                Code::Unschedulable,
            ),
            (
                "extended resource fits",
                pod_req("p", &[&[("example.com/aaa", "1")]]),
                vec![pod_req("e", &[])],
                vec![],
                Code::Unschedulable,
            ),
            (
                "extended resource capacity enforced",
                pod_req("p", &[&[("example.com/aaa", "10")]]),
                vec![],
                vec!["Insufficient example.com/aaa"],
                Code::UnschedulableAndUnresolvable,
            ),
            (
                "extended resource allocatable enforced",
                pod_req("p", &[&[("example.com/aaa", "1")]]),
                vec![pod_req("e", &[&[("example.com/aaa", "5")]])],
                vec!["Insufficient example.com/aaa"],
                Code::Unschedulable,
            ),
            (
                "unknown extended resource is insufficient",
                pod_req("p", &[&[("example.com/bbb", "1")]]),
                vec![],
                vec!["Insufficient example.com/bbb"],
                Code::UnschedulableAndUnresolvable,
            ),
            (
                "request above total allocatable is unresolvable",
                pod_req("p", &[&[("cpu", "11m")]]),
                vec![],
                vec!["Insufficient cpu"],
                Code::UnschedulableAndUnresolvable,
            ),
        ];
        for (name, p, existing, want, code) in cases {
            let refs: Vec<&Pod> = existing.iter().collect();
            let got = filter(&pod_requests(&p), &NodeInfo::new(&n, refs));
            match got {
                Ok(()) => assert!(want.is_empty(), "{name}: fits but want {want:?}"),
                Err(s) => {
                    assert_eq!(s.reasons, want, "{name}");
                    assert_eq!(s.code, code, "{name}");
                }
            }
        }
    }

    #[test]
    fn test_pods_limit() {
        // Mirrors upstream TestNotEnoughRequests / "even without specified resources, predicate fails when
        // there's no space for additional pod".
        let n = node_alloc("n", &[("cpu", "10m"), ("memory", "20"), ("pods", "1")]);
        let existing = pod_req("e", &[&[("cpu", "10m"), ("memory", "20")]]);
        let info = NodeInfo::new(&n, vec![&existing]);
        let s = filter(&pod_requests(&pod_req("p", &[])), &info).unwrap_err();
        assert_eq!(s.reasons, vec!["Too many pods"]);
        let s = filter(
            &pod_requests(&pod_req("p", &[&[("cpu", "1m"), ("memory", "1")]])),
            &info,
        )
        .unwrap_err();
        assert_eq!(
            s.reasons,
            vec!["Too many pods", "Insufficient cpu", "Insufficient memory"]
        );
        assert_eq!(s.code, Code::Unschedulable);
    }

    #[test]
    fn test_least_allocated_and_balanced() {
        // Mirrors upstream TestNodeResourcesLeastAllocated / TestNodeResourcesBalancedAllocation rows:
        // node 4000m / 10000 bytes; pod 3000m+5000 on an empty node → cpu (1000*100/4000)=25,
        // memory 50 → (25+50)/2 = 37; balanced: fractions 0.75 / 0.5 → std 0.125 → 87.
        let n = node_alloc(
            "n",
            &[("cpu", "4000m"), ("memory", "10000"), ("pods", "110")],
        );
        let p = pod_req(
            "p",
            &[
                &[("cpu", "1000m"), ("memory", "2000")],
                &[("cpu", "2000m"), ("memory", "3000")],
            ],
        );
        assert_eq!(
            least_allocated_score(&pod_non_zero_requests(&p), &NodeInfo::new(&n, vec![])),
            37
        );
        assert_eq!(
            balanced_allocation_score(&pod_requests(&p), &NodeInfo::new(&n, vec![])),
            Some(87)
        );
        // An empty node and a best-effort pod: defaults 100m/200Mi apply for LeastAllocated; balanced skips.
        let big = node_alloc("big", &[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]);
        let be = pod_req("be", &[&[]]);
        assert_eq!(
            least_allocated_score(&pod_non_zero_requests(&be), &NodeInfo::new(&big, vec![])),
            (97 + 97) / 2
        );
        assert_eq!(
            balanced_allocation_score(&pod_requests(&be), &NodeInfo::new(&big, vec![])),
            None
        );
    }

    #[test]
    fn node_info_keeps_what_its_pods_request() {
        // Upstream TestNewNodeInfo / TestNodeInfoAddPod: Requested and NonZeroRequested follow AddPod.
        let n = node_alloc("n", &[("cpu", "2"), ("memory", "4Gi"), ("pods", "110")]);
        let a = pod_req("a", &[&[("cpu", "500m"), ("memory", "1Gi")]]);
        let b = pod_req("b", &[&[]]);
        let mut info = NodeInfo::new(&n, vec![&a]);
        info.add_pod(&b);
        assert_eq!(info.pods().len(), 2);
        assert_eq!(
            (info.requested().milli_cpu, info.requested().memory),
            (500, 1 << 30)
        );
        assert_eq!(
            (
                info.non_zero_requested().milli_cpu,
                info.non_zero_requested().memory
            ),
            (
                500 + DEFAULT_MILLI_CPU_REQUEST,
                (1 << 30) + DEFAULT_MEMORY_REQUEST
            )
        );
        assert_eq!(
            (
                info.allocatable().milli_cpu,
                info.allocatable().allowed_pod_number
            ),
            (2000, 110)
        );
        // What Filter and Score read is what the pods added since request.
        let c = pod_req("c", &[&[("cpu", "1500m")]]);
        info.add_pod(&c);
        let s = filter(&pod_requests(&pod_req("p", &[&[("cpu", "1m")]])), &info).unwrap_err();
        assert_eq!(s.reasons, vec!["Insufficient cpu"]);
        // What preemption asks before it looks for victims.
        assert!(!info.has_pod_below(0) && info.has_pod_below(1));
        let mut low = pod_req("low", &[]);
        low.spec.as_mut().unwrap().priority = Some(-5);
        info.add_pod(&low);
        assert!(info.has_pod_below(0) && !info.has_pod_below(-5));
        assert!(!NodeInfo::new(&n, vec![]).has_pod_below(i32::MAX));
    }
}
