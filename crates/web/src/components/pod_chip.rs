//! One pod: a chip coloured by phase (fill) and revision (stripe), animated by CSS. A click on it
//! (or Enter on its name, a button) opens the pod panel.

use crate::components::pod_panel::use_pod_select;
use crate::model::PodView;
use yew::prelude::*;

/// Props of [`PodChip`].
#[derive(Properties, PartialEq)]
pub struct PodChipProps {
    /// The pod.
    pub pod: PodView,
}

/// A pod chip. The parent keys it by uid, so CSS transitions follow one pod through its life.
#[function_component(PodChip)]
pub fn pod_chip(props: &PodChipProps) -> Html {
    let p = &props.pod;
    let onclick = use_pod_select().map(|select| {
        let pod = (p.namespace.clone(), p.name.clone());
        Callback::from(move |_: MouseEvent| select.emit(pod.clone()))
    });
    let stage = if p.terminating {
        "terminating"
    } else if p.ready {
        "ready"
    } else if p.phase == "Running" {
        "running"
    } else if p.status == "ContainerCreating" || p.status == "PodInitializing" {
        "creating"
    } else {
        "pending"
    };
    let revision_class = if p.current_revision {
        "rev-current"
    } else {
        "rev-old"
    };
    let hue = (p.revision_number.rem_euclid(6) * 60 + 200) % 360;
    let title = format!(
        "{}/{}\n{}{}\nimage tag {}\nrevision {} ({})",
        p.namespace,
        p.name,
        p.status,
        if p.ready { ", Ready" } else { "" },
        p.image_tag,
        if p.revision.is_empty() {
            "-"
        } else {
            &p.revision
        },
        if p.current_revision { "current" } else { "old" }
    );
    let owner = (!p.owner_kind.is_empty())
        .then(|| (owner_short(&p.owner_kind), owner_class(&p.owner_kind)));
    html! {
        <li class={classes!("pod", stage, revision_class, p.system.then_some("system"))}
            data-pod={p.name.clone()}
            data-namespace={p.namespace.clone()}
            data-node={p.node.clone()}
            data-phase={p.phase.clone()}
            data-ready={p.ready.to_string()}
            data-revision={p.revision.clone()}
            data-terminating={p.terminating.to_string()}
            data-owner={(!p.owner_kind.is_empty()).then(|| format!("{}/{}", p.owner_kind.to_lowercase(), p.owner_name))}
            style={format!("--rev-hue: {hue}")}
            title={title} {onclick}>
            <span class="pod-dot" aria-hidden="true"></span>
            if let (false, Some((short, class))) = (p.system, owner) {
                <span class={classes!("pod-owner", class)} title={format!("{} {}", p.owner_kind, p.owner_name)}
                    aria-label={format!("{} {}", p.owner_kind, p.owner_name)}>{short}</span>
            }
            <button type="button" class="pod-name" aria-label={format!("Pod {} details", p.name)}>{&p.name}</button>
            if !p.system {
                <span class="pod-tag" title="image tag">{format!(":{}", p.image_tag)}</span>
            }
            <span class="pod-status">{&p.status}</span>
        </li>
    }
}

/// kubectl's short name of a workload kind, for the owner badge.
pub fn owner_short(kind: &str) -> &'static str {
    match kind {
        "DaemonSet" => "ds",
        "Deployment" => "deploy",
        "StatefulSet" => "sts",
        "ReplicaSet" => "rs",
        _ => "ctl",
    }
}

/// The class colouring a workload kind's badge.
pub fn owner_class(kind: &str) -> &'static str {
    match kind {
        "DaemonSet" => "owner-ds",
        "Deployment" | "ReplicaSet" => "owner-deploy",
        "StatefulSet" => "owner-sts",
        _ => "owner-other",
    }
}
