//! Parsing: the template split at its actions, each action lexed, and the actions nested into
//! blocks, with Go's parse errors.
//!
//! Upstream: Go text/template/parse (lex.go, parse.go).

use super::*;

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

pub(super) fn parse_nodes(text: &str) -> Result<Vec<Node>, (usize, String)> {
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
