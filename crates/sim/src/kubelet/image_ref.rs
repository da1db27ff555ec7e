//! The image names the container runtime reports in a container's status: containerd normalises the
//! reference a pod spec names (`nginx` → `docker.io/library/nginx:latest`) and the image ID is the
//! repository with the image's digest.
//!
//! Upstream: `github.com/distribution/reference` `ParseNormalizedNamed`, `TagNameOnly`
//! (`normalize.go`); the kubelet copies the CRI's `image` and `image_ref` into `image` and
//! `imageID` (`pkg/kubelet/kuberuntime/kuberuntime_container.go` `toKubeContainerStatus`).

/// Upstream's `defaultDomain` and `officialRepoPrefix`: what a name without a `/` gets.
const OFFICIAL_REPO: &str = "docker.io/library/";
/// Upstream's `defaultDomain`: what a path without a registry gets.
const DEFAULT_REGISTRY: &str = "docker.io/";

/// A reference in parts: the registry prefix the runtime adds (`docker.io/`,
/// `docker.io/library/` or nothing), the path as written, and the tag or digest with its
/// separator (`:1.25`, `@sha256:…`; `:latest` when neither is given). Borrowed: the runtime
/// reports these on every container start.
fn split(reference: &str) -> (&'static str, &str, &'static str, &str) {
    let (name, digest) = match reference.split_once('@') {
        Some((name, digest)) => (name, Some(digest)),
        None => (reference, None),
    };
    // A tag is a `:` after the last `/` (a `:` before it is a registry port).
    let last_slash = name.rfind('/').map_or(0, |i| i + 1);
    let (path, tag) = match name[last_slash..].rfind(':') {
        Some(i) => (&name[..last_slash + i], Some(&name[last_slash + i + 1..])),
        None => (name, None),
    };
    let (first, rest) = path.split_once('/').unwrap_or(("", path));
    let has_domain =
        !first.is_empty() && (first.contains('.') || first.contains(':') || first == "localhost");
    let (prefix, path) = match (has_domain, first.is_empty()) {
        (true, _) => ("", path),
        (false, true) => (OFFICIAL_REPO, rest),
        (false, false) => (DEFAULT_REGISTRY, path),
    };
    let (separator, suffix) = match (tag, digest) {
        (_, Some(digest)) => ("@", digest),
        (Some(tag), None) => (":", tag),
        (None, None) => (":", "latest"),
    };
    (prefix, path, separator, suffix)
}

/// The normalised reference the runtime reports as the container's `image`.
pub(crate) fn normalized(reference: &str) -> String {
    let (prefix, path, separator, suffix) = split(reference);
    [prefix, path, separator, suffix].concat()
}

/// The runtime's image ID: the repository and the image's digest.
pub(crate) fn image_id(reference: &str, digest: &str) -> String {
    let (prefix, path, _, _) = split(reference);
    [prefix, path, "@", digest].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases from `normalize_test.go` `TestParseNormalizedNamed` and kind's own images.
    #[test]
    fn references_are_normalised_as_containerd_reports_them() {
        for (given, expected) in [
            ("nginx", "docker.io/library/nginx:latest"),
            ("nginx:1.25", "docker.io/library/nginx:1.25"),
            ("library/nginx", "docker.io/library/nginx:latest"),
            ("bitnami/redis:7", "docker.io/bitnami/redis:7"),
            (
                "docker.io/kindest/kindnetd:v20241108-5c6d2daf",
                "docker.io/kindest/kindnetd:v20241108-5c6d2daf",
            ),
            (
                "registry.k8s.io/kube-proxy:v1.32.0",
                "registry.k8s.io/kube-proxy:v1.32.0",
            ),
            ("localhost:5000/app", "localhost:5000/app:latest"),
            ("localhost/app:2", "localhost/app:2"),
            ("busybox@sha256:abc", "docker.io/library/busybox@sha256:abc"),
        ] {
            assert_eq!(normalized(given), expected, "{given}");
        }
        assert_eq!(
            image_id("nginx:1.25", "sha256:00"),
            "docker.io/library/nginx@sha256:00"
        );
        assert_eq!(
            image_id("localhost:5000/app:3", "sha256:00"),
            "localhost:5000/app@sha256:00"
        );
    }
}
