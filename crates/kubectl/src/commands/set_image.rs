//! `kubectl set image`.

use super::live_object::{fetch, store};
use super::{parse_flags, resource_args, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value};
use dsplay_api::Object;

/// `kubectl set image ds/NAME CONTAINER=IMAGE…`.
pub(crate) fn set(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "set",
        words,
        &[boolean("all", None), value("selector", Some('l'))],
    )?;
    let Some(sub) = parsed.args.first() else {
        ctx.err("error: unknown command \"\"\nSee 'kubectl set -h' for help and examples");
        return Err(Failed);
    };
    if sub != "image" {
        ctx.err(format!(
            "error: unknown command \"{sub}\"\nSee 'kubectl set -h' for help and examples"
        ));
        return Err(Failed);
    }
    let rest = &parsed.args[1..];
    let (pairs, resources): (Vec<String>, Vec<String>) =
        rest.iter().cloned().partition(|a| a.contains('='));
    if pairs.is_empty() || resources.is_empty() {
        ctx.err("error: you must specify a resource and at least one container=image pair\nSee 'kubectl set image -h' for help and examples");
        return Err(Failed);
    }
    let ns = super::namespace(&parsed);
    let requests = resource_args(ctx, &resources)?;
    for (kind, name) in requests {
        let Some(name) = name else {
            return ctx.fail("resource(s) were provided, but no name was specified");
        };
        let mut object = fetch(ctx, kind, &ns, &name)?;
        let spec = match &mut object {
            Object::DaemonSet(ds) => ds
                .spec
                .get_or_insert_with(Default::default)
                .template
                .spec
                .get_or_insert_with(Default::default),
            Object::Deployment(d) => d
                .spec
                .get_or_insert_with(Default::default)
                .template
                .spec
                .get_or_insert_with(Default::default),
            Object::ReplicaSet(rs) => rs
                .spec
                .get_or_insert_with(Default::default)
                .template
                .get_or_insert_with(Default::default)
                .spec
                .get_or_insert_with(Default::default),
            Object::StatefulSet(sts) => sts
                .spec
                .get_or_insert_with(Default::default)
                .template
                .spec
                .get_or_insert_with(Default::default),
            _ => {
                return ctx.fail(format!(
                    "setting image on {} is not supported in the playground",
                    kind.plural()
                ))
            }
        };
        for pair in &pairs {
            let (container, image) = pair.split_once('=').unwrap_or((pair, ""));
            let all = container == "*";
            let mut found = false;
            for c in spec
                .containers
                .iter_mut()
                .chain(spec.init_containers.iter_mut().flatten())
            {
                if all || c.name == container {
                    c.image = Some(image.to_string());
                    found = true;
                }
            }
            if !found {
                return ctx.fail(format!("unable to find container named \"{container}\""));
            }
        }
        store(ctx, object)?;
        ctx.out(format!(
            "{}/{name} image updated",
            kind.qualified_singular()
        ));
    }
    Ok(())
}
