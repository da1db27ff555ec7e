//! The cluster: one card per node, pods waiting for a node, and the kube-system toggle.

use crate::components::node_card::NodeCard;
use crate::components::node_map::{NodeMap, MAP_FROM_NODES};
use crate::components::pod_chip::{owner_class, owner_short, PodChip};
use crate::components::traffic::Traffic;
use crate::model::traffic::Flight;
use crate::model::{ClusterModel, PodView};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`ClusterView`].
#[derive(Properties, PartialEq)]
pub struct ClusterViewProps {
    /// Nodes and pods.
    pub model: Rc<ClusterModel>,
    /// Draw kube-system pods.
    pub show_system: bool,
    /// Show / hide kube-system pods.
    pub on_toggle_system: Callback<()>,
    /// Runs a command (echoed in the terminal).
    pub on_command: Callback<String>,
    /// Opens the add-node dialog.
    pub on_add_node: Callback<()>,
    /// Opens the Explain panel for a node.
    pub on_explain: Callback<String>,
    /// The node whose Explain panel is open.
    #[prop_or_default]
    pub selected: Option<String>,
    /// Requests to animate (the last command's `sim curl`s).
    #[prop_or_default]
    pub flights: Rc<Vec<Flight>>,
}

/// The node cards.
#[function_component(ClusterView)]
pub fn cluster_view(props: &ClusterViewProps) -> Html {
    let read_only = crate::read_only::use_read_only();
    let shown = |pods: &[PodView]| -> Vec<PodView> {
        pods.iter()
            .filter(|p| props.show_system || !p.system)
            .cloned()
            .collect()
    };
    let unscheduled = shown(&props.model.unscheduled);
    let on_deleted_nodes = shown(&props.model.on_deleted_nodes);
    // During a rolling update: how old and new revisions look (a pattern and a font, not only hue).
    let rolling = props
        .model
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .any(|p| !p.current_revision);
    // With workloads of more than one kind: what the owner badges mean.
    let mut owner_kinds: Vec<&str> = props
        .model
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .filter(|p| !p.system)
        .map(|p| p.owner_kind.as_str())
        .filter(|k| matches!(*k, "DaemonSet" | "Deployment" | "StatefulSet"))
        .collect();
    owner_kinds.sort_unstable();
    owner_kinds.dedup();
    // Large clusters start as a map; the learner can switch (None: the default for the size).
    let map_choice = use_state(|| None::<bool>);
    let large = props.model.nodes.len() >= MAP_FROM_NODES;
    let as_map = map_choice.unwrap_or(large);
    html! {
        <section class="panel cluster" aria-label="Cluster">
            <header class="panel-head">
                <h2>{"Cluster"}<span class="count">{format!("{} nodes", props.model.nodes.len())}</span></h2>
                <label class="toggle">
                    <input type="checkbox" checked={props.show_system} onchange={props.on_toggle_system.reform(|_| ())} />
                    {"kube-system pods"}
                </label>
                if large || map_choice.is_some() {
                    <button class="btn" aria-pressed={as_map.to_string()}
                        onclick={let c = map_choice.clone(); Callback::from(move |_| c.set(Some(!as_map)))}>
                        {if as_map { "Cards" } else { "Map" }}
                    </button>
                }
                if !read_only {
                    <button class="btn" onclick={props.on_add_node.reform(|_| ())}>
                        <span aria-hidden="true" class="icon">{"+"}</span>{"Add node"}
                    </button>
                }
            </header>
            if rolling {
                <p class="rev-legend">
                    <span class="rev-swatch rev-current" aria-hidden="true"></span>{"new revision"}
                    <span class="rev-swatch rev-old" aria-hidden="true"></span><i>{"old revision"}</i>
                    {" · the chip shows the image tag"}
                </p>
            }
            if owner_kinds.len() > 1 {
                <p class="rev-legend owner-legend">
                    { for owner_kinds.iter().map(|kind| html! {
                        <>
                            <span class={classes!("pod-owner", owner_class(kind))} aria-hidden="true">{owner_short(kind)}</span>
                            {format!("{kind} ")}
                        </>
                    }) }
                </p>
            }
            if as_map {
                <NodeMap model={props.model.clone()} show_system={props.show_system} on_command={props.on_command.clone()}
                    on_explain={props.on_explain.clone()} selected={props.selected.clone()} />
            } else {
            <div class="nodes">
                { for props.model.nodes.iter().map(|n| html! {
                    <NodeCard key={n.name.clone()} node={n.clone()} show_system={props.show_system} on_command={props.on_command.clone()}
                        service={props.model.service_target.clone()}
                        on_explain={props.on_explain.clone()} selected={props.selected.as_deref() == Some(n.name.as_str())} />
                }) }
                if props.model.nodes.is_empty() {
                    <p class="empty">{"No nodes. Add one with “Add node” or "}<code>{"sim node add NAME"}</code>{"."}</p>
                }
            </div>
            }
            if !unscheduled.is_empty() {
                <div class="unscheduled">
                    <h3>{"Not scheduled"}</h3>
                    <ul class="pods">
                        { for unscheduled.into_iter().map(|p| html! { <PodChip key={p.uid.clone()} pod={p.clone()} /> }) }
                    </ul>
                </div>
            }
            if !on_deleted_nodes.is_empty() {
                <div class="unscheduled on-deleted-nodes">
                    <h3>{"On deleted nodes"}</h3>
                    <p class="hint">{"Their node object is gone; the API lists them with their last status until the pod garbage collector deletes them (about 40 s)."}</p>
                    <ul class="pods">
                        { for on_deleted_nodes.into_iter().map(|p| html! { <PodChip key={p.uid.clone()} pod={p.clone()} /> }) }
                    </ul>
                </div>
            }
            <Traffic flights={props.flights.clone()} />
        </section>
    }
}
