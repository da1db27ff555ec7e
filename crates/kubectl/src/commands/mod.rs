//! Command dispatch: `kubectl …` and `sim …` words → actions on the cluster and kubectl's text.

mod apply;
mod config;
mod cordon_drain;
mod create_deployment;
mod create_service;
mod delete;
mod describe_apps;
mod discovery;
mod edit;
mod events;
mod explain;
mod expose;
mod get;
mod label;
mod live_object;
mod logs;
mod output_format;
mod patch;
mod resource_name;
mod rollout;
mod rollout_deployment;
mod run_wait;
mod scale;
mod set_image;
mod sim;
pub mod sim_node_add;
mod taint;
mod unavailable;
mod watch;

pub use edit::EditTarget;
pub(crate) use get::{describe_object, Query, GET_FLAGS};
pub(crate) use watch::Watch;

use crate::command_output::{Chunk, Stream};
use crate::flags::{self, FlagSpec, Parsed};
use dsplay_api::Kind;
use dsplay_sim::{ApiError, Cluster};

/// Reads `-f FILE` contents (the CLI reads the file system; the browser has none). The error is
/// printed after `error: ` as it is (e.g. `the path "x.yaml" does not exist`).
pub type FileReader = fn(&str) -> Result<String, String>;

/// What a command can touch and where its output goes.
/// A request `sim curl` made and the pod that answered it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub from: dsplay_sim::routing::Source,
    pub answer: dsplay_sim::routing::Answer,
}

pub(crate) struct Ctx<'a> {
    pub cluster: &'a mut Cluster,
    pub stdin: Option<&'a str>,
    pub read_file: Option<FileReader>,
    pub chunks: Vec<Chunk>,
    /// The watch a previous `get -w` left running (consumed by the next `sim` command), or the one
    /// this command starts.
    pub watch: Option<Watch>,
    /// The current context's namespace (`kubectl config set-context --current --namespace`).
    pub namespace: String,
    /// Where `kubectl edit` leaves the object it opens, when the front end has an editor.
    pub edits: Option<Vec<EditTarget>>,
    /// Where `sim curl` logs who answered, when the front end animates requests.
    pub requests: Option<Vec<Request>>,
    /// The API server's warnings printed so far (kubectl prints each text once per run).
    pub warnings: Vec<&'static str>,
}

/// A command failed; its message has been written already.
pub(crate) struct Failed;

/// Result of a command: Ok = exit 0.
pub(crate) type CmdResult = Result<(), Failed>;

impl Ctx<'_> {
    /// Writes to stdout.
    pub fn out(&mut self, text: impl Into<String>) {
        self.push(Stream::Stdout, text.into());
    }
    /// Writes to stderr.
    pub fn err(&mut self, text: impl Into<String>) {
        self.push(Stream::Stderr, text.into());
    }
    /// Writes to stdout as it is (no newline added), as kubectl's template printers do.
    pub fn out_raw(&mut self, text: String) {
        if !text.is_empty() {
            self.chunks.push(Chunk {
                stream: Stream::Stdout,
                text,
            });
        }
    }
    fn push(&mut self, stream: Stream, mut text: String) {
        if text.is_empty() {
            return;
        }
        if !text.ends_with('\n') {
            text.push('\n');
        }
        self.chunks.push(Chunk { stream, text });
    }
    /// Writes `error: …` to stderr and fails.
    pub fn fail(&mut self, message: impl AsRef<str>) -> CmdResult {
        self.err(format!("error: {}", message.as_ref()));
        Err(Failed)
    }
    /// A request on `kind`: the API server's deprecation warning, if it has one, on stderr as
    /// kubectl prints it, once per command.
    ///
    /// Upstream: staging/src/k8s.io/client-go/rest/warnings.go NewWarningWriter (Deduplicate).
    pub fn request(&mut self, kind: Kind) {
        if let Some(text) = kind.deprecation_warning() {
            if !self.warnings.contains(&text) {
                self.warnings.push(text);
                self.err(format!("Warning: {text}"));
            }
        }
    }
    /// Writes an API error as kubectl does and fails.
    pub fn api_fail(&mut self, error: &ApiError, context: Option<&str>) -> CmdResult {
        self.err(api_error_text(error, context));
        Err(Failed)
    }
}

/// `Error from server (Reason): [context: ]message`, or the bare Invalid text.
pub(crate) fn api_error_text(error: &ApiError, context: Option<&str>) -> String {
    match error.reason() {
        Some(reason) => match context {
            Some(c) => format!("Error from server ({reason}): {c}: {error}"),
            None => format!("Error from server ({reason}): {error}"),
        },
        None => error.to_string(),
    }
}

/// Runs one command given as words; the first word is `kubectl` or `sim`.
pub(crate) fn run(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let Some(program) = words.first() else {
        return Ok(());
    };
    if let Some(op) = words
        .iter()
        .find(|w| ["|", "||", "&&", ";", ">", ">>", "<"].contains(&w.as_str()))
    {
        ctx.err(format!("error: the shell operator \"{op}\" is not supported: the playground runs one kubectl or sim command per line"));
        return Err(Failed);
    }
    match program.as_str() {
        "kubectl" | "k" => kubectl(ctx, &words[1..]),
        "sim" => sim::run(ctx, &words[1..]),
        "help" => {
            ctx.out(crate::help::overview());
            Ok(())
        }
        other => {
            ctx.err(format!(
                "error: unknown command \"{other}\": commands start with kubectl or sim"
            ));
            Err(Failed)
        }
    }
}

fn kubectl(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    // Global flags may come before the verb (`kubectl -n kube-system get ds`).
    let mut rest: Vec<String> = Vec::new();
    let mut verb: Option<String> = None;
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if verb.is_none() && (w == "-n" || w == "--namespace") && i + 1 < words.len() {
            rest.push(w.clone());
            rest.push(words[i + 1].clone());
            i += 2;
            continue;
        }
        if verb.is_none() && !w.starts_with('-') {
            verb = Some(w.clone());
        } else {
            rest.push(w.clone());
        }
        i += 1;
    }
    let Some(verb) = verb.filter(|v| v != "help") else {
        // `kubectl`, `kubectl help [COMMAND]`.
        let topic: Vec<String> = words
            .iter()
            .skip_while(|w| *w != "help")
            .skip(1)
            .cloned()
            .collect();
        ctx.out(crate::help::kubectl_command(&topic).unwrap_or_else(crate::help::kubectl_overview));
        return Ok(());
    };
    if crate::help::asks_for_help(&rest) {
        let path: Vec<String> = std::iter::once(verb.clone())
            .chain(rest.iter().cloned())
            .collect();
        if let Some(text) = crate::help::kubectl_command(&path) {
            ctx.out(text);
            return Ok(());
        }
    }
    match verb.as_str() {
        "get" => get::get(ctx, &rest),
        "describe" => get::describe(ctx, &rest),
        "expose" => expose::expose(ctx, &rest),
        "apply" => apply::apply(ctx, &rest, apply::Mode::Apply),
        "create"
            if matches!(
                rest.first().map(String::as_str),
                Some("deployment" | "deploy")
            ) =>
        {
            create_deployment::create_deployment(ctx, &rest)
        }
        "create" => apply::create(ctx, &rest),
        "replace" => apply::apply(ctx, &rest, apply::Mode::Replace),
        "delete" => delete::delete(ctx, &rest),
        "label" => label::label(ctx, &rest, label::MetaField::Labels),
        "annotate" => label::label(ctx, &rest, label::MetaField::Annotations),
        "taint" => taint::taint(ctx, &rest),
        "cordon" => cordon_drain::cordon(ctx, &rest, true),
        "uncordon" => cordon_drain::cordon(ctx, &rest, false),
        "drain" => cordon_drain::drain(ctx, &rest),
        "set" => set_image::set(ctx, &rest),
        "patch" => patch::patch(ctx, &rest),
        "rollout" => rollout::rollout(ctx, &rest),
        "run" => run_wait::run(ctx, &rest),
        "wait" => run_wait::wait(ctx, &rest),
        "config" => config::config(ctx, &rest),
        "version" => {
            ctx.out("Client Version: v1.32.0\nKustomize Version: v5.5.0\nServer Version: v1.33.1");
            Ok(())
        }
        "api-resources" => {
            discovery::api_resources(ctx);
            Ok(())
        }
        "api-versions" => discovery::api_versions(ctx, &rest),
        "cluster-info" => discovery::cluster_info(ctx, &rest),
        "events" => events::events(ctx, &rest),
        "explain" => explain::explain(ctx, &rest),
        "logs" => logs::logs(ctx, &rest),
        "scale" => scale::scale(ctx, &rest),
        "edit" => edit::edit(ctx, &rest),
        "exec" => unavailable::exec(ctx, &rest),
        "attach" => unavailable::attach(ctx, &rest),
        "port-forward" => unavailable::port_forward(ctx, &rest),
        "cp" | "debug" => unavailable::no_runtime(ctx, &verb),
        "top" => unavailable::top(ctx, &rest),
        // cobra's error, `error: `-prefixed by kubectl (Upstream: staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr).
        other => ctx.fail(format!("unknown command \"{other}\" for \"kubectl\"")),
    }
}

/// Parses flags for `verb`, reporting pflag errors as kubectl does.
pub(crate) fn parse_flags(
    ctx: &mut Ctx,
    verb: &str,
    words: &[String],
    specs: &[FlagSpec],
) -> Result<Parsed, Failed> {
    match flags::parse(words, specs) {
        Ok(p) => Ok(Parsed {
            context_namespace: Some(ctx.namespace.clone()),
            ..p
        }),
        Err(message) => {
            if verb.starts_with("sim") {
                ctx.err(format!("error: {message}"));
            } else {
                ctx.err(format!(
                    "error: {message}\nSee 'kubectl {verb} --help' for usage."
                ));
            }
            Err(Failed)
        }
    }
}

/// An int64 flag's value, with pflag's error (and kubectl's usage line) when it does not parse.
///
/// Upstream: github.com/spf13/pflag int64.go (newInt64Value.Set → strconv.ParseInt), flag.go
/// (`invalid argument %q for %q flag: %v`).
pub(crate) fn int64_flag(
    ctx: &mut Ctx,
    verb: &str,
    parsed: &Parsed,
    name: &str,
) -> Result<Option<i64>, Failed> {
    let Some(v) = parsed.get(name) else {
        return Ok(None);
    };
    v.parse::<i64>().map(Some).map_err(|e| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                "value out of range"
            }
            _ => "invalid syntax",
        };
        ctx.err(format!("error: invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseInt: parsing \"{v}\": {why}\nSee 'kubectl {verb} --help' for usage."));
        Failed
    })
}

/// Resolves a resource word (`ds`, `pods`, `daemonsets.apps`).
pub(crate) fn resolve_kind(ctx: &mut Ctx, word: &str) -> Result<Kind, Failed> {
    kind_of(word).map_err(|message| {
        ctx.err(format!("error: {message}"));
        Failed
    })
}

/// Resolves a resource word, or kubectl's message (without `error: `).
fn kind_of(word: &str) -> Result<Kind, String> {
    resource_name::resolve(word)
}

/// Splits `TYPE NAME…` / `TYPE/NAME…` arguments into (kind, names).
pub(crate) fn resource_args(
    ctx: &mut Ctx,
    args: &[String],
) -> Result<Vec<(Kind, Option<String>)>, Failed> {
    split_resource_args(args).map_err(|message| {
        ctx.err(format!("error: {message}"));
        Failed
    })
}

/// `resource_args` without a command context: the error is kubectl's message without `error: `.
pub(crate) fn split_resource_args(args: &[String]) -> Result<Vec<(Kind, Option<String>)>, String> {
    let mut out = Vec::new();
    if args.is_empty() {
        return Ok(out);
    }
    if args[0].contains('/') {
        for a in args {
            let Some((kind, name)) = a.split_once('/') else {
                return Err("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string());
            };
            out.push((kind_of(kind)?, Some(name.to_string())));
        }
        return Ok(out);
    }
    let mut resolved = Vec::new();
    for k in args[0].split(',') {
        resolved.push(kind_of(k)?);
    }
    if args.len() == 1 {
        return Ok(resolved.into_iter().map(|k| (k, None)).collect());
    }
    for kind in resolved {
        for name in &args[1..] {
            out.push((kind, Some(name.clone())));
        }
    }
    Ok(out)
}

/// The namespace a command works in (`-n`, else the current context's, see [`parse_flags`]).
pub(crate) fn namespace(parsed: &Parsed) -> String {
    parsed
        .get("namespace")
        .or(parsed.context_namespace.as_deref())
        .unwrap_or("default")
        .to_string()
}

/// Go's `time.ParseDuration` for a flag kubectl declares as a duration: signed seconds, or Go's
/// error text (`time: unknown unit "x" in duration "5x"`, `missing unit`, `invalid duration`).
///
/// Upstream: Go src/time/format.go `ParseDuration`.
pub(crate) fn parse_go_duration(text: &str) -> Result<f64, String> {
    use dsplay_api::validation::go_quote;
    let invalid = || format!("time: invalid duration {}", go_quote(text));
    let (sign, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Ok(0.0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut seconds = 0.0;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..number_end].parse().map_err(|_| invalid())?;
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_end];
        let scale = match unit {
            "" => return Err(format!("time: missing unit in duration {}", go_quote(text))),
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    go_quote(unit),
                    go_quote(text)
                ))
            }
        };
        seconds += number * scale;
        rest = &rest[unit_end..];
    }
    // Go counts nanoseconds in an int64: longer spans (about 292 years) do not parse.
    if seconds * 1e9 > i64::MAX as f64 {
        return Err(invalid());
    }
    Ok(sign * seconds)
}

/// Parses `30s`, `2m`, `500ms`, `1h30m`, or a bare number of seconds. Spans too long for a `u64` of
/// milliseconds saturate: callers refuse them with [`check_max_advance`].
pub fn parse_duration(text: &str) -> Option<std::time::Duration> {
    let text = text.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return (secs >= 0.0 && secs.is_finite()).then(|| millis(secs * 1000.0));
    }
    let mut total_ms: f64 = 0.0;
    let mut number = String::new();
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        let mut unit = c.to_string();
        while let Some(&n) = chars.peek() {
            if n.is_ascii_alphabetic() {
                unit.push(n);
                chars.next();
            } else {
                break;
            }
        }
        let value: f64 = number.parse().ok()?;
        number.clear();
        let factor = match unit.as_str() {
            "ms" => 1.0,
            "s" => 1000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            _ => return None,
        };
        total_ms += value * factor;
        any = true;
    }
    if !number.is_empty() || !any || !total_ms.is_finite() {
        return None;
    }
    Some(millis(total_ms))
}

/// Finite, non-negative milliseconds as a `Duration`; `as` saturates at `u64::MAX`.
fn millis(ms: f64) -> std::time::Duration {
    std::time::Duration::from_millis(ms as u64)
}

/// Refuses a span of virtual time longer than [`dsplay_sim::cluster::MAX_ADVANCE`] (`text` is what
/// the user wrote, `what` the command or flag), so one command's work stays bounded.
pub(crate) fn check_max_advance(
    ctx: &mut Ctx,
    d: std::time::Duration,
    text: &str,
    what: &str,
) -> Result<std::time::Duration, Failed> {
    let max = dsplay_sim::cluster::MAX_ADVANCE;
    if d <= max {
        return Ok(d);
    }
    ctx.err(format!(
        "error: duration {text:?} for {what} is more than the maximum of {}h per command",
        max.as_secs() / 3600
    ));
    Err(Failed)
}

/// A waiting command's `--timeout`, in Go's duration syntax (pflag's error and kubectl's usage
/// line when it does not parse), turned into the virtual deadline in milliseconds: `timeout_of`
/// says what the command makes of the signed seconds given (`None`: the flag is not set), and
/// the result is refused above the maximum advance.
///
/// Upstream: github.com/spf13/pflag duration.go (durationValue.Set → time.ParseDuration).
pub(crate) fn wait_deadline(
    ctx: &mut Ctx,
    verb: &str,
    parsed: &Parsed,
    timeout_of: impl Fn(Option<f64>) -> std::time::Duration,
) -> Result<i64, Failed> {
    let text = parsed.get("timeout").unwrap_or_default().to_string();
    let seconds = match parsed.get("timeout").map(parse_go_duration) {
        None => None,
        Some(Ok(seconds)) => Some(seconds),
        Some(Err(why)) => {
            ctx.err(format!("error: invalid argument \"{text}\" for \"--timeout\" flag: {why}\nSee 'kubectl {verb} --help' for usage."));
            return Err(Failed);
        }
    };
    let timeout = check_max_advance(ctx, timeout_of(seconds), &text, "--timeout")?;
    Ok(ctx
        .cluster
        .now_ms()
        .saturating_add(timeout.as_millis() as i64))
}

/// `timeout_of` for a command whose zero or negative `--timeout` waits as long as none does
/// (`rollout status`: forever; `delete`: long enough), which the simulator bounds by `default`.
pub(crate) fn positive_or(
    default: std::time::Duration,
) -> impl Fn(Option<f64>) -> std::time::Duration {
    move |seconds| {
        seconds
            .filter(|s| *s > 0.0)
            .map(|s| std::time::Duration::from_secs_f64(s.min(1e12)))
            .unwrap_or(default)
    }
}
