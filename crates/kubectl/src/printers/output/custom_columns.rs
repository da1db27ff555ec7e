//! `-o custom-columns=SPEC` and `-o custom-columns-file=FILE`: one column per jsonpath expression.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn.go.

use super::go_fmt::go_sprint;
use super::jsonpath::Template;
use crate::printers::tabwriter::TabWriter;
use serde_json::Value;

/// One column: its header as written and its jsonpath template (`{.metadata.name}`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Column {
    header: String,
    field_spec: String,
}

/// A custom-columns printer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomColumns {
    columns: Vec<Column>,
}

impl CustomColumns {
    /// `HEADER:EXPR,HEADER:EXPR…`.
    ///
    /// Upstream: customcolumn.go `NewCustomColumnsPrinterFromSpec`.
    pub fn from_spec(spec: &str) -> Result<Self, String> {
        if spec.is_empty() {
            return Err("custom-columns format specified but no custom columns given".to_string());
        }
        let columns = spec
            .split(',')
            .map(|part| match part.split_once(':') {
                Some((header, expr)) => Ok(Column {
                    header: header.to_string(),
                    field_spec: relaxed_json_path_expression(expr)?,
                }),
                None => Err(format!(
                    "unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                )),
            })
            .collect::<Result<_, String>>()?;
        Ok(CustomColumns { columns })
    }

    /// A file of two lines: headers, then expressions, each separated by white space.
    ///
    /// Upstream: customcolumn.go `NewCustomColumnsPrinterFromTemplate`.
    pub fn from_template(text: &str) -> Result<Self, String> {
        let mut lines = text.lines();
        let usage = "Expected format is one line of space separated headers, one line of space separated column specs.";
        let headers: Vec<&str> = match lines.next() {
            Some(line) => line.split_whitespace().collect(),
            None => return Err(format!("invalid template, missing header line. {usage}")),
        };
        let specs: Vec<&str> = match lines.next() {
            Some(line) => line.split_whitespace().collect(),
            None => return Err(format!("invalid template, missing spec line. {usage}")),
        };
        if headers.len() != specs.len() {
            return Err(format!(
                "number of headers ({}) and field specifications ({}) don't match",
                headers.len(),
                specs.len()
            ));
        }
        let columns = headers
            .iter()
            .zip(&specs)
            .map(|(header, expr)| {
                Ok(Column {
                    header: header.to_string(),
                    field_spec: relaxed_json_path_expression(expr)?,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(CustomColumns { columns })
    }

    /// The table of `objects` (the items of a list, or one object), aligned as kubectl's tab
    /// writer does; a column whose expression finds nothing shows `<none>`, several values are
    /// joined by commas. An error (a template that does not parse, an index out of bounds) stops
    /// the table: what was written before it is still printed, as kubectl flushes its writer.
    ///
    /// Upstream: customcolumn.go `CustomColumnsPrinter.PrintObj`, `printOneObject`.
    pub fn render(&self, objects: &[Value], no_headers: bool) -> (String, Option<String>) {
        let mut w = TabWriter::for_table();
        if !no_headers {
            let headers: Vec<&str> = self.columns.iter().map(|c| c.header.as_str()).collect();
            w.write(&(headers.join("\t") + "\n"));
        }
        let error = self.write_rows(&mut w, objects).err();
        (w.finish(), error)
    }

    fn write_rows(&self, w: &mut TabWriter, objects: &[Value]) -> Result<(), String> {
        let templates = self
            .columns
            .iter()
            .map(|c| Template::parse(&c.field_spec))
            .collect::<Result<Vec<_>, String>>()?;
        for object in objects {
            let mut cells = Vec::with_capacity(templates.len());
            for template in &templates {
                let groups = template.find_results(object)?;
                let cell = if groups.first().is_none_or(Vec::is_empty) {
                    "<none>".to_string()
                } else {
                    groups
                        .iter()
                        .flatten()
                        .map(go_sprint)
                        .collect::<Vec<_>>()
                        .join(",")
                };
                cells.push(cell);
            }
            w.write(&(cells.join("\t") + "\n"));
        }
        Ok(())
    }
}

/// `a.b`, `.a.b`, `{a.b}` or `{.a.b}` as the template `{.a.b}`; anything else (braces inside) is
/// refused.
///
/// Upstream: customcolumn.go `RelaxedJSONPathExpression` (its regexp
/// `^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`, spelled out).
pub fn relaxed_json_path_expression(expr: &str) -> Result<String, String> {
    if expr.is_empty() {
        return Ok(String::new());
    }
    let braced = expr.len() >= 2 && expr.starts_with('{') && expr.ends_with('}');
    let body = if braced {
        &expr[1..expr.len() - 1]
    } else {
        expr
    };
    if body.is_empty() || body.contains(['{', '}']) {
        return Err("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".to_string());
    }
    let field = match body.strip_prefix('.') {
        Some(rest) if !rest.is_empty() => rest,
        _ => body,
    };
    Ok(format!("{{.{field}}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pods() -> Vec<Value> {
        vec![
            json!({"metadata": {"name": "a", "labels": {"app": "x", "tier": "y"}},
                   "spec": {"containers": [{"name": "c1"}, {"name": "c2"}]}}),
            json!({"metadata": {"name": "bb"}, "spec": {"containers": []}}),
        ]
    }

    #[test]
    fn columns_from_spec() {
        let p = CustomColumns::from_spec(
            "NAME:.metadata.name,C:{.spec.containers[*].name},L:metadata.labels",
        )
        .unwrap();
        assert_eq!(
            p.render(&pods(), false).0,
            "NAME   C        L\na      c1,c2    map[app:x tier:y]\nbb     <none>   <none>\n"
        );
        assert_eq!(
            p.render(&pods(), true).0,
            "a     c1,c2    map[app:x tier:y]\nbb    <none>   <none>\n"
        );
    }

    #[test]
    fn spec_errors() {
        assert_eq!(
            CustomColumns::from_spec("").unwrap_err(),
            "custom-columns format specified but no custom columns given"
        );
        assert_eq!(
            CustomColumns::from_spec("NAME:.metadata.name,oops").unwrap_err(),
            "unexpected custom-columns spec: oops, expected <header>:<json-path-expr>"
        );
        assert!(CustomColumns::from_spec("N:{{x}}")
            .unwrap_err()
            .starts_with("unexpected path string"));
    }

    #[test]
    fn columns_from_template_file() {
        let p = CustomColumns::from_template(
            "NAME  FIRST\n.metadata.name {.spec.containers[0].name}\n",
        )
        .unwrap();
        assert_eq!(p.render(&pods()[..1], false).0, "NAME   FIRST\na      c1\n");
        assert!(CustomColumns::from_template("")
            .unwrap_err()
            .starts_with("invalid template, missing header line."));
        assert!(CustomColumns::from_template("A B\n.x\n")
            .unwrap_err()
            .starts_with("number of headers (2) and field specifications (1) don't match"));
    }
}
