//! Objects picked the way `kubectl get` picks them, for callers outside the command language (lesson
//! goals): `ds/demo`, `pods -l app=demo`, `nodes -l '!node-role.kubernetes.io/control-plane'`,
//! `pods -n kube-system --field-selector spec.nodeName=kind-worker`, `pods -A`.
//!
//! Parsing and selecting are `kubectl get`'s own code (`commands::get::Query`, `resource_args`),
//! so a selection means exactly what the same words mean in the terminal.

use crate::commands::{split_resource_args, Query, GET_FLAGS};
use crate::tokenizer::split_script;
use dsplay_api::{Kind, Object};
use dsplay_sim::Cluster;

/// A parsed `kubectl get` argument list (see the module docs).
#[derive(Clone, Debug)]
pub struct Selection {
    requests: Vec<(Kind, Option<String>)>,
    query: Query,
}

impl Selection {
    /// Parses the words after `kubectl get` (shell quoting as in the terminal). Output flags are
    /// refused: a selection only picks objects.
    pub fn parse(text: &str) -> Result<Selection, String> {
        let mut commands = split_script(text);
        let words = match (commands.len(), commands.pop()) {
            (1, Some(Ok(command))) => command.args,
            (_, Some(Err(e))) => return Err(e.message),
            _ => {
                return Err(format!(
                    "expected one `kubectl get` argument list: {text:?}"
                ))
            }
        };
        let parsed = crate::flags::parse(&words, GET_FLAGS)?;
        if let Some(flag) = ["output", "watch", "sort-by", "filename", "label-columns"]
            .into_iter()
            .find(|f| parsed.get(f).is_some())
        {
            return Err(format!("--{flag} has no meaning in a selection"));
        }
        if parsed.args.is_empty() {
            return Err("a selection needs a resource type, e.g. \"pods -l app=demo\"".into());
        }
        let query = Query::parse(&parsed)?;
        if let Some(e) = query.label_error() {
            return Err(e.to_string());
        }
        Ok(Selection {
            requests: split_resource_args(&parsed.args)?,
            query,
        })
    }

    /// The selected objects, in the order `kubectl get` lists them (named objects that do not exist
    /// are left out).
    pub fn objects(&self, cluster: &Cluster) -> Vec<Object> {
        let mut out = Vec::new();
        for (kind, name) in &self.requests {
            match name {
                None => out.extend(self.query.select_in(cluster, *kind)),
                Some(name) => {
                    let namespace = if self.query.all_namespaces {
                        None
                    } else {
                        Some(self.query.namespace.as_str())
                    };
                    out.extend(
                        self.query
                            .select_in(cluster, *kind)
                            .into_iter()
                            .filter(|o| {
                                o.name() == name
                                    && (namespace.is_none()
                                        || !kind.namespaced()
                                        || o.metadata().namespace.as_deref() == namespace)
                            }),
                    );
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Session, SessionOptions};

    fn names(selection: &str, session: &Session) -> Vec<String> {
        Selection::parse(selection)
            .expect("parses")
            .objects(session.cluster())
            .iter()
            .map(|o| o.name().to_string())
            .collect()
    }

    #[test]
    fn selects_like_kubectl_get() {
        let session = Session::new(SessionOptions::default());
        assert_eq!(
            names(
                "nodes -l '!node-role.kubernetes.io/control-plane'",
                &session
            ),
            ["kind-worker", "kind-worker2"]
        );
        assert_eq!(
            names("ds/kube-proxy -n kube-system", &session),
            ["kube-proxy"]
        );
        assert_eq!(names("ds kube-proxy", &session), Vec::<String>::new());
        assert_eq!(names("pods -A -l k8s-app=kube-proxy", &session).len(), 3);
        assert_eq!(
            names(
                "pods -n kube-system -l k8s-app=kube-proxy --field-selector spec.nodeName=kind-worker",
                &session
            )
            .len(),
            1
        );
    }

    #[test]
    fn bad_selections_say_why() {
        for (text, message) in [
            ("pods -l 'a in (b'", "unable to parse requirement"),
            (
                "widgets",
                "the server doesn't have a resource type \"widgets\"",
            ),
            ("pods -o wide", "--output has no meaning in a selection"),
            ("pods --bogus", "unknown flag: --bogus"),
            ("", "expected one"),
        ] {
            let error = Selection::parse(text).expect_err(text);
            assert!(error.contains(message), "{text}: {error}");
        }
    }
}
