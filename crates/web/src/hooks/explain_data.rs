//! `kubectl explain`'s field descriptions, fetched once after the first render (`explain.tsv`
//! beside the page), so they do not weigh on the first load. Until they arrive, `kubectl explain`
//! says they are still loading.

use crate::browser::fetch_text;
use yew::platform::spawn_local;
use yew::prelude::*;

/// The file `cargo xtask dist` copies beside the page.
const EXPLAIN_DATA: &str = "explain.tsv";

/// Fetches the descriptions after the first render and installs them in the kubectl layer.
#[hook]
pub fn use_explain_data() {
    use_effect_with((), |_| {
        spawn_local(async {
            if let Ok(text) = fetch_text(EXPLAIN_DATA).await {
                dsplay_kubectl::install_explain_data(&text);
            }
        });
    });
}
