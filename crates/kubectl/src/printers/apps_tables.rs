//! `kubectl get` rows of Deployments and ReplicaSets, as the API server's table convertor builds
//! them (`pkg/printers/internalversion/printers.go` `printDeployment`, `printReplicaSet`).

use super::age::age_since;
use super::get::layout_container_cells;
use super::table::{Column, Row, Table};
use chrono::{DateTime, Utc};
use dsplay_api::selector::format_label_selector;
use dsplay_api::types::*;

fn row(meta: &ObjectMeta, cells: Vec<String>) -> Row {
    Row {
        namespace: meta.namespace.clone().unwrap_or_default(),
        cells,
        labels: meta.labels.clone().unwrap_or_default(),
    }
}

/// `printDeployment`: NAME READY UP-TO-DATE AVAILABLE AGE (+ wide CONTAINERS IMAGES SELECTOR).
#[doc(alias = "printDeployment")]
pub fn deployment_table(items: &[&Deployment], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Ready"),
        Column::new("Up-to-date"),
        Column::new("Available"),
        Column::new("Age"),
        Column::wide("Containers"),
        Column::wide("Images"),
        Column::wide("Selector"),
    ];
    let rows = items
        .iter()
        .map(|d| {
            let status = d.status.clone().unwrap_or_default();
            let spec = d.spec.as_ref();
            let pod_spec = spec.and_then(|s| s.template.spec.as_ref());
            let (names, images) =
                layout_container_cells(pod_spec.map(|p| p.containers.as_slice()).unwrap_or(&[]));
            row(
                &d.metadata,
                vec![
                    d.metadata.name.clone().unwrap_or_default(),
                    format!(
                        "{}/{}",
                        status.ready_replicas.unwrap_or(0),
                        spec.and_then(|s| s.replicas).unwrap_or(0)
                    ),
                    status.updated_replicas.unwrap_or(0).to_string(),
                    status.available_replicas.unwrap_or(0).to_string(),
                    age_since(d.metadata.creation_timestamp.as_ref().map(|t| &t.0), now),
                    names,
                    images,
                    format_label_selector(spec.map(|s| &s.selector)),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `printReplicaSet`: NAME DESIRED CURRENT READY AGE (+ wide CONTAINERS IMAGES SELECTOR).
#[doc(alias = "printReplicaSet")]
pub fn replica_set_table(items: &[&ReplicaSet], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Desired"),
        Column::new("Current"),
        Column::new("Ready"),
        Column::new("Age"),
        Column::wide("Containers"),
        Column::wide("Images"),
        Column::wide("Selector"),
    ];
    let rows = items
        .iter()
        .map(|rs| {
            let status = rs.status.clone().unwrap_or_default();
            let spec = rs.spec.as_ref();
            let pod_spec = spec
                .and_then(|s| s.template.as_ref())
                .and_then(|t| t.spec.as_ref());
            let (names, images) =
                layout_container_cells(pod_spec.map(|p| p.containers.as_slice()).unwrap_or(&[]));
            row(
                &rs.metadata,
                vec![
                    rs.metadata.name.clone().unwrap_or_default(),
                    spec.and_then(|s| s.replicas).unwrap_or(0).to_string(),
                    status.replicas.to_string(),
                    status.ready_replicas.unwrap_or(0).to_string(),
                    age_since(rs.metadata.creation_timestamp.as_ref().map(|t| &t.0), now),
                    names,
                    images,
                    format_label_selector(spec.map(|s| &s.selector)),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}
