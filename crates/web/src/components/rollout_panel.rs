//! The Rollout panel: for each DaemonSet being rolled out, the maxUnavailable / maxSurge budget in
//! use, old/new pods per node, and why progress stopped, with the fix to try (`sim rollout`).

use dsplay_sim::explain::RolloutDiagnosis;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`RolloutPanel`].
#[derive(Properties, PartialEq)]
pub struct RolloutPanelProps {
    /// `(namespace/name, diagnosis)` per DaemonSet in progress.
    pub rollouts: Rc<Vec<(String, RolloutDiagnosis)>>,
}

/// The Rollout panel (rendered only while something rolls out).
#[function_component(RolloutPanel)]
pub fn rollout_panel(props: &RolloutPanelProps) -> Html {
    html! {
        <section class="panel rollout" aria-label="Rollout">
            <header class="panel-head"><h2>{"Rollout"}</h2></header>
            <div class="rollout-body">
                { for props.rollouts.iter().map(|(name, d)| html! {
                    <article class="rollout-ds" data-ds={name.clone()}>
                        <h3 class="mono">{name}<span class="count">{&d.strategy}</span></h3>
                        <p class="budget">
                            {format!("updated {}/{} · available {}/{} · budget in use {}/{} maxUnavailable, maxSurge {}",
                                d.updated, d.desired, d.available, d.desired, d.unavailable_in_use, d.max_unavailable, d.max_surge)}
                        </p>
                        <ul class="rollout-nodes">
                            { for d.nodes.iter().map(|n| html! {
                                <li class={classes!(n.unavailable.then_some("unavailable"))} data-node={n.node.clone()}>
                                    <span class="mono node-label">{&n.node}</span>
                                    if n.unavailable { <span class="verdict bad">{"unavailable"}</span> }
                                    <span class="mono pods-text">{ if n.pods.is_empty() { "no pod".to_string() } else { n.pods.join(", ") } }</span>
                                </li>
                            }) }
                        </ul>
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
                }) }
            </div>
        </section>
    }
}
