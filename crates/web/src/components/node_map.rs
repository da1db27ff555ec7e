//! The compact map of a large cluster (from [`MAP_FROM_NODES`] nodes): one cell per node coloured
//! by its state (`model::node_map`), grouped by a node label; clicking a cell (or Enter on it)
//! opens that node's card under the map. The cells are one tab stop: the arrow keys move between
//! them (a roving tab index), so thousands of nodes do not make thousands of Tab presses.

use crate::components::node_card::NodeCard;
use crate::model::node_map::{cell_state, group_keys, groups, CellState};
use crate::model::ClusterModel;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlSelectElement};
use yew::prelude::*;

pub use crate::model::node_map::MAP_FROM_NODES;

/// Props of [`NodeMap`].
#[derive(Properties, PartialEq)]
pub struct NodeMapProps {
    pub model: Rc<ClusterModel>,
    pub show_system: bool,
    pub on_command: Callback<String>,
    pub on_explain: Callback<String>,
    #[prop_or_default]
    pub selected: Option<String>,
}

/// The map.
#[function_component(NodeMap)]
pub fn node_map(props: &NodeMapProps) -> Html {
    let key = use_state(|| "role".to_string());
    let open = use_state(|| None::<String>);
    let nodes = &props.model.nodes;
    // Each node's state once (thousands of nodes, every refresh): for the legend and the cells.
    let states: std::collections::BTreeMap<&str, CellState> = nodes
        .iter()
        .map(|n| (n.name.as_str(), cell_state(n)))
        .collect();
    let mut counts = [0usize; 5];
    for state in states.values() {
        counts[CellState::ALL.iter().position(|s| s == state).unwrap_or(0)] += 1;
    }
    let on_key_change = {
        let key = key.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            {
                key.set(select.value());
            }
        })
    };
    // Arrow keys move the focus to the previous / next cell.
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        let Some(cell) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else {
            return;
        };
        let next = match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => cell.next_element_sibling(),
            "ArrowLeft" | "ArrowUp" => cell.previous_element_sibling(),
            _ => return,
        };
        e.prevent_default();
        e.stop_propagation();
        if let Some(next) = next.and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
            cell.set_tab_index(-1);
            next.set_tab_index(0);
            let _ = next.focus();
        }
    });
    let opened = (*open)
        .as_ref()
        .and_then(|name| nodes.iter().find(|n| &n.name == name).cloned());
    html! {
        <div class="node-map">
            <div class="map-bar">
                <p class="map-legend">
                    { for CellState::ALL.iter().zip(counts).map(|(s, n)| html! {
                        <span class="map-key"><span class={classes!("cell", s.name())} aria-hidden="true"></span>{format!("{} {n}", s.name())}</span>
                    }) }
                </p>
                <label class="map-group">{"Group by "}
                    <select onchange={on_key_change} aria-label="Group nodes by">
                        <option value="role" selected={*key == "role"}>{"role"}</option>
                        { for group_keys(nodes).into_iter().map(|k| html! {
                            <option value={k.clone()} selected={*key == k}>{k.clone()}</option>
                        }) }
                    </select>
                </label>
            </div>
            { for groups(nodes, &key).into_iter().map(|(value, members)| html! {
                <section class="map-group-cells" aria-label={format!("{} {value}", *key)}>
                    <h3>{format!("{value} ({})", members.len())}</h3>
                    <div class="cells" onkeydown={onkeydown.clone()}>
                        { for members.iter().enumerate().map(|(i, n)| {
                            let state = states.get(n.name.as_str()).copied().unwrap_or(CellState::Empty);
                            let name = n.name.clone();
                            let onclick = { let open = open.clone(); let name = name.clone(); Callback::from(move |_| open.set(Some(name.clone()))) };
                            html! {
                                <button key={name.clone()} type="button" data-node-cell={name.clone()}
                                    class={classes!("cell", state.name(), n.unschedulable.then_some("cordoned"), (open.as_deref() == Some(name.as_str())).then_some("open"))}
                                    tabindex={if i == 0 { "0" } else { "-1" }}
                                    title={format!("{name}: {}", state.name())} aria-label={format!("{name}: {}", state.name())} {onclick} />
                            }
                        }) }
                    </div>
                </section>
            }) }
            if let Some(node) = opened {
                <div class="map-card">
                    <NodeCard key={node.name.clone()} node={node.clone()} show_system={props.show_system} on_command={props.on_command.clone()}
                        service={props.model.service_target.clone()}
                        on_explain={props.on_explain.clone()} selected={props.selected.as_deref() == Some(node.name.as_str())} />
                </div>
            }
        </div>
    }
}
