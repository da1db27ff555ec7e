//! Browser-only tests of the web crate (`wasm-pack test --headless --chrome`): the app mounts and
//! renders the default cluster into a real DOM.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn app_renders_the_default_nodes() {
    let document = gloo::utils::document();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<dsplay_web::app::App>::with_root(root.clone()).render();
    // Let Yew's scheduler run.
    gloo_timers::future::TimeoutFuture::new(50).await;
    for name in ["kind-control-plane", "kind-worker", "kind-worker2"] {
        let selector = format!(".node[data-node=\"{name}\"]");
        assert!(
            root.query_selector(&selector).unwrap().is_some(),
            "{name} has a card"
        );
    }
    let clock = root.query_selector("[aria-label=\"Clock\"]").unwrap();
    assert!(clock.is_some(), "the clock is labelled");
    let timeline = root
        .query_selector("input[type=\"range\"][aria-label=\"Timeline\"]")
        .unwrap();
    assert!(timeline.is_some(), "the timeline slider is labelled");
}
