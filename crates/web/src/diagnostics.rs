//! Editor diagnostics while typing: the same parsing and validation `kubectl apply` runs, without
//! touching the cluster.

use dsplay_api::manifest::parse_manifests;
use dsplay_api::validation::validate_create;

/// One problem in the editor text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// The message (kubectl's wording where there is one).
    pub message: String,
}

/// Checks every document of `text`.
pub fn check(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for result in parse_manifests(text) {
        match result {
            Err(e) => {
                out.push(Diagnostic {
                    severity: "error",
                    message: e.to_string(),
                });
                if let Some(hint) = e.hint() {
                    out.push(Diagnostic {
                        severity: "warning",
                        message: hint,
                    });
                }
            }
            Ok(manifest) => {
                for field in &manifest.unknown_fields {
                    out.push(Diagnostic {
                        severity: "warning",
                        message: format!("unknown field \"{field}\""),
                    });
                }
                for error in validate_create(&manifest.object) {
                    out.push(Diagnostic {
                        severity: "error",
                        message: error.to_string(),
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_is_clean_and_garbage_is_not() {
        assert_eq!(check(crate::demo::DEMO_DAEMON_SET), Vec::new());
        assert!(check("kind: [unclosed")
            .iter()
            .any(|d| d.severity == "error"));
    }
}
