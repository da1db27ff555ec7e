//! Whether a CSS media query matches, kept current as the window is resized (the phone layout
//! changes the document order, not only the look, so Tab and screen readers follow what is shown).

use yew::prelude::*;

/// `window.matchMedia(query).matches`, re-rendering when it changes.
#[hook]
pub fn use_media_query(query: &'static str) -> bool {
    let matches = use_state(|| matches_now(query));
    {
        let matches = matches.setter();
        use_effect_with(query, move |query| {
            let list = media_list(query);
            let listener = list.clone().map(|list| {
                gloo::events::EventListener::new(&list.clone(), "change", move |_| {
                    matches.set(list.matches())
                })
            });
            move || drop(listener)
        });
    }
    *matches
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    /// Natively (the prerendered first paint, [`crate::prerender`]): the media queries taken to
    /// match.
    static MATCHING: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Natively, runs `render` with `queries` taken to match (and no other).
#[cfg(not(target_arch = "wasm32"))]
pub fn with_matching<T>(queries: &[&'static str], render: impl FnOnce() -> T) -> T {
    let before = MATCHING.replace(queries.to_vec());
    let out = render();
    MATCHING.set(before);
    out
}

/// Whether `query` matches: in a browser, `matchMedia`'s answer; natively, whether the render
/// takes it to match ([`with_matching`]).
fn matches_now(query: &'static str) -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        media_list(query).is_some_and(|list| list.matches())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        MATCHING.with_borrow(|matching| matching.contains(&query))
    }
}

fn media_list(query: &str) -> Option<web_sys::MediaQueryList> {
    crate::browser::window()?.match_media(query).ok().flatten()
}
