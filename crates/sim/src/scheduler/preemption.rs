//! PostFilter = DefaultPreemption: find lower-priority victims whose removal lets the pod fit, pick one
//! node, and build the ` preemption: …` part of the FitError when that fails.
//!
//! Upstream: `pkg/scheduler/framework/preemption/preemption.go` (`Evaluator.Preempt`, `findCandidates`,
//! `SelectCandidate`, `pickOneNodeForPreemption`, `nodesWherePreemptionMightHelp`) and
//! `plugins/defaultpreemption/default_preemption.go` (`SelectVictimsOnNode`, `PodEligibleToPreemptOthers`).
//! PodDisruptionBudgets are not modelled (every victim is "non-violating"), and every potential node is
//! dry-run (upstream samples max(10 %, 100) nodes from a random offset; identical for clusters ≤ 100 nodes).

use super::fit_error::{Diagnosis, FitError};
use super::{
    pod_key, pod_priority, run_filters, Code, CycleState, ScheduleResult, Snapshot, Status,
};
use dsplay_api::types::{Pod, PodCondition};
use std::cmp::Reverse;

/// Reason of the per-node status when no pod on it has lower priority.
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";
/// Status of nodes preemption did not consider (failed with UnschedulableAndUnresolvable, or absent).
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
/// `PodEligibleToPreemptOthers` message for `preemptionPolicy: Never`.
pub const NOT_ELIGIBLE_NEVER: &str = "not eligible due to preemptionPolicy=Never.";
/// `PodEligibleToPreemptOthers` message while earlier victims are still terminating.
pub const NOT_ELIGIBLE_TERMINATING: &str =
    "not eligible due to a terminating pod on the nominated node.";
/// Event reason on each victim.
pub const PREEMPTED_REASON: &str = "Preempted";

/// `Preempted by pod <uid> on node <node>`: the Normal event the caller records on each victim
/// (falls back to `<ns>/<name>` when the preemptor has no uid).
pub fn victim_event_message(preemptor: &Pod, node: &str) -> String {
    let who = match preemptor.metadata.uid.as_deref() {
        Some(uid) if !uid.is_empty() => uid.to_string(),
        _ => {
            let (ns, name) = pod_key(preemptor);
            format!("{ns}/{name}")
        }
    };
    format!("Preempted by pod {who} on node {node}")
}

/// The condition upstream patches onto each victim before deleting it:
/// `DisruptionTarget=True reason=PreemptionByScheduler`. The caller must set it (with a
/// lastTransitionTime): it is how a retried preemptor recognises its victims are still terminating.
pub fn disruption_target_condition(preemptor: &Pod) -> PodCondition {
    let scheduler = preemptor
        .spec
        .as_ref()
        .and_then(|s| s.scheduler_name.as_deref())
        .unwrap_or("default-scheduler");
    PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        reason: Some("PreemptionByScheduler".into()),
        message: Some(format!(
            "{scheduler}: preempting to accommodate a higher priority pod"
        )),
        ..Default::default()
    }
}

/// Whether a pod is being deleted because the scheduler preempted it. Upstream: `podTerminatingByPreemption`.
pub fn pod_terminating_by_preemption(pod: &Pod) -> bool {
    if pod.metadata.deletion_timestamp.is_none() {
        return false;
    }
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "DisruptionTarget"))
        .is_some_and(|c| c.status == "True" && c.reason.as_deref() == Some("PreemptionByScheduler"))
}

/// `Err(message)` when the pod may not preempt: `preemptionPolicy: Never`, or (when its nominated node is
/// not UnschedulableAndUnresolvable) a lower-priority pod there is still terminating by preemption.
/// Upstream: `PodEligibleToPreemptOthers`.
pub fn pod_eligible_to_preempt_others(
    pod: &Pod,
    snapshot: &Snapshot,
    diagnosis: &Diagnosis,
) -> Result<(), &'static str> {
    if pod
        .spec
        .as_ref()
        .and_then(|s| s.preemption_policy.as_deref())
        == Some("Never")
    {
        return Err(NOT_ELIGIBLE_NEVER);
    }
    let nominated = pod
        .status
        .as_ref()
        .and_then(|s| s.nominated_node_name.as_deref())
        .unwrap_or("");
    if nominated.is_empty() {
        return Ok(());
    }
    let Some(index) = snapshot.nodes().iter().position(|n| n.name() == nominated) else {
        return Ok(());
    };
    if diagnosis
        .status_of(index)
        .is_some_and(|s| s.code == Code::UnschedulableAndUnresolvable)
    {
        return Ok(());
    }
    let priority = pod_priority(pod);
    let node = &snapshot.nodes()[index];
    if node
        .pods()
        .iter()
        .any(|p| pod_priority(p) < priority && pod_terminating_by_preemption(p))
    {
        return Err(NOT_ELIGIBLE_TERMINATING);
    }
    Ok(())
}

/// Sort key of `MoreImportantPod`: higher priority first, then earlier start time (unset = now = latest).
fn importance_key(p: &Pod) -> (Reverse<i32>, bool, Option<chrono::DateTime<chrono::Utc>>) {
    let start = p
        .status
        .as_ref()
        .and_then(|s| s.start_time.as_ref())
        .map(|t| t.0);
    (Reverse(pod_priority(p)), start.is_none(), start)
}

/// The minimal victim set on node `index`: remove every lower-priority pod, check the pod fits, then
/// reprieve pods from most to least important while it still fits. `Err` carries the node's status for the
/// preemption histogram. Upstream: `SelectVictimsOnNode`.
pub fn select_victims_on_node<'a>(
    pod: &Pod,
    state: &CycleState,
    snapshot: &Snapshot<'a>,
    index: usize,
) -> Result<Vec<&'a Pod>, Status> {
    let node_info = &snapshot.nodes()[index];
    let mut potential: Vec<&'a Pod> = Vec::new();
    if node_info.has_pod_below(state.priority) {
        potential.extend(
            node_info
                .pods()
                .iter()
                .copied()
                .filter(|p| pod_priority(p) < state.priority),
        );
    }
    if potential.is_empty() {
        return Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            "DefaultPreemption",
            NO_VICTIMS,
        ));
    }
    let fits = |removed: &[&Pod]| {
        let info = snapshot.node_for_filter(index, pod, state.priority, removed);
        let state = snapshot.state_on_node(index, pod, state, removed);
        run_filters(pod, &state, &info)
    };
    fits(&potential)?;
    potential.sort_by_key(|p| importance_key(p));
    let mut removed: Vec<&'a Pod> = potential.clone();
    let mut victims = Vec::new();
    for p in potential {
        removed.retain(|r| !std::ptr::eq(*r, p));
        if fits(&removed).is_err() {
            removed.push(p);
            victims.push(p);
        }
    }
    Ok(victims)
}

/// Chooses among (node index, victims sorted by importance). Rules in order: a node needing no victims;
/// (fewest PDB violations — always 0 here); lowest highest-victim priority; smallest priority sum (each
/// shifted by 2^31 as upstream); fewest victims; latest earliest-start among the highest-priority victims;
/// first candidate. Upstream: `pickOneNodeForPreemption`.
pub fn pick_one_node_for_preemption(candidates: &[(usize, Vec<&Pod>)]) -> Option<usize> {
    if let Some((i, _)) = candidates.iter().find(|(_, v)| v.is_empty()) {
        return Some(*i);
    }
    let highest = |v: &[&Pod]| v.iter().map(|p| pod_priority(p)).max().unwrap_or(i32::MIN);
    let sum = |v: &[&Pod]| {
        v.iter()
            .map(|p| i64::from(pod_priority(p)) + (1i64 << 31))
            .sum::<i64>()
    };
    let earliest_of_highest = |v: &[&Pod]| {
        let h = highest(v);
        v.iter()
            .filter(|p| pod_priority(p) == h)
            .map(|p| {
                let (_, none, t) = importance_key(p);
                (none, t)
            })
            .min()
    };
    let mut best: Vec<&(usize, Vec<&Pod>)> = candidates.iter().collect();
    let keep_min = |best: &mut Vec<&(usize, Vec<&Pod>)>, key: &dyn Fn(&[&Pod]) -> i64| {
        let m = best.iter().map(|(_, v)| key(v)).min();
        best.retain(|(_, v)| Some(key(v)) == m);
    };
    keep_min(&mut best, &|v| i64::from(highest(v)));
    keep_min(&mut best, &sum);
    keep_min(&mut best, &|v| v.len() as i64);
    let latest = best
        .iter()
        .map(|(_, v)| earliest_of_highest(v))
        .max()
        .flatten();
    best.retain(|(_, v)| earliest_of_highest(v) == latest);
    best.first().map(|(i, _)| *i)
}

fn not_helpful() -> Status {
    Status::new(Code::UnschedulableAndUnresolvable, "", NOT_HELPFUL)
}

/// Runs preemption for a pod that fit nowhere and assembles the scheduler's result: the FitError text
/// (with ` preemption: …` when preemption failed, without it when a node was nominated), the nominated
/// node and the victims. `state` is None when a PreFilter rejected the pod. Upstream: `Evaluator.Preempt`
/// + `DefaultPreemption.PostFilter` + `schedulingCycle`'s FitError handling.
pub fn post_filter(
    pod: &Pod,
    snapshot: &Snapshot,
    state: Option<&CycleState>,
    diagnosis: Diagnosis,
) -> ScheduleResult {
    let n = diagnosis.num_all_nodes;
    let (post_filter_msg, nominated_node, victims) = match preempt(pod, snapshot, state, &diagnosis)
    {
        Ok((index, victims)) => (
            String::new(),
            Some(snapshot.nodes()[index].name().to_string()),
            victims.iter().map(|p| pod_key(p)).collect(),
        ),
        Err(msg) => (format!("preemption: {msg}"), None, Vec::new()),
    };
    debug_assert_eq!(n, snapshot.nodes().len());
    let message = FitError {
        diagnosis,
        post_filter_msg,
    }
    .to_string();
    ScheduleResult::Unschedulable {
        message,
        nominated_node,
        victims,
    }
}

/// `Ok((node index, victims))`, or `Err(message)` without the `preemption: ` prefix.
fn preempt<'a>(
    pod: &Pod,
    snapshot: &Snapshot<'a>,
    state: Option<&CycleState>,
    diagnosis: &Diagnosis,
) -> Result<(usize, Vec<&'a Pod>), String> {
    pod_eligible_to_preempt_others(pod, snapshot, diagnosis).map_err(str::to_string)?;
    let mut potential = match state {
        Some(_) => diagnosis.resolvable_nodes(),
        None => Vec::new(),
    };
    potential.sort_unstable();
    let mut statuses = Vec::new();
    let mut candidates = Vec::new();
    if let Some(state) = state {
        for &i in &potential {
            match select_victims_on_node(pod, state, snapshot, i) {
                Ok(victims) => candidates.push((i, victims)),
                Err(status) => statuses.push((i, status)),
            }
        }
    }
    if let Some(index) = pick_one_node_for_preemption(&candidates) {
        let victims = candidates
            .into_iter()
            .find(|(i, _)| *i == index)
            .map(|(_, v)| v)
            .unwrap_or_default();
        return Ok((index, victims));
    }
    let fit_error = FitError {
        diagnosis: Diagnosis {
            num_all_nodes: diagnosis.num_all_nodes,
            statuses,
            absent: Some(not_helpful()),
            pre_filter_msg: None,
        },
        post_filter_msg: String::new(),
    };
    Err(fit_error.to_string())
}
