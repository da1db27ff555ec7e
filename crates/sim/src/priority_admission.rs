//! The Priority admission plugin: a pod's priority and preemption policy from its PriorityClass (or
//! the global default), and only one global default class
//! (`plugin/pkg/admission/priority/admission.go`).

use crate::cluster::Cluster;
use crate::error::{ApiError, ApiResult};
use dsplay_api::types::*;
use dsplay_api::Kind;

impl Cluster {
    /// The pod's priority and preemption policy from its PriorityClass (or the global default
    /// class, which also names itself in `priorityClassName`); a priority or policy the pod sets
    /// itself must agree with the class.
    ///
    /// Upstream: `plugin/pkg/admission/priority/admission.go` `admitPod`, `getDefaultPriority`.
    pub(crate) fn resolve_priority(&self, spec: &mut PodSpec) -> Result<(i32, String), String> {
        let class_name = spec.priority_class_name.clone().filter(|n| !n.is_empty());
        let (priority, policy) = match class_name {
            Some(class) => match self.store.priority_class(&class) {
                Some(pc) => (pc.value, pc.preemption_policy.clone()),
                None => return Err(format!("no PriorityClass with name {class} was found")),
            },
            None => match self.default_priority_class() {
                Some(pc) => {
                    spec.priority_class_name = pc.metadata.name.clone();
                    (pc.value, pc.preemption_policy.clone())
                }
                None => (0, Some("PreemptLowerPriority".to_string())),
            },
        };
        if let Some(given) = spec.priority.filter(|p| *p != priority) {
            return Err(format!("the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name"));
        }
        let policy = policy.unwrap_or_else(|| "PreemptLowerPriority".to_string());
        if let Some(given) = spec.preemption_policy.as_ref().filter(|p| **p != policy) {
            return Err(format!("the string value of PreemptionPolicy ({given}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"));
        }
        Ok((priority, policy))
    }

    /// Only one PriorityClass may be the global default.
    ///
    /// Upstream: `plugin/pkg/admission/priority/admission.go` `validatePriorityClass`.
    pub(crate) fn validate_priority_class(&self, pc: &PriorityClass) -> ApiResult<()> {
        if pc.global_default != Some(true) {
            return Ok(());
        }
        match self.default_priority_class() {
            Some(existing) => Err(ApiError::Forbidden(format!(
                "{} \"{}\" is forbidden: PriorityClass {} is already marked as default. Only one default can exist",
                Kind::PriorityClass.qualified_plural(),
                pc.metadata.name.as_deref().unwrap_or(""),
                existing.metadata.name.as_deref().unwrap_or("")
            ))),
            None => Ok(()),
        }
    }

    /// The globalDefault PriorityClass; with several, the one with the lowest value.
    ///
    /// Upstream: `plugin/pkg/admission/priority/admission.go` `getDefaultPriorityClass`.
    fn default_priority_class(&self) -> Option<&PriorityClass> {
        self.store
            .priority_classes()
            .filter(|pc| pc.global_default == Some(true))
            .min_by_key(|pc| pc.value)
    }
}
