//! Where the panels go. Wide screens: a side column (lesson, editor, panels) and a main column
//! (cluster, status, terminal and events) with draggable splitters between them; phones (and narrow
//! windows): one column in the order a learner works on a small screen — cluster, terminal, editor —
//! in the document too, so Tab and screen readers follow what is shown. Embeds have no side column.

use crate::browser::{storage_get, storage_set};
use crate::components::splitter::{Split, Splitter};
use crate::hooks::media_query::use_media_query;
use yew::prelude::*;

/// The panels, rendered by the app; this component only arranges them.
#[derive(Properties, PartialEq)]
pub struct WorkbenchProps {
    pub embed: bool,
    #[prop_or_default]
    pub lesson: Option<Html>,
    pub editor: Html,
    /// The pod, Explain and Rollout panels (whichever are open).
    pub panels: Html,
    pub cluster: Html,
    /// Under the cluster: the status tables (or an embed's floating panels).
    pub status: Html,
    pub terminal: Html,
    pub events: Html,
}

/// Where the splitters' sizes are kept between visits (`side width,bottom height`, px).
const LAYOUT_KEY: &str = "dsplay.layout";

/// The phone layout's breakpoint (the same as the stylesheet's).
pub const NARROW: &str = "(max-width: 900px)";

/// Sizes the learner dragged the splitters to; `None` is the stylesheet's default.
#[derive(Clone, Copy, PartialEq, Default, Debug)]
struct Sizes {
    side_width: Option<i32>,
    bottom_height: Option<i32>,
}

impl Sizes {
    fn parse(text: &str) -> Sizes {
        let mut parts = text.split(',').map(|p| p.trim().parse::<i32>().ok());
        Sizes {
            side_width: parts.next().flatten(),
            bottom_height: parts.next().flatten(),
        }
    }

    fn to_text(self) -> String {
        let text = |v: Option<i32>| v.map(|v| v.to_string()).unwrap_or_default();
        format!("{},{}", text(self.side_width), text(self.bottom_height))
    }

    /// The layout's CSS variables.
    fn style(self) -> String {
        let mut style = String::new();
        if let Some(w) = self.side_width {
            style.push_str(&format!("--side-width: {w}px;"));
        }
        if let Some(h) = self.bottom_height {
            style.push_str(&format!("--bottom-height: {h}px;"));
        }
        style
    }
}

/// The layout.
#[function_component(Workbench)]
pub fn workbench(props: &WorkbenchProps) -> Html {
    let narrow = use_media_query(NARROW);
    let sizes = use_state(|| {
        storage_get(LAYOUT_KEY)
            .map(|t| Sizes::parse(&t))
            .unwrap_or_default()
    });
    let set = |change: fn(&mut Sizes, Option<i32>)| {
        let sizes = sizes.clone();
        Callback::from(move |size: Option<i32>| {
            let mut next = *sizes;
            change(&mut next, size);
            let _ = storage_set(LAYOUT_KEY, &next.to_text());
            sizes.set(next);
        })
    };
    let p = props;
    if p.embed {
        return html! {
            <main class="layout">
                <div class="col-main">
                    {p.cluster.clone()}
                    {p.status.clone()}
                    <div class="bottom">{p.terminal.clone()}{p.events.clone()}</div>
                </div>
            </main>
        };
    }
    if narrow {
        return html! {
            <main class="layout narrow">
                {p.lesson.clone()}
                {p.cluster.clone()}
                {p.panels.clone()}
                {p.status.clone()}
                {p.terminal.clone()}
                {p.editor.clone()}
                {p.events.clone()}
            </main>
        };
    }
    html! {
        <main class={classes!("layout", "wide", sizes.side_width.map(|_| "sized-columns"),
                sizes.bottom_height.map(|_| "sized-rows"))} style={sizes.style()}>
            <div class="col-side">
                {p.lesson.clone()}
                {p.editor.clone()}
                {p.panels.clone()}
            </div>
            <Splitter split={Split::Columns} label="Resize the side column" min={240} max={1200}
                size={sizes.side_width}
                on_resize={set(|s, v| s.side_width = v)} />
            <div class="col-main">
                {p.cluster.clone()}
                {p.status.clone()}
                <Splitter split={Split::Rows} label="Resize the terminal" min={120} max={1600}
                    size={sizes.bottom_height}
                    on_resize={set(|s, v| s.bottom_height = v)} />
                <div class="bottom">{p.terminal.clone()}{p.events.clone()}</div>
            </div>
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_survive_storage_and_become_css_variables() {
        let sizes = Sizes {
            side_width: Some(480),
            bottom_height: None,
        };
        assert_eq!(Sizes::parse(&sizes.to_text()), sizes);
        assert_eq!(sizes.style(), "--side-width: 480px;");
        // Anything else in storage is the default layout, never an error.
        assert_eq!(Sizes::parse("wide,<script>"), Sizes::default());
    }
}
