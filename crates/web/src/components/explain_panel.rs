//! The Explain panel: for the selected node, each DaemonSet's verdict (shouldRun /
//! shouldContinueRunning) and every reason, from the controller's own code (`sim explain`).

use crate::model::DsExplanation;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`ExplainPanel`].
#[derive(Properties, PartialEq)]
pub struct ExplainPanelProps {
    /// The node explained.
    pub node: AttrValue,
    /// One entry per DaemonSet.
    pub explanations: Rc<Vec<DsExplanation>>,
    /// Closes the panel.
    pub on_close: Callback<()>,
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The Explain panel.
#[function_component(ExplainPanel)]
pub fn explain_panel(props: &ExplainPanelProps) -> Html {
    html! {
        <section class="panel explain" aria-label={format!("Explain {}", props.node)}>
            <header class="panel-head">
                <h2>{"Explain "}<span class="mono subject">{&props.node}</span></h2>
                <button class="btn small" aria-label="Close explanation" onclick={props.on_close.reform(|_| ())}>{"×"}</button>
            </header>
            <div class="explain-body">
                if props.explanations.is_empty() {
                    <p class="empty">{"No DaemonSets."}</p>
                }
                { for props.explanations.iter().map(|e| match &e.result {
                    Ok(x) => {
                        let verdict = if x.placement.should_run { "runs here" } else if x.placement.should_continue_running { "no new pod" } else { "no pod here" };
                        let class = if x.placement.should_run { "ok" } else if x.placement.should_continue_running { "warn" } else { "bad" };
                        html! {
                            <article class="explain-ds" data-ds={e.daemon_set.clone()}>
                                <h3><span class="mono">{&e.daemon_set}</span>
                                    <span class={classes!("verdict", class)}>{verdict}</span></h3>
                                <p class="placement mono">{format!("shouldRun={} shouldContinueRunning={}", yes_no(x.placement.should_run), yes_no(x.placement.should_continue_running))}</p>
                                <ul class="reasons">
                                    { for x.reasons.iter().map(|r| html! { <li>{r}</li> }) }
                                </ul>
                                if !x.pods.is_empty() {
                                    <ul class="explain-pods">
                                        { for x.pods.iter().map(|p| html! { <li class="mono">{p}</li> }) }
                                    </ul>
                                }
                            </article>
                        }
                    }
                    Err(err) => html! {
                        <article class="explain-ds" data-ds={e.daemon_set.clone()}>
                            <h3 class="mono">{&e.daemon_set}</h3>
                            <p class="term-err">{err}</p>
                        </article>
                    },
                }) }
            </div>
        </section>
    }
}
