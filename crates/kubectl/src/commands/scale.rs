//! `kubectl scale TYPE/NAME --replicas=N`: Deployments and ReplicaSets have a `scale`
//! subresource; other kinds do not (a DaemonSet runs one pod per eligible node), so the server
//! answers 404.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go (`RunScale`: the builder reads the
//! objects, then `scale.ScaleClient` patches `…/scale`).

use super::unavailable::NO_RESOURCES;
use super::{int64_flag, namespace, parse_flags, resource_args, CmdResult, Ctx};
use crate::flags::{boolean, value, FlagSpec};
use dsplay_api::{Kind, Object};

const SCALE_FLAGS: &[FlagSpec] = &[
    value("replicas", None),
    value("current-replicas", None),
    value("resource-version", None),
    value("timeout", None),
    value("selector", Some('l')),
    value("filename", Some('f')),
    value("dry-run", None),
    boolean("all", None),
];

/// `kubectl scale`.
pub(crate) fn scale(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "scale", words, SCALE_FLAGS)?;
    if parsed.get("replicas").is_none() {
        return ctx.fail("required flag(s) \"replicas\" not set");
    }
    let replicas = int64_flag(ctx, "scale", &parsed, "replicas")?.unwrap_or(0);
    if replicas < 0 {
        return ctx.fail(
            "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0",
        );
    }
    int64_flag(ctx, "scale", &parsed, "current-replicas")?;
    let mut requests = resource_args(ctx, &parsed.args)?;
    if requests.is_empty() {
        return ctx.fail(NO_RESOURCES);
    }
    let ns = namespace(&parsed);
    // A type without names: every object of it (`--all`) or those `-l` selects.
    if requests.iter().all(|(_, name)| name.is_none()) {
        if !parsed.flag("all") && parsed.get("selector").is_none() {
            return ctx.fail("resource(s) were provided, but no name was specified");
        }
        let query = super::get::Query::from_flags(ctx, &parsed)?;
        let mut named = Vec::new();
        for (kind, _) in &requests {
            for o in query.select(ctx, *kind)? {
                named.push((*kind, Some(o.name().to_string())));
            }
        }
        if named.is_empty() {
            return ctx.fail("no objects passed to scale");
        }
        requests = named;
    }
    for (kind, name) in &requests {
        let Some(name) = name else { continue };
        if ctx.cluster.store().get(*kind, &ns, name).is_none() {
            // kubectl joins its message and the lookup's error without a separator.
            return ctx.fail(format!(
                "no objects passed to scale {} \"{name}\" not found",
                kind.qualified_plural()
            ));
        }
    }
    if requests.iter().any(|(kind, _)| {
        !matches!(
            kind,
            Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
        )
    }) {
        ctx.err("Error from server (NotFound): the server could not find the requested resource");
        return Err(super::Failed);
    }
    for (kind, name) in &requests {
        let Some(name) = name else { continue };
        let Some(mut object) = ctx.cluster.store().get(*kind, &ns, name) else {
            continue;
        };
        match &mut object {
            Object::Deployment(d) => {
                d.spec.get_or_insert_with(Default::default).replicas = Some(replicas as i32)
            }
            Object::ReplicaSet(rs) => {
                rs.spec.get_or_insert_with(Default::default).replicas = Some(replicas as i32)
            }
            Object::StatefulSet(sts) => {
                sts.spec.get_or_insert_with(Default::default).replicas = Some(replicas as i32)
            }
            _ => {}
        }
        if let Err(e) = ctx.cluster.update(object) {
            return ctx.api_fail(&e, None);
        }
        ctx.out(format!("{}/{name} scaled", kind.qualified_singular()));
    }
    Ok(())
}
