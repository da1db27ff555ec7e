//! `-o yaml`, `-o json`, `-o name`, `-o jsonpath=…` and `-o custom-columns=…` as kubectl prints them: the name/List
//! printer here, one module per encoder.
//!
//! * [`yaml`] follows `sigs.k8s.io/yaml` (go-yaml v2): keys in go-yaml's natural order, two-space
//!   indentation, sequences not indented inside mappings, go-yaml's quoting rules and its folding of
//!   long scalars past column 80.
//! * [`json`] follows Go's `json.MarshalIndent(obj, "", "    ")` on unstructured objects: keys sorted,
//!   `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`….
//! * [`jsonpath`](mod@jsonpath) is kubectl's jsonpath template engine.
//! * [`custom_columns`] is kubectl's custom-columns printer over jsonpath.
//! * [`go_template`] is a subset of Go's text/template for `-o go-template`.

pub mod custom_columns;
pub mod go_fmt;
pub mod go_template;
pub mod json;
pub mod jsonpath;
pub mod yaml;

pub use self::custom_columns::{relaxed_json_path_expression, CustomColumns};
pub use self::json::{to_json, to_json_compact, to_json_typed, GoStruct};
pub use self::jsonpath::{jsonpath, jsonpath_as_json, jsonpath_first, JsonPathError};
pub use self::yaml::{to_yaml, yaml_key_cmp};

use dsplay_api::Kind;
use serde_json::Value;

/// `-o name`: `daemonset.apps/demo`, `pod/demo-abcde`, `node/kind-worker` (with a newline).
pub fn name_line(kind: Kind, name: &str) -> String {
    format!("{}/{}\n", kind.qualified_singular(), name)
}

/// The `List` kubectl prints for `get` of a collection in `-o yaml|json`.
pub fn list_value(items: Vec<Value>) -> Value {
    serde_json::json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "List",
        "metadata": { "resourceVersion": "" },
    })
}
