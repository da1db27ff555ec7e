//! The page's first paint: the app as a first visit shows it, rendered to HTML natively by Yew's
//! server renderer. `cargo xtask dist` writes it into `dist/index.html` (see `src/bin/prerender.rs`),
//! so the cluster's node cards are on screen before the wasm has arrived (it is ~99% of the
//! download); the app replaces it when it mounts (`crate::start`).
//!
//! It is a picture, not the app: `inert` (no focus, no clicks) and hidden from assistive
//! technology, which reads the page's "Starting the simulated cluster…" status instead. It shows
//! only what a first visit would see (no link parameters, nothing stored): `web/first-paint.js`
//! hides it otherwise, so a restored session never flashes the default cluster first.

use crate::app::App;

/// The class of the element that holds the first paint (`web/style.css`, `web/first-paint.js`).
pub const CLASS: &str = "prerender";

/// The first paint's HTML: the app rendered into an inert, aria-hidden `<div class="prerender">`.
pub fn first_paint() -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime needs no I/O or timer drivers");
    let app = tokio::task::LocalSet::new().block_on(
        &runtime,
        yew::LocalServerRenderer::<App>::new()
            .hydratable(false)
            .render(),
    );
    format!(r#"<div class="{CLASS}" inert aria-hidden="true">{app}</div>"#)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default cluster's three node cards, in the inert wrapper, the same at every build.
    #[test]
    fn the_first_paint_is_the_default_cluster_in_an_inert_picture() {
        let html = first_paint();
        assert!(html
            .starts_with(r#"<div class="prerender" inert aria-hidden="true"><div class="app">"#));
        for node in ["kind-control-plane", "kind-worker", "kind-worker2"] {
            assert!(
                html.contains(&format!(r#"<article data-node="{node}""#)),
                "{node}"
            );
        }
        assert!(!html.contains("<script"));
        assert_eq!(html, first_paint());
    }
}
