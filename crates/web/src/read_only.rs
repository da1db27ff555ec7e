//! The embed's `readonly` option as a Yew context: controls that change the cluster (Add node,
//! Cordon, Fail, Edit, Delete, Reset…) are not drawn; the clock and the timeline stay usable.

use yew::prelude::*;

/// Whether the page only shows the cluster (`true` under `?embed&readonly`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOnly(pub bool);

/// The page is read-only (`false` outside a provider).
#[hook]
pub fn use_read_only() -> bool {
    use_context::<ReadOnly>().unwrap_or_default().0
}
