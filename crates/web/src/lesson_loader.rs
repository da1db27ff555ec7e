//! Fetching lessons: the built-in ones ship next to the app (`lessons/index.json` lists the files
//! of `lessons/`, copied by `cargo xtask dist`) and are fetched when first needed, so they do not
//! weigh on the first load; `?lesson=<url>` fetches one file from anywhere the page may.

use crate::browser::fetch_text;
use crate::lesson_state::LoadedLesson;
use std::future::Future;
use std::rc::Rc;

/// Where the built-in lessons are, relative to the page.
pub const BUILT_IN: &str = "lessons/";

/// The source of a lesson that came inside a link: no URL to fetch, the text itself (so saved
/// progress can reopen it after a reload).
const INLINE: &str = "inline:";

/// The source to open a `#lesson-text=` link's lesson from (see [`fetch_lesson`]).
pub fn inline_source(encoded: &str) -> String {
    format!("{INLINE}{encoded}")
}

/// Fetches and parses one lesson file (or decodes an [`inline_source`]); the error names the file
/// and, for a parse error, the line and column.
/// The request starts at the call.
pub fn fetch_lesson(url: &str) -> impl Future<Output = Result<LoadedLesson, String>> {
    let inline = url.strip_prefix(INLINE).map(dsplay_lesson::link::decode);
    let text = inline.is_none().then(|| fetch_text(url));
    let url = url.to_string();
    async move {
        match (inline, text) {
            (Some(decoded), _) => parse_lesson_from(&url, "the lesson in the link", &decoded?),
            (None, Some(text)) => parse_lesson(&url, &text.await?),
            (None, None) => Err("no lesson".to_string()),
        }
    }
}

/// Parses a fetched lesson file (see [`fetch_lesson`]).
pub fn parse_lesson(url: &str, text: &str) -> Result<LoadedLesson, String> {
    parse_lesson_from(url, url, text)
}

/// Parses a lesson kept as `source`, naming it `name` in errors.
fn parse_lesson_from(source: &str, name: &str, text: &str) -> Result<LoadedLesson, String> {
    let lesson = dsplay_lesson::parse(name, text).map_err(|e| e.to_string())?;
    Ok(LoadedLesson {
        lesson: Rc::new(lesson),
        source: Rc::from(source),
    })
}

/// The built-in lessons, in the index's order.
pub async fn fetch_catalogue() -> Result<Vec<LoadedLesson>, String> {
    let index = fetch_text(&format!("{BUILT_IN}index.json")).await?;
    // Every request is in flight before the first answer is awaited.
    let pending: Vec<_> = index_files(&index)?
        .iter()
        .map(|file| fetch_lesson(&format!("{BUILT_IN}{file}")))
        .collect();
    let mut lessons = Vec::new();
    for lesson in pending {
        lessons.push(lesson.await?);
    }
    Ok(lessons)
}

/// The file names of `lessons/index.json` (a JSON array of strings).
pub fn index_files(index: &str) -> Result<Vec<String>, String> {
    let files: Vec<String> = serde_json::from_str(index)
        .map_err(|e| format!("{BUILT_IN}index.json is not a list of file names ({e})"))?;
    match files.iter().find(|f| f.contains('/') || f.contains("..")) {
        Some(bad) => Err(format!(
            "{BUILT_IN}index.json names {bad:?}, not a file of lessons/"
        )),
        None => Ok(files),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_parse_errors_say_where() {
        assert_eq!(
            index_files(r#"["01-a.yaml","02-b.yaml"]"#).unwrap(),
            ["01-a.yaml", "02-b.yaml"]
        );
        assert!(index_files("{}").is_err());
        assert!(index_files(r#"["../secret"]"#).is_err());
        let error =
            parse_lesson("https://x/bad.yaml", "id: bad\ntitle: x\nlevel: expert\n").unwrap_err();
        assert!(error.starts_with("https://x/bad.yaml:3:"), "{error}");
    }
}
