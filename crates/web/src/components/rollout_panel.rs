//! The Rollout panel: for each DaemonSet being rolled out, the maxUnavailable / maxSurge budget in
//! use, per node its pods' old/new revision and minReadySeconds countdown, and why progress
//! stopped, with the fix to try (`sim rollout`); for each StatefulSet being updated, kubectl's
//! status line and its pods on either side of the partition.

use crate::model::rollout::{RolloutPod, RolloutView, Rollouts};
use crate::model::stateful_rollout::{OrdinalPod, StatefulRolloutView};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`RolloutPanel`].
#[derive(Properties, PartialEq)]
pub struct RolloutPanelProps {
    /// Every DaemonSet and StatefulSet in progress.
    pub rollouts: Rc<Rollouts>,
}

/// One daemon pod on its node's row: revision (old/new, short hash), name, readiness and the
/// "available in Ns" countdown while minReadySeconds runs.
fn pod_badge(p: &RolloutPod) -> Html {
    let state = pod_state(p.terminating, p.ready);
    let short_hash: String = p.revision.chars().take(5).collect();
    html! {
        <span class={classes!("rp-pod", if p.new { "new" } else { "old" })}
            data-pod={p.name.clone()} data-revision={p.revision.clone()}>
            <span class="rp-rev">{format!("{} {short_hash}", if p.new { "new" } else { "old" })}</span>
            <span class="mono">{&p.name}</span>
            <span class="rp-state">{state}</span>
            if let Some(secs) = p.available_in {
                <span class="rp-countdown">{format!("available in {secs}s")}</span>
            }
        </span>
    }
}

/// What the panel says of the nodes it does not list (in progress, waiting, updated).
fn folded_text(folded: [usize; 3]) -> String {
    let parts: Vec<String> = folded
        .iter()
        .zip([
            "in progress",
            "waiting for the new revision",
            "updated and available",
        ])
        .filter(|(n, _)| **n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    format!(
        "{} more nodes not listed: {}.",
        folded.iter().sum::<usize>(),
        parts.join(", ")
    )
}

/// A pod's state as the panel words it.
fn pod_state(terminating: bool, ready: bool) -> &'static str {
    if terminating {
        "terminating"
    } else if ready {
        "ready"
    } else {
        "not ready"
    }
}

/// The Rollout panel (rendered only while something rolls out).
#[function_component(RolloutPanel)]
pub fn rollout_panel(props: &RolloutPanelProps) -> Html {
    html! {
        <section class="panel rollout" aria-label="Rollout">
            <header class="panel-head"><h2>{"Rollout"}</h2></header>
            <div class="rollout-body">
                { for props.rollouts.daemon_sets.iter().map(|RolloutView { daemon_set: name, diagnosis: d, pods }| {
                    // Pods grouped by node once (a rollout over hundreds of nodes renders often).
                    let mut by_node: BTreeMap<&str, Vec<&RolloutPod>> = BTreeMap::new();
                    for p in pods.iter() {
                        by_node.entry(p.node.as_str()).or_default().push(p);
                    }
                    html! {
                    <article class="rollout-ds" data-ds={name.clone()}>
                        <h3 class="mono">{name}<span class="count">{&d.strategy}</span></h3>
                        <p class="budget">
                            {format!("updated {}/{} · available {}/{} · budget in use {}/{} maxUnavailable, maxSurge {}",
                                d.updated, d.desired, d.available, d.desired, d.unavailable_in_use, d.max_unavailable, d.max_surge)}
                        </p>
                        <ul class="rollout-nodes">
                            { for d.nodes.iter().map(|n| html! {
                                <li key={n.node.clone()} class={classes!(n.unavailable.then_some("unavailable"))} data-node={n.node.clone()}
                                    title={n.pods.join("\n")}>
                                    <span class="mono node-label">{&n.node}</span>
                                    if n.unavailable { <span class="verdict bad">{"unavailable"}</span> }
                                    if n.pods.is_empty() { <span class="pods-text">{"no pod"}</span> }
                                    { for by_node.get(n.node.as_str()).into_iter().flatten().copied().map(pod_badge) }
                                </li>
                            }) }
                        </ul>
                        if d.nodes_folded.iter().sum::<usize>() > 0 {
                            <p class="hint folded">{folded_text(d.nodes_folded)}</p>
                        }
                        if d.problems.is_empty() {
                            <p class="progress">{"Progressing."}</p>
                        } else {
                            <ul class="problems" role="list">
                                { for d.problems.iter().map(|(problem, fix)| html! {
                                    <li><strong class="problem">{problem}</strong><span class="fix">{format!("Fix: {fix}")}</span></li>
                                }) }
                            </ul>
                        }
                    </article>
                    }
                }) }
                { for props.rollouts.stateful_sets.iter().map(stateful_set) }
            </div>
        </section>
    }
}

/// A StatefulSet: kubectl's `rollout status` line, and its pods by ordinal with a mark where the
/// partition starts (the ordinals from there up take the new template).
fn stateful_set(view: &StatefulRolloutView) -> Html {
    let pod = |p: &OrdinalPod| {
        let state = pod_state(p.terminating, p.ready);
        html! {
            <span class={classes!("rp-pod", if p.new { "new" } else { "old" })} data-pod={p.name.clone()}>
                <span class="rp-rev">{if p.new { "new" } else { "old" }}</span>
                <span class="mono">{&p.name}</span>
                <span class="rp-state">{state}</span>
            </span>
        }
    };
    let (below, from): (Vec<&OrdinalPod>, Vec<&OrdinalPod>) =
        view.pods.iter().partition(|p| p.ordinal < view.partition);
    html! {
        <article class="rollout-ds rollout-sts" data-sts={view.name.clone()}>
            <h3 class="mono">{&view.name}<span class="count">{format!("RollingUpdate, partition {}", view.partition)}</span></h3>
            <p class="budget mono">{&view.status}</p>
            <ul class="rollout-nodes">
                if !below.is_empty() {
                    <li><span class="node-label">{format!("below {}: kept", view.partition)}</span>{ for below.into_iter().map(pod) }</li>
                }
                <li><span class="node-label">{format!("from {}: updated", view.partition)}</span>{ for from.into_iter().map(pod) }</li>
            </ul>
        </article>
    }
}
