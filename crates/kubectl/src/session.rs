//! A session: one cluster and the commands run on it (the web app keeps its own replayable log).

use crate::command_output::{Chunk, CommandOutput, Stream};
use crate::commands::{self, Ctx, EditTarget, FileReader, Request, Watch};
use dsplay_sim::Cluster;

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
        SessionOptions {
            seed: 1,
            empty: false,
        }
    }
}

/// One cluster and the commands run on it.
#[derive(Clone, Debug)]
pub struct Session {
    cluster: Cluster,
    read_file: Option<FileReader>,
    /// A `get -w` watch waiting for the next `sim` command.
    watch: Option<Watch>,
    /// The current context's namespace.
    namespace: String,
    /// With an editor (the web app): what `kubectl edit` opened and the front end has not taken.
    edits: Option<Vec<EditTarget>>,
    /// With a front end that shows traffic: the `sim curl` answers it has not taken.
    requests: Option<Vec<Request>>,
}

impl Session {
    /// A new session on the default (or empty) cluster.
    pub fn new(options: SessionOptions) -> Session {
        Session::on(if options.empty {
            Cluster::new_empty(options.seed)
        } else {
            Cluster::new(options.seed)
        })
    }

    /// A new session on `cluster`.
    pub fn on(cluster: Cluster) -> Session {
        Session {
            cluster,
            read_file: None,
            watch: None,
            namespace: "default".to_string(),
            edits: None,
            requests: None,
        }
    }

    /// The current context's namespace (`default` until `kubectl config set-context --current
    /// --namespace X`).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Runs a script (one or more commands, here-documents allowed) and returns one output per command.
    pub fn execute(&mut self, script: &str) -> Vec<CommandOutput> {
        let mut outputs = Vec::new();
        for command in crate::tokenizer::split_script(script) {
            match command {
                Ok(command) => {
                    if command.args.is_empty() {
                        continue;
                    }
                    let mut ctx = Ctx {
                        cluster: &mut self.cluster,
                        stdin: command.stdin.as_deref(),
                        read_file: self.read_file,
                        chunks: Vec::new(),
                        watch: self.watch.take(),
                        namespace: self.namespace.clone(),
                        edits: self.edits.take(),
                        requests: self.requests.take(),
                        warnings: Vec::new(),
                    };
                    let success = commands::run(&mut ctx, &command.args).is_ok();
                    // A watch lives until the next `sim` command has run (it prints while that one
                    // moves the clock); `get -w` itself leaves a new one.
                    let is_sim = command.args.first().is_some_and(|w| w == "sim");
                    let watch = ctx.watch.take();
                    self.namespace = ctx.namespace;
                    self.edits = ctx.edits;
                    self.requests = ctx.requests;
                    let chunks = ctx.chunks;
                    match watch {
                        Some(ended) if is_sim => ended.finish(&mut self.cluster),
                        watch => self.watch = watch,
                    }
                    // Lesson goals look at every change, API writes included.
                    self.cluster.observe_now();
                    outputs.push(CommandOutput {
                        command: command.echo,
                        chunks,
                        success,
                    });
                }
                Err(error) => outputs.push(CommandOutput {
                    command: error.echo.clone(),
                    chunks: vec![Chunk {
                        stream: Stream::Stderr,
                        text: format!("error: {}\n", error.message),
                    }],
                    success: false,
                }),
            }
        }
        outputs
    }

    /// A `get -w` watch is waiting for the next `sim` command (which will print its rows).
    pub fn is_watching(&self) -> bool {
        self.watch.is_some()
    }

    /// Lets `-f FILE` read files (the native CLI passes the file system; the browser has none).
    pub fn set_file_reader(&mut self, reader: FileReader) {
        self.read_file = Some(reader);
    }

    /// Gives `kubectl edit` an editor: it no longer fails for want of `vi` but leaves the
    /// object for [`Session::take_edits`].
    pub fn enable_editor(&mut self) {
        self.edits.get_or_insert_with(Vec::new);
    }

    /// The objects `kubectl edit` opened since the last call (empty without an editor).
    pub fn take_edits(&mut self) -> Vec<EditTarget> {
        self.edits.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Keeps the answers of `sim curl` for [`Session::take_requests`] (the web app animates them).
    pub fn enable_request_log(&mut self) {
        self.requests.get_or_insert_with(Vec::new);
    }

    /// The `sim curl` requests answered since the last call (empty unless enabled).
    pub fn take_requests(&mut self) -> Vec<Request> {
        self.requests
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// The cluster, for views.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The cluster, for time controls (advance / step).
    pub fn cluster_mut(&mut self) -> &mut Cluster {
        &mut self.cluster
    }
}
