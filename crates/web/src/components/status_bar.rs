//! The live `kubectl get ds -A` table, and `get deploy -A` / `get svc -A` once the learner has
//! Deployments or Services of their own.

use std::rc::Rc;
use yew::prelude::*;

/// Props of [`StatusBar`].
#[derive(Properties, PartialEq)]
pub struct StatusBarProps {
    /// The command's output, exactly as printed.
    pub table: AttrValue,
    /// More (command, output) tables to show under it.
    #[prop_or_default]
    pub more: Rc<Vec<(String, String)>>,
}

/// The DaemonSet status table.
#[function_component(StatusBar)]
pub fn status_bar(props: &StatusBarProps) -> Html {
    html! {
        <section class="panel status" aria-label="DaemonSets">
            <h2><code>{"kubectl get ds -A"}</code></h2>
            <pre class="ds-table" data-testid="ds-table" tabindex="0" aria-label="DaemonSets (kubectl get ds -A)">{props.table.clone()}</pre>
            { for props.more.iter().map(|(command, table)| html! {
                <>
                    <h2><code>{command}</code></h2>
                    <pre class="ds-table" tabindex="0" aria-label={command.clone()}>{table}</pre>
                </>
            }) }
        </section>
    }
}
