//! What the cluster serves: `kubectl api-resources`, `kubectl api-versions`, `kubectl cluster-info`.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go and apiversions.go;
//! clusterinfo/clusterinfo.go (`Run`: the control plane URL, then each `kubernetes.io/cluster-service`
//! service in kube-system — in kind, CoreDNS).

use super::Ctx;
use crate::printers::tabwriter;
use dsplay_api::Kind;

/// The control plane URL a kind cluster's kubeconfig names.
const CONTROL_PLANE: &str = "https://127.0.0.1:6443";

/// `kubectl api-resources`: the kinds served, by group then name.
pub(crate) fn api_resources(ctx: &mut Ctx) {
    let mut rows = vec!["NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND".to_string()];
    let mut kinds = Kind::ALL.to_vec();
    kinds.sort_by_key(|k| (k.group().to_string(), k.plural()));
    for kind in kinds {
        rows.push(format!(
            "{}\t{}\t{}\t{}\t{}",
            kind.plural(),
            kind.short_names().join(","),
            kind.api_version(),
            kind.namespaced(),
            kind.name()
        ));
    }
    ctx.out(tabwriter::align(&(rows.join("\n") + "\n"), 0, 3));
}

/// `kubectl api-versions`: every group/version served, sorted.
pub(crate) fn api_versions(ctx: &mut Ctx) {
    let mut versions: Vec<&str> = Kind::ALL.iter().map(|k| k.api_version()).collect();
    versions.sort_unstable();
    versions.dedup();
    ctx.out(versions.join("\n"));
}

/// `kubectl cluster-info`, as kind's cluster answers it.
pub(crate) fn cluster_info(ctx: &mut Ctx) {
    ctx.out(format!(
        "Kubernetes control plane is running at {CONTROL_PLANE}\nCoreDNS is running at {CONTROL_PLANE}/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'."
    ));
}
