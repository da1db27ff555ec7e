//! Request paths and query strings: which resource a URL names.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go` `NewRequestInfo`.

use chrono::{DateTime, Utc};
use dsplay_api::Kind;
use dsplay_sim::pod_log::LogOptions;

/// A resource URL: `/api/v1/namespaces/NS/pods/NAME/eviction` and the like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourcePath {
    /// The kind its plural names.
    pub kind: Kind,
    /// The namespace segment, if any.
    pub namespace: Option<String>,
    /// The object name, if any.
    pub name: Option<String>,
    /// `status`, `scale`, `eviction`…
    pub subresource: Option<String>,
}

/// Parses a resource path (None for discovery and unknown paths).
pub fn resource_path(path: &str) -> Option<ResourcePath> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (group, rest) = match segments.as_slice() {
        ["api", "v1", rest @ ..] => ("", rest),
        ["apis", group, version, rest @ ..] => {
            let kind_version = Kind::ALL
                .into_iter()
                .find(|k| k.group() == *group)
                .map(|k| k.api_version());
            if kind_version != Some(&format!("{group}/{version}")) {
                return None;
            }
            (*group, rest)
        }
        _ => return None,
    };
    let (namespace, rest) = match rest {
        ["namespaces", ns, plural, rest @ ..] if is_plural(plural) => (Some(ns.to_string()), {
            let mut v = vec![*plural];
            v.extend_from_slice(rest);
            v
        }),
        other => (None, other.to_vec()),
    };
    let plural = rest.first()?;
    let kind = Kind::ALL
        .into_iter()
        .find(|k| k.plural() == *plural && k.group() == group)?;
    Some(ResourcePath {
        kind,
        namespace,
        name: rest.get(1).map(|s| s.to_string()),
        subresource: rest.get(2).map(|s| s.to_string()),
    })
}

fn is_plural(word: &str) -> bool {
    Kind::ALL.into_iter().any(|k| k.plural() == word)
}

/// The decoded query string.
#[derive(Clone, Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Parses `a=b&c=d` (percent-decoded).
    pub fn parse(text: &str) -> Query {
        Query(
            form_urlencoded::parse(text.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    /// The first value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `key` is `true` / `1`.
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.get(key), Some("true" | "1"))
    }

    /// The `PodLogOptions` of a `…/log` request (`container`, `previous`, `timestamps`,
    /// `tailLines`, `sinceSeconds` or `sinceTime`, `limitBytes`).
    pub fn log_options(&self, now: DateTime<Utc>) -> LogOptions<'_> {
        let number = |key: &str| self.get(key).and_then(|v| v.parse::<i64>().ok());
        let since_time = self
            .get("sinceTime")
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc));
        let since_seconds = number("sinceSeconds").map(|s| now - chrono::Duration::seconds(s));
        LogOptions {
            container: self.get("container"),
            previous: self.flag("previous"),
            timestamps: self.flag("timestamps"),
            tail_lines: number("tailLines"),
            since: since_time.or(since_seconds),
            limit_bytes: number("limitBytes"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_kinds_namespaces_names_and_subresources() {
        let p = resource_path("/apis/apps/v1/namespaces/default/daemonsets/demo").unwrap();
        assert_eq!(p.kind, Kind::DaemonSet);
        assert_eq!(p.namespace.as_deref(), Some("default"));
        assert_eq!(p.name.as_deref(), Some("demo"));
        let p = resource_path("/api/v1/namespaces/default/pods/x/eviction").unwrap();
        assert_eq!(p.subresource.as_deref(), Some("eviction"));
        let p = resource_path("/api/v1/nodes/kind-worker").unwrap();
        assert_eq!((p.kind, p.namespace), (Kind::Node, None));
        let p = resource_path("/api/v1/namespaces/default/status").unwrap();
        assert_eq!(p.kind, Kind::Namespace);
        assert_eq!(p.name.as_deref(), Some("default"));
        assert_eq!(p.subresource.as_deref(), Some("status"));
        assert_eq!(resource_path("/apis/apps/v2/daemonsets"), None);
        assert_eq!(resource_path("/api/v1/daemonsets"), None);
    }

    #[test]
    fn query_strings_are_percent_decoded() {
        let q = Query::parse("labelSelector=app%3Ddemo&watch=true");
        assert_eq!(q.get("labelSelector"), Some("app=demo"));
        assert!(q.flag("watch"));
    }
}
