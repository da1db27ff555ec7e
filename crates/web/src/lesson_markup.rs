//! The little Markdown a lesson's text uses: paragraphs separated by blank lines, `inline code`,
//! and fenced code blocks. Code is what the learner can put in the terminal (or run, when it spans
//! several lines), so the panel needs it apart from the prose.

/// A piece of a paragraph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    /// Prose.
    Text(String),
    /// `code`.
    Code(String),
}

/// A block of a lesson text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A paragraph (its lines joined with spaces).
    Paragraph(Vec<Inline>),
    /// A fenced code block, without its fences (and without the trailing newline).
    Code(String),
}

/// Splits a lesson text into blocks.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(inlines(&paragraph.join(" "))));
            paragraph.clear();
        }
    };
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut code, fence) {
            (Some(lines), true) => {
                blocks.push(Block::Code(lines.join("\n")));
                code = None;
            }
            (Some(lines), false) => lines.push(line),
            (None, true) => {
                flush(&mut paragraph, &mut blocks);
                code = Some(Vec::new());
            }
            (None, false) if line.trim().is_empty() => flush(&mut paragraph, &mut blocks),
            (None, false) => paragraph.push(line.trim()),
        }
    }
    // An unclosed fence still shows its code.
    if let Some(lines) = code {
        blocks.push(Block::Code(lines.join("\n")));
    }
    flush(&mut paragraph, &mut blocks);
    blocks
}

/// Splits a paragraph at backticks: odd pieces are code (an unpaired backtick stays text).
pub fn inlines(text: &str) -> Vec<Inline> {
    let pieces: Vec<&str> = text.split('`').collect();
    let paired = pieces.len() % 2 == 1;
    let mut out = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        let is_code = i % 2 == 1 && (paired || i + 1 < pieces.len());
        if is_code {
            out.push(Inline::Code(piece.to_string()));
        } else if !piece.is_empty() {
            let text = if i % 2 == 1 {
                format!("`{piece}")
            } else {
                piece.to_string()
            };
            out.push(Inline::Text(text));
        }
    }
    out
}

/// Whether a piece of code is a command the terminal runs (rather than a name or a value).
pub fn is_command(code: &str) -> bool {
    code.starts_with("kubectl ") || code.starts_with("sim ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_inline_code_and_fences() {
        let text =
            "Run `sim node add w3`\nthen wait.\n\n```\nkubectl get ds\nsim settle\n```\nAfter.\n";
        assert_eq!(
            blocks(text),
            vec![
                Block::Paragraph(vec![
                    Inline::Text("Run ".into()),
                    Inline::Code("sim node add w3".into()),
                    Inline::Text(" then wait.".into()),
                ]),
                Block::Code("kubectl get ds\nsim settle".into()),
                Block::Paragraph(vec![Inline::Text("After.".into())]),
            ]
        );
    }

    #[test]
    fn unpaired_backticks_and_fences_are_kept() {
        assert_eq!(
            inlines("a `b` c `d"),
            vec![
                Inline::Text("a ".into()),
                Inline::Code("b".into()),
                Inline::Text(" c ".into()),
                Inline::Text("`d".into()),
            ]
        );
        assert_eq!(blocks("```\nx"), vec![Block::Code("x".into())]);
        assert!(is_command("kubectl get ds") && !is_command("app=demo"));
    }
}
