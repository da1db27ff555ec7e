//! A session: one cluster plus the history of commands run on it.

use dsplay_sim::Cluster;

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

/// How a session starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// RNG seed (default 1).
    pub seed: u64,
    /// Start with no nodes and no kube-system DaemonSets.
    pub empty: bool,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions { seed: 1, empty: false }
    }
}

/// One cluster and the commands run on it.
#[derive(Clone, Debug)]
pub struct Session {
    cluster: Cluster,
    history: Vec<String>,
}

impl Session {
    /// A new session on the default (or empty) cluster.
    pub fn new(options: SessionOptions) -> Session {
        let cluster = if options.empty { Cluster::new_empty(options.seed) } else { Cluster::new(options.seed) };
        Session { cluster, history: Vec::new() }
    }

    /// Runs a script (one or more commands, here-documents allowed) and returns one output per command.
    pub fn execute(&mut self, script: &str) -> Vec<CommandOutput> {
        self.history.push(script.to_string());
        vec![CommandOutput {
            command: script.to_string(),
            chunks: vec![Chunk { stream: Stream::Stderr, text: "error: not implemented yet\n".into() }],
            success: false,
        }]
    }

    /// The cluster, for views.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The cluster, for time controls (advance / step).
    pub fn cluster_mut(&mut self) -> &mut Cluster {
        &mut self.cluster
    }

    /// Every script run so far, in order (for share links and export).
    pub fn history(&self) -> &[String] {
        &self.history
    }
}
