//! The DaemonSet Playground web app: Yew function components over the sim and kubectl crates.
//!
//! **Architecture Invariant:** this crate (with `cli`) is the only one that touches the DOM or the
//! wall clock. The view model ([`model`]), diagnostics, completion and the reducer ([`state`]) are
//! plain Rust and unit-tested natively; only the components need a browser.

pub mod app;
pub mod browser;
pub mod completion;
pub mod components;
pub mod default_cluster;
pub mod demo;
pub mod diagnostics;
pub mod drift;
pub mod embed_request;
pub mod embed_snippet;
pub mod export;
pub mod hooks;
pub mod labels;
pub mod lesson_loader;
pub mod lesson_markup;
pub mod lesson_progress;
pub mod lesson_state;
pub mod long_run;
pub mod model;
pub mod persist;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
pub mod prompt;
pub mod read_only;
pub mod shell;
pub mod startup;
pub mod state;
pub mod timeline;

/// Entry point called by the generated JS glue: builds the default cluster
/// ([`default_cluster::prepare`]), makes the first state ([`startup::Start`]), each in tasks of
/// their own, then mounts the app into `#app` (or `<body>`), in place of what the page shows
/// until then (the loading status and the prerendered first paint, `prerender.rs`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        default_cluster::prepare().await;
        browser::next_task_done().await;
        let props = app::AppProps {
            start: Some(startup::Start::of_page()),
        };
        browser::next_task_done().await;
        mount(props);
    });
}

/// Mounts the app into `#app` (or `<body>`) with `props`.
#[cfg(target_arch = "wasm32")]
fn mount(props: app::AppProps) {
    match gloo::utils::document().get_element_by_id("app") {
        Some(root) => {
            root.set_inner_html("");
            yew::Renderer::<app::App>::with_root_and_props(root, props).render();
        }
        None => {
            yew::Renderer::<app::App>::with_props(props).render();
        }
    }
}
