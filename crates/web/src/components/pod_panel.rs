//! The pod panel: a clicked pod's `kubectl describe pod` (conditions, container states, events)
//! and `kubectl logs`, kept current as the clock runs. Clicking a pod chip opens it; the chip
//! finds the opener through the [`PodSelect`] context, so the cards need no extra props.

use crate::model::pod_details::PodDetails;
use std::rc::Rc;
use yew::prelude::*;

/// Opens the pod panel for `(namespace, name)`: provided by the app, used by every pod chip.
#[derive(Clone, PartialEq)]
pub struct PodSelect(pub Callback<(String, String)>);

/// The opener of the pod panel (None outside a provider: the chip is then not clickable).
#[hook]
pub fn use_pod_select() -> Option<Callback<(String, String)>> {
    use_context::<PodSelect>().map(|s| s.0)
}

/// Props of [`PodPanel`].
#[derive(Properties, PartialEq)]
pub struct PodPanelProps {
    /// The pod's details.
    pub details: Rc<PodDetails>,
    /// Closes the panel.
    pub on_close: Callback<()>,
}

/// The pod panel.
#[function_component(PodPanel)]
pub fn pod_panel(props: &PodPanelProps) -> Html {
    let d = &props.details;
    // Opening (or switching pods) moves the focus to the panel's close button: keyboard users
    // land in it, and focusing scrolls it into view where the panel is above the cards (phones).
    let close = use_node_ref();
    use_effect_with((d.namespace.clone(), d.name.clone()), {
        let close = close.clone();
        move |_| {
            if let Some(button) = close.cast::<web_sys::HtmlElement>() {
                let _ = button.focus();
            }
        }
    });
    let onkeydown = {
        let on_close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                on_close.emit(());
            }
        })
    };
    let logs = match &d.logs {
        Ok(text) if text.is_empty() => {
            html! { <p class="empty">{"No output: the playground's containers run no processes."}</p> }
        }
        Ok(text) => html! { <pre class="term-text">{text}</pre> },
        Err(error) => html! { <pre class="term-text stderr">{error}</pre> },
    };
    html! {
        <section class="panel pod-panel" aria-label={format!("Pod {}", d.name)} {onkeydown}>
            <header class="panel-head">
                <h2>{"Pod "}<span class="mono subject">{&d.name}</span></h2>
                <button ref={close} class="btn small" aria-label="Close pod details" onclick={props.on_close.reform(|_| ())}>{"×"}</button>
            </header>
            <div class="pod-panel-body" tabindex="0" aria-label="Pod details">
                if let Some(text) = &d.describe {
                    <h3 class="mono">{d.command("describe pod")}</h3>
                    <pre class="term-text">{text}</pre>
                    <h3 class="mono">{d.command("logs")}</h3>
                    {logs}
                } else {
                    <p class="empty">{format!("pod \"{}\" no longer exists.", d.name)}</p>
                }
            </div>
        </section>
    }
}
