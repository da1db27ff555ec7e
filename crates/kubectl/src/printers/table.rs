//! kubectl's human-readable table printer (`cli-runtime` `printers.TablePrinter`): upper-cased
//! headers, tabwriter columns (widest cell + 3, at least 6), `-o wide` columns, `-A`'s NAMESPACE,
//! `-L` label columns and `--show-labels`.

use super::tabwriter::TabWriter;
use std::collections::BTreeMap;

/// One column definition (`metav1.TableColumnDefinition`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Column name as the server defines it (`Node Selector`); printed upper-cased.
    pub name: String,
    /// Only shown with `-o wide` (Priority 1 columns).
    pub wide: bool,
}

impl Column {
    /// A column shown in every table.
    pub fn new(name: &str) -> Self {
        Column {
            name: name.to_string(),
            wide: false,
        }
    }

    /// A column shown only with `-o wide`.
    pub fn wide(name: &str) -> Self {
        Column {
            name: name.to_string(),
            wide: true,
        }
    }
}

/// One table row: the cells of every column (wide ones included) plus what decorations need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// The object's namespace, for `-A`'s leading NAMESPACE column.
    pub namespace: String,
    /// One cell per column definition.
    pub cells: Vec<String>,
    /// The object's labels, for `-L` and `--show-labels`.
    pub labels: BTreeMap<String, String>,
}

/// A server-side style table: column definitions and rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Column definitions, in order.
    pub columns: Vec<Column>,
    /// Rows, in print order.
    pub rows: Vec<Row>,
}

/// Printing flags that change the table layout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// `-o wide`.
    pub wide: bool,
    /// `-A` / `--all-namespaces`: a leading NAMESPACE column.
    pub with_namespace: bool,
    /// `-L key` (repeatable, or comma separated already split).
    pub column_labels: Vec<String>,
    /// `--show-labels`.
    pub show_labels: bool,
    /// `--no-headers`.
    pub no_headers: bool,
    /// Prefix for NAME cells when several kinds are printed (`daemonset.apps`, `pod`).
    pub kind_prefix: Option<String>,
}

/// `-L` headers: the upper-cased last `/` segment of each key (`formatLabelHeaders`).
pub fn label_column_header(key: &str) -> String {
    key.rsplit('/').next().unwrap_or(key).to_uppercase()
}

/// `labels.FormatLabels`: `k=v` pairs sorted by key, joined with `,`; `<none>` when empty.
pub fn format_labels(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return "<none>".to_string();
    }
    labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A cell as the table printer writes it: cut at the first `\n`, `\r` or `\f`, with `...` appended.
fn print_cell(cell: &str) -> String {
    match cell.find(['\n', '\r', '\u{c}']) {
        Some(i) => format!("{}...", &cell[..i]),
        None => cell.to_string(),
    }
}

impl Table {
    /// Renders the table as kubectl prints it to stdout (every line ends in `\n`; no rows → "").
    pub fn render(&self, opts: &TableOptions) -> String {
        if self.rows.is_empty() {
            return String::new();
        }
        let mut w = TabWriter::for_table();
        w.write(&self.render_unaligned(opts));
        w.finish()
    }

    /// The tab-separated text before alignment (used to align several tables of one watch together).
    pub fn render_unaligned(&self, opts: &TableOptions) -> String {
        let shown: Vec<usize> = (0..self.columns.len())
            .filter(|&i| opts.wide || !self.columns[i].wide)
            .collect();
        let name_column = self.columns.iter().position(|c| c.name == "Name");
        let mut text = String::new();
        if !opts.no_headers {
            let mut headers: Vec<String> = Vec::new();
            if opts.with_namespace {
                headers.push("NAMESPACE".to_string());
            }
            headers.extend(shown.iter().map(|&i| self.columns[i].name.to_uppercase()));
            headers.extend(opts.column_labels.iter().map(|k| label_column_header(k)));
            if opts.show_labels {
                headers.push("LABELS".to_string());
            }
            text.push_str(&headers.join("\t"));
            text.push('\n');
        }
        for row in &self.rows {
            let mut cells: Vec<String> = Vec::new();
            if opts.with_namespace {
                cells.push(row.namespace.clone());
            }
            for &i in &shown {
                let cell = row.cells.get(i).map(String::as_str).unwrap_or("");
                let cell = match (&opts.kind_prefix, name_column) {
                    (Some(prefix), Some(n)) if n == i => format!("{prefix}/{cell}"),
                    _ => cell.to_string(),
                };
                cells.push(print_cell(&cell));
            }
            for key in &opts.column_labels {
                cells.push(print_cell(
                    row.labels.get(key).map(String::as_str).unwrap_or(""),
                ));
            }
            if opts.show_labels {
                cells.push(format_labels(&row.labels));
            }
            text.push_str(&cells.join("\t"));
            text.push('\n');
        }
        text
    }
}

/// The stderr notice of an empty `get` in a namespace: `No resources found in <ns> namespace.`
pub fn no_resources_found_in(namespace: &str) -> String {
    format!("No resources found in {namespace} namespace.\n")
}

/// The stderr notice of an empty `get` of cluster-scoped kinds or with `-A`: `No resources found`.
pub fn no_resources_found() -> String {
    "No resources found\n".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        let labels: BTreeMap<String, String> = [
            ("app".to_string(), "demo".to_string()),
            ("ver".to_string(), "v2".to_string()),
        ]
        .into();
        Table {
            columns: vec![
                Column::new("Name"),
                Column::new("Ready"),
                Column::new("Age"),
                Column::wide("IP"),
            ],
            rows: vec![
                Row {
                    namespace: "default".into(),
                    cells: vec![
                        "demo-abcde".into(),
                        "1/1".into(),
                        "5m".into(),
                        "10.244.1.2".into(),
                    ],
                    labels,
                },
                Row {
                    namespace: "kube-system".into(),
                    cells: vec!["x".into(), "0/1".into(), "12s".into(), "<none>".into()],
                    labels: BTreeMap::new(),
                },
            ],
        }
    }

    #[test]
    fn layouts() {
        let t = table();
        let cases: &[(&str, TableOptions, &str)] = &[
            ("plain", TableOptions::default(),
             "NAME         READY   AGE\ndemo-abcde   1/1     5m\nx            0/1     12s\n"),
            ("wide", TableOptions { wide: true, ..Default::default() },
             "NAME         READY   AGE   IP\ndemo-abcde   1/1     5m    10.244.1.2\nx            0/1     12s   <none>\n"),
            ("all namespaces", TableOptions { with_namespace: true, ..Default::default() },
             "NAMESPACE     NAME         READY   AGE\ndefault       demo-abcde   1/1     5m\nkube-system   x            0/1     12s\n"),
            ("label columns", TableOptions { column_labels: vec!["ver".into(), "example.com/tier".into()], ..Default::default() },
             "NAME         READY   AGE   VER   TIER\ndemo-abcde   1/1     5m    v2    \nx            0/1     12s         \n"),
            ("show labels", TableOptions { show_labels: true, ..Default::default() },
             "NAME         READY   AGE   LABELS\ndemo-abcde   1/1     5m    app=demo,ver=v2\nx            0/1     12s   <none>\n"),
            ("no headers + kind", TableOptions { no_headers: true, kind_prefix: Some("pod".into()), ..Default::default() },
             "pod/demo-abcde   1/1   5m\npod/x            0/1   12s\n"),
        ];
        for (name, opts, want) in cases {
            assert_eq!(t.render(opts), *want, "{name}");
        }
    }

    #[test]
    fn multiline_cells_are_cut() {
        let t = Table {
            columns: vec![Column::new("Name"), Column::new("Message")],
            rows: vec![Row {
                cells: vec!["a".into(), "one\ntwo".into()],
                ..Default::default()
            }],
        };
        assert_eq!(
            t.render(&TableOptions::default()),
            "NAME   MESSAGE\na      one...\n"
        );
    }

    #[test]
    fn empty_notices() {
        assert_eq!(
            no_resources_found_in("default"),
            "No resources found in default namespace.\n"
        );
        assert_eq!(no_resources_found(), "No resources found\n");
        assert_eq!(Table::default().render(&TableOptions::default()), "");
    }
}
