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
use crate::components::layout::NARROW;
use crate::hooks::media_query::with_matching;

/// The first paint's HTML: the app rendered twice, in the wide layout and in the phone layout
/// (a media query chooses the layout, and only a browser can answer it; the stylesheet shows the
/// picture that fits), each in an inert, aria-hidden `<div class="prerender wide|narrow">`.
pub fn first_paint() -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime needs no I/O or timer drivers");
    format!(
        concat!(
            r#"<div class="prerender wide" inert aria-hidden="true">{}</div>"#,
            r#"<div class="prerender narrow" inert aria-hidden="true">{}</div>"#
        ),
        render(&runtime, &[]),
        render(&runtime, &[NARROW])
    )
}

/// The app's HTML with `media_queries` taken to match.
fn render(runtime: &tokio::runtime::Runtime, media_queries: &[&'static str]) -> String {
    with_matching(media_queries, || {
        tokio::task::LocalSet::new().block_on(
            runtime,
            yew::LocalServerRenderer::<App>::new()
                .hydratable(false)
                .render(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default cluster's three node cards in each layout, each picture in its inert wrapper,
    /// the same at every build.
    #[test]
    fn the_first_paint_is_the_default_cluster_in_both_layouts() {
        let html = first_paint();
        let (wide, narrow) = html
            .split_once(r#"<div class="prerender narrow" inert aria-hidden="true">"#)
            .expect("the phone layout's picture");
        let wide_start =
            r#"<div class="prerender wide" inert aria-hidden="true"><div class="app">"#;
        assert!(wide.starts_with(wide_start), "{}", &wide[..200]);
        assert!(!wide.contains(r#"class="layout narrow""#));
        assert!(narrow.contains(r#"class="layout narrow""#));
        for picture in [wide, narrow] {
            for node in ["kind-control-plane", "kind-worker", "kind-worker2"] {
                let card = format!(r#"<article data-node="{node}""#);
                assert!(picture.contains(&card), "{node}");
            }
        }
        assert!(!html.contains("<script"));
        assert_eq!(html, first_paint());
    }
}
