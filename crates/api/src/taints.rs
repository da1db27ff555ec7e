//! Taints and tolerations: `v1.Toleration.ToleratesTaint` and the helpers around it.
//!
//! Upstream: `staging/src/k8s.io/api/core/v1/toleration.go`, `component-helpers/scheduling/corev1/helpers.go`.

use crate::types::{Taint, Toleration};

/// Effect strings.
pub const NO_SCHEDULE: &str = "NoSchedule";
/// Effect strings.
pub const PREFER_NO_SCHEDULE: &str = "PreferNoSchedule";
/// Effect strings.
pub const NO_EXECUTE: &str = "NoExecute";

/// Well-known taint keys set by the node lifecycle controller.
pub mod keys {
    /// Ready=False.
    pub const NOT_READY: &str = "node.kubernetes.io/not-ready";
    /// Ready=Unknown.
    pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
    /// DiskPressure=True.
    pub const DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
    /// MemoryPressure=True.
    pub const MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
    /// PIDPressure=True.
    pub const PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
    /// NetworkUnavailable=True.
    pub const NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";
    /// spec.unschedulable=true (cordon).
    pub const UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
    /// kind / kubeadm control-plane taint.
    pub const CONTROL_PLANE: &str = "node-role.kubernetes.io/control-plane";
}

/// Whether one toleration tolerates one taint (`ToleratesTaint`).
pub fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
    let effect = toleration.effect.as_deref().unwrap_or("");
    if !effect.is_empty() && effect != taint.effect {
        return false;
    }
    let key = toleration.key.as_deref().unwrap_or("");
    let operator = toleration.operator.as_deref().unwrap_or("Equal");
    if key.is_empty() {
        if operator != "Exists" {
            return false;
        }
    } else if key != taint.key {
        return false;
    }
    match operator {
        "Exists" => true,
        "Equal" | "" => {
            toleration.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or("")
        }
        _ => false,
    }
}

/// Whether any toleration in the list tolerates the taint.
pub fn tolerated_by_any(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| tolerates(t, taint))
}

/// The first taint passing `filter` that no toleration tolerates (`FindMatchingUntoleratedTaint`).
pub fn find_untolerated<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    filter: impl Fn(&Taint) -> bool,
) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| filter(t))
        .find(|t| !tolerated_by_any(tolerations, t))
}

/// Builds a taint (no timeAdded).
pub fn taint(key: &str, value: Option<&str>, effect: &str) -> Taint {
    Taint {
        key: key.to_string(),
        value: value.map(str::to_string),
        effect: effect.to_string(),
        time_added: None,
    }
}

/// Builds an `operator: Exists` toleration for key/effect with no tolerationSeconds.
pub fn exists_toleration(key: &str, effect: &str) -> Toleration {
    Toleration {
        key: Some(key.to_string()),
        operator: Some("Exists".to_string()),
        effect: Some(effect.to_string()),
        value: None,
        toleration_seconds: None,
    }
}

/// `key=value:Effect` / `key:Effect` as kubectl prints a taint.
pub fn format_taint(taint: &Taint) -> String {
    match taint.value.as_deref() {
        Some(v) if !v.is_empty() => format!("{}={}:{}", taint.key, v, taint.effect),
        _ => format!("{}:{}", taint.key, taint.effect),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: (!key.is_empty()).then(|| key.to_string()),
            operator: (!op.is_empty()).then(|| op.to_string()),
            value: (!value.is_empty()).then(|| value.to_string()),
            effect: (!effect.is_empty()).then(|| effect.to_string()),
            toleration_seconds: None,
        }
    }

    #[test]
    fn tolerates_taint_table() {
        // Mirrors upstream TestTolerationToleratesTaint.
        let t = taint("foo", Some("bar"), NO_SCHEDULE);
        let cases = [
            (
                "empty key Exists matches all",
                tol("", "Exists", "", ""),
                true,
            ),
            (
                "empty key Equal matches none",
                tol("", "Equal", "", ""),
                false,
            ),
            (
                "same key Exists",
                tol("foo", "Exists", "", NO_SCHEDULE),
                true,
            ),
            (
                "same key Equal same value",
                tol("foo", "Equal", "bar", NO_SCHEDULE),
                true,
            ),
            ("default operator is Equal", tol("foo", "", "bar", ""), true),
            (
                "Equal different value",
                tol("foo", "Equal", "baz", NO_SCHEDULE),
                false,
            ),
            (
                "different effect",
                tol("foo", "Exists", "", NO_EXECUTE),
                false,
            ),
            ("different key", tol("fo", "Exists", "", ""), false),
        ];
        for (name, toleration, want) in cases {
            assert_eq!(tolerates(&toleration, &t), want, "{name}");
        }
    }

    #[test]
    fn formats_like_kubectl() {
        assert_eq!(
            format_taint(&taint(keys::CONTROL_PLANE, None, NO_SCHEDULE)),
            "node-role.kubernetes.io/control-plane:NoSchedule"
        );
        assert_eq!(
            format_taint(&taint("a", Some("b"), NO_EXECUTE)),
            "a=b:NoExecute"
        );
    }
}
