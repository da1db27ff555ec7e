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

use super::go_fmt::{go_sprint, go_type_name};
use dsplay_api::validation::go_quote;
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

// ---------------------------------------------------------------------------------------------
// Parsing

/// A piece of the template: text, or an action's body with its offset.
enum Piece<'a> {
    Text(String),
    Action(&'a str, usize),
}

/// Splits the template at `{{ … }}`, applying `{{-`/`-}}` trimming and dropping comments.
fn split_actions(t: &str) -> Result<Vec<Piece<'_>>, (usize, String)> {
    let mut pieces = Vec::new();
    let mut pos = 0;
    let mut trim_next = false;
    while pos < t.len() {
        let Some(open) = t[pos..].find("{{").map(|o| pos + o) else {
            break;
        };
        let mut text = &t[pos..open];
        if trim_next {
            text = text.trim_start();
        }
        let mut start = open + 2;
        let trim_left = t[start..].starts_with("- ")
            || t[start..].starts_with("-\n")
            || t[start..].starts_with("-\t");
        if trim_left {
            text = text.trim_end();
            start += 1;
        }
        pieces.push(Piece::Text(text.to_string()));
        let close = find_close(t, start).ok_or((open, "unclosed action".to_string()))?;
        let trim_right = t[..close].ends_with(" -")
            || t[..close].ends_with("\n-")
            || t[..close].ends_with("\t-");
        let end = if trim_right { close - 1 } else { close };
        let body = &t[start..end.max(start)];
        let trimmed = body.trim();
        if !(trimmed.starts_with("/*") && trimmed.ends_with("*/") && trimmed.len() >= 4) {
            pieces.push(Piece::Action(body, start));
        }
        trim_next = trim_right;
        pos = close + 2;
    }
    let mut rest = &t[pos.min(t.len())..];
    if trim_next {
        rest = rest.trim_start();
    }
    pieces.push(Piece::Text(rest.to_string()));
    Ok(pieces)
}

/// The offset of the `}}` closing the action whose body starts at `start` (quotes skipped).
fn find_close(t: &str, start: usize) -> Option<usize> {
    let bytes = t.as_bytes();
    let mut i = start;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(b'"') if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'`' => quote = Some(b),
            None if b == b'}' && bytes.get(i + 1) == Some(&b'}') => return Some(i),
            None => {}
        }
        i += 1;
    }
    None
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Dot,
    Field(Vec<String>),
    Var(String, Vec<String>),
    Declare,
    Assign,
    Comma,
    Ident(String),
    Literal(Value, String),
    LParen,
    RParen,
    Bar,
}

/// Tokens of an action body, each with its offset in the template.
fn lex(body: &str, base: usize) -> Result<Vec<(Tok, usize)>, String> {
    let chars: Vec<(usize, char)> = body.char_indices().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let offset = |i: usize| base + chars.get(i).map_or(body.len(), |&(o, _)| o);
    while let Some(c) = at(i) {
        let start = i;
        match c {
            c if c.is_whitespace() => i += 1,
            '(' | ')' | '|' => {
                toks.push((
                    match c {
                        '(' => Tok::LParen,
                        ')' => Tok::RParen,
                        _ => Tok::Bar,
                    },
                    offset(i),
                ));
                i += 1;
            }
            '.' if at(i + 1).is_some_and(is_ident_char) => {
                let mut names = Vec::new();
                let mut positions = Vec::new();
                while at(i) == Some('.') && at(i + 1).is_some_and(is_ident_char) {
                    positions.push(offset(i));
                    i += 1;
                    let s = i;
                    while at(i).is_some_and(is_ident_char) {
                        i += 1;
                    }
                    names.push(chars[s..i].iter().map(|&(_, c)| c).collect());
                }
                // Go positions a field chain at its second field.
                let pos = positions.get(1).copied().unwrap_or(positions[0]);
                toks.push((Tok::Field(names), pos));
            }
            '.' => {
                toks.push((Tok::Dot, offset(i)));
                i += 1;
            }
            '"' | '`' => {
                let mut j = i + 1;
                let mut text = String::new();
                loop {
                    match at(j) {
                        None => return Err("unterminated quoted string".to_string()),
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => {
                            j += 1;
                            text.push(match at(j) {
                                Some('n') => '\n',
                                Some('t') => '\t',
                                Some('r') => '\r',
                                Some(e @ ('\\' | '"' | '\'')) => e,
                                _ => return Err("invalid syntax".to_string()),
                            });
                        }
                        Some(ch) => text.push(ch),
                    }
                    j += 1;
                }
                let raw: String = chars[i..=j].iter().map(|&(_, c)| c).collect();
                toks.push((Tok::Literal(Value::String(text), raw), offset(i)));
                i = j + 1;
            }
            c if c.is_ascii_digit()
                || ((c == '-' || c == '+') && at(i + 1).is_some_and(|d| d.is_ascii_digit())) =>
            {
                i += 1;
                while at(i).is_some_and(|d| d.is_ascii_alphanumeric() || d == '.') {
                    i += 1;
                }
                let raw: String = chars[start..i].iter().map(|&(_, c)| c).collect();
                let value = match raw.parse::<i64>() {
                    Ok(n) => Value::from(n),
                    Err(_) => raw
                        .parse::<f64>()
                        .ok()
                        .and_then(serde_json::Number::from_f64)
                        .map(Value::Number)
                        .ok_or_else(|| format!("bad number syntax: {raw:?}"))?,
                };
                toks.push((Tok::Literal(value, raw.clone()), offset(start)));
            }
            c if is_ident_char(c) => {
                while at(i).is_some_and(is_ident_char) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().map(|&(_, c)| c).collect();
                let tok = match word.as_str() {
                    "true" | "false" => Tok::Literal(Value::Bool(word == "true"), word),
                    "nil" => Tok::Literal(Value::Null, word),
                    _ => Tok::Ident(word),
                };
                toks.push((tok, offset(start)));
            }
            '$' => {
                i += 1;
                while at(i).is_some_and(is_ident_char) {
                    i += 1;
                }
                let name: String = chars[start..i].iter().map(|&(_, c)| c).collect();
                let mut fields = Vec::new();
                while at(i) == Some('.') && at(i + 1).is_some_and(is_ident_char) {
                    i += 1;
                    let s = i;
                    while at(i).is_some_and(is_ident_char) {
                        i += 1;
                    }
                    fields.push(chars[s..i].iter().map(|&(_, c)| c).collect());
                }
                toks.push((Tok::Var(name, fields), offset(start)));
            }
            ':' if at(i + 1) == Some('=') => {
                toks.push((Tok::Declare, offset(i)));
                i += 2;
            }
            '=' => {
                toks.push((Tok::Assign, offset(i)));
                i += 1;
            }
            ',' => {
                toks.push((Tok::Comma, offset(i)));
                i += 1;
            }
            c => {
                return Err(format!(
                    "unrecognized character in action: U+{:04X} '{c}'",
                    c as u32
                ))
            }
        }
    }
    Ok(toks)
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Parses a pipeline that may start with a declaration (`$x :=`, `$x =`, in a range
/// `$i, $v :=`), adding declared variables to `scope`.
fn parse_decl_pipe(toks: &[(Tok, usize)], scope: &mut Vec<String>) -> Result<Pipe, String> {
    let var = |k: usize| match toks.get(k) {
        Some((Tok::Var(name, fields), _)) if fields.is_empty() => Some(name.clone()),
        _ => None,
    };
    let (decl, assign, rest) = match (var(0), toks.get(1).map(|t| &t.0)) {
        (Some(a), Some(Tok::Comma)) => match (var(2), toks.get(3).map(|t| &t.0)) {
            (Some(b), Some(Tok::Declare)) => (vec![a, b], false, &toks[4..]),
            _ => return Err("too many declarations".to_string()),
        },
        (Some(a), Some(Tok::Declare)) => (vec![a], false, &toks[2..]),
        (Some(a), Some(Tok::Assign)) => (vec![a], true, &toks[2..]),
        _ => (Vec::new(), false, toks),
    };
    if rest.is_empty() {
        return Err("missing value for command".to_string());
    }
    let mut pipe = parse_pipe(rest, 0, scope)?;
    for name in &decl {
        if assign && !scope.contains(name) {
            return Err(format!("undefined variable {name:?}"));
        }
        if !assign {
            scope.push(name.clone());
        }
    }
    pipe.decl = decl;
    pipe.assign = assign;
    Ok(pipe)
}

/// Parses a pipeline from tokens (`depth`: parentheses around it; `scope`: the variables defined).
fn parse_pipe(toks: &[(Tok, usize)], depth: usize, scope: &[String]) -> Result<Pipe, String> {
    if depth > MAX_DEPTH {
        return Err(format!("exceeded max depth of {MAX_DEPTH}"));
    }
    let mut cmds = Vec::new();
    let mut args = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let (tok, pos) = &toks[i];
        let pos = *pos;
        i += 1;
        let kind = match tok {
            Tok::Bar => {
                cmds.push(finish_cmd(std::mem::take(&mut args), cmds.len())?);
                continue;
            }
            Tok::RParen => return Err("unexpected right paren".to_string()),
            Tok::LParen => {
                let mut level = 1;
                let start = i;
                while i < toks.len() && level > 0 {
                    match toks[i].0 {
                        Tok::LParen => level += 1,
                        Tok::RParen => level -= 1,
                        _ => {}
                    }
                    i += 1;
                }
                if level > 0 {
                    return Err("unclosed left paren".to_string());
                }
                ArgKind::Pipe(Box::new(parse_pipe(&toks[start..i - 1], depth + 1, scope)?))
            }
            Tok::Dot => ArgKind::Dot,
            Tok::Field(names) => ArgKind::Field(names.clone()),
            Tok::Var(name, _) if !scope.contains(name) => {
                return Err(format!("undefined variable {name:?}"))
            }
            Tok::Var(name, names) => ArgKind::Var(name.clone(), names.clone()),
            Tok::Declare | Tok::Assign | Tok::Comma => {
                return Err("unexpected declaration in command".to_string())
            }
            Tok::Literal(v, raw) => ArgKind::Literal(v.clone(), raw.clone()),
            Tok::Ident(name) => match Func::named(name) {
                Some(f) => ArgKind::Func(f),
                None if matches!(name.as_str(), "call" | "html" | "js" | "slice" | "urlquery") => {
                    return Err(format!(
                        "function {name:?} is not supported by the playground's go-template subset"
                    ))
                }
                None => return Err(format!("function {name:?} not defined")),
            },
        };
        args.push(Arg { kind, pos });
    }
    cmds.push(finish_cmd(args, cmds.len())?);
    Ok(Pipe {
        decl: Vec::new(),
        assign: false,
        cmds,
    })
}

/// Checks one command of a pipeline (`stage`: its index).
fn finish_cmd(args: Vec<Arg>, stage: usize) -> Result<Cmd, String> {
    let Some(first) = args.first() else {
        return Err("missing value for command".to_string());
    };
    if stage > 0 && !matches!(first.kind, ArgKind::Func(_)) {
        return Err(format!(
            "non executable command in pipeline stage {}",
            stage + 1
        ));
    }
    if matches!(&first.kind, ArgKind::Literal(Value::Null, _)) {
        return Err("nil is not a command".to_string());
    }
    Ok(Cmd { args })
}

/// An open block while parsing.
struct Frame {
    kind: BlockKind,
    pipe: Pipe,
    body: Vec<Node>,
    otherwise: Vec<Node>,
    in_else: bool,
    /// Opened by `{{else if}}`: its `{{end}}` closes the enclosing block too.
    chained: bool,
    /// How many variables were in scope before the block (its own are dropped at `{{end}}`).
    scope_mark: usize,
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

fn parse_nodes(text: &str) -> Result<Vec<Node>, (usize, String)> {
    let mut root: Vec<Node> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut scope: Vec<String> = vec!["$".to_string()];
    fn current<'a>(root: &'a mut Vec<Node>, stack: &'a mut [Frame]) -> &'a mut Vec<Node> {
        match stack.last_mut() {
            Some(f) if f.in_else => &mut f.otherwise,
            Some(f) => &mut f.body,
            None => root,
        }
    }
    for piece in split_actions(text)? {
        let (body, pos) = match piece {
            Piece::Text(t) => {
                if !t.is_empty() {
                    current(&mut root, &mut stack).push(Node::Text(t));
                }
                continue;
            }
            Piece::Action(body, pos) => (body, pos),
        };
        let toks = lex(body, pos).map_err(|e| (pos, e))?;
        let keyword = match toks.first() {
            Some((Tok::Ident(w), _)) => w.as_str(),
            _ => "",
        };
        let rest = toks.get(1..).unwrap_or_default();
        match keyword {
            "if" | "range" | "with" => {
                if stack.len() >= MAX_DEPTH {
                    return Err((pos, format!("exceeded max depth of {MAX_DEPTH}")));
                }
                if rest.is_empty() {
                    return Err((pos, format!("missing value for {keyword}")));
                }
                let kind = match keyword {
                    "if" => BlockKind::If,
                    "range" => BlockKind::Range,
                    _ => BlockKind::With,
                };
                let scope_mark = scope.len();
                let pipe = parse_decl_pipe(rest, &mut scope).map_err(|e| (pos, e))?;
                if pipe.decl.len() > 1 && kind != BlockKind::Range {
                    return Err((pos, "too many declarations".to_string()));
                }
                stack.push(Frame {
                    kind,
                    pipe,
                    body: Vec::new(),
                    otherwise: Vec::new(),
                    in_else: false,
                    chained: false,
                    scope_mark,
                });
            }
            "else" => {
                let Some(frame) = stack.last_mut().filter(|f| !f.in_else) else {
                    return Err((pos, "unexpected {{else}}".to_string()));
                };
                frame.in_else = true;
                if let Some((Tok::Ident(w), _)) = rest.first() {
                    if w == "if" {
                        if stack.len() >= MAX_DEPTH {
                            return Err((pos, format!("exceeded max depth of {MAX_DEPTH}")));
                        }
                        let cond = rest.get(1..).unwrap_or_default();
                        if cond.is_empty() {
                            return Err((pos, "missing value for if".to_string()));
                        }
                        let scope_mark = scope.len();
                        stack.push(Frame {
                            kind: BlockKind::If,
                            pipe: parse_decl_pipe(cond, &mut scope).map_err(|e| (pos, e))?,
                            body: Vec::new(),
                            otherwise: Vec::new(),
                            in_else: false,
                            chained: true,
                            scope_mark,
                        });
                    }
                } else if !rest.is_empty() {
                    return Err((pos, "unexpected token in else".to_string()));
                }
            }
            "end" => loop {
                let Some(frame) = stack.pop() else {
                    return Err((pos, "unexpected {{end}}".to_string()));
                };
                let chained = frame.chained;
                scope.truncate(frame.scope_mark);
                current(&mut root, &mut stack).push(Node::Block {
                    kind: frame.kind,
                    pipe: frame.pipe,
                    body: frame.body,
                    otherwise: frame.otherwise,
                });
                if !chained {
                    break;
                }
            },
            "define" | "template" | "block" | "break" | "continue" => {
                return Err((
                    pos,
                    format!(
                        "{{{{{keyword}}}}} is not supported by the playground's go-template subset"
                    ),
                ))
            }
            _ => {
                if toks.is_empty() {
                    return Err((pos, "missing value for command".to_string()));
                }
                let pipe = parse_decl_pipe(&toks, &mut scope).map_err(|e| (pos, e))?;
                if pipe.decl.len() > 1 {
                    return Err((pos, "too many declarations".to_string()));
                }
                current(&mut root, &mut stack).push(Node::Action(pipe));
            }
        }
    }
    if !stack.is_empty() {
        return Err((text.len(), "unexpected EOF".to_string()));
    }
    Ok(root)
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, pos: usize) -> usize {
    1 + text.as_bytes()[..pos.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

// ---------------------------------------------------------------------------------------------
// Execution

/// A value during execution: `None` is Go's "no value" (a missing map key).
type Val<'a> = Option<Cow<'a, Value>>;

/// An error at a node: its offset, its text, and the message.
struct Fail {
    pos: usize,
    at: String,
    message: String,
}

struct Exec<'a> {
    out: String,
    steps: usize,
    /// Variables in scope, innermost last (`$` is the data).
    vars: Vec<(String, Val<'a>)>,
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

fn fail_at(arg: &Arg, message: String) -> Fail {
    Fail {
        pos: arg.pos,
        at: arg.to_string(),
        message,
    }
}

fn fail_cmd(cmd: &Cmd, message: String) -> Fail {
    Fail {
        pos: cmd.args.first().map_or(0, |a| a.pos),
        at: cmd.to_string(),
        message,
    }
}

fn fail_pipe(pipe: &Pipe, message: String) -> Fail {
    Fail {
        pos: pipe
            .cmds
            .first()
            .and_then(|c| c.args.first())
            .map_or(0, |a| a.pos),
        at: pipe.to_string(),
        message,
    }
}

impl<'a> Exec<'a> {
    fn step(&mut self, pipe: &Pipe) -> Result<(), Fail> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(fail_pipe(
                pipe,
                format!("the playground stops a template after {MAX_STEPS} steps"),
            ));
        }
        if self.out.len() > MAX_OUTPUT {
            return Err(fail_pipe(
                pipe,
                format!("the playground stops a template after {MAX_OUTPUT} bytes of output"),
            ));
        }
        Ok(())
    }

    /// Runs a list of nodes; variables declared in it go out of scope at its end.
    fn nodes(&mut self, nodes: &[Node], dot: Val<'a>) -> Result<(), Fail> {
        let mark = self.vars.len();
        let result = self.nodes_in_scope(nodes, dot);
        self.vars.truncate(mark);
        result
    }

    fn nodes_in_scope(&mut self, nodes: &[Node], dot: Val<'a>) -> Result<(), Fail> {
        for node in nodes {
            match node {
                Node::Text(t) => self.out.push_str(t),
                Node::Action(pipe) => {
                    self.step(pipe)?;
                    let v = self.pipe(pipe, &dot)?;
                    if pipe.decl.is_empty() {
                        self.out.push_str(
                            &v.map_or_else(|| "<no value>".to_string(), |v| go_sprint(&v)),
                        );
                    } else {
                        self.bind(pipe, v);
                    }
                }
                Node::Block {
                    kind,
                    pipe,
                    body,
                    otherwise,
                } => {
                    self.step(pipe)?;
                    let v = self.pipe(pipe, &dot)?;
                    let mark = self.vars.len();
                    let result = self.block(*kind, pipe, v, body, otherwise, &dot);
                    self.vars.truncate(mark);
                    result?;
                }
            }
        }
        Ok(())
    }

    /// One `if`, `with` or `range` whose pipeline gave `v`.
    fn block(
        &mut self,
        kind: BlockKind,
        pipe: &Pipe,
        v: Val<'a>,
        body: &[Node],
        otherwise: &[Node],
        dot: &Val<'a>,
    ) -> Result<(), Fail> {
        if kind != BlockKind::Range {
            self.bind(pipe, v.clone());
        }
        match kind {
            BlockKind::If if truth(&v) => self.nodes(body, dot.clone()),
            BlockKind::With if truth(&v) => self.nodes(body, v),
            BlockKind::If | BlockKind::With => self.nodes(otherwise, dot.clone()),
            BlockKind::Range => {
                let items: Vec<(Value, Cow<'a, Value>)> = match v {
                    None => Vec::new(),
                    Some(Cow::Borrowed(b)) => children(b)
                        .map_err(|e| fail_pipe(pipe, e))?
                        .into_iter()
                        .map(|(k, c)| (k, Cow::Borrowed(c)))
                        .collect(),
                    Some(Cow::Owned(o)) => children(&o)
                        .map_err(|e| fail_pipe(pipe, e))?
                        .into_iter()
                        .map(|(k, c)| (k, Cow::Owned(c.clone())))
                        .collect(),
                };
                if items.is_empty() {
                    return self.nodes(otherwise, dot.clone());
                }
                for (key, item) in items {
                    self.step(pipe)?;
                    let mark = self.vars.len();
                    let item = Some(item);
                    match pipe.decl.as_slice() {
                        [v] => self.vars.push((v.clone(), item.clone())),
                        [k, v] => {
                            self.vars.push((k.clone(), Some(Cow::Owned(key))));
                            self.vars.push((v.clone(), item.clone()));
                        }
                        _ => {}
                    }
                    let result = self.nodes(body, item);
                    self.vars.truncate(mark);
                    result?;
                }
                Ok(())
            }
        }
    }

    /// Declares (`:=`) or assigns (`=`) the pipeline's variable.
    fn bind(&mut self, pipe: &Pipe, v: Val<'a>) {
        let Some(name) = pipe.decl.first() else {
            return;
        };
        if pipe.assign {
            if let Some(slot) = self.vars.iter_mut().rev().find(|(n, _)| n == name) {
                slot.1 = v;
            }
        } else {
            self.vars.push((name.clone(), v));
        }
    }

    fn pipe(&mut self, pipe: &Pipe, dot: &Val<'a>) -> Result<Val<'a>, Fail> {
        let mut last: Option<Val<'a>> = None;
        for cmd in &pipe.cmds {
            last = Some(self.cmd(cmd, dot, last)?);
        }
        Ok(last.flatten())
    }

    fn cmd(&mut self, cmd: &Cmd, dot: &Val<'a>, piped: Option<Val<'a>>) -> Result<Val<'a>, Fail> {
        let first = &cmd.args[0];
        let ArgKind::Func(func) = first.kind else {
            if cmd.args.len() > 1 || piped.is_some() {
                return Err(fail_at(
                    first,
                    format!("can't give argument to non-function {first}"),
                ));
            }
            return self.arg(first, dot);
        };
        let mut args = Vec::with_capacity(cmd.args.len());
        for a in &cmd.args[1..] {
            args.push(self.arg(a, dot)?);
        }
        args.extend(piped);
        call(func, &args).map_err(|e| fail_cmd(cmd, e))
    }

    fn arg(&mut self, arg: &Arg, dot: &Val<'a>) -> Result<Val<'a>, Fail> {
        match &arg.kind {
            ArgKind::Dot => Ok(dot.clone()),
            ArgKind::Literal(v, _) => Ok(Some(Cow::Owned(v.clone()))),
            ArgKind::Pipe(p) => self.pipe(p, dot),
            ArgKind::Func(f) => Err(fail_at(
                arg,
                format!(
                    "wrong number of args for {}: want at least 1 got 0",
                    f.name()
                ),
            )),
            ArgKind::Field(names) => walk(arg, dot.clone(), names),
            ArgKind::Var(name, names) => {
                let value = self
                    .vars
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .and_then(|(_, v)| v.clone());
                walk(arg, value, names)
            }
        }
    }
}

/// Follows `.a.b` from `start`: a missing key gives no value; a field of nil or of a non-map fails.
fn walk<'a>(arg: &Arg, start: Val<'a>, names: &[String]) -> Result<Val<'a>, Fail> {
    let mut cur = start;
    for name in names {
        cur = match cur {
            None => None,
            Some(Cow::Borrowed(Value::Object(m))) => m.get(name).map(Cow::Borrowed),
            Some(Cow::Owned(Value::Object(mut m))) => m.remove(name).map(Cow::Owned),
            Some(v) if v.is_null() => {
                return Err(fail_at(
                    arg,
                    format!("nil pointer evaluating interface {{}}.{name}"),
                ))
            }
            Some(_) => {
                return Err(fail_at(
                    arg,
                    format!("can't evaluate field {name} in type interface {{}}"),
                ))
            }
        };
    }
    Ok(cur)
}

/// What `range` iterates over, with each item's index or key: a list's items, a map's values by
/// sorted key, nothing for nil.
fn children(v: &Value) -> Result<Vec<(Value, &Value)>, String> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => Ok(a
            .iter()
            .enumerate()
            .map(|(i, x)| (Value::from(i), x))
            .collect()),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Ok(keys
                .into_iter()
                .map(|k| (Value::String(k.clone()), &m[k]))
                .collect())
        }
        other => Err(format!("range can't iterate over {}", go_sprint(other))),
    }
}

/// Go's `truth`: false for no value, nil, false, 0, "" and empty lists and maps.
fn truth(v: &Val) -> bool {
    match v.as_deref() {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
    }
}

fn want(func: Func, args: &[Val], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(format!(
            "wrong number of args for {}: want {n} got {}",
            func.name(),
            args.len()
        ))
    }
}

/// Calls a builtin function; the error is Go's text after `error calling NAME: ` where Go adds it.
fn call<'a>(func: Func, args: &[Val<'a>]) -> Result<Val<'a>, String> {
    let at_least_one = || {
        if args.is_empty() {
            Err(format!(
                "wrong number of args for {}: want at least 1 got 0",
                func.name()
            ))
        } else {
            Ok(())
        }
    };
    let calling = |e: String| format!("error calling {}: {e}", func.name());
    let owned = |v: Value| Some(Cow::Owned(v));
    match func {
        Func::Not => {
            want(func, args, 1)?;
            Ok(owned(Value::Bool(!truth(&args[0]))))
        }
        Func::And => {
            at_least_one()?;
            Ok(args
                .iter()
                .find(|a| !truth(a))
                .unwrap_or(&args[args.len() - 1])
                .clone())
        }
        Func::Or => {
            at_least_one()?;
            Ok(args
                .iter()
                .find(|a| truth(a))
                .unwrap_or(&args[args.len() - 1])
                .clone())
        }
        Func::Len => {
            want(func, args, 1)?;
            let n = match args[0].as_deref() {
                None | Some(Value::Null) => return Err(calling("len of nil pointer".into())),
                Some(Value::String(s)) => s.len(),
                Some(Value::Array(a)) => a.len(),
                Some(Value::Object(m)) => m.len(),
                Some(other) => return Err(calling(format!("len of type {}", go_type_name(other)))),
            };
            Ok(owned(Value::from(n)))
        }
        Func::Index => {
            at_least_one()?;
            let mut cur = args[0].clone();
            for key in &args[1..] {
                cur = index(cur, key).map_err(calling)?;
            }
            Ok(cur)
        }
        Func::Eq | Func::Ne => {
            if args.len() < 2 {
                return Err(calling("missing argument for comparison".into()));
            }
            let mut equal = false;
            for other in &args[1..] {
                equal |= compare(&args[0], other).map_err(calling)?;
            }
            Ok(owned(Value::Bool(equal == (func == Func::Eq))))
        }
        Func::Lt | Func::Le | Func::Gt | Func::Ge => {
            want(func, args, 2)?;
            let ord = order(&args[0], &args[1]).map_err(calling)?;
            let holds = match func {
                Func::Lt => ord.is_lt(),
                Func::Le => ord.is_le(),
                Func::Gt => ord.is_gt(),
                _ => ord.is_ge(),
            };
            Ok(owned(Value::Bool(holds)))
        }
        Func::Base64Decode => {
            want(func, args, 1)?;
            let text = match args[0].as_deref() {
                Some(Value::String(s)) => s.clone(),
                other => {
                    return Err(format!(
                        "wrong type for value; expected string; got {}",
                        other.map_or("<nil>", go_type_name)
                    ))
                }
            };
            let bytes = base64_decode(&text).map_err(|at| {
                calling(format!(
                    "base64 decode failed: illegal base64 data at input byte {at}"
                ))
            })?;
            Ok(owned(Value::String(
                String::from_utf8_lossy(&bytes).into_owned(),
            )))
        }
        Func::Print | Func::Println => {
            Ok(owned(Value::String(sprint(args, func == Func::Println))))
        }
        Func::Printf => {
            at_least_one()?;
            let format = match args[0].as_deref() {
                Some(Value::String(s)) => s.clone(),
                other => {
                    return Err(format!(
                        "wrong type for value; expected string; got {}",
                        other.map_or("<nil>", go_type_name)
                    ))
                }
            };
            Ok(owned(Value::String(sprintf(&format, &args[1..]))))
        }
    }
}

fn index<'a>(item: Val<'a>, key: &Val) -> Result<Val<'a>, String> {
    let Some(item) = item.filter(|v| !v.is_null()) else {
        return Err("index of untyped nil".to_string());
    };
    match (item, key.as_deref()) {
        (Cow::Borrowed(Value::Object(m)), Some(Value::String(k))) => {
            Ok(m.get(k).map(Cow::Borrowed))
        }
        (Cow::Owned(Value::Object(mut m)), Some(Value::String(k))) => {
            Ok(m.remove(k).map(Cow::Owned))
        }
        (item, Some(Value::Number(n))) if item.is_array() => {
            let len = item.as_array().map_or(0, Vec::len);
            let i = n
                .as_i64()
                .filter(|i| (0..len as i64).contains(i))
                .ok_or_else(|| format!("index out of range: {n}"))? as usize;
            Ok(match item {
                Cow::Borrowed(v) => v.get(i).map(Cow::Borrowed),
                Cow::Owned(mut v) => v.get_mut(i).map(|x| Cow::Owned(x.take())),
            })
        }
        (item, k) => Err(format!(
            "cannot index {} with {}",
            go_type_name(&item),
            k.map_or("<nil>", go_type_name)
        )),
    }
}

/// Go's `eq` on basic values (`lt`-style kinds must match).
fn compare(a: &Val, b: &Val) -> Result<bool, String> {
    match (a.as_deref(), b.as_deref()) {
        (None, _) | (_, None) | (Some(Value::Null), _) | (_, Some(Value::Null)) => {
            Err("invalid type for comparison".to_string())
        }
        (Some(Value::Array(_) | Value::Object(_)), _)
        | (_, Some(Value::Array(_) | Value::Object(_))) => Err("non-comparable type".to_string()),
        (Some(x), Some(y)) if go_type_name(x) != go_type_name(y) => {
            Err("incompatible types for comparison".to_string())
        }
        (Some(x), Some(y)) => Ok(x == y),
    }
}

/// Go's `lt` family on basic values: strings with strings, numbers of one Go type.
fn order(a: &Val, b: &Val) -> Result<std::cmp::Ordering, String> {
    let invalid = || "invalid type for comparison".to_string();
    match (a.as_deref(), b.as_deref()) {
        (Some(Value::String(x)), Some(Value::String(y))) => Ok(x.cmp(y)),
        (Some(x @ Value::Number(n)), Some(y @ Value::Number(m))) => {
            if go_type_name(x) != go_type_name(y) {
                return Err("incompatible types for comparison".to_string());
            }
            n.as_f64()
                .zip(m.as_f64())
                .and_then(|(n, m)| n.partial_cmp(&m))
                .ok_or_else(invalid)
        }
        (Some(Value::String(_) | Value::Number(_)), Some(Value::String(_) | Value::Number(_))) => {
            Err("incompatible types for comparison".to_string())
        }
        _ => Err(invalid()),
    }
}

/// Go's `base64.StdEncoding.DecodeString`; the error is the offset of the first bad byte.
fn base64_decode(text: &str) -> Result<Vec<u8>, usize> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let (mut acc, mut n) = (0u32, 0usize);
    for (i, &c) in bytes.iter().enumerate() {
        if c == b'=' {
            // Padding completes a quantum of two or three characters and ends the input.
            if n < 2 {
                return Err(i);
            }
            let end = i + 4 - n;
            if let Some(bad) = (i..end).find(|&k| bytes.get(k) != Some(&b'=')) {
                // Input that ends early is refused at its end, a wrong character at the padding.
                return Err(if bad >= bytes.len() { bad } else { i });
            }
            if bytes.len() > end {
                return Err(end);
            }
            break;
        }
        acc = (acc << 6) | u32::from(value(c).ok_or(i)?);
        n += 1;
        if n == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            (acc, n) = (0, 0);
        }
    }
    // A last quantum without its padding is refused at its start.
    if n > 0 && !text.ends_with('=') {
        return Err(bytes.len() - n);
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => {}
    }
    Ok(out)
}

fn value_text(v: &Val) -> String {
    v.as_deref().map_or_else(|| "<nil>".to_string(), go_sprint)
}

/// Go's `fmt.Sprint` (spaces between operands when neither is a string) or `fmt.Sprintln`.
fn sprint(args: &[Val], ln: bool) -> String {
    let mut out = String::new();
    for (i, a) in args.iter().enumerate() {
        let is_str = |v: &Val| matches!(v.as_deref(), Some(Value::String(_)));
        if i > 0 && (ln || (!is_str(a) && !is_str(&args[i - 1]))) {
            out.push(' ');
        }
        out.push_str(&value_text(a));
    }
    if ln {
        out.push('\n');
    }
    out
}

/// Go's `fmt.Sprintf` for the verbs `%v %s %d %q %t %f %%`, with `-`/`0` flags, width and
/// precision; a wrong type prints `%!d(string=x)`, a missing operand `%!d(MISSING)`, extra
/// operands `%!(EXTRA type=value)`.
fn sprintf(format: &str, args: &[Val]) -> String {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let (mut left, mut zero) = (false, false);
        while let Some(&f) = chars.peek() {
            match f {
                '-' => left = true,
                '0' => zero = true,
                '+' | ' ' | '#' => {}
                _ => break,
            }
            chars.next();
        }
        let mut width = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(*d);
            chars.next();
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                p.push(*d);
                chars.next();
            }
            precision = Some(p.parse().unwrap_or(0).min(MAX_WIDTH));
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        let Some(arg) = args.get(next) else {
            out.push_str(&format!("%!{verb}(MISSING)"));
            continue;
        };
        next += 1;
        let text = match (verb, arg.as_deref()) {
            ('v', _) => Some(value_text(arg)),
            ('s', Some(Value::String(s))) => Some(s.clone()),
            ('s', Some(v @ (Value::Array(_) | Value::Object(_)))) => Some(go_sprint(v)),
            ('q', Some(Value::String(s))) => Some(go_quote(s)),
            ('t', Some(Value::Bool(b))) => Some(b.to_string()),
            ('d', Some(Value::Number(n))) if !n.is_f64() => Some(n.to_string()),
            ('f', Some(Value::Number(n))) => n
                .as_f64()
                .map(|f| format!("{f:.prec$}", prec = precision.unwrap_or(6))),
            _ => None,
        };
        let text = match text {
            Some(t) => t,
            None => {
                out.push_str(&format!("%!{verb}({})", typed(arg)));
                continue;
            }
        };
        let width: usize = width.parse().unwrap_or(0).min(MAX_WIDTH);
        let pad = width.saturating_sub(text.chars().count());
        if left {
            out.push_str(&text);
            out.push_str(&" ".repeat(pad));
        } else {
            out.push_str(&(if zero { "0" } else { " " }).repeat(pad));
            out.push_str(&text);
        }
    }
    if next < args.len() {
        let extra: Vec<String> = args[next..].iter().map(typed).collect();
        out.push_str(&format!("%!(EXTRA {})", extra.join(", ")));
    }
    out
}

/// The widest `printf` padding honoured (a hostile `%999999999d` would allocate gigabytes).
const MAX_WIDTH: usize = 4096;

/// `type=value`, as Go's `fmt` shows a bad or extra operand.
fn typed(v: &Val) -> String {
    match v.as_deref() {
        None | Some(Value::Null) => "<nil>".to_string(),
        Some(v) => format!("{}={}", go_type_name(v), go_sprint(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node() -> Value {
        json!({"kind": "Node", "metadata": {"name": "kind-worker", "labels": {"kubernetes.io/os": "linux"}},
               "spec": {"podCIDR": "10.244.1.0/24"},
               "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "PIDPressure", "status": "False"}],
                          "allocatable": {"cpu": "4", "pods": "110"}}})
    }

    fn run(t: &str) -> String {
        GoTemplate::parse(t).unwrap().execute(&node()).unwrap()
    }

    /// Outputs of the real kubectl v1.32 (`get node kind-worker -o go-template=…`).
    #[test]
    fn prints_as_kubectl() {
        assert_eq!(run("{{.metadata.name}}"), "kind-worker");
        assert_eq!(
            run(r#"{{index .metadata.labels "kubernetes.io/os"}}{{"\n"}}"#),
            "linux\n"
        );
        assert_eq!(
            run(r#"{{printf "%s %d\n" .metadata.name (len .status.conditions)}}"#),
            "kind-worker 2\n"
        );
        assert_eq!(
            run("{{if .spec.taints}}tainted{{else}}clean{{end}}"),
            "clean"
        );
        assert_eq!(
            run("{{.metadata.nope}}|{{.metadata.nope.x}}|{{.status.allocatable}}"),
            "<no value>|<no value>|map[cpu:4 pods:110]"
        );
        assert_eq!(
            run("{{range .status.conditions}}{{.type}}={{.status}} {{end}}"),
            "Ready=True PIDPressure=False "
        );
        assert_eq!(
            run(r#"{{printf "%d %s" .metadata.name}}"#),
            "%!d(string=kind-worker) %!s(MISSING)"
        );
        assert_eq!(
            run(r#"{{eq .kind "Node"}} {{ne 1 2}} {{not .spec.taints}} {{and 1 0}} {{or 0 "x"}}"#),
            "true true true 0 x"
        );
        assert_eq!(run(r#"{{- " a " -}}  {{.kind}}"#), " a Node");
        assert_eq!(
            run("{{/* c */}}x{{with .spec}}{{.podCIDR}}{{end}}"),
            "x10.244.1.0/24"
        );
        assert_eq!(
            run(r#"{{printf "%q %v %5s|" .kind 1.5 "ab"}}"#),
            "\"Node\" 1.5    ab|"
        );
        assert_eq!(run(r#"{{print 1 2 "a" "b"}}"#), "1 2ab");
        assert_eq!(
            run(r#"{{if eq .kind "Pod"}}p{{else if eq .kind "Node"}}n{{else}}x{{end}}"#),
            "n"
        );
        assert_eq!(run("{{.metadata.name | len}}"), "11");
        assert_eq!(
            run("{{range $k, $v := .metadata.labels}}{{$k}}={{$v}};{{end}}"),
            "kubernetes.io/os=linux;"
        );
        assert_eq!(
            run("{{$n := .metadata.name}}{{range $i, $c := .status.conditions}}{{$i}}:{{$n}}/{{$c.type}} {{end}}"),
            "0:kind-worker/Ready 1:kind-worker/PIDPressure "
        );
        assert_eq!(
            run("{{range .status.conditions}}{{$.kind}}.{{.type}} {{end}}{{$x := 1}}{{$x = 2}}{{$x}}"),
            "Node.Ready Node.PIDPressure 2"
        );
        assert_eq!(
            run(r#"{{"aGVsbG8=" | base64decode}} {{lt 1 2}} {{gt "b" "a"}} {{le 2 2}} {{ge 1 2}}"#),
            "hello true true true false"
        );
    }

    #[test]
    fn errors_as_go() {
        let parse = |t: &str| GoTemplate::parse(t).unwrap_err();
        assert_eq!(
            parse("{{.metadata.name"),
            "template: output:1: unclosed action"
        );
        assert_eq!(
            parse("{{foo}}"),
            "template: output:1: function \"foo\" not defined"
        );
        assert_eq!(parse("{{end}}"), "template: output:1: unexpected {{end}}");
        assert_eq!(
            parse("{{if 1}}{{$x := 1}}{{end}}{{$x}}"),
            "template: output:1: undefined variable \"$x\""
        );
        assert_eq!(parse("{{range .x}}"), "template: output:1: unexpected EOF");
        let exec = |t: &str| {
            GoTemplate::parse(t)
                .unwrap()
                .execute(&node())
                .unwrap_err()
                .message
        };
        assert_eq!(exec("{{.metadata.name.x}}"), "template: output:1:11: executing \"output\" at <.metadata.name.x>: can't evaluate field x in type interface {}");
        assert_eq!(exec("{{index .status.conditions 9}}"), "template: output:1:2: executing \"output\" at <index .status.conditions 9>: error calling index: index out of range: 9");
        assert_eq!(exec("{{lt 1 2.5}}"), "template: output:1:2: executing \"output\" at <lt 1 2.5>: error calling lt: incompatible types for comparison");
        for (input, at) in [
            ("aGVsbG8", 4),
            ("aGk", 0),
            ("a===", 1),
            ("YQ==YQ==", 4),
            ("YQ=a", 2),
            ("YQ=", 3),
        ] {
            assert_eq!(base64_decode(input), Err(at), "{input}");
        }
        assert_eq!(exec(r#"{{"!!" | base64decode}}"#), "template: output:1:9: executing \"output\" at <base64decode>: error calling base64decode: base64 decode failed: illegal base64 data at input byte 0");
        assert_eq!(exec("{{range .metadata.name}}{{end}}"), "template: output:1:17: executing \"output\" at <.metadata.name>: range can't iterate over kind-worker");
    }

    #[test]
    fn hostile_templates_are_bounded() {
        let deep = "{{if 1}}".repeat(MAX_DEPTH + 1);
        assert!(GoTemplate::parse(&deep)
            .unwrap_err()
            .contains("exceeded max depth"));
        let parens = format!(
            "{{{{{}1{}}}}}",
            "(".repeat(MAX_DEPTH + 2),
            ")".repeat(MAX_DEPTH + 2)
        );
        assert!(GoTemplate::parse(&parens)
            .unwrap_err()
            .contains("exceeded max depth"));
        // 10^6 iterations of nested ranges stop at the step limit.
        let mut data = Value::Array(vec![json!(1); 10]);
        for _ in 0..5 {
            data = Value::Array(vec![data; 10]);
        }
        let nested = format!("{}x{}", "{{range .}}".repeat(6), "{{end}}".repeat(6));
        let err = GoTemplate::parse(&nested)
            .unwrap()
            .execute(&data)
            .unwrap_err();
        assert!(err.message.contains("steps"), "{}", err.message);
        assert_eq!(run(r#"{{printf "%999999999d" 1}}"#).len(), MAX_WIDTH);
        assert_eq!(run(r#"{{printf "%.999999999f" 1.5}}"#).len(), MAX_WIDTH + 2);
    }
}
