//! A lesson inside a link: the file deflated and base64url-encoded into `#lesson-text=…`, so an
//! instructor can hand out a lesson without hosting it (`dsplay lesson link FILE`). Decoding is
//! bounded: a link cannot inflate into more than [`MAX_TEXT`] bytes.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The hash key of a lesson carried in the link.
pub const HASH_KEY: &str = "lesson-text";

/// The largest lesson text a link may carry once inflated (1 MiB).
pub const MAX_TEXT: usize = 1 << 20;

/// The link form of a lesson file's text.
pub fn encode(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9))
}

/// The lesson file's text back from its link form; a clear error for anything else.
pub fn decode(encoded: &str) -> Result<String, String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(encoded.trim())
        .map_err(|e| format!("the lesson in this link is damaged (base64: {e})"))?;
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_TEXT).map_err(
        |e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("the lesson in this link is larger than {MAX_TEXT} bytes")
            }
            _ => "the lesson in this link is damaged (it does not inflate)".to_string(),
        },
    )?;
    String::from_utf8(text).map_err(|_| "the lesson in this link is not UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let text = "id: x\ntitle:\n  en: 中文 and English\n";
        assert_eq!(decode(&encode(text)).unwrap(), text);
        assert!(decode("!!!").unwrap_err().contains("base64"));
        assert!(decode(&URL_SAFE_NO_PAD.encode(b"not deflate"))
            .unwrap_err()
            .contains("damaged"));
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            &vec![b' '; MAX_TEXT + 1],
            9,
        ));
        assert!(decode(&bomb).unwrap_err().contains("larger than"));
    }
}
