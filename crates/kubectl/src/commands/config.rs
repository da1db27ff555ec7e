//! `kubectl config …` against the one context a kind cluster writes (`kind-kind`): who it is, and
//! the namespace every command then defaults to (`set-context --current --namespace X`).

use super::{parse_flags, CmdResult, Ctx};
use crate::flags::{boolean, value};

/// The context, cluster and user name kind gives a cluster called `kind`.
const CONTEXT: &str = "kind-kind";

/// Runs `kubectl config SUBCOMMAND …`.
pub(crate) fn config(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let Some(sub) = words.first() else {
        return ctx.fail("Must specify a subcommand: current-context, get-contexts, view, set-context\nSee 'kubectl config -h' for help and examples");
    };
    let rest = &words[1..];
    match sub.as_str() {
        "current-context" => {
            parse_flags(ctx, "config current-context", rest, &[])?;
            ctx.out(CONTEXT);
            Ok(())
        }
        "get-contexts" => {
            let parsed = parse_flags(
                ctx,
                "config get-contexts",
                rest,
                &[value("output", Some('o'))],
            )?;
            if parsed.get("output") == Some("name") {
                ctx.out(CONTEXT);
            } else {
                let namespace = current(ctx);
                ctx.out(crate::printers::tabwriter::align(
                    &format!("CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n*\t{CONTEXT}\t{CONTEXT}\t{CONTEXT}\t{namespace}\n"),
                    0,
                    3,
                ));
            }
            Ok(())
        }
        "view" => {
            parse_flags(
                ctx,
                "config view",
                rest,
                &[boolean("minify", None), boolean("raw", None)],
            )?;
            ctx.out(view(&current(ctx)));
            Ok(())
        }
        "set-context" => {
            let parsed = parse_flags(ctx, "config set-context", rest, &[boolean("current", None)])?;
            let named = parsed.args.first().map(String::as_str);
            if !parsed.flag("current") && named.is_none() {
                return ctx.fail("you must specify a non-empty context name or --current");
            }
            if let Some(name) = named.filter(|n| *n != CONTEXT) {
                return ctx.fail(format!(
                    "the playground has one context, \"{CONTEXT}\", not \"{name}\""
                ));
            }
            if let Some(namespace) = parsed.get("namespace") {
                ctx.namespace = if namespace.is_empty() {
                    "default"
                } else {
                    namespace
                }
                .to_string();
            }
            ctx.out(format!("Context \"{CONTEXT}\" modified."));
            Ok(())
        }
        other => ctx.fail(format!(
            "unknown command \"{other}\"\nSee 'kubectl config -h' for help and examples"
        )),
    }
}

/// The context's namespace as kubeconfig holds it: empty when it is `default` (never set).
fn current(ctx: &Ctx) -> String {
    if ctx.namespace == "default" {
        String::new()
    } else {
        ctx.namespace.clone()
    }
}

/// `kubectl config view` of kind's kubeconfig (certificates omitted, as kubectl prints them).
fn view(namespace: &str) -> String {
    let namespace_line = if namespace.is_empty() {
        String::new()
    } else {
        format!("    namespace: {namespace}\n")
    };
    format!(
        "apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: DATA+OMITTED\n    server: https://127.0.0.1:40000\n  name: {CONTEXT}\ncontexts:\n- context:\n    cluster: {CONTEXT}\n{namespace_line}    user: {CONTEXT}\n  name: {CONTEXT}\ncurrent-context: {CONTEXT}\nkind: Config\npreferences: {{}}\nusers:\n- name: {CONTEXT}\n  user:\n    client-certificate-data: DATA+OMITTED\n    client-key-data: DATA+OMITTED"
    )
}
