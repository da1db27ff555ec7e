//! The server over real HTTP on 127.0.0.1 (port chosen by the OS), as a Kubernetes client sees it.

use dsplay_kubectl::SessionOptions;
use dsplay_serve::clock::ClockMode;
use dsplay_serve::{ServeOptions, Server};
use serde_json::Value;
use std::io::{BufRead, BufReader};

fn start() -> Server {
    Server::start(ServeOptions {
        port: 0,
        session: SessionOptions::default(),
        clock: ClockMode::Manual,
    })
    .expect("server starts")
}

fn get(server: &Server, path: &str, accept: &str) -> (u16, String, Value) {
    let response = match ureq::get(&format!("{}{path}", server.url()))
        .set("Accept", accept)
        .call()
    {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{path}: {e}"),
    };
    let code = response.status();
    let content_type = response.header("Content-Type").unwrap_or("").to_string();
    (code, content_type, response.into_json().expect("json body"))
}

const DEMO: &str = r#"{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"demo"},
"spec":{"selector":{"matchLabels":{"app":"demo"}},"template":{"metadata":{"labels":{"app":"demo"}},
"spec":{"containers":[{"name":"demo","image":"busybox"}]}}}}"#;

#[test]
fn discovery_version_and_tables_for_kubectl_get() {
    let server = start();
    let (_, _, version) = get(&server, "/version", "application/json");
    assert_eq!(version["minor"], "32");
    let (_, content_type, apis) = get(
        &server,
        "/apis",
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
    );
    assert_eq!(
        content_type,
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
    );
    assert_eq!(apis["kind"], "APIGroupDiscoveryList");
    let (_, _, table) = get(
        &server,
        "/apis/apps/v1/namespaces/kube-system/daemonsets",
        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
    );
    assert_eq!(table["kind"], "Table");
    assert_eq!(table["columnDefinitions"][1]["name"], "Desired");
    assert_eq!(table["columnDefinitions"][8]["priority"], 1);
    assert_eq!(table["rows"][0]["cells"][0], "kindnet");
    assert_eq!(table["rows"][0]["cells"][1], "3");
    let (code, _, status) = get(
        &server,
        "/apis/apps/v1/namespaces/default/daemonsets/nope",
        "application/json",
    );
    assert_eq!(code, 404);
    assert_eq!(status["message"], "daemonsets.apps \"nope\" not found");
    let (code, _, status) = get(
        &server,
        "/api/v1/pods?fieldSelector=spec.bogus%3Dx",
        "application/json",
    );
    assert_eq!(
        (code, status["message"].as_str()),
        (400, Some("field label not supported: spec.bogus"))
    );
    let (code, _, namespace) = get(&server, "/api/v1/namespaces/default", "application/json");
    assert_eq!((code, namespace["kind"].as_str()), (200, Some("Namespace")));
    server.stop();
}

#[test]
fn create_patch_sim_and_a_watch_that_drives_the_manual_clock() {
    let server = start();
    let url = server.url();
    let collection = format!("{url}/apis/apps/v1/namespaces/default/daemonsets");
    let created = ureq::post(&collection)
        .set("Content-Type", "application/json")
        .send_string(DEMO)
        .expect("created");
    assert_eq!(created.status(), 201);
    let again = ureq::post(&collection).send_string(DEMO);
    assert!(matches!(again, Err(ureq::Error::Status(409, _))));
    let strict = ureq::post(&format!("{collection}?fieldValidation=Strict&dryRun=All"))
        .send_string(&DEMO.replace("\"name\":\"demo\"}", "\"name\":\"x\",\"bogus\":1}"));
    let Err(ureq::Error::Status(400, body)) = strict else {
        panic!("strict validation rejects unknown fields")
    };
    let body: Value = body.into_json().unwrap();
    assert!(body["message"]
        .as_str()
        .unwrap()
        .contains("strict decoding error: unknown field \"metadata.bogus\""));
    let output = dsplay_serve::client::run_sim(&url, "sim settle").expect("sim runs");
    assert!(output.success);
    let patched: Value = ureq::request("PATCH", &format!("{collection}/demo"))
        .set("Content-Type", "application/strategic-merge-patch+json")
        .send_string(
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"demo","image":"busybox:2"}]}}}}"#,
        )
        .expect("patched")
        .into_json()
        .unwrap();
    assert_eq!(
        patched["spec"]["template"]["spec"]["containers"][0]["image"],
        "busybox:2"
    );
    assert_eq!(patched["metadata"]["generation"], 2);
    let before = dsplay_serve::client::run_sim(&url, "sim now").unwrap();
    // rollout status's watch: the manual clock moves until the rollout is done, then stops.
    let watch = ureq::get(&format!(
        "{collection}?watch=true&fieldSelector=metadata.name%3Ddemo"
    ))
    .call()
    .expect("watch");
    let mut lines = BufReader::new(watch.into_reader()).lines();
    let first: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(first["type"], "ADDED");
    assert_eq!(first["object"]["kind"], "DaemonSet");
    assert_eq!(first["object"]["apiVersion"], "apps/v1");
    let done = lines.any(|line| {
        let event: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let status = &event["object"]["status"];
        status["updatedNumberScheduled"] == 2 && status["numberAvailable"] == 2
    });
    assert!(done, "the watch saw the rollout finish");
    let after = dsplay_serve::client::run_sim(&url, "sim now").unwrap();
    assert_ne!(before, after, "the waiting watch moved virtual time");
    assert!(dsplay_serve::client::run_sim(&url, "kubectl get pods").is_err());
    server.stop();
}

#[test]
fn a_satisfied_watch_never_moves_the_clock_again() {
    let server = start();
    let url = server.url();
    let collection = format!("{url}/apis/apps/v1/namespaces/default/daemonsets");
    ureq::post(&collection).send_string(DEMO).expect("created");
    let watch = ureq::get(&format!(
        "{collection}?watch=true&fieldSelector=metadata.name%3Ddemo"
    ))
    .call()
    .expect("watch");
    let mut lines = BufReader::new(watch.into_reader()).lines();
    assert!(lines.any(|line| {
        let event: Value = serde_json::from_str(&line.unwrap()).unwrap();
        event["object"]["status"]["numberAvailable"] == 2
    }));
    // The client keeps the stream open but is satisfied; a new template makes the DaemonSet
    // unfinished again, and the clock must stay where it is.
    let before = dsplay_serve::client::run_sim(&url, "sim now").unwrap();
    ureq::request("PATCH", &format!("{collection}/demo"))
        .set("Content-Type", "application/merge-patch+json")
        .send_string(r#"{"spec":{"template":{"metadata":{"labels":{"app":"demo","v":"2"}}}}}"#)
        .expect("patched");
    std::thread::sleep(std::time::Duration::from_millis(600));
    let after = dsplay_serve::client::run_sim(&url, "sim now").unwrap();
    assert_eq!(before, after);
    server.stop();
}

#[test]
fn a_watch_sees_every_instant_of_a_clock_move() {
    // Upstream: a watch (`apiserver/pkg/storage/cacher`) delivers every write, so a rolled pod is
    // seen Terminating (deletionTimestamp set) before it is DELETED, even when one `sim settle`
    // passes through all of it.
    let server = start();
    let url = server.url();
    let daemon_sets = format!("{url}/apis/apps/v1/namespaces/default/daemonsets");
    ureq::post(&daemon_sets).send_string(DEMO).expect("created");
    dsplay_serve::client::run_sim(&url, "sim settle").expect("settled");
    let watch = ureq::get(&format!(
        "{url}/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3Ddemo&timeoutSeconds=60"
    ))
    .call()
    .expect("watch");
    let mut lines = BufReader::new(watch.into_reader()).lines();
    ureq::request("PATCH", &format!("{daemon_sets}/demo"))
        .set("Content-Type", "application/merge-patch+json")
        .send_string(r#"{"spec":{"template":{"metadata":{"labels":{"app":"demo","v":"2"}}}}}"#)
        .expect("patched");
    dsplay_serve::client::run_sim(&url, "sim settle").expect("settled");
    let mut terminating = Vec::new();
    let deleted = loop {
        let event: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        let name = event["object"]["metadata"]["name"]
            .as_str()
            .unwrap()
            .to_string();
        match event["type"].as_str().unwrap() {
            "DELETED" => break name,
            "MODIFIED" if !event["object"]["metadata"]["deletionTimestamp"].is_null() => {
                terminating.push(name)
            }
            _ => {}
        }
    };
    assert!(
        terminating.contains(&deleted),
        "{deleted} was deleted without a Terminating event first (saw {terminating:?})"
    );
    server.stop();
}

/// `pods/NAME/log` answers an empty text log for a running container and the kubelet's refusal
/// for a missing previous one; a subresource a kind lacks (`daemonsets/x/scale`) is a 404.
#[test]
fn pod_logs_and_missing_subresources() {
    let server = start();
    let (_, _, pods) = get(
        &server,
        "/api/v1/namespaces/kube-system/pods",
        "application/json",
    );
    let name = pods["items"][0]["metadata"]["name"]
        .as_str()
        .expect("a kube-system pod")
        .to_string();
    let log = ureq::get(&format!(
        "{}/api/v1/namespaces/kube-system/pods/{name}/log",
        server.url()
    ))
    .call()
    .expect("log");
    assert_eq!(log.status(), 200);
    assert_eq!(log.into_string().expect("text"), "");
    let (code, _, status) = get(
        &server,
        &format!("/api/v1/namespaces/kube-system/pods/{name}/log?previous=true"),
        "application/json",
    );
    assert_eq!(code, 400);
    assert!(status["message"]
        .as_str()
        .unwrap_or_default()
        .starts_with("previous terminated container"));
    let (code, _, status) = get(
        &server,
        "/apis/apps/v1/namespaces/kube-system/daemonsets/kindnet/scale",
        "application/json",
    );
    assert_eq!(code, 404);
    assert_eq!(
        status["message"],
        "the server could not find the requested resource"
    );
}

#[test]
fn a_namespace_has_empty_quota_and_limit_range_lists_for_describe() {
    let server = start();
    for (plural, kind) in [
        ("resourcequotas", "ResourceQuotaList"),
        ("limitranges", "LimitRangeList"),
    ] {
        let (code, _, list) = get(
            &server,
            &format!("/api/v1/namespaces/default/{plural}"),
            "application/json",
        );
        assert_eq!(code, 200, "{plural}");
        assert_eq!(list["kind"], kind);
        assert_eq!(list["items"], serde_json::json!([]));
    }
    let (code, _, _) = get(
        &server,
        "/api/v1/namespaces/default/secrets",
        "application/json",
    );
    assert_eq!(code, 404);
}
