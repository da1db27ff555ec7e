//! `dsplay serve`: the simulated cluster behind a Kubernetes API on 127.0.0.1, so the real `kubectl`
//! (or k9s, or any client library) can drive it.
//!
//! Plain HTTP, no authentication: for local use only; the listener binds 127.0.0.1 and nothing else.
//! One [`state::Shared`] (a `Session` behind a mutex) is served by one thread
//! per request (`tiny_http`); watches stream from the store's watch log ([`watch`]).
//!
//! Modules: [`routes`] (URL → resource), [`discovery`] (version, discovery, OpenAPI v3), [`handlers`]
//! (verbs), [`tables`] (Table responses from kubectl's printers), [`patch`] (patch types), [`watch`],
//! [`status`] (error bodies), [`clock`] (realtime / manual), [`kubeconfig`], [`lease`] (node leases), [`proto`] (the protobuf Namespace of `create namespace`),
//! [`client`] (`dsplay sim --server`).

pub mod client;
pub mod clock;
pub mod discovery;
pub mod handlers;
pub mod kubeconfig;
pub mod lease;
pub mod patch;
pub mod proto;
pub mod proto_apps;
pub mod proto_service;
mod proto_wire;
pub mod routes;
pub mod scale;
pub mod state;
pub mod status;
pub mod tables;
pub mod watch;

use clock::ClockMode;
use dsplay_kubectl::{Session, SessionOptions};
use state::Shared;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

/// How `dsplay serve` starts.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// TCP port on 127.0.0.1 (0: any free port).
    pub port: u16,
    /// The cluster's seed and whether it starts empty.
    pub session: SessionOptions,
    /// How virtual time moves.
    pub clock: ClockMode,
}

/// A running server; [`Server::stop`] (or drop) shuts it down.
pub struct Server {
    addr: SocketAddr,
    http: Arc<tiny_http::Server>,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Server {
    /// Binds 127.0.0.1:`port` and starts serving in background threads.
    pub fn start(options: ServeOptions) -> Result<Server, String> {
        let http = tiny_http::Server::http(("127.0.0.1", options.port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| "the listener has no IP address".to_string())?;
        let mut session = Session::new(options.session);
        session.set_file_reader(dsplay_kubectl::read_manifest_file);
        let shared = Arc::new(Shared::new(session, options.clock));
        let http = Arc::new(http);
        let mut threads = Vec::new();
        {
            let http = http.clone();
            let shared = shared.clone();
            threads.push(std::thread::spawn(move || accept_loop(&http, &shared)));
        }
        if let ClockMode::Realtime { speed } = options.clock {
            let shared = shared.clone();
            threads.push(std::thread::spawn(move || {
                clock::run_realtime(&shared, speed)
            }));
        }
        Ok(Server {
            addr,
            http,
            shared,
            threads,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Blocks until the server stops (it runs until the process ends).
    pub fn wait(mut self) {
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }

    /// Stops accepting requests, ends watches and joins the background threads.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.shared.stop();
        self.http.unblock();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn accept_loop(http: &tiny_http::Server, shared: &Arc<Shared>) {
    for request in http.incoming_requests() {
        if shared.stopped() {
            break;
        }
        let shared = shared.clone();
        std::thread::spawn(move || handlers::serve(&shared, request));
    }
}
