//! Reading `kubectl … -f FILE` from the file system, for the native front ends (the browser has no
//! files): bounded by the manifest size limit, with kubectl's wording for what went wrong.

use std::io::Read;

/// Reads a manifest file: at most the manifest size limit plus one byte, so a file that never ends
/// (`/dev/zero`, a pipe) is refused instead of filling memory. The error is the whole message after
/// `error: ` (`the path "x.yaml" does not exist`, as kubectl says it). A [`crate::session::Session`]
/// takes this as its file reader.
pub fn read_manifest_file(path: &str) -> Result<String, String> {
    let limit = dsplay_api::manifest::MAX_INPUT_BYTES;
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("the path \"{path}\" does not exist"),
        std::io::ErrorKind::PermissionDenied => format!("open {path}: permission denied"),
        _ => format!("open {path}: {e}"),
    })?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("read {path}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "error reading {path}: it is more than the {limit} bytes the playground accepts"
        ));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
