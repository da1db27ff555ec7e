//! The compact map of a large cluster (from [`MAP_FROM_NODES`] nodes): one cell per node coloured
//! by its state (`model::node_map`), grouped by a node label; clicking a cell (or Enter on it)
//! opens that node's card under the map. A group's cells are one tab stop: the arrow keys, Home
//! and End move between them (a roving tab index), so thousands of nodes do not make thousands of
//! Tab presses.

use crate::components::node_card::NodeCard;
use crate::model::node_map::{cell_state, groups, CellState};
use crate::model::{ClusterModel, NodeView};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlSelectElement};
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
    let mut counts = [0usize; 5];
    for node in nodes.iter() {
        let state = cell_state(node);
        counts[CellState::ALL.iter().position(|s| *s == state).unwrap_or(0)] += 1;
    }
    // One callback for every cell, the same on each render (so an unchanged cell is not rendered
    // again).
    let on_open = {
        let open = open.setter();
        use_callback((), move |name: String, _| open.set(Some(name)))
    };
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
    // Left / Right move the focus to the previous / next cell, Up / Down to the nearest cell of
    // the row above / below, Home / End to the group's first / last cell.
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        let Some(cell) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else {
            return;
        };
        // The group's cells (Yew delegates events: the current target is not the group).
        let Some(group) = cell.closest(".cells").ok().flatten() else {
            return;
        };
        let cells = || group_cells(&group);
        // Within a run of cells, then to the next (previous) run's first (last) cell.
        let run = || cell.parent_element();
        let next = match e.key().as_str() {
            "ArrowRight" => cell
                .next_element_sibling()
                .or_else(|| run()?.next_element_sibling()?.first_element_child()),
            "ArrowLeft" => cell
                .previous_element_sibling()
                .or_else(|| run()?.previous_element_sibling()?.last_element_child()),
            "ArrowDown" => cell_in_next_row(&cell, cells(), 1.0),
            "ArrowUp" => cell_in_next_row(&cell, cells(), -1.0),
            "Home" => cells().into_iter().next(),
            "End" => cells().pop(),
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
                        { for props.model.label_keys.iter().map(|k| html! {
                            <option value={k.clone()} selected={*key == *k}>{k.clone()}</option>
                        }) }
                    </select>
                </label>
            </div>
            { for groups(nodes, &key).into_iter().map(|(value, members)| html! {
                <section class="map-group-cells" aria-label={format!("{} {value}", *key)}>
                    <h3>{format!("{value} ({})", members.len())}</h3>
                    <div class="cells" onkeydown={onkeydown.clone()}>
                        { for members.chunks(CELLS_PER_CHUNK).enumerate().map(|(i, chunk)| {
                            let open = (*open).clone().filter(|o| chunk.iter().any(|n| n.name == *o));
                            html! {
                                <MapChunk key={chunk[0].name.clone()} nodes={chunk.iter().map(|n| (*n).clone()).collect::<Vec<_>>()}
                                    first={i == 0} {open} on_open={on_open.clone()} />
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

/// A group's cells, in order.
fn group_cells(group: &Element) -> Vec<Element> {
    let Ok(list) = group.query_selector_all("[data-node-cell]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// The cell of the nearest row below (`direction` 1) or above (-1) `cell` whose centre is
/// closest to `cell`'s, as the cells wrap at the map's width; `None` from the last (first) row.
fn cell_in_next_row(cell: &Element, cells: Vec<Element>, direction: f64) -> Option<Element> {
    let centre = |r: &web_sys::DomRect| (r.left() + r.width() / 2.0, r.top() + r.height() / 2.0);
    let (x, y) = centre(&cell.get_bounding_client_rect());
    let placed: Vec<(f64, f64, Element)> = cells
        .into_iter()
        .map(|c| {
            let (cx, cy) = centre(&c.get_bounding_client_rect());
            (cx, cy, c)
        })
        .filter(|(_, cy, _)| (cy - y) * direction > 1.0)
        .collect();
    let row = placed
        .iter()
        .map(|(_, cy, _)| (cy - y) * direction)
        .fold(f64::INFINITY, f64::min);
    placed
        .into_iter()
        .filter(|(_, cy, _)| ((cy - y) * direction - row).abs() < 1.0)
        .min_by(|a, b| (a.0 - x).abs().total_cmp(&(b.0 - x).abs()))
        .map(|(_, _, c)| c)
}

/// How many cells one [`MapChunk`] renders: a refresh that changes a few nodes renders and diffs
/// the chunks holding them, not thousands of cells (the map renders on every frame while the
/// clock plays).
const CELLS_PER_CHUNK: usize = 100;

/// Props of [`MapChunk`].
#[derive(Properties, PartialEq)]
struct MapChunkProps {
    /// Its nodes' views (compared by pointer first: an unchanged view is the same `Rc`).
    nodes: Vec<Rc<NodeView>>,
    /// The group's first chunk (its first cell is the group's tab stop).
    first: bool,
    /// The node among these whose card is open under the map.
    open: Option<String>,
    on_open: Callback<String>,
}

/// How many cells a run holds: the map is drawn in runs of ten, each painted on its own (see
/// `.cell-run` in the stylesheet).
const CELLS_PER_RUN: usize = 10;
// A chunk holds whole runs: every run but a group's last has ten cells.
const _: () = assert!(CELLS_PER_CHUNK.is_multiple_of(CELLS_PER_RUN));

/// A chunk's cells in runs of [`CELLS_PER_RUN`], as siblings of the other chunks' runs (a
/// fragment: the arrow keys move from cell to cell and from run to run across chunks).
#[function_component(MapChunk)]
fn map_chunk(props: &MapChunkProps) -> Html {
    html! {
        <>
            { for props.nodes.chunks(CELLS_PER_RUN).enumerate().map(|(r, run)| html! {
                <div class="cell-run" key={run[0].name.clone()}>
                    { for run.iter().enumerate().map(|(i, n)| html! {
                        <MapCell key={n.name.clone()} node={n.clone()} first={props.first && r == 0 && i == 0}
                            open={props.open.as_deref() == Some(n.name.as_str())} on_open={props.on_open.clone()} />
                    }) }
                </div>
            }) }
        </>
    }
}

/// Props of [`MapCell`].
#[derive(Properties, PartialEq)]
struct MapCellProps {
    node: Rc<NodeView>,
    /// The group's first cell (its tab stop).
    first: bool,
    /// Its card is open under the map.
    open: bool,
    /// Opens a node's card.
    on_open: Callback<String>,
}

/// One node's cell: rendered again only when its node view changes (the views of unchanged
/// nodes are the same `Rc` from one refresh to the next).
#[function_component(MapCell)]
fn map_cell(props: &MapCellProps) -> Html {
    let node = &props.node;
    let state = cell_state(node).name();
    let onclick = props.on_open.reform({
        let name = node.name.clone();
        move |_| name.clone()
    });
    html! {
        <button type="button" data-node-cell={node.name.clone()}
            class={classes!("cell", state, node.unschedulable.then_some("cordoned"), props.open.then_some("open"))}
            tabindex={if props.first { "0" } else { "-1" }}
            title={format!("{}: {state}", node.name)} aria-label={format!("{}: {state}", node.name)} {onclick} />
    }
}
