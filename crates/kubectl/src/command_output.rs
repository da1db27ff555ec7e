//! What a command prints: output chunks on stdout/stderr in order, and one command's result. Shared by
//! the session and the commands; imports neither.

/// Which stream a piece of output went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// A piece of output, in the order it was produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// stdout or stderr.
    pub stream: Stream,
    /// The text, newline-terminated.
    pub text: String,
}

/// The result of one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandOutput {
    /// The command as a terminal echoes it (here-document body and terminator included).
    pub command: String,
    /// Output pieces in order.
    pub chunks: Vec<Chunk>,
    /// Exit status 0?
    pub success: bool,
}

impl CommandOutput {
    /// All output (stdout and stderr interleaved) as one string.
    pub fn text(&self) -> String {
        self.chunks.iter().map(|c| c.text.as_str()).collect()
    }
}
