//! The add-node dialog: builds a `sim node add …` command.

use crate::shell::shell_quote;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`NodeDialog`].
#[derive(Properties, PartialEq)]
pub struct NodeDialogProps {
    /// The suggested name (first free `kind-workerN`).
    pub suggested_name: AttrValue,
    /// Runs the built command.
    pub on_command: Callback<String>,
    /// Closes the dialog.
    pub on_close: Callback<()>,
}

/// The fields of the form, in the order the command lists them.
#[derive(Clone, Default)]
struct Fields {
    name: NodeRef,
    labels: NodeRef,
    taints: NodeRef,
    cpu: NodeRef,
    memory: NodeRef,
    pods: NodeRef,
    control_plane: NodeRef,
}

fn value(r: &NodeRef) -> String {
    r.cast::<HtmlInputElement>()
        .map(|i| i.value().trim().to_string())
        .unwrap_or_default()
}

/// Builds `sim node add NAME [--labels …] [--taints …] [--cpu …] [--memory …] [--pods …] [--control-plane]`,
/// leaving out flags that keep their defaults.
pub fn node_add_command(
    name: &str,
    labels: &str,
    taints: &str,
    cpu: &str,
    memory: &str,
    pods: &str,
    control_plane: bool,
) -> String {
    let mut line = format!("sim node add {}", shell_quote(name));
    for (flag, v, default) in [
        ("--labels", labels, ""),
        ("--taints", taints, ""),
        ("--cpu", cpu, "4"),
        ("--memory", memory, "8Gi"),
        ("--pods", pods, "110"),
    ] {
        let v: String = v
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(",");
        if !v.is_empty() && v != default {
            line.push_str(&format!(" {flag} {}", shell_quote(&v)));
        }
    }
    if control_plane {
        line.push_str(" --control-plane");
    }
    line
}

/// The dialog.
#[function_component(NodeDialog)]
pub fn node_dialog(props: &NodeDialogProps) -> Html {
    let f = use_memo((), |_| Fields::default());
    {
        let name = f.name.clone();
        use_effect_with((), move |_| {
            if let Some(input) = name.cast::<HtmlInputElement>() {
                let _ = input.focus();
                input.select();
            }
        });
    }
    let onsubmit = {
        let f = f.clone();
        let (on_command, on_close) = (props.on_command.clone(), props.on_close.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let name = value(&f.name);
            if name.is_empty() {
                return;
            }
            let control_plane = f
                .control_plane
                .cast::<HtmlInputElement>()
                .is_some_and(|i| i.checked());
            on_command.emit(node_add_command(
                &name,
                &value(&f.labels),
                &value(&f.taints),
                &value(&f.cpu),
                &value(&f.memory),
                &value(&f.pods),
                control_plane,
            ));
            on_close.emit(());
        })
    };
    let onkeydown = {
        let on_close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                on_close.emit(());
            }
        })
    };
    html! {
        <div class="modal-backdrop" onkeydown={onkeydown}>
            <form class="modal" role="dialog" aria-modal="true" aria-labelledby="node-dialog-title" {onsubmit}>
                <h2 id="node-dialog-title">{"New node"}</h2>
                <label>{"Name"}<input ref={f.name.clone()} name="name" value={props.suggested_name.clone()} required=true /></label>
                <label>{"Labels"}<input ref={f.labels.clone()} name="labels" placeholder="gpu=true,zone=a" /></label>
                <label>{"Taints"}<input ref={f.taints.clone()} name="taints" placeholder="dedicated=gpu:NoSchedule" /></label>
                <div class="row">
                    <label>{"CPU"}<input ref={f.cpu.clone()} name="cpu" value="4" /></label>
                    <label>{"Memory"}<input ref={f.memory.clone()} name="memory" value="8Gi" /></label>
                    <label>{"Pods"}<input ref={f.pods.clone()} name="pods" value="110" /></label>
                </div>
                <label class="check"><input ref={f.control_plane.clone()} type="checkbox" name="control-plane" />{"Control plane"}</label>
                <div class="modal-actions">
                    <button type="button" class="btn" onclick={props.on_close.reform(|_| ())}>{"Cancel"}</button>
                    <button type="submit" class="btn primary">{"Create node"}</button>
                </div>
            </form>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_flags_are_left_out() {
        assert_eq!(
            node_add_command("kind-worker3", "", "", "4", "8Gi", "110", false),
            "sim node add kind-worker3"
        );
        assert_eq!(
            node_add_command("gpu1", "gpu=true, zone=a", "gpu=true:NoSchedule", "8", "8Gi", "110", true),
            "sim node add gpu1 --labels gpu=true,zone=a --taints gpu=true:NoSchedule --cpu 8 --control-plane"
        );
    }
}
