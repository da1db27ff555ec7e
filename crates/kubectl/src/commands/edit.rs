//! `kubectl edit`: kubectl's argument checks and object lookups, then the editor. The native CLI
//! has none to start, so it fails as kubectl does when its default editor `vi` cannot run; a front
//! end with an editor of its own (the web app) takes the object instead ([`EditTarget`]) and
//! applying the edited text saves it.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go `Run`
//! (`there was a problem with the editor`).

use super::unavailable::NO_RESOURCES;
use super::{namespace, parse_flags, resource_args, CmdResult, Ctx};
use crate::flags::value;
use dsplay_api::Kind;

/// The object `kubectl edit` opened, for a front end's editor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditTarget {
    /// Its kind.
    pub kind: Kind,
    /// Its namespace ("" for cluster-scoped kinds).
    pub namespace: String,
    /// Its name.
    pub name: String,
}

/// `kubectl edit TYPE NAME` (or `TYPE/NAME`).
pub(crate) fn edit(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let flags = [value("output", Some('o')), value("filename", Some('f'))];
    let parsed = parse_flags(ctx, "edit", words, &flags)?;
    let requests = resource_args(ctx, &parsed.args)?;
    if requests.is_empty() {
        return ctx.fail(NO_RESOURCES);
    }
    let ns = namespace(&parsed);
    let mut targets = Vec::new();
    for (kind, name) in &requests {
        if let Some(name) = name {
            super::live_object::fetch(ctx, *kind, &ns, name)?;
            targets.push(EditTarget {
                kind: *kind,
                namespace: if kind.namespaced() {
                    ns.clone()
                } else {
                    String::new()
                },
                name: name.clone(),
            });
        }
    }
    match (ctx.edits.as_mut(), targets.as_slice()) {
        (None, _) => ctx.fail("there was a problem with the editor \"vi\""),
        (Some(edits), [target]) => {
            edits.push(target.clone());
            Ok(())
        }
        (Some(_), _) => ctx.fail(
            "the playground's editor opens one object at a time: name it, as in kubectl edit ds/NAME",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Session, SessionOptions};

    fn run(session: &mut Session, line: &str) -> (String, bool) {
        let output = session.execute(line).remove(0);
        (output.text(), output.success)
    }

    #[test]
    fn without_an_editor_kubectl_edit_fails_as_with_no_vi() {
        let mut s = Session::new(SessionOptions::default());
        let (text, ok) = run(&mut s, "kubectl edit ds kindnet -n kube-system");
        assert!(!ok);
        assert_eq!(text, "error: there was a problem with the editor \"vi\"\n");
        assert!(s.take_edits().is_empty());
    }

    #[test]
    fn with_an_editor_the_object_is_left_for_it() {
        let mut s = Session::new(SessionOptions::default());
        s.enable_editor();
        let (text, ok) = run(&mut s, "kubectl edit ds/kindnet -n kube-system");
        assert!(ok && text.is_empty(), "{text}");
        assert_eq!(
            s.take_edits(),
            [EditTarget {
                kind: Kind::DaemonSet,
                namespace: "kube-system".into(),
                name: "kindnet".into(),
            }]
        );
        assert!(s.take_edits().is_empty(), "taken once");
        let (_, ok) = run(&mut s, "kubectl edit node kind-worker");
        assert!(ok);
        assert_eq!(s.take_edits()[0].namespace, "", "nodes have no namespace");
    }

    #[test]
    fn with_an_editor_lookups_and_several_objects_still_fail() {
        let mut s = Session::new(SessionOptions::default());
        s.enable_editor();
        let (text, ok) = run(&mut s, "kubectl edit ds missing");
        assert!(!ok);
        assert_eq!(
            text,
            "Error from server (NotFound): daemonsets.apps \"missing\" not found\n"
        );
        let (text, ok) = run(&mut s, "kubectl edit node kind-worker kind-worker2");
        assert!(!ok && text.contains("one object at a time"), "{text}");
        let (text, ok) = run(&mut s, "kubectl edit");
        assert!(!ok && text.starts_with("error: You must provide one or more resources"));
        assert!(s.take_edits().is_empty());
    }
}
