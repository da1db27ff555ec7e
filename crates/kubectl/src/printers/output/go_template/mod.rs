//! `-o go-template=…` (and `go-template-file`, `template`, `templatefile`): a subset of Go's
//! `text/template` over the object's JSON, as kubectl's `GoTemplatePrinter` runs it.
//!
//! Hand-rolled: no maintained Rust crate implements Go's template language (the Rust template
//! engines — tera, handlebars, minijinja — have other syntaxes and semantics), and the printer
//! must run in wasm with Go's output and error texts.
//!
//! Supported: text, `{{.a.b}}`, `{{.}}`, `{{- … -}}` trimming, `{{/* comments */}}`, string,
//! raw-string, number and boolean literals, parentheses, pipelines (`{{.x | len}}`),
//! `{{if}}`/`{{else}}`/`{{else if}}`, `{{range}}` (with `{{else}}`), `{{with}}`, and the functions
//! `index`, `len`, `printf`, `print`, `println`, `not`, `and`, `or`, `eq`, `ne`, `lt`,
//! `le`, `gt`, `ge`, and kubectl's `base64decode`; variables (`$`, `{{$x := …}}`, `{{$x = …}}`,
//! `{{range $i, $v := …}}`, `$x.field`). `define`/`template`/`block` and other functions are
//! refused with a parse error in Go's style.
//!
//! Hostile templates are bounded: blocks and parentheses nest at most [`MAX_DEPTH`] deep, a run
//! executes at most [`MAX_STEPS`] actions and range iterations and writes at most [`MAX_OUTPUT`]
//! bytes.
//!
//! Upstream: Go `text/template` (parse/lex.go, parse/parse.go, exec.go, funcs.go);
//! staging/src/k8s.io/cli-runtime/pkg/printers/template.go `GoTemplatePrinter.PrintObj`.

mod exec;
mod funcs;
mod parse;

use super::go_fmt::go_sprint;
use dsplay_api::validation::go_quote;
use exec::Exec;
use parse::parse_nodes;
use serde_json::Value;
use std::borrow::Cow;

/// The deepest nesting of blocks (`if`, `range`, `with`) and parentheses.
pub const MAX_DEPTH: usize = 100;
/// The most actions and range iterations one execution runs.
pub const MAX_STEPS: usize = 200_000;
/// The most bytes one execution writes.
pub const MAX_OUTPUT: usize = 4 << 20;

/// A parsed template.
#[derive(Clone, Debug)]
pub struct GoTemplate {
    text: String,
    nodes: Vec<Node>,
}

/// An execution error: what was written before it, and Go's message
/// (`template: output:1:2: executing "output" at <len 3>: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    pub partial: String,
    pub message: String,
}

#[derive(Clone, Debug)]
enum Node {
    Text(String),
    Action(Pipe),
    Block {
        kind: BlockKind,
        pipe: Pipe,
        body: Vec<Node>,
        otherwise: Vec<Node>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    If,
    Range,
    With,
}

#[derive(Clone, Debug)]
struct Pipe {
    /// Variables the pipeline declares (`$x :=`) or assigns (`$x =`).
    decl: Vec<String>,
    assign: bool,
    cmds: Vec<Cmd>,
}

#[derive(Clone, Debug)]
struct Cmd {
    args: Vec<Arg>,
}

#[derive(Clone, Debug)]
struct Arg {
    kind: ArgKind,
    /// Byte offset in the template (Go's node position).
    pos: usize,
}

#[derive(Clone, Debug)]
enum ArgKind {
    Dot,
    Field(Vec<String>),
    /// `$x` or `$x.a.b`.
    Var(String, Vec<String>),
    Literal(Value, String),
    Func(Func),
    Pipe(Box<Pipe>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    Index,
    Len,
    Printf,
    Print,
    Println,
    Not,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Base64Decode,
}

impl Func {
    fn named(name: &str) -> Option<Func> {
        Some(match name {
            "index" => Func::Index,
            "len" => Func::Len,
            "printf" => Func::Printf,
            "print" => Func::Print,
            "println" => Func::Println,
            "not" => Func::Not,
            "and" => Func::And,
            "or" => Func::Or,
            "eq" => Func::Eq,
            "ne" => Func::Ne,
            "lt" => Func::Lt,
            "le" => Func::Le,
            "gt" => Func::Gt,
            "ge" => Func::Ge,
            "base64decode" => Func::Base64Decode,
            _ => return None,
        })
    }
    fn name(self) -> &'static str {
        match self {
            Func::Index => "index",
            Func::Len => "len",
            Func::Printf => "printf",
            Func::Print => "print",
            Func::Println => "println",
            Func::Not => "not",
            Func::And => "and",
            Func::Or => "or",
            Func::Eq => "eq",
            Func::Ne => "ne",
            Func::Lt => "lt",
            Func::Le => "le",
            Func::Gt => "gt",
            Func::Ge => "ge",
            Func::Base64Decode => "base64decode",
        }
    }
}

impl std::fmt::Display for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.decl.is_empty() {
            let op = if self.assign { "=" } else { ":=" };
            write!(f, "{} {op} ", self.decl.join(", "))?;
        }
        let cmds: Vec<String> = self.cmds.iter().map(Cmd::to_string).collect();
        f.write_str(&cmds.join(" | "))
    }
}

impl std::fmt::Display for Cmd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let args: Vec<String> = self.args.iter().map(Arg::to_string).collect();
        f.write_str(&args.join(" "))
    }
}

impl std::fmt::Display for Arg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            ArgKind::Dot => f.write_str("."),
            ArgKind::Field(names) => write!(f, ".{}", names.join(".")),
            ArgKind::Var(name, names) => {
                f.write_str(name)?;
                names.iter().try_for_each(|n| write!(f, ".{n}"))
            }
            ArgKind::Literal(_, text) => f.write_str(text),
            ArgKind::Func(func) => f.write_str(func.name()),
            ArgKind::Pipe(p) => write!(f, "({p})"),
        }
    }
}

impl GoTemplate {
    /// Parses a template; the error is Go's (`template: output:1: unexpected {{end}}`).
    pub fn parse(text: &str) -> Result<GoTemplate, String> {
        parse_nodes(text)
            .map(|nodes| GoTemplate {
                text: text.to_string(),
                nodes,
            })
            .map_err(|(pos, message)| format!("template: output:{}: {message}", line_of(text, pos)))
    }
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, pos: usize) -> usize {
    1 + text.as_bytes()[..pos.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

impl GoTemplate {
    /// Runs the template on `data`.
    pub fn execute(&self, data: &Value) -> Result<String, ExecError> {
        let root = Some(Cow::Borrowed(data));
        let mut exec = Exec {
            out: String::new(),
            steps: 0,
            vars: vec![("$".to_string(), root.clone())],
        };
        match exec.nodes(&self.nodes, root) {
            Ok(()) => Ok(exec.out),
            Err(fail) => {
                let before = &self.text[..fail.pos.min(self.text.len())];
                let col = before.rfind('\n').map_or(fail.pos, |nl| fail.pos - nl - 1);
                Err(ExecError {
                    partial: exec.out,
                    message: format!(
                        "template: output:{}:{col}: executing \"output\" at <{}>: {}",
                        line_of(&self.text, fail.pos),
                        fail.at,
                        fail.message
                    ),
                })
            }
        }
    }
}

impl GoTemplate {
    /// What kubectl prints for `data`: the output (on failure: what was written, then the
    /// debugging dump) and, on failure, its error message (without `error: `).
    ///
    /// Upstream: staging/src/k8s.io/cli-runtime/pkg/printers/template.go `GoTemplatePrinter.PrintObj`.
    pub fn print_obj(&self, data: &Value) -> (String, Option<String>) {
        match self.execute(data) {
            Ok(text) => (text, None),
            Err(e) => {
                let dump = format!(
                    "{}Error executing template: {}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{}\n\traw data was:\n\t\t{}\n\tobject given to template engine was:\n\t\t{}\n\n",
                    e.partial,
                    e.message,
                    self.text,
                    super::to_json_compact(data),
                    go_sprint(data)
                );
                let error = format!(
                    "error executing template {}: {}",
                    go_quote(&self.text),
                    e.message
                );
                (dump, Some(error))
            }
        }
    }
}

#[cfg(test)]
mod tests;
