//! `get -o FORMAT`: which printer a format names, with its template read and checked.
//!
//! Upstream: staging/src/k8s.io/cli-runtime/pkg/genericclioptions/print_flags.go (`ToPrinter`),
//! json_yaml_flags.go, jsonpath_flags.go, kube_template_flags.go; kubectl
//! pkg/cmd/get/customcolumn_flags.go.

use super::{Ctx, Failed};
use crate::printers::output::go_template::GoTemplate;
use crate::printers::output::CustomColumns;

/// The formats `kubectl get -o` knows, as its error lists them.
const FORMATS: &str = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml";

/// A `get` printer.
#[derive(Clone, Debug)]
pub(crate) enum OutputFormat {
    /// The default table (`wide`: with its extra columns).
    Table {
        wide: bool,
    },
    Yaml,
    Json,
    Name,
    /// `-o jsonpath=…`, `jsonpath-file=…` (`as_json`: `jsonpath-as-json=…`).
    JsonPath {
        template: String,
        as_json: bool,
    },
    CustomColumns(CustomColumns),
    /// `-o go-template=…`, `template=…` and their `-file` forms.
    GoTemplate(GoTemplate),
}

impl OutputFormat {
    /// Whether the output is a table (what `--sort-by` sorts as rows, and where "No resources
    /// found" is printed).
    pub fn is_table(&self) -> bool {
        matches!(self, OutputFormat::Table { .. })
    }
}

/// Prints `value` through a template printer (`-o jsonpath…`, `-o go-template…`): what it wrote,
/// then its error if execution failed. Any other printer is the caller's.
pub(crate) fn print_template(
    ctx: &mut Ctx,
    printer: &OutputFormat,
    value: &serde_json::Value,
) -> Result<(), Failed> {
    use crate::printers::output;
    let (text, error) = match printer {
        OutputFormat::JsonPath { template, as_json } => {
            let result = if *as_json {
                output::jsonpath_as_json(template, value)
            } else {
                output::jsonpath(template, value)
            };
            match result {
                Ok(text) => (text, None),
                Err(e) => (String::new(), Some(e.0)),
            }
        }
        OutputFormat::GoTemplate(template) => template.print_obj(value),
        _ => return Ok(()),
    };
    if !text.is_empty() {
        ctx.out_raw(text);
    }
    match error {
        Some(e) => ctx.fail(e),
        None => Ok(()),
    }
}

/// Checks that `-o TEXT` names a printer, before anything is fetched (kubectl's `Complete`).
pub(crate) fn check_known(ctx: &mut Ctx, text: &str) -> Result<(), Failed> {
    let known = match text.split_once('=') {
        None => text.is_empty() || FORMATS.split(',').any(|f| f == text),
        Some((name, _)) => {
            !matches!(name, "wide" | "yaml" | "json" | "name")
                && FORMATS.split(',').any(|f| f == name)
        }
    };
    if known {
        return Ok(());
    }
    ctx.err(format!("error: unable to match a printer suitable for the output format \"{text}\", allowed formats are: {FORMATS}"));
    Err(Failed)
}

/// The printer `-o TEXT` names (already checked by [`check_known`]), reading a template file where
/// the format names one.
pub(crate) fn parse(ctx: &mut Ctx, text: &str) -> Result<OutputFormat, Failed> {
    let (name, arg) = text.split_once('=').unwrap_or((text, ""));
    let result = match name {
        "" | "wide" => Ok(OutputFormat::Table { wide: name == "wide" }),
        "yaml" => Ok(OutputFormat::Yaml),
        "json" => Ok(OutputFormat::Json),
        "name" => Ok(OutputFormat::Name),
        "custom-columns" => CustomColumns::from_spec(arg).map(OutputFormat::CustomColumns),
        "custom-columns-file" if arg.is_empty() => CustomColumns::from_spec(arg).map(OutputFormat::CustomColumns),
        "custom-columns-file" => read_template(ctx, arg, "template")
            .and_then(|t| CustomColumns::from_template(&t))
            .map(OutputFormat::CustomColumns),
        _ if arg.is_empty() => Err("template format specified but no template given".to_string()),
        "jsonpath" | "jsonpath-as-json" => Ok(OutputFormat::JsonPath {
            template: arg.to_string(),
            as_json: name == "jsonpath-as-json",
        }),
        "jsonpath-file" => read_template(ctx, arg, "--template").map(|template| OutputFormat::JsonPath {
            template,
            as_json: false,
        }),
        "go-template" | "template" => go_template(arg),
        "go-template-file" | "templatefile" => {
            read_template(ctx, arg, "--template").and_then(|t| go_template(&t))
        }
        _ => Err(format!("unable to match a printer suitable for the output format \"{text}\", allowed formats are: {FORMATS}")),
    };
    result.map_err(|message| {
        ctx.err(format!("error: {message}"));
        Failed
    })
}

/// A template file's text; the error names it as kubectl does (`what`: `template` for
/// custom-columns-file, `--template` for the others).
fn read_template(ctx: &Ctx, file: &str, what: &str) -> Result<String, String> {
    let why = match ctx.read_file {
        Some(read) => match read(file) {
            Ok(text) => return Ok(text),
            Err(message) if message.ends_with("does not exist") => {
                format!("open {file}: no such file or directory")
            }
            Err(message) => message,
        },
        None => format!("open {file}: no such file or directory (the playground has no files)"),
    };
    Err(format!("error reading {what} {file}, {why}"))
}

fn go_template(text: &str) -> Result<OutputFormat, String> {
    GoTemplate::parse(text)
        .map(OutputFormat::GoTemplate)
        .map_err(|e| format!("error parsing template {text}, {e}"))
}
