//! `kubectl describe statefulset|pvc|pv|storageclass` (`describe.go` `StatefulSetDescriber`,
//! `describeVolumeClaimTemplates`, `PersistentVolumeClaimDescriber`, `PersistentVolumeDescriber`,
//! `StorageClassDescriber`), in kubectl v1.32's form.

use super::pod_template::pod_template_block;
use super::{annotations_multiline, labels_multiline, pods_status, Describe};
use crate::printers::storage_tables::{
    access_modes_as_string, claim_of, is_default_class, storage_of,
};
use crate::printers::table::format_labels;
use chrono::{DateTime, Utc};
use dsplay_api::types::*;
use std::collections::BTreeMap;

/// Go's `%v` of a string slice: `[a b]`.
fn go_list(items: Option<&Vec<String>>) -> String {
    format!("[{}]", items.map(|v| v.join(" ")).unwrap_or_default())
}

/// `printLabelsMultilineWithIndent(w, "  ", title, "\t", …)`: a map under a heading one level in.
fn indented_map(w: &mut Describe, title: &str, map: Option<&BTreeMap<String, String>>) {
    w.w(1, &format!("{title}:\t"));
    let map = map.cloned().unwrap_or_default();
    if map.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in map.iter().enumerate() {
        if i != 0 {
            w.w(1, "\t");
        }
        w.w(0, &format!("{k}={v}\n"));
    }
}

/// `kubectl describe sts NAME`: `pods` are the pods it controls, `events` those about it.
pub fn describe_stateful_set(
    sts: &StatefulSet,
    pods: &[&Pod],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &sts.metadata;
    let spec = sts.spec.clone().unwrap_or_default();
    let status = sts.status.clone().unwrap_or_default();
    w.name_and_namespace(meta);
    w.creation_timestamp(meta);
    w.selector(&spec.selector);
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(
        0,
        &format!(
            "Replicas:\t{} desired | {} total\n",
            spec.replicas.unwrap_or(0),
            status.replicas
        ),
    );
    let strategy = spec.update_strategy.clone().unwrap_or_default();
    w.w(
        0,
        &format!(
            "Update Strategy:\t{}\n",
            strategy.type_.as_deref().unwrap_or("")
        ),
    );
    if let Some(partition) = strategy.rolling_update.as_ref().and_then(|r| r.partition) {
        w.w(1, &format!("Partition:\t{partition}\n"));
        if let Some(max) = strategy
            .rolling_update
            .as_ref()
            .and_then(|r| r.max_unavailable.as_ref())
        {
            w.w(
                1,
                &format!(
                    "MaxUnavailable:\t{}\n",
                    dsplay_api::int_or_percent::format(max)
                ),
            );
        }
    }
    pods_status(&mut w, pods.iter().copied());
    pod_template_block(&mut w, &spec.template);
    describe_volume_claim_templates(&mut w, spec.volume_claim_templates.as_deref());
    w.events(events, now);
    w.finish()
}

/// `describeVolumeClaimTemplates`.
#[doc(alias = "describeVolumeClaimTemplates")]
fn describe_volume_claim_templates(w: &mut Describe, templates: Option<&[PersistentVolumeClaim]>) {
    let templates = templates.unwrap_or(&[]);
    if templates.is_empty() {
        w.w(0, "Volume Claims:\t<none>\n");
        return;
    }
    w.w(0, "Volume Claims:\n");
    for claim in templates {
        let spec = claim.spec.clone().unwrap_or_default();
        w.w(
            1,
            &format!("Name:\t{}\n", claim.metadata.name.as_deref().unwrap_or("")),
        );
        w.w(
            1,
            &format!(
                "StorageClass:\t{}\n",
                spec.storage_class_name.as_deref().unwrap_or("")
            ),
        );
        indented_map(w, "Labels", claim.metadata.labels.as_ref());
        indented_map(w, "Annotations", claim.metadata.annotations.as_ref());
        let capacity = storage_of(spec.resources.as_ref().and_then(|r| r.requests.as_ref()));
        let capacity = if capacity.is_empty() {
            "<default>".to_string()
        } else {
            capacity
        };
        w.w(1, &format!("Capacity:\t{capacity}\n"));
        w.w(
            1,
            &format!("Access Modes:\t{}\n", go_list(spec.access_modes.as_ref())),
        );
    }
}

/// `kubectl describe pvc NAME`: `used_by` are the pods whose volumes name the claim.
pub fn describe_persistent_volume_claim(
    claim: &PersistentVolumeClaim,
    used_by: &[&str],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &claim.metadata;
    let spec = claim.spec.clone().unwrap_or_default();
    let status = claim.status.clone().unwrap_or_default();
    w.name_and_namespace(meta);
    class_line(&mut w, spec.storage_class_name.as_deref());
    status_line(&mut w, meta, status.phase.as_deref(), now);
    let volume = spec.volume_name.clone().unwrap_or_default();
    w.w(0, &format!("Volume:\t{volume}\n"));
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(
        0,
        &format!("Finalizers:\t{}\n", go_list(meta.finalizers.as_ref())),
    );
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            storage_of(status.capacity.as_ref()),
            access_modes_as_string(status.access_modes.as_deref().unwrap_or(&[])),
        )
    };
    w.w(0, &format!("Capacity:\t{capacity}\n"));
    w.w(0, &format!("Access Modes:\t{modes}\n"));
    if let Some(mode) = &spec.volume_mode {
        w.w(0, &format!("VolumeMode:\t{mode}\n"));
    }
    w.w(0, "Used By:\t");
    if used_by.is_empty() {
        w.w(0, "<none>\n");
    }
    for (i, pod) in used_by.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{pod}\n"));
    }
    w.events(events, now);
    w.finish()
}

/// `Status:` with the phase, or `Terminating (lasts AGE)` once a deletion started.
fn status_line(w: &mut Describe, meta: &ObjectMeta, phase: Option<&str>, now: DateTime<Utc>) {
    let status = match &meta.deletion_timestamp {
        Some(t) => format!(
            "Terminating (lasts {})",
            crate::printers::age::age_since(Some(&t.0), now)
        ),
        None => phase.unwrap_or("").to_string(),
    };
    w.w(0, &format!("Status:\t{status}\n"));
}

/// `StorageClass:` (`GetPersistentVolumeClaimClass` / `GetPersistentVolumeClass`).
fn class_line(w: &mut Describe, class: Option<&str>) {
    w.w(0, &format!("StorageClass:\t{}\n", class.unwrap_or("")));
}

/// `kubectl describe pv NAME`.
pub fn describe_persistent_volume(
    pv: &PersistentVolume,
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &pv.metadata;
    let spec = pv.spec.clone().unwrap_or_default();
    let status = pv.status.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(
        0,
        &format!("Finalizers:\t{}\n", go_list(meta.finalizers.as_ref())),
    );
    class_line(&mut w, spec.storage_class_name.as_deref());
    status_line(&mut w, meta, status.phase.as_deref(), now);
    let claim = claim_of(&spec);
    w.w(0, &format!("Claim:\t{claim}\n"));
    w.w(
        0,
        &format!(
            "Reclaim Policy:\t{}\n",
            spec.persistent_volume_reclaim_policy
                .as_deref()
                .unwrap_or("")
        ),
    );
    w.w(
        0,
        &format!(
            "Access Modes:\t{}\n",
            access_modes_as_string(spec.access_modes.as_deref().unwrap_or(&[]))
        ),
    );
    if let Some(mode) = &spec.volume_mode {
        w.w(0, &format!("VolumeMode:\t{mode}\n"));
    }
    w.w(
        0,
        &format!("Capacity:\t{}\n", storage_of(spec.capacity.as_ref())),
    );
    print_volume_node_affinity(&mut w, spec.node_affinity.as_ref());
    w.w(
        0,
        &format!("Message:\t{}\n", status.message.as_deref().unwrap_or("")),
    );
    w.w(0, "Source:\n");
    if let Some(h) = &spec.host_path {
        w.w(
            2,
            &format!(
            "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{}\n",
            h.path,
            h.type_.as_deref().unwrap_or("<none>")
        ),
        );
    }
    w.events(events, now);
    w.finish()
}

/// `printVolumeNodeAffinity`: the required terms, one `key in [values]` per line.
#[doc(alias = "printVolumeNodeAffinity")]
fn print_volume_node_affinity(
    w: &mut Describe,
    affinity: Option<&k8s_openapi::api::core::v1::VolumeNodeAffinity>,
) {
    w.w(0, "Node Affinity:\t");
    let Some(required) = affinity.and_then(|a| a.required.as_ref()) else {
        w.w(0, "<none>\n");
        return;
    };
    w.w(0, "\n");
    w.w(1, "Required Terms:\t");
    if required.node_selector_terms.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    w.w(0, "\n");
    for (i, term) in required.node_selector_terms.iter().enumerate() {
        w.w(2, &format!("Term {i}:\t"));
        let reqs = term.match_expressions.clone().unwrap_or_default();
        if reqs.is_empty() {
            w.w(0, "<none>\n");
        }
        for (j, req) in reqs.iter().enumerate() {
            if j != 0 {
                w.w(2, "\t");
            }
            let mut expr = format!("{} {}", req.key, req.operator.to_lowercase());
            if let Some(values) = req.values.as_ref().filter(|v| !v.is_empty()) {
                expr.push_str(&format!(" [{}]", values.join(", ")));
            }
            w.w(0, &format!("{expr}\n"));
        }
    }
}

/// `kubectl describe sc NAME`.
pub fn describe_storage_class(sc: &StorageClass, events: &[&Event], now: DateTime<Utc>) -> String {
    let mut w = Describe::new();
    let meta = &sc.metadata;
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    let default = if is_default_class(meta) { "Yes" } else { "No" };
    w.w(0, &format!("IsDefaultClass:\t{default}\n"));
    w.w(
        0,
        &format!(
            "Annotations:\t{}\n",
            format_labels(&meta.annotations.clone().unwrap_or_default())
        ),
    );
    w.w(0, &format!("Provisioner:\t{}\n", sc.provisioner));
    w.w(
        0,
        &format!(
            "Parameters:\t{}\n",
            format_labels(&sc.parameters.clone().unwrap_or_default())
        ),
    );
    let expansion = match sc.allow_volume_expansion {
        None => "<unset>",
        Some(true) => "True",
        Some(false) => "False",
    };
    w.w(0, &format!("AllowVolumeExpansion:\t{expansion}\n"));
    match sc.mount_options.as_ref().filter(|m| !m.is_empty()) {
        None => w.w(0, "MountOptions:\t<none>\n"),
        Some(options) => {
            w.w(0, "MountOptions:\n");
            for option in options {
                w.w(1, &format!("{option}\n"));
            }
        }
    }
    if let Some(policy) = &sc.reclaim_policy {
        w.w(0, &format!("ReclaimPolicy:\t{policy}\n"));
    }
    if let Some(mode) = &sc.volume_binding_mode {
        w.w(0, &format!("VolumeBindingMode:\t{mode}\n"));
    }
    w.events(events, now);
    w.finish()
}
