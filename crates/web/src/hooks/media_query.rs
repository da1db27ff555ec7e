//! Whether a CSS media query matches, kept current as the window is resized (the phone layout
//! changes the document order, not only the look, so Tab and screen readers follow what is shown).

use yew::prelude::*;

/// `window.matchMedia(query).matches`, re-rendering when it changes; `false` outside a browser.
#[hook]
pub fn use_media_query(query: &'static str) -> bool {
    let matches = use_state(|| media_list(query).is_some_and(|list| list.matches()));
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

fn media_list(query: &str) -> Option<web_sys::MediaQueryList> {
    crate::browser::window()?.match_media(query).ok().flatten()
}
