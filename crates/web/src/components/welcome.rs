//! The welcome banner of a first visit (nothing saved, no link): the first lesson or free play.
//! Not modal, so the playground below stays usable as it is.

use crate::labels::Labels;
use yew::prelude::*;

/// Props of [`Welcome`].
#[derive(Properties, PartialEq)]
pub struct WelcomeProps {
    /// The labels' language.
    pub labels: &'static Labels,
    /// Starts the first lesson.
    pub on_first_lesson: Callback<()>,
    /// Hides the banner.
    pub on_free_play: Callback<()>,
}

/// The banner.
#[function_component(Welcome)]
pub fn welcome(props: &WelcomeProps) -> Html {
    let labels = props.labels;
    html! {
        <div class="notice welcome" role="region" aria-label="Welcome">
            <span>{labels.welcome}</span>
            <button class="btn small primary" onclick={props.on_first_lesson.reform(|_| ())}>{labels.start_first}</button>
            <button class="btn small" onclick={props.on_free_play.reform(|_| ())}>{labels.free_play}</button>
        </div>
    }
}
