//! The protobuf wire format, as far as the bodies kubectl sends need it: varints, the (field
//! number, value) pairs of a message, and `map<string,string>` entries. Decoded by hand because a
//! handful of fields is all the server reads (see [`crate::proto`]) and no protobuf schema of
//! Kubernetes types is worth a dependency here.
//!
//! Upstream: the protobuf encoding (varint, wire types 0/1/2/5), as gogo-protobuf writes Kubernetes
//! types (`k8s.io/api/*/generated.proto`).

use serde_json::{json, Value};

/// One field's value: a varint, or a length-delimited payload.
pub(crate) enum Field<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 2: bytes, a string or an embedded message.
    Bytes(&'a [u8]),
}

/// Reads one base-128 varint at `at`, moving past it.
fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// Every (field number, value) pair of a message, in order; fixed-width fields are skipped. None
/// when the bytes are not a well-formed message.
pub(crate) fn fields(bytes: &[u8]) -> Option<Vec<(u64, Field<'_>)>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let key = varint(bytes, &mut at)?;
        match key & 7 {
            0 => out.push((key >> 3, Field::Varint(varint(bytes, &mut at)?))),
            1 => at = at.checked_add(8)?,
            2 => {
                let len = usize::try_from(varint(bytes, &mut at)?).ok()?;
                let end = at.checked_add(len).filter(|e| *e <= bytes.len())?;
                out.push((key >> 3, Field::Bytes(&bytes[at..end])));
                at = end;
            }
            5 => at = at.checked_add(4)?,
            _ => return None,
        }
    }
    Some(out)
}

/// A string field (invalid UTF-8 replaced).
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A `map<string,string>` entry: key (field 1, required) and value (field 2, "" when absent).
pub(crate) fn map_entry(bytes: &[u8]) -> Option<(String, Value)> {
    let (mut key, mut value) = (None, String::new());
    for (n, f) in fields(bytes)? {
        match (n, f) {
            (1, Field::Bytes(b)) => key = Some(text(b)),
            (2, Field::Bytes(b)) => value = text(b),
            _ => {}
        }
    }
    Some((key?, json!(value)))
}
