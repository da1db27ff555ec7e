//! Reading a live object and writing it back, for the commands that edit objects in place (`label`,
//! `annotate`, `taint`, `cordon`, `drain`, `set image`, `patch`).

use super::{api_error_text, Ctx, Failed};
use dsplay_api::{Kind, Object};
use dsplay_sim::ApiError;

/// The live object `kind/ns/name`, or kubectl's NotFound error on stderr.
pub(super) fn fetch(ctx: &mut Ctx, kind: Kind, ns: &str, name: &str) -> Result<Object, Failed> {
    ctx.request(kind);
    match ctx.cluster.store().get(kind, ns, name) {
        Some(o) => Ok(o),
        None => {
            ctx.err(api_error_text(
                &ApiError::NotFound {
                    kind,
                    name: name.to_string(),
                },
                None,
            ));
            Err(Failed)
        }
    }
}

/// Writes `object` back (an update); an API error goes to stderr.
pub(super) fn store(ctx: &mut Ctx, object: Object) -> Result<(), Failed> {
    match ctx.cluster.update(object) {
        Ok(_) => Ok(()),
        Err(e) => {
            ctx.err(api_error_text(&e, None));
            Err(Failed)
        }
    }
}
