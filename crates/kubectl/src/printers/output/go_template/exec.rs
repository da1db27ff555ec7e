//! Execution: walking the nodes over the data, with variables, bounded steps and output, and
//! Go's exec errors.
//!
//! Upstream: Go text/template exec.go.

use super::funcs::call;
use super::*;
use std::borrow::Cow;

// Execution

/// A value during execution: `None` is Go's "no value" (a missing map key).
pub(super) type Val<'a> = Option<Cow<'a, Value>>;

/// An error at a node: its offset, its text, and the message.
pub(super) struct Fail {
    pub(super) pos: usize,
    pub(super) at: String,
    pub(super) message: String,
}

pub(super) struct Exec<'a> {
    pub(super) out: String,
    pub(super) steps: usize,
    /// Variables in scope, innermost last (`$` is the data).
    pub(super) vars: Vec<(String, Val<'a>)>,
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
    pub(super) fn nodes(&mut self, nodes: &[Node], dot: Val<'a>) -> Result<(), Fail> {
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
pub(super) fn truth(v: &Val) -> bool {
    match v.as_deref() {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
    }
}
