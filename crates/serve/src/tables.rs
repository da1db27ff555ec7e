//! `Table` responses (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`): what `kubectl get`
//! always asks for. Columns and cells come from the kubectl crate's printers
//! ([`dsplay_kubectl::printers::get::table_for`]), the one owner of every column rule.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/registry/rest/table.go`,
//! `pkg/printers/tablegenerator.go` `GenerateTable`.

use chrono::{DateTime, Utc};
use dsplay_api::{Kind, Object};
use dsplay_kubectl::printers::get::table_for;
use serde_json::{json, Value};

/// Whether an `Accept` header asks for a Table.
pub fn wants_table(accept: &str) -> bool {
    accept
        .split(',')
        .next()
        .is_some_and(|first| first.contains("as=Table"))
}

/// `includeObject=None|Metadata|Object` (default Metadata).
fn row_object(object: &Object, include: &str) -> Value {
    match include {
        "None" => Value::Null,
        "Object" => object.to_json(),
        _ => json!({
            "kind": "PartialObjectMetadata",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": serde_json::to_value(object.metadata()).unwrap_or(Value::Null),
        }),
    }
}

/// A `meta.k8s.io/v1` Table of `objects` (all of `kind`) at virtual time `now`.
pub fn table(
    kind: Kind,
    objects: &[Object],
    now: DateTime<Utc>,
    include: &str,
    resource_version: u64,
) -> Value {
    let printed = table_for(kind, objects, now);
    let columns: Vec<Value> = printed
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "name": c.name,
                "type": "string",
                "format": if i == 0 { "name" } else { "" },
                "description": "",
                "priority": if c.wide { 1 } else { 0 },
            })
        })
        .collect();
    let rows: Vec<Value> = printed
        .rows
        .iter()
        .zip(objects)
        .map(|(row, object)| json!({"cells": row.cells, "object": row_object(object, include)}))
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version.to_string()},
        "columnDefinitions": columns,
        "rows": rows,
    })
}
