//! POSIX shell text for the command lines the UI builds and for the exported `replay.sh`: word
//! quoting and here-document delimiters. Both are read back by our own tokenizer
//! (`dsplay_kubectl::tokenizer`) and, in an export, by a real `sh`, so they stay within what both
//! read the same way: single quotes, and quoted here-document delimiters (no expansion).

/// `word` as one shell word: as it is if it holds only characters no shell treats specially,
/// else in single quotes (a `'` inside becomes `'\''`).
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A here-document delimiter that occurs nowhere in `body` (so no line of it can end the
/// document early): `EOF`, else `EOF1`, `EOF2`, ….
pub fn here_document_delimiter(body: &str) -> String {
    std::iter::once("EOF".to_string())
        .chain((1..).map(|n| format!("EOF{n}")))
        .find(|d| !body.contains(d.as_str()))
        .expect("a finite body does not contain every delimiter")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(shell_quote("gpu=true:NoSchedule"), "gpu=true:NoSchedule");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$(x)"), "'$(x)'");
    }

    #[test]
    fn the_delimiter_occurs_nowhere_in_the_body() {
        assert_eq!(here_document_delimiter("a: 1\n"), "EOF");
        assert_eq!(here_document_delimiter("EOF\n"), "EOF1");
        assert_eq!(here_document_delimiter("x: EOF EOF1\n"), "EOF2");
    }
}
