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

/// At most this many chips in a list of pods off the nodes: a Deployment larger than the cluster
/// leaves thousands pending, and drawing a chip for each took the page seconds.
pub const POD_LIST_LIMIT: usize = 100;

/// The command that lists every pod on no node, as the "Not scheduled" list's overflow offers it.
pub const LIST_UNSCHEDULED: &str = "kubectl get pods -A --field-selector spec.nodeName=";

/// The pods of a list to draw (kube-system ones only if `show_system`): at most
/// [`POD_LIST_LIMIT`], and how many more there are.
pub fn first_shown(pods: &[PodView], show_system: bool) -> (Vec<&PodView>, usize) {
    let mut shown = pods.iter().filter(|p| show_system || !p.system);
    let first: Vec<&PodView> = shown.by_ref().take(POD_LIST_LIMIT).collect();
    (first, shown.count())
}

/// A list of pods off the nodes: heading, optional hint, chips, and past the limit how many more
/// there are (with the command that lists them all, if any).
fn pod_list(
    class: Classes,
    heading: &str,
    hint: Option<&str>,
    (pods, more): (Vec<&PodView>, usize),
    list_all: Option<Html>,
) -> Html {
    if pods.is_empty() {
        return html! {};
    }
    html! {
        <div class={class}>
            <h3>{heading}</h3>
            if let Some(hint) = hint {
                <p class="hint">{hint}</p>
            }
            <ul class="pods">
                { for pods.into_iter().map(|p| html! { <PodChip key={p.uid.clone()} pod={p.clone()} /> }) }
            </ul>
            if more > 0 {
                <p class="hint more">{format!("… and {more} more")}{list_all}</p>
            }
        </div>
    }
}

/// The node cards.
#[function_component(ClusterView)]
pub fn cluster_view(props: &ClusterViewProps) -> Html {
    let read_only = crate::read_only::use_read_only();
    let list_unscheduled = if read_only {
        html! { <>{": "}<code>{LIST_UNSCHEDULED}</code></> }
    } else {
        let on_command = props.on_command.clone();
        html! {
            <>{": "}<button class="cmd" title="Run in the terminal"
                onclick={Callback::from(move |_: MouseEvent| on_command.emit(LIST_UNSCHEDULED.to_string()))}>
                {LIST_UNSCHEDULED}
            </button></>
        }
    };
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
            { pod_list(classes!("unscheduled"), "Not scheduled", None,
                first_shown(&props.model.unscheduled, props.show_system), Some(list_unscheduled)) }
            { pod_list(classes!("unscheduled", "on-deleted-nodes"), "On deleted nodes",
                Some("Their node object is gone; the API lists them with their last status until the pod garbage collector deletes them (about 40 s)."),
                first_shown(&props.model.on_deleted_nodes, props.show_system), None) }
            <Traffic flights={props.flights.clone()} />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_kubectl::{Session, SessionOptions};

    #[test]
    fn a_long_list_of_pending_pods_draws_the_first_ones_and_counts_the_rest() {
        let mut session = Session::new(SessionOptions::default());
        session.execute("kubectl delete node kind-worker2 kind-worker");
        session.execute("kubectl create deployment big --image=nginx --replicas=130");
        session.execute("kubectl create deployment small --image=nginx --replicas=2");
        session.execute("sim advance 5s");
        let listed: String = session
            .execute(LIST_UNSCHEDULED)
            .iter()
            .map(|o| o.text())
            .collect();
        let pending = listed.lines().filter(|l| l.contains(" Pending ")).count();
        assert_eq!(pending, 132, "{listed}");
        let cluster = session.cluster();
        let model = ClusterModel::from_store(cluster.store(), cluster.now());
        let (first, more) = first_shown(&model.unscheduled, false);
        assert_eq!(
            (first.len(), more),
            (POD_LIST_LIMIT, pending - POD_LIST_LIMIT)
        );
        assert_eq!(first_shown(&model.unscheduled[..5], false).1, 0);
    }

    #[test]
    fn hidden_kube_system_pods_are_neither_drawn_nor_counted() {
        let mut session = Session::new(SessionOptions::default());
        session.execute("kubectl delete node kind-worker2");
        let cluster = session.cluster();
        let model = ClusterModel::from_store(cluster.store(), cluster.now());
        let system = model.on_deleted_nodes.iter().filter(|p| p.system).count();
        assert!(system >= 2, "kube-proxy and kindnet were on the node");
        assert_eq!(
            first_shown(&model.on_deleted_nodes, true).0.len(),
            model.on_deleted_nodes.len()
        );
        let (drawn, more) = first_shown(&model.on_deleted_nodes, false);
        assert_eq!(drawn.len() + more, model.on_deleted_nodes.len() - system);
    }
}
