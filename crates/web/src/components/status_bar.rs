//! The live `kubectl get ds -A` table.

use yew::prelude::*;

/// Props of [`StatusBar`].
#[derive(Properties, PartialEq)]
pub struct StatusBarProps {
    /// The command's output, exactly as printed.
    pub table: AttrValue,
}

/// The DaemonSet status table.
#[function_component(StatusBar)]
pub fn status_bar(props: &StatusBarProps) -> Html {
    html! {
        <section class="panel status" aria-label="DaemonSets">
            <h2><code>{"kubectl get ds -A"}</code></h2>
            <pre class="ds-table" data-testid="ds-table" tabindex="0" aria-label="DaemonSets (kubectl get ds -A)">{props.table.clone()}</pre>
        </section>
    }
}
