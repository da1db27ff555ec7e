//! The editor's side of the state: the manifest last applied from it, and whether a command
//! changed that DaemonSet since (the editor's text would undo the change).

use super::State;
use crate::drift::{changed, live_manifest};

/// The manifest of a log entry `kubectl apply -f - <<EOF …` (an Apply from the editor).
pub(super) fn applied_manifest(entry: &str) -> Option<String> {
    let rest = entry.strip_prefix("kubectl apply -f - <<")?;
    let (terminator, body) = rest.split_once('\n')?;
    let body = body.strip_suffix(terminator)?;
    Some(format!("{}\n", body.trim_end_matches('\n')))
}

impl State {
    /// A DaemonSet the editor applied that a command changed since (namespace, name): the
    /// editor's text is stale.
    pub fn editor_drift(&self) -> Option<(String, String)> {
        let session = self.session.borrow();
        changed(&self.editor_applied, session.cluster().store())
            .map(|a| (a.namespace.clone(), a.name.clone()))
    }

    /// The live DaemonSet as a manifest for the editor.
    pub fn live_manifest(&self, namespace: &str, name: &str) -> Option<String> {
        live_manifest(self.session.borrow().cluster().store(), namespace, name)
    }

    /// The manifest of the last `kubectl apply -f - <<EOF` in the log (what the editor showed).
    pub fn last_applied_yaml(&self) -> Option<String> {
        self.log
            .iter()
            .rev()
            .find_map(|entry| applied_manifest(entry))
    }
}
