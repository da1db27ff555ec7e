//! Shell-like splitting of `dsplay run` scripts into commands: words, quotes, comments, `\` line
//! continuation and here-documents.
//!
//! **Architecture Invariant:** no expansion of any kind (`$VAR`, globs, command substitution) is done;
//! the tokenizer never panics, whatever the input (1 MB lines, binary junk).

use std::fmt;

/// One command of a script, ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptCommand {
    /// The command as a terminal shows it: the original line(s) (continuations included), then the
    /// here-document body and its terminator line, verbatim, joined with `\n` (no trailing newline).
    pub echo: String,
    /// The words after quote removal.
    pub args: Vec<String>,
    /// The here-document body (each line ends in `\n`), when the command has one.
    pub stdin: Option<String>,
}

/// A command that could not be split, with a bash-like message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenizeError {
    /// 1-based line the command starts on.
    pub line: usize,
    /// The source text of the failed command, for the transcript echo.
    pub echo: String,
    /// Bash-like message, e.g. ``unexpected EOF while looking for matching `"'``.
    pub message: String,
    /// The text ended inside the command (an open quote or here-document): more lines could
    /// complete it, where an interactive shell would prompt with `> `.
    pub unfinished: bool,
}

impl fmt::Display for TokenizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TokenizeError {}

/// Quoting state while scanning a command.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// A pending here-document: its delimiter and whether `<<-` strips leading tabs.
struct HereDoc {
    delimiter: String,
    strip_tabs: bool,
}

/// Splits a script into commands, one `Result` per command (blank and comment-only lines yield
/// nothing). After an unterminated quote, scanning resumes on the line after the failed command's
/// first line; an unterminated here-document consumes the rest of the script.
pub fn split_script(text: &str) -> Vec<Result<ScriptCommand, TokenizeError>> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // `split` yields a final empty piece when the text ends in a newline: not a line of its own.
    let count = if text.ends_with('\n') {
        lines.len() - 1
    } else {
        lines.len()
    };
    let lines = &lines[..count];
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (result, next) = parse_command(lines, i);
        debug_assert!(next > i);
        i = next.max(i + 1);
        if let Some(result) = result {
            out.push(result);
        }
    }
    out
}

/// Parses the command starting at `lines[start]`; returns it (None for blank/comment lines) and the
/// index of the first line after it.
fn parse_command(
    lines: &[&str],
    start: usize,
) -> (Option<Result<ScriptCommand, TokenizeError>>, usize) {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote = Quote::None;
    let mut heredocs: Vec<HereDoc> = Vec::new();
    let mut j = start;
    'lines: loop {
        let chars: Vec<char> = lines[j].chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            match quote {
                Quote::Single => {
                    if c == '\'' {
                        quote = Quote::None;
                    } else {
                        cur.push(c);
                    }
                    k += 1;
                }
                Quote::Double => {
                    if c == '"' {
                        quote = Quote::None;
                        k += 1;
                    } else if c == '\\' {
                        match chars.get(k + 1) {
                            None => {
                                // Backslash-newline inside double quotes: a continuation.
                                j += 1;
                                if j >= lines.len() {
                                    return (Some(Err(unterminated(lines, start, '"'))), start + 1);
                                }
                                continue 'lines;
                            }
                            Some(&n) if matches!(n, '$' | '`' | '"' | '\\') => {
                                cur.push(n);
                                k += 2;
                            }
                            Some(_) => {
                                cur.push('\\');
                                k += 1;
                            }
                        }
                    } else {
                        cur.push(c);
                        k += 1;
                    }
                }
                Quote::None => {
                    if c == ' ' || c == '\t' {
                        if in_word {
                            words.push(std::mem::take(&mut cur));
                            in_word = false;
                        }
                        k += 1;
                    } else if c == '#' && !in_word {
                        break; // comment to the end of the line
                    } else if c == '\\' {
                        match chars.get(k + 1) {
                            None => {
                                j += 1;
                                if j >= lines.len() {
                                    break 'lines;
                                }
                                continue 'lines;
                            }
                            Some(&n) => {
                                cur.push(n);
                                in_word = true;
                                k += 2;
                            }
                        }
                    } else if c == '\'' {
                        quote = Quote::Single;
                        in_word = true;
                        k += 1;
                    } else if c == '"' {
                        quote = Quote::Double;
                        in_word = true;
                        k += 1;
                    } else if c == '<'
                        && chars.get(k + 1) == Some(&'<')
                        && chars.get(k + 2) != Some(&'<')
                    {
                        if in_word {
                            words.push(std::mem::take(&mut cur));
                            in_word = false;
                        }
                        k += 2;
                        let strip_tabs = chars.get(k) == Some(&'-');
                        if strip_tabs {
                            k += 1;
                        }
                        while k < chars.len() && (chars[k] == ' ' || chars[k] == '\t') {
                            k += 1;
                        }
                        match read_delimiter(&chars, &mut k) {
                            Some(delimiter) => heredocs.push(HereDoc {
                                delimiter,
                                strip_tabs,
                            }),
                            None => {
                                let err = TokenizeError {
                                    line: start + 1,
                                    echo: lines[start..=j].join("\n"),
                                    message: "syntax error near unexpected token `newline'"
                                        .to_string(),
                                    unfinished: false,
                                };
                                return (Some(Err(err)), j + 1);
                            }
                        }
                    } else {
                        cur.push(c);
                        in_word = true;
                        k += 1;
                    }
                }
            }
        }
        match quote {
            Quote::None => break,
            q => {
                // A quoted newline is part of the word.
                cur.push('\n');
                j += 1;
                if j >= lines.len() {
                    let mark = if q == Quote::Single { '\'' } else { '"' };
                    return (Some(Err(unterminated(lines, start, mark))), start + 1);
                }
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    let last_command_line = j.min(lines.len() - 1);
    let mut echo_lines: Vec<&str> = lines[start..=last_command_line].to_vec();
    let mut next = last_command_line + 1;
    let mut stdin = None;
    for doc in &heredocs {
        let mut body = String::new();
        let mut found = false;
        while next < lines.len() {
            let line = lines[next];
            echo_lines.push(line);
            next += 1;
            let content = if doc.strip_tabs {
                line.trim_start_matches('\t')
            } else {
                line
            };
            if content == doc.delimiter {
                found = true;
                break;
            }
            body.push_str(content);
            body.push('\n');
        }
        if !found {
            let err = TokenizeError {
                line: start + 1,
                echo: echo_lines.join("\n"),
                message: format!(
                    "here-document at line {} delimited by end-of-file (wanted `{}')",
                    start + 1,
                    doc.delimiter
                ),
                unfinished: true,
            };
            return (Some(Err(err)), lines.len());
        }
        stdin = Some(body);
    }
    if words.is_empty() && heredocs.is_empty() {
        return (None, next);
    }
    let command = ScriptCommand {
        echo: echo_lines.join("\n"),
        args: words,
        stdin,
    };
    (Some(Ok(command)), next)
}

/// Reads a here-document delimiter word at `chars[*k]` (quote removal applied); None when missing.
fn read_delimiter(chars: &[char], k: &mut usize) -> Option<String> {
    let mut word = String::new();
    let mut any = false;
    while *k < chars.len() {
        let c = chars[*k];
        match c {
            ' ' | '\t' | ';' | '|' | '&' | '<' | '>' | '(' | ')' => break,
            '\'' | '"' => {
                any = true;
                *k += 1;
                while *k < chars.len() && chars[*k] != c {
                    word.push(chars[*k]);
                    *k += 1;
                }
                *k += 1; // closing quote (or end of line)
            }
            '\\' => {
                any = true;
                if let Some(&n) = chars.get(*k + 1) {
                    word.push(n);
                }
                *k += 2;
            }
            _ => {
                any = true;
                word.push(c);
                *k += 1;
            }
        }
    }
    any.then_some(word)
}

fn unterminated(lines: &[&str], start: usize, mark: char) -> TokenizeError {
    TokenizeError {
        line: start + 1,
        echo: lines[start].to_string(),
        message: format!("unexpected EOF while looking for matching `{mark}'"),
        unfinished: true,
    }
}

/// The text ends inside a command (an open quote or here-document), so a terminal should take
/// more lines (prompting `> `) before running it.
pub fn needs_more_input(text: &str) -> bool {
    split_script(text)
        .iter()
        .any(|r| matches!(r, Err(e) if e.unfinished))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_here_documents_and_quotes_need_more_input() {
        assert!(needs_more_input("kubectl apply -f - <<EOF\napiVersion: v1"));
        assert!(needs_more_input("cat <<'END'\nEOF\n"));
        assert!(needs_more_input("echo \"a"));
        assert!(!needs_more_input(
            "kubectl apply -f - <<EOF\napiVersion: v1\nEOF"
        ));
        assert!(!needs_more_input("kubectl get ds\nsim settle"));
        assert!(!needs_more_input("kubectl apply -f - <<"));
        assert!(!needs_more_input(""));
    }

    fn ok(text: &str) -> Vec<ScriptCommand> {
        split_script(text)
            .into_iter()
            .map(|r| r.expect("no error"))
            .collect()
    }

    fn args(text: &str) -> Vec<Vec<String>> {
        ok(text).into_iter().map(|c| c.args).collect()
    }

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_quotes_and_comments() {
        let cases: &[(&str, &str, Vec<Vec<String>>)] = &[
            (
                "simple",
                "kubectl get ds\n",
                vec![v(&["kubectl", "get", "ds"])],
            ),
            (
                "blank and comments",
                "\n# hi\n   # indented\nsim settle # trailing\n",
                vec![v(&["sim", "settle"])],
            ),
            ("hash inside word", "echo a#b\n", vec![v(&["echo", "a#b"])]),
            (
                "single quotes",
                "kubectl patch ds x -p='[{\"op\": \"remove\"}]'",
                vec![v(&[
                    "kubectl",
                    "patch",
                    "ds",
                    "x",
                    "-p=[{\"op\": \"remove\"}]",
                ])],
            ),
            (
                "double quotes escapes",
                r#"a "x \"y\" \$z \n""#,
                vec![v(&["a", "x \"y\" $z \\n"])],
            ),
            (
                "backslash outside",
                r"a b\ c \#d",
                vec![v(&["a", "b c", "#d"])],
            ),
            ("empty quoted word", "a '' \"\"", vec![v(&["a", "", ""])]),
            (
                "adjacent quotes join",
                "a 'b'\"c\"d",
                vec![v(&["a", "bcd"])],
            ),
            (
                "quote in comment ignored",
                "a # don't\nb",
                vec![v(&["a"]), v(&["b"])],
            ),
            ("crlf", "a b\r\nc\r\n", vec![v(&["a", "b"]), v(&["c"])]),
            ("tabs", "a\tb", vec![v(&["a", "b"])]),
        ];
        for (name, text, want) in cases {
            assert_eq!(&args(text), want, "{name}");
        }
    }

    #[test]
    fn continuation_keeps_original_lines_in_echo() {
        let cmds = ok("kubectl get \\\n  pods -o wide\nnext\n");
        assert_eq!(cmds[0].args, v(&["kubectl", "get", "pods", "-o", "wide"]));
        assert_eq!(cmds[0].echo, "kubectl get \\\n  pods -o wide");
        assert_eq!(cmds[1].args, v(&["next"]));
    }

    #[test]
    fn quoted_newline_spans_lines() {
        let cmds = ok("echo 'a\nb'\nz");
        assert_eq!(cmds[0].args, v(&["echo", "a\nb"]));
        assert_eq!(cmds[0].echo, "echo 'a\nb'");
        assert_eq!(cmds[1].args, v(&["z"]));
    }

    #[test]
    fn here_documents() {
        let text = "kubectl apply -f - <<EOF\napiVersion: v1\n  kind: x\nEOF\nsim settle\n";
        let cmds = ok(text);
        assert_eq!(cmds.len(), 2);
        assert_eq!(cmds[0].args, v(&["kubectl", "apply", "-f", "-"]));
        assert_eq!(
            cmds[0].stdin.as_deref(),
            Some("apiVersion: v1\n  kind: x\n")
        );
        assert_eq!(
            cmds[0].echo,
            "kubectl apply -f - <<EOF\napiVersion: v1\n  kind: x\nEOF"
        );
        assert_eq!(cmds[1].args, v(&["sim", "settle"]));

        for (name, op) in [
            ("quoted", "<<'EOF'"),
            ("dquoted", "<<\"EOF\""),
            ("space", "<< EOF"),
            ("attached", "-<<EOF"),
        ] {
            let text = format!("cat {op}\n$HOME `x`\nEOF\n");
            let cmds = ok(&text);
            assert_eq!(cmds[0].stdin.as_deref(), Some("$HOME `x`\n"), "{name}");
        }
        let cmds = ok("cat <<-END\n\tindented\n\tEND\n");
        assert_eq!(cmds[0].stdin.as_deref(), Some("indented\n"));
        assert_eq!(cmds[0].echo, "cat <<-END\n\tindented\n\tEND");
        let cmds = ok("cat <<EOF\nEOF\n");
        assert_eq!(cmds[0].stdin.as_deref(), Some(""));
        // `#` lines inside a body are data, not comments.
        let cmds = ok("cat <<EOF\n# not a comment\nEOF\n");
        assert_eq!(cmds[0].stdin.as_deref(), Some("# not a comment\n"));
    }

    #[test]
    fn errors_and_recovery() {
        let out = split_script("echo \"abc\nnext 'x\nlast\n");
        // The unterminated double quote swallows to EOF, so it is reported and scanning resumes.
        assert_eq!(
            out[0].as_ref().unwrap_err().message,
            "unexpected EOF while looking for matching `\"'"
        );
        assert_eq!(out[0].as_ref().unwrap_err().line, 1);
        assert_eq!(out[0].as_ref().unwrap_err().echo, "echo \"abc");
        assert_eq!(
            out[1].as_ref().unwrap_err().message,
            "unexpected EOF while looking for matching `''"
        );
        assert_eq!(out[2].as_ref().unwrap().args, v(&["last"]));

        let out = split_script("a\ncat <<EOF\nbody\n");
        assert_eq!(out[0].as_ref().unwrap().args, v(&["a"]));
        let err = out[1].as_ref().unwrap_err();
        assert_eq!(
            err.message,
            "here-document at line 2 delimited by end-of-file (wanted `EOF')"
        );
        assert_eq!(err.echo, "cat <<EOF\nbody");

        let out = split_script("cat <<\nb\n");
        assert_eq!(
            out[0].as_ref().unwrap_err().message,
            "syntax error near unexpected token `newline'"
        );
        assert_eq!(out[1].as_ref().unwrap().args, v(&["b"]));
    }

    #[test]
    fn huge_line_and_junk() {
        let big = "x".repeat(1 << 20);
        let cmds = ok(&format!("echo {big}\n"));
        assert_eq!(cmds[0].args[1].len(), 1 << 20);
        let junk: String = (0u32..2000).filter_map(char::from_u32).collect();
        let _ = split_script(&junk);
        let _ = split_script("\\");
        let _ = split_script("\"\\");
        let _ = split_script("<<");
        let _ = split_script("");
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = split_script(&s);
        }

        #[test]
        fn never_panics_on_shell_chars(s in "[ a'\"\\\\#<\\-\n\tEOF]{0,64}") {
            let _ = split_script(&s);
        }
    }
}
