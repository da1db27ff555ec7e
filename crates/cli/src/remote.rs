//! `dsplay serve` (the cluster behind a Kubernetes API for real kubectl) and `dsplay sim --server URL
//! WORDS…` (one `sim` command against a running server, printed as `dsplay run` prints it).

use dsplay_kubectl::SessionOptions;
use dsplay_serve::clock::ClockMode;
use dsplay_serve::{ServeOptions, Server};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Usage lines of the two commands.
pub const USAGE: &str = "  dsplay serve [--port P] [--kubeconfig FILE] [--seed N] [--empty] [--clock realtime|manual] [--speed X]\n                                           serve the cluster to kubectl on 127.0.0.1 (local use only)\n  dsplay sim --server URL WORDS...         run one sim command against a running dsplay serve\n";

fn value<'a>(args: &'a [String], i: &mut usize, flag: &str) -> Result<&'a str, String> {
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| format!("{flag} needs a value"))
}

fn parse_serve(args: &[String]) -> Result<(ServeOptions, Option<PathBuf>), String> {
    let mut port = 6443u16;
    let mut kubeconfig = None;
    let mut session = SessionOptions::default();
    let mut clock = "realtime".to_string();
    let mut speed = 1.0f64;
    let mut i = 0;
    while i < args.len() {
        let (flag, inline) = match args[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (args[i].clone(), None),
        };
        let take = |i: &mut usize| -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => value(args, i, &flag).map(str::to_string),
            }
        };
        match flag.as_str() {
            "--port" => {
                port = take(&mut i)?
                    .parse()
                    .map_err(|_| "--port needs a port number")?
            }
            "--kubeconfig" => kubeconfig = Some(PathBuf::from(take(&mut i)?)),
            "--seed" => {
                session.seed = take(&mut i)?.parse().map_err(|_| "--seed needs a number")?
            }
            "--empty" => session.empty = true,
            "--clock" => clock = take(&mut i)?,
            "--speed" => {
                speed = take(&mut i)?
                    .parse()
                    .map_err(|_| "--speed needs a number")?
            }
            other => return Err(format!("unknown flag \"{other}\" for dsplay serve")),
        }
        i += 1;
    }
    let clock = ClockMode::parse(&clock, speed)?;
    Ok((
        ServeOptions {
            port,
            session,
            clock,
        },
        kubeconfig,
    ))
}

/// `dsplay serve …`: runs until the process is stopped.
pub fn serve(args: &[String]) -> ExitCode {
    let (options, kubeconfig) = match parse_serve(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let server = match Server::start(options) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let url = server.url();
    if let Some(path) = kubeconfig {
        if let Err(e) = dsplay_serve::kubeconfig::write(&path, &url) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!(
            "kubeconfig written to {} (context kind-kind)",
            path.display()
        );
    }
    eprintln!(
        "serving the simulated cluster on {url} (plain HTTP, no authentication: local use only)"
    );
    server.wait();
    ExitCode::SUCCESS
}

/// Quotes a word for the command tokenizer when it has spaces or quotes.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| !c.is_whitespace() && c != '\'' && c != '"' && c != '\\')
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `dsplay sim --server URL WORDS…`.
pub fn sim(args: &[String]) -> ExitCode {
    let mut server = None;
    let mut words = vec!["sim".to_string()];
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--server" if server.is_none() => {
                i += 1;
                server = args.get(i).cloned();
            }
            s if s.starts_with("--server=") && server.is_none() => {
                server = Some(s["--server=".len()..].to_string())
            }
            word => words.push(quote(word)),
        }
        i += 1;
    }
    let Some(server) = server else {
        eprintln!("error: dsplay sim needs --server URL (the address of dsplay serve)");
        return ExitCode::from(2);
    };
    match dsplay_serve::client::run_sim(&server, &words.join(" ")) {
        Ok(output) => {
            let mut out = std::io::stdout().lock();
            let mut err = std::io::stderr().lock();
            for (to_stdout, text) in &output.chunks {
                let _ = if *to_stdout {
                    out.write_all(text.as_bytes())
                } else {
                    let _ = out.flush();
                    err.write_all(text.as_bytes())
                };
            }
            let _ = out.flush();
            if output.success {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
