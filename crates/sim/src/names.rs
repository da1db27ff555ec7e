//! Names the API server and controllers invent: generateName suffixes, uids, event names, revision hashes.
//! All come from the cluster's seeded RNG, so a seed reproduces every name.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

/// The alphabet of `utilrand.String` (no vowels, no confusable characters).
pub const SUFFIX_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `generateName` + 5 random characters, the prefix truncated to 58 characters first.
#[doc(alias = "generateName")]
pub fn generate_name(rng: &mut ChaCha8Rng, prefix: &str) -> String {
    let end = prefix
        .char_indices()
        .nth(58)
        .map_or(prefix.len(), |(i, _)| i);
    let mut name = String::with_capacity(end + 5);
    name.push_str(&prefix[..end]);
    for _ in 0..5 {
        name.push(SUFFIX_ALPHABET[(rng.next_u32() as usize) % SUFFIX_ALPHABET.len()] as char);
    }
    name
}

/// A random RFC 4122 v4 uid.
pub fn uid(rng: &mut ChaCha8Rng) -> String {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    // Where each byte's two digits go (the dashes stay at 8, 13, 18 and 23).
    const DIGITS_AT: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    let mut out = [b'-'; 36];
    for (x, at) in b.iter().zip(DIGITS_AT) {
        out[at] = HEX[usize::from(x >> 4)];
        out[at + 1] = HEX[usize::from(x & 0x0f)];
    }
    String::from_utf8(out.to_vec()).unwrap_or_default()
}

/// Appends `value` as 16 lower-case hex digits, zero-padded (`{value:016x}` without the
/// formatter's padding loop or a string of its own, for ids made on every event and container
/// start).
pub fn push_hex16(out: &mut String, value: u64) {
    let digits: [u8; 16] = std::array::from_fn(|i| HEX[((value >> ((15 - i) * 4)) & 0xf) as usize]);
    out.push_str(std::str::from_utf8(&digits).unwrap_or_default());
}

/// Lower-case hexadecimal digits.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// An event name: `<object>.<16 hex digits>` like the client-go recorder makes from the timestamp.
pub fn event_name(object: &str, time_ms: i64, seq: u64) -> String {
    let nanos = (time_ms as u64).wrapping_mul(1_000_000).wrapping_add(seq);
    let mut name = String::with_capacity(object.len() + 17);
    name.push_str(object);
    name.push('.');
    push_hex16(&mut name, nanos);
    name
}

/// `controller.ComputeHash`: FNV-32a over the template bytes (plus the collision count), rendered with
/// the safe alphabet. Not bit-exact with upstream (our template serialization differs), but equal
/// templates give equal hashes and different templates different ones.
pub fn compute_hash(template_json: &str, collision_count: Option<i32>) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u32::from(*b);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    };
    feed(template_json.as_bytes());
    if let Some(count) = collision_count {
        feed(&i64::from(count).to_le_bytes());
    }
    safe_encode(&hash.to_string())
}

/// `rand.SafeEncodeString`: maps each byte into the suffix alphabet.
fn safe_encode(s: &str) -> String {
    s.bytes()
        .map(|b| SUFFIX_ALPHABET[(b as usize) % SUFFIX_ALPHABET.len()] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn generate_name_uses_alphabet_and_truncates() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let name = generate_name(&mut rng, "demo-");
        assert_eq!(name.len(), 10);
        assert!(name[5..].bytes().all(|b| SUFFIX_ALPHABET.contains(&b)));
        let long = generate_name(&mut rng, &"x".repeat(80));
        assert_eq!(long.len(), 63);
    }

    /// The uid, hex and event-name formatting (written digit by digit) match `format!`'s.
    #[test]
    fn uid_and_event_name_format() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut reference = rng.clone();
        for _ in 0..20 {
            let mut b = [0u8; 16];
            reference.fill_bytes(&mut b);
            b[6] = (b[6] & 0x0f) | 0x40;
            b[8] = (b[8] & 0x3f) | 0x80;
            let hex: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
            let expected = format!(
                "{}-{}-{}-{}-{}",
                hex[..4].concat(),
                hex[4..6].concat(),
                hex[6..8].concat(),
                hex[8..10].concat(),
                hex[10..].concat()
            );
            assert_eq!(uid(&mut rng), expected);
        }
        for value in [0, 0xda7a, 1 << 63, u64::MAX] {
            let mut out = String::from("x");
            push_hex16(&mut out, value);
            assert_eq!(out, format!("x{value:016x}"));
        }
        for (time_ms, seq) in [(0, 0), (1_767_225_600_000, 17), (-5, u64::MAX)] {
            let nanos = (time_ms as u64).wrapping_mul(1_000_000).wrapping_add(seq);
            assert_eq!(
                event_name("pod-a", time_ms, seq),
                format!("pod-a.{nanos:016x}")
            );
        }
        assert_eq!(
            generate_name(&mut rng, "é".repeat(60).as_str())
                .chars()
                .count(),
            63
        );
    }

    #[test]
    fn hash_is_stable_and_distinguishes() {
        assert_eq!(compute_hash("{a}", None), compute_hash("{a}", None));
        assert_ne!(compute_hash("{a}", None), compute_hash("{b}", None));
        assert_ne!(compute_hash("{a}", None), compute_hash("{a}", Some(1)));
    }
}
