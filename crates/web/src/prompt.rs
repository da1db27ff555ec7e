//! The terminal prompt's text rules, apart from the DOM: what a typed or pasted buffer runs as
//! (book-style `$ ` prompts dropped), whether Enter runs it or starts another line (an open
//! here-document or quote continues with `> `, as in a shell), and the prompt shown per line.

use dsplay_kubectl::tokenizer::needs_more_input;

/// The most lines the input grows to before it scrolls.
pub const MAX_ROWS: usize = 12;

/// The script a buffer runs as: each line's leading `$ ` (copied from a book or a web page along
/// with the command) is dropped, and so are trailing blank lines.
pub fn script(buffer: &str) -> String {
    let lines: Vec<&str> = buffer
        .lines()
        .map(|line| line.strip_prefix("$ ").unwrap_or(line))
        .collect();
    lines.join("\n").trim_end().to_string()
}

/// Enter runs the buffer now (else it inserts a newline: the here-document or quote is open).
pub fn runs_on_enter(buffer: &str) -> bool {
    !needs_more_input(&script(buffer))
}

/// The prompt column beside a buffer: `$` on the first line, `>` on each continuation line.
pub fn prompts(buffer: &str) -> String {
    let lines = buffer.split('\n').count();
    std::iter::once("$")
        .chain(std::iter::repeat_n(">", lines - 1))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rows the input shows for a buffer (one per line, up to [`MAX_ROWS`]).
pub fn rows(buffer: &str) -> usize {
    buffer.split('\n').count().min(MAX_ROWS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_prompts_are_dropped_from_every_line() {
        assert_eq!(script("$ kubectl get ds"), "kubectl get ds");
        assert_eq!(
            script("$ kubectl get ds\n$ sim settle\n\n"),
            "kubectl get ds\nsim settle"
        );
        assert_eq!(
            script("kubectl get pods -o wide"),
            "kubectl get pods -o wide"
        );
        assert_eq!(script("echo $HOME"), "echo $HOME");
    }

    #[test]
    fn enter_continues_an_open_here_document_until_its_delimiter() {
        let open = "$ kubectl apply -f - <<EOF\napiVersion: apps/v1";
        assert!(!runs_on_enter(open));
        assert!(runs_on_enter(&format!("{open}\nEOF")));
        assert!(runs_on_enter("kubectl get ds"));
        assert!(!runs_on_enter("kubectl label node kind-worker 'a=b"));
    }

    #[test]
    fn continuation_lines_get_the_secondary_prompt() {
        assert_eq!(prompts("kubectl get ds"), "$");
        assert_eq!(prompts("cat <<EOF\na\n"), "$\n>\n>");
        assert_eq!(rows("a\nb"), 2);
        assert_eq!(rows(&"\n".repeat(40)), MAX_ROWS);
    }
}
