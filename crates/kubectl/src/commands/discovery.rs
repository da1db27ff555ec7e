//! What the cluster serves: `kubectl api-resources`, `kubectl api-versions`, `kubectl cluster-info`.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go and apiversions.go;
//! clusterinfo/clusterinfo.go (`Run`: the control plane URL, then each `kubernetes.io/cluster-service`
//! service in kube-system — in kind, CoreDNS).

use super::{parse_flags, CmdResult, Ctx};
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
pub(crate) fn api_versions(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "api-versions", words, &[])?;
    if !parsed.args.is_empty() {
        return ctx.fail(format!(
            "unexpected arguments: [{}]\nSee 'kubectl api-versions -h' for help and examples",
            parsed.args.join(" ")
        ));
    }
    let mut versions: Vec<&str> = Kind::ALL.iter().map(|k| k.api_version()).collect();
    versions.sort_unstable();
    versions.dedup();
    ctx.out(versions.join("\n"));
    Ok(())
}

/// `kubectl cluster-info`, as kind's cluster answers it; `cluster-info dump` (every object and
/// every pod's log as JSON) is not available.
pub(crate) fn cluster_info(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "cluster-info", words, &[])?;
    if parsed.args.first().is_some_and(|a| a == "dump") {
        return ctx.fail("\"kubectl cluster-info dump\" is not available in the playground: use kubectl get -A -o yaml");
    }
    ctx.out(format!(
        "Kubernetes control plane is running at {CONTROL_PLANE}\nCoreDNS is running at {CONTROL_PLANE}/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'."
    ));
    Ok(())
}
