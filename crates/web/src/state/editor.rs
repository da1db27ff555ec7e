//! The editor's side of the state: the manifest last applied from it, and whether a command
//! changed that DaemonSet since (the editor's text would undo the change).

use super::State;
use crate::drift::{changed, live_manifest};
use dsplay_api::Kind;
use std::rc::Rc;

/// An object `kubectl edit` opened in the editor: Apply saves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editing {
    /// `daemonset.apps/demo`, as kubectl names it.
    pub object: String,
    /// Its live manifest, loaded into the editor.
    pub yaml: String,
}

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
        let session = self.session.borrow();
        live_manifest(session.cluster().store(), Kind::DaemonSet, namespace, name)
    }

    /// After a command: the object `kubectl edit` opened, if any, goes to the editor.
    pub(super) fn take_edit(&mut self) {
        let mut session = self.session.borrow_mut();
        let Some(target) = session.take_edits().pop() else {
            return;
        };
        let store = session.cluster().store();
        let yaml = live_manifest(store, target.kind, &target.namespace, &target.name);
        self.editing = yaml.map(|yaml| {
            Rc::new(Editing {
                object: format!("{}/{}", target.kind.qualified_singular(), target.name),
                yaml,
            })
        });
    }

    /// The manifest of the last `kubectl apply -f - <<EOF` in the log (what the editor showed).
    pub fn last_applied_yaml(&self) -> Option<String> {
        self.log
            .iter()
            .rev()
            .find_map(|entry| applied_manifest(entry))
    }
}
