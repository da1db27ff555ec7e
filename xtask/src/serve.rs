//! `cargo xtask serve`: build `dist/` and serve exactly that folder on 127.0.0.1.
//!
//! A tiny static file server on `std::net` (one thread per connection): enough for a learner's
//! browser and for the e2e tests, with the one MIME type that matters (`application/wasm`, which
//! `WebAssembly.instantiateStreaming` requires).

use crate::{dist, Result};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

/// Builds and serves until interrupted.
pub fn run(port: u16) -> Result {
    let dist = dist::run()?;
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("binding 127.0.0.1:{port}: {e}"))?;
    eprintln!(
        "xtask: serving {} on http://127.0.0.1:{port}/ (Ctrl+C to stop)",
        dist.display()
    );
    for stream in listener.incoming().flatten() {
        let dist = dist.clone();
        std::thread::spawn(move || {
            let _ = handle(stream, &dist);
        });
    }
    Ok(())
}

fn handle(mut stream: TcpStream, dist: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; we do not need any of them.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let (status, content_type, body) = match resolve(dist, target) {
        Some(path) if method == "GET" || method == "HEAD" => match std::fs::read(&path) {
            Ok(body) => ("200 OK", content_type(&path), body),
            Err(_) => ("404 Not Found", "text/plain", b"not found\n".to_vec()),
        },
        Some(_) => (
            "405 Method Not Allowed",
            "text/plain",
            b"method not allowed\n".to_vec(),
        ),
        None => ("404 Not Found", "text/plain", b"not found\n".to_vec()),
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// Maps a request target to a file under `dist`, refusing anything that leaves it.
fn resolve(dist: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let mut file = dist.to_path_buf();
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        if segment == ".." || segment.contains('\\') {
            return None;
        }
        file.push(segment);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_to_leave_dist() {
        let dir = std::env::temp_dir();
        assert_eq!(resolve(&dir, "/../etc/passwd"), None);
        assert_eq!(content_type(Path::new("a/b.wasm")), "application/wasm");
    }
}
