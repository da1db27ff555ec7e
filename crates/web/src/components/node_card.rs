//! One node: status, role, labels, taints, resource bars, its pods, and the node actions.

use crate::components::pod_chip::PodChip;
use crate::model::{format_cpu, format_memory, NodeView};
use crate::shell::shell_quote;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`NodeCard`].
#[derive(Properties, PartialEq)]
pub struct NodeCardProps {
    /// The node and its pods.
    pub node: Rc<NodeView>,
    /// Draw kube-system pods.
    pub show_system: bool,
    /// Runs a command (echoed in the terminal).
    pub on_command: Callback<String>,
    /// Opens the Explain panel for this node.
    pub on_explain: Callback<String>,
    /// This node's Explain panel is open.
    #[prop_or_default]
    pub selected: bool,
    /// A Service of the learner's to send a request to from this node (`sim curl --from node/…`):
    /// its name and URL.
    #[prop_or_default]
    pub service: Option<(String, String)>,
}

/// A bar of requested vs allocatable.
fn bar(label: &'static str, used: i128, total: i128, text: String) -> Html {
    let pct = if total > 0 {
        (used * 100 / total).clamp(0, 100)
    } else {
        0
    };
    html! {
        <div class="bar" title={format!("{label}: {text}")}>
            <span class="bar-label">{label}</span>
            <span class="bar-track"><span class="bar-fill" style={format!("width: {pct}%")}></span></span>
            <span class="bar-text">{text}</span>
        </div>
    }
}

/// A node card.
#[function_component(NodeCard)]
pub fn node_card(props: &NodeCardProps) -> Html {
    let node = &props.node;
    let editing = use_state(|| false);
    let read_only = crate::read_only::use_read_only();
    let label_input = use_node_ref();
    let taint_input = use_node_ref();
    {
        // Opening the editor moves the focus into it (before Delete in the tab order).
        let label_input = label_input.clone();
        use_effect_with(*editing, move |editing| {
            if let Some(el) = label_input.cast::<HtmlInputElement>().filter(|_| *editing) {
                let _ = el.focus();
            }
        });
    }
    let name = node.name.clone();
    let cmd = |line: String| {
        let cb = props.on_command.clone();
        Callback::from(move |_: MouseEvent| cb.emit(line.clone()))
    };
    let status_class = match (node.ready, node.unschedulable) {
        (true, false) => "ok",
        (true, true) => "warn",
        (false, _) => "bad",
    };
    let failed = !node.ready;
    let submit = |input: NodeRef, build: fn(&str, &str) -> String| {
        let cb = props.on_command.clone();
        let name = name.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(el) = input.cast::<HtmlInputElement>() {
                let value = el.value();
                if !value.trim().is_empty() {
                    cb.emit(build(&name, value.trim()));
                    el.set_value("");
                }
            }
        })
    };
    let on_label = submit(label_input.clone(), |n, v| {
        format!("kubectl label nodes {n} {} --overwrite", shell_quote(v))
    });
    let on_taint = submit(taint_input.clone(), |n, v| {
        format!("kubectl taint nodes {n} {}", shell_quote(v))
    });
    let pods: Vec<_> = node
        .pods
        .iter()
        .filter(|p| props.show_system || !p.system)
        .collect();
    html! {
        <article class={classes!("node", status_class, failed.then_some("failed"), props.selected.then_some("selected"))} data-node={name.clone()} aria-label={format!("Node {name}")}>
            <header class="node-head">
                <h3 class="node-name" title={format!("{name}: click to explain")}
                    onclick={let cb = props.on_explain.clone(); let n = name.clone(); Callback::from(move |_| cb.emit(n.clone()))}>{&name}</h3>
                <span class={classes!("node-status", status_class)}>{node.status.clone()}</span>
            </header>
            <ul class="chips labels" aria-label={format!("Labels of {name}")}>
                <li class="chip role">{node.role}</li>
                { for node.labels.iter().map(|(k, v)| {
                    let remove = format!("kubectl label nodes {name} {}-", shell_quote(k));
                    html! {
                        <li class="chip label" title={format!("{k}={v}")}>
                            <span class="chip-text">{ if v.is_empty() { k.clone() } else { format!("{k}={v}") } }</span>
                            if *editing {
                                <button class="chip-x" aria-label={format!("Remove label {k}")} onclick={cmd(remove)}>{"×"}</button>
                            }
                        </li>
                    }
                }) }
            </ul>
            if !node.taints.is_empty() {
                <ul class="chips taints" aria-label={format!("Taints of {name}")}>
                    { for node.taints.iter().map(|t| {
                        // `key=value:Effect` is removed with `key:Effect-`.
                        let (kv, effect) = t.rsplit_once(':').unwrap_or((t, ""));
                        let key = kv.split('=').next().unwrap_or(kv);
                        let remove = format!("kubectl taint nodes {name} {}", shell_quote(&format!("{key}:{effect}-")));
                        html! {
                            <li class="chip taint" title={format!("taint {t}")}>
                                <span class="chip-text">{t}</span>
                                if *editing {
                                    <button class="chip-x" aria-label={format!("Remove taint {t}")} onclick={cmd(remove)}>{"×"}</button>
                                }
                            </li>
                        }
                    }) }
                </ul>
            }
            <div class="bars">
                { bar("cpu", node.cpu.0, node.cpu.1, format!("{}/{}", format_cpu(node.cpu.0), format_cpu(node.cpu.1))) }
                { bar("mem", node.memory.0, node.memory.1, format!("{}/{}", format_memory(node.memory.0), format_memory(node.memory.1))) }
                { bar("pods", node.pods_count.0, node.pods_count.1, format!("{}/{}", node.pods_count.0, node.pods_count.1)) }
            </div>
            <ul class="pods" aria-label={format!("Pods on {name}")}>
                { for pods.into_iter().map(|p| html! { <PodChip key={p.uid.clone()} pod={p.clone()} /> }) }
            </ul>
            if *editing {
                <div class="node-edit">
                    <form onsubmit={on_label}>
                        <input ref={label_input} placeholder="key=value" aria-label={format!("Label for {name}")} />
                        <button class="btn small" type="submit">{"Set label"}</button>
                    </form>
                    <form onsubmit={on_taint}>
                        <input ref={taint_input} placeholder="key=value:NoSchedule" aria-label={format!("Taint for {name}")} />
                        <button class="btn small" type="submit">{"Add taint"}</button>
                    </form>
                </div>
            }
            <footer class="node-actions">
                <button class={classes!("btn", "small", "explain-btn", props.selected.then_some("active"))} aria-label="Explain"
                    title={format!("Why DaemonSets do (not) run a pod on {name}")}
                    onclick={let cb = props.on_explain.clone(); let n = name.clone(); Callback::from(move |_| cb.emit(n.clone()))}>{"Explain"}</button>
                if !read_only {
                    if node.unschedulable {
                        <button class="btn small" aria-label={format!("Uncordon {name}")} onclick={cmd(format!("kubectl uncordon {name}"))}>{"Uncordon"}</button>
                    } else {
                        <button class="btn small" aria-label={format!("Cordon {name}")} onclick={cmd(format!("kubectl cordon {name}"))}>{"Cordon"}</button>
                    }
                    if failed {
                        <button class="btn small" aria-label={format!("Recover {name}")} onclick={cmd(format!("sim node recover {name}"))}>{"Recover"}</button>
                    } else {
                        <button class="btn small" aria-label={format!("Fail {name}")} onclick={cmd(format!("sim node fail {name}"))}>{"Fail"}</button>
                    }
                    if let Some((service, url)) = &props.service {
                        <button class="btn small" aria-label={format!("Send a request from {name} to Service {service}")}
                            title={format!("sim curl --from node/{name} {url}")}
                            onclick={cmd(format!("sim curl --from node/{name} {url}"))}>{"curl"}</button>
                    }
                    <button class={classes!("btn", "small", (*editing).then_some("active"))} aria-pressed={editing.to_string()}
                        aria-label={format!("Edit labels and taints of {name}")}
                        onclick={let e = editing.clone(); Callback::from(move |_| e.set(!*e))}>{"Edit"}</button>
                    <button class="btn small danger" aria-label={format!("Delete node {name}")} onclick={cmd(format!("kubectl delete node {name}"))}>{"Delete"}</button>
                }
            </footer>
        </article>
    }
}
