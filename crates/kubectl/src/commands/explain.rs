//! `kubectl explain RESOURCE[.field.path] [--recursive]`: the documentation of a kind or field, in
//! kubectl's plaintext layout, from the playground's bundled schema.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go (`Validate`, `Run`: the first
//! word names the resource, the rest a field path); pkg/explain/v2/templates/plaintext.tmpl.

use super::{parse_flags, resource_name, CmdResult, Ctx, Failed};
use crate::explain::{FieldDoc, KindDoc, Schema};
use crate::flags::{boolean, value};

/// The text width descriptions are wrapped to.
const WRAP: usize = 76;
/// The deepest `--recursive` listing (the bundled types nest far less).
const MAX_DEPTH: usize = 12;

/// `kubectl explain`.
pub(crate) fn explain(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let flags = [
        boolean("recursive", None),
        value("api-version", None),
        value("output", Some('o')),
    ];
    let parsed = parse_flags(ctx, "explain", words, &flags)?;
    let target = match parsed.args.as_slice() {
        [] => return ctx.fail("You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.\n"),
        [one] => one,
        _ => return ctx.fail("We accept only this format: explain RESOURCE\n"),
    };
    let mut path = target.split('.');
    let resource = path.next().unwrap_or_default();
    // kubectl prints this one without its `error: ` prefix.
    let kind = resource_name::resolve(resource).map_err(|message| {
        ctx.err(message);
        Failed
    })?;
    let Some(schema) = Schema::current() else {
        return ctx.fail("the field descriptions kubectl explain shows are still loading: run the command again in a moment");
    };
    let Some(doc) = schema.kind(kind.name()) else {
        return ctx.fail(format!(
            "the server doesn't have a resource type \"{resource}\""
        ));
    };
    let mut type_name = Some(doc.name.as_str());
    let mut field: Option<&FieldDoc> = None;
    for segment in path {
        let found =
            type_name.and_then(|t| schema.fields(t).into_iter().find(|f| f.name == segment));
        let Some(f) = found else {
            // kubectl has printed the page's header by then.
            ctx.out(header(doc));
            return ctx.fail(format!("field \"{segment}\" does not exist"));
        };
        type_name = f.object_type();
        field = Some(f);
    }
    let fields = type_name.map(|t| schema.fields(t)).unwrap_or_default();
    ctx.out(render(
        schema,
        doc,
        field,
        &fields,
        parsed.flag("recursive"),
    ));
    Ok(())
}

/// kubectl's plaintext page for a kind or one of its fields.
fn render(
    schema: &Schema,
    kind: &KindDoc,
    field: Option<&FieldDoc>,
    fields: &[&FieldDoc],
    recursive: bool,
) -> String {
    let mut out = header(kind);
    // A field's own description, then its type's (as kubectl shows a referenced schema's).
    let paragraphs: Vec<&str> = match field {
        Some(f) => {
            out.push_str(&format!("FIELD: {} <{}>\n\n\n", f.name, f.type_name));
            std::iter::once(f.description.as_str())
                .chain(f.object_type().and_then(|t| schema.description(t)))
                .collect()
        }
        None => vec![kind.description.as_str()],
    };
    out.push_str("DESCRIPTION:\n");
    for p in paragraphs {
        out.push_str(&indent(&wrap(p, WRAP), 4));
    }
    out.push_str("    \n");
    if !fields.is_empty() {
        out.push_str("FIELDS:\n");
        if recursive {
            list_recursive(schema, fields, 1, &mut out);
        } else {
            for f in fields {
                out.push_str(&format!("  {}\t{}\n", f.name, type_tag(f)));
                out.push_str(&indent(&wrap(&f.description, WRAP), 4));
                out.push('\n');
            }
        }
    }
    out.push('\n');
    out
}

/// `GROUP:` (not for the core group), `KIND:` and `VERSION:`, then a blank line.
fn header(kind: &KindDoc) -> String {
    let group = if kind.group.is_empty() {
        String::new()
    } else {
        format!("GROUP:      {}\n", kind.group)
    };
    format!(
        "{group}KIND:       {}\nVERSION:    {}\n\n",
        kind.name, kind.version
    )
}

/// `<type>` or `<type> -required-`, as kubectl tags a field.
fn type_tag(f: &FieldDoc) -> String {
    let required = if f.required { " -required-" } else { "" };
    format!("<{}>{required}", f.type_name)
}

fn list_recursive(schema: &Schema, fields: &[&FieldDoc], depth: usize, out: &mut String) {
    for f in fields {
        out.push_str(&format!(
            "{}{}\t{}\n",
            "  ".repeat(depth),
            f.name,
            type_tag(f)
        ));
        if depth < MAX_DEPTH {
            if let Some(t) = f.object_type() {
                list_recursive(schema, &schema.fields(t), depth + 1, out);
            }
        }
    }
}

/// Words wrapped to lines of at most `width` characters (a longer word stays whole).
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.join("\n")
}

/// Every line indented by `n` spaces, each ending in a newline.
fn indent(text: &str, n: usize) -> String {
    text.lines()
        .map(|l| format!("{}{l}\n", " ".repeat(n)))
        .collect()
}
