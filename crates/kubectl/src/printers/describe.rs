//! `kubectl describe ds|pod|node` and the shared pod-template block (`describe.go`).
//!
//! Text is produced with tabs exactly where describe.go writes them and aligned by the describe
//! tabwriter (minwidth 0, padding 2), so label/annotation continuation lines and tables line up as
//! kubectl's do.

use super::age::age_since;
use super::events::events_block;
use super::get::node_roles;
use super::table::format_labels;
use super::tabwriter::TabWriter;
use chrono::{DateTime, Utc};
use dsplay_api::quantity::{format_bytes_milli, format_cpu_milli, milli};
use dsplay_api::selector::format_label_selector;
use dsplay_api::types::*;
use k8s_openapi::api::core::v1::{
    Container as CoreContainer, ContainerState, ContainerStatus, Volume,
};
use std::collections::BTreeMap;

/// A describe writer: indentation levels of two spaces, aligned on [`Describe::finish`].
struct Describe {
    tw: TabWriter,
}

impl Describe {
    fn new() -> Self {
        Describe {
            tw: TabWriter::for_describe(),
        }
    }

    fn w(&mut self, level: usize, text: &str) {
        let mut s = "  ".repeat(level);
        s.push_str(text);
        self.tw.write(&s);
    }

    fn events(&mut self, events: &[&Event], now: DateTime<Utc>) {
        let (flush, text) = events_block(events, now);
        if flush {
            self.tw.flush();
        }
        self.tw.write(&text);
    }

    fn finish(self) -> String {
        self.tw.finish()
    }
}

const MAX_ANNOTATION_LEN: usize = 140;

/// `printLabelsMultilineWithIndent(w, "", title, "\t", labels)`.
fn labels_multiline(w: &mut Describe, title: &str, labels: Option<&BTreeMap<String, String>>) {
    w.w(0, &format!("{title}:\t"));
    let labels = labels.cloned().unwrap_or_default();
    if labels.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in labels.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{k}={v}\n"));
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s.to_string()
    }
}

/// `printAnnotationsMultiline`: sorted, last-applied-configuration skipped, long or multi-line
/// values on their own lines (cut at 138 bytes).
fn annotations_multiline(
    w: &mut Describe,
    title: &str,
    annotations: Option<&BTreeMap<String, String>>,
) {
    w.w(0, &format!("{title}:\t"));
    let keys: Vec<(&String, &String)> = annotations
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.as_str() != "kubectl.kubernetes.io/last-applied-configuration")
        .collect();
    if keys.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in keys.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let value = v.strip_suffix('\n').unwrap_or(v);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.w(0, &format!("{k}:\n"));
            for line in value.split('\n') {
                w.w(
                    0,
                    &format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2)),
                );
            }
        } else {
            w.w(0, &format!("{k}: {value}\n"));
        }
    }
}

/// `printTolerationsMultilineWithIndent`: sorted by key; `key=value:Effect op=Exists for Ns`.
pub fn format_toleration(t: &Toleration) -> String {
    let key = t.key.as_deref().unwrap_or("");
    let value = t.value.as_deref().unwrap_or("");
    let effect = t.effect.as_deref().unwrap_or("");
    let mut s = key.to_string();
    if !value.is_empty() {
        s.push_str(&format!("={value}"));
    }
    if !effect.is_empty() {
        s.push_str(&format!(":{effect}"));
    }
    if t.operator.as_deref() == Some("Exists") && value.is_empty() {
        if !key.is_empty() || !effect.is_empty() {
            s.push_str(" op=Exists");
        } else {
            s.push_str("op=Exists");
        }
    }
    if let Some(secs) = t.toleration_seconds {
        s.push_str(&format!(" for {secs}s"));
    }
    s
}

fn tolerations_multiline(w: &mut Describe, title: &str, tolerations: Option<&Vec<Toleration>>) {
    w.w(0, &format!("{title}:\t"));
    let mut tols: Vec<&Toleration> = tolerations.into_iter().flatten().collect();
    if tols.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    tols.sort_by(|a, b| {
        a.key
            .as_deref()
            .unwrap_or("")
            .cmp(b.key.as_deref().unwrap_or(""))
    });
    for (i, t) in tols.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{}\n", format_toleration(t)));
    }
}

fn taints_multiline(w: &mut Describe, title: &str, taints: Option<&Vec<Taint>>) {
    w.w(0, &format!("{title}:\t"));
    let mut taints: Vec<&Taint> = taints.into_iter().flatten().collect();
    if taints.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    taints
        .sort_by(|a, b| format!("{},{}", a.effect, a.key).cmp(&format!("{},{}", b.effect, b.key)));
    for (i, t) in taints.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{}\n", dsplay_api::taints::format_taint(t)));
    }
}

fn rfc1123z(t: &DateTime<Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S %z").to_string()
}

fn ports_string(c: &CoreContainer, host: bool) -> String {
    let parts: Vec<String> = c
        .ports
        .iter()
        .flatten()
        .map(|p| {
            let port = if host {
                p.host_port.unwrap_or(0)
            } else {
                p.container_port
            };
            let mut s = format!("{port}/{}", p.protocol.as_deref().unwrap_or(""));
            if let Some(name) = p.name.as_deref().filter(|n| !n.is_empty()) {
                s.push_str(&format!(" ({name})"));
            }
            s
        })
        .collect();
    parts.join(", ")
}

fn quantity_string(q: &Quantity) -> String {
    q.0.clone()
}

fn describe_state(w: &mut Describe, name: &str, state: Option<&ContainerState>) {
    let state = state.cloned().unwrap_or_default();
    if let Some(r) = &state.running {
        w.w(2, &format!("{name}:\tRunning\n"));
        let started = r
            .started_at
            .as_ref()
            .map(|t| rfc1123z(&t.0))
            .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into());
        w.w(3, &format!("Started:\t{started}\n"));
    } else if let Some(wt) = &state.waiting {
        w.w(2, &format!("{name}:\tWaiting\n"));
        if let Some(r) = wt.reason.as_deref().filter(|r| !r.is_empty()) {
            w.w(3, &format!("Reason:\t{r}\n"));
        }
    } else if let Some(t) = &state.terminated {
        w.w(2, &format!("{name}:\tTerminated\n"));
        if let Some(r) = t.reason.as_deref().filter(|r| !r.is_empty()) {
            w.w(3, &format!("Reason:\t{r}\n"));
        }
        if let Some(m) = t.message.as_deref().filter(|r| !r.is_empty()) {
            w.w(3, &format!("Message:\t{m}\n"));
        }
        w.w(3, &format!("Exit Code:\t{}\n", t.exit_code));
        if let Some(sig) = t.signal.filter(|s| *s > 0) {
            w.w(3, &format!("Signal:\t{sig}\n"));
        }
        let zero = "Mon, 01 Jan 0001 00:00:00 +0000".to_string();
        w.w(
            3,
            &format!(
                "Started:\t{}\n",
                t.started_at
                    .as_ref()
                    .map(|t| rfc1123z(&t.0))
                    .unwrap_or_else(|| zero.clone())
            ),
        );
        w.w(
            3,
            &format!(
                "Finished:\t{}\n",
                t.finished_at
                    .as_ref()
                    .map(|t| rfc1123z(&t.0))
                    .unwrap_or(zero)
            ),
        );
    } else {
        w.w(2, &format!("{name}:\tWaiting\n"));
    }
}

fn describe_containers(
    w: &mut Describe,
    label: &str,
    containers: &[CoreContainer],
    statuses: Option<&Vec<ContainerStatus>>,
    space: &str,
) {
    let none = if containers.is_empty() { " <none>" } else { "" };
    w.w(0, &format!("{space}{label}:{none}\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in containers {
        let status = statuses.and_then(|s| s.iter().find(|s| s.name == c.name));
        w.w(1, &format!("{name_indent}{}:\n", c.name));
        if let Some(s) = status {
            w.w(
                2,
                &format!(
                    "Container ID:\t{}\n",
                    s.container_id.as_deref().unwrap_or("")
                ),
            );
        }
        w.w(
            2,
            &format!("Image:\t{}\n", c.image.as_deref().unwrap_or("")),
        );
        if let Some(s) = status {
            w.w(2, &format!("Image ID:\t{}\n", s.image_id));
        }
        let ports = ports_string(c, false);
        if ports.contains(',') {
            w.w(2, &format!("Ports:\t{ports}\n"));
        } else {
            w.w(
                2,
                &format!(
                    "Port:\t{}\n",
                    if ports.is_empty() { "<none>" } else { &ports }
                ),
            );
        }
        let host_ports = ports_string(c, true);
        if host_ports.contains(',') {
            w.w(2, &format!("Host Ports:\t{host_ports}\n"));
        } else {
            w.w(
                2,
                &format!(
                    "Host Port:\t{}\n",
                    if host_ports.is_empty() {
                        "<none>"
                    } else {
                        &host_ports
                    }
                ),
            );
        }
        if let Some(cmd) = c.command.as_ref().filter(|v| !v.is_empty()) {
            w.w(2, "Command:\n");
            for part in cmd {
                for line in part.split('\n') {
                    w.w(3, &format!("{line}\n"));
                }
            }
        }
        if let Some(args) = c.args.as_ref().filter(|v| !v.is_empty()) {
            w.w(2, "Args:\n");
            for part in args {
                for line in part.split('\n') {
                    w.w(3, &format!("{line}\n"));
                }
            }
        }
        if let Some(s) = status {
            describe_state(w, "State", s.state.as_ref());
            if s.last_state
                .as_ref()
                .and_then(|l| l.terminated.as_ref())
                .is_some()
            {
                describe_state(w, "Last State", s.last_state.as_ref());
            }
            w.w(
                2,
                &format!("Ready:\t{}\n", if s.ready { "True" } else { "False" }),
            );
            w.w(2, &format!("Restart Count:\t{}\n", s.restart_count));
        }
        if let Some(res) = &c.resources {
            for (title, list) in [("Limits", &res.limits), ("Requests", &res.requests)] {
                if let Some(list) = list.as_ref().filter(|l| !l.is_empty()) {
                    w.w(2, &format!("{title}:\n"));
                    for (k, q) in list {
                        w.w(3, &format!("{k}:\t{}\n", quantity_string(q)));
                    }
                }
            }
        }
        for (title, probe) in [
            ("Liveness", &c.liveness_probe),
            ("Readiness", &c.readiness_probe),
            ("Startup", &c.startup_probe),
        ] {
            if let Some(p) = probe {
                w.w(2, &format!("{title}:\t{}\n", describe_probe(p)));
            }
        }
        let env = c.env.clone().unwrap_or_default();
        w.w(
            2,
            &format!(
                "Environment:{}\n",
                if env.is_empty() { "\t<none>" } else { "" }
            ),
        );
        for e in &env {
            match &e.value_from {
                None => {
                    for (i, line) in e.value.as_deref().unwrap_or("").split('\n').enumerate() {
                        if i == 0 {
                            w.w(3, &format!("{}:\t{line}\n", e.name));
                        } else {
                            w.w(3, &format!("\t{line}\n"));
                        }
                    }
                }
                Some(from) => {
                    if let Some(f) = &from.field_ref {
                        w.w(
                            3,
                            &format!(
                                "{}:\t ({}:{})\n",
                                e.name,
                                f.api_version.as_deref().unwrap_or(""),
                                f.field_path
                            ),
                        );
                    } else if let Some(r) = &from.resource_field_ref {
                        w.w(3, &format!("{}:\t ({})\n", e.name, r.resource));
                    } else if let Some(s) = &from.secret_key_ref {
                        w.w(
                            3,
                            &format!(
                                "{}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n",
                                e.name,
                                s.key,
                                s.name,
                                s.optional.unwrap_or(false)
                            ),
                        );
                    } else if let Some(s) = &from.config_map_key_ref {
                        w.w(
                            3,
                            &format!(
                                "{}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n",
                                e.name,
                                s.key,
                                s.name,
                                s.optional.unwrap_or(false)
                            ),
                        );
                    }
                }
            }
        }
        let mut mounts = c.volume_mounts.clone().unwrap_or_default();
        w.w(
            2,
            &format!(
                "Mounts:{}\n",
                if mounts.is_empty() { "\t<none>" } else { "" }
            ),
        );
        mounts.sort_by(|a, b| a.mount_path.cmp(&b.mount_path));
        for m in &mounts {
            let mut flags = vec![if m.read_only == Some(true) {
                "ro".to_string()
            } else {
                "rw".to_string()
            }];
            if let Some(sub) = m.sub_path.as_deref().filter(|s| !s.is_empty()) {
                flags.push(format!("path={sub:?}"));
            }
            w.w(
                3,
                &format!("{} from {} ({})\n", m.mount_path, m.name, flags.join(",")),
            );
        }
    }
}

fn describe_probe(p: &k8s_openapi::api::core::v1::Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        p.initial_delay_seconds.unwrap_or(0),
        p.timeout_seconds.unwrap_or(0),
        p.period_seconds.unwrap_or(0),
        p.success_threshold.unwrap_or(0),
        p.failure_threshold.unwrap_or(0)
    );
    if let Some(e) = &p.exec {
        return format!(
            "exec [{}] {attrs}",
            e.command.clone().unwrap_or_default().join(" ")
        );
    }
    if let Some(h) = &p.http_get {
        let port = dsplay_api::int_or_percent::format(&h.port);
        let scheme = h.scheme.as_deref().unwrap_or("").to_lowercase();
        let host = h.host.as_deref().unwrap_or("");
        return format!(
            "http-get {scheme}://{host}:{port}{} {attrs}",
            h.path.as_deref().unwrap_or("")
        );
    }
    if let Some(t) = &p.tcp_socket {
        return format!(
            "tcp-socket {}:{} {attrs}",
            t.host.as_deref().unwrap_or(""),
            dsplay_api::int_or_percent::format(&t.port)
        );
    }
    if let Some(g) = &p.grpc {
        return format!(
            "grpc <pod>:{} {} {attrs}",
            g.port,
            g.service.as_deref().unwrap_or("")
        );
    }
    format!("unknown {attrs}")
}

fn describe_volumes(w: &mut Describe, volumes: Option<&Vec<Volume>>, space: &str) {
    let volumes: Vec<&Volume> = volumes.into_iter().flatten().collect();
    if volumes.is_empty() {
        w.w(0, &format!("{space}Volumes:\t<none>\n"));
        return;
    }
    w.w(0, &format!("{space}Volumes:\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in volumes {
        w.w(1, &format!("{name_indent}{}:\n", v.name));
        if let Some(h) = &v.host_path {
            w.w(2, &format!(
                "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{}\n",
                h.path,
                h.type_.as_deref().unwrap_or("<none>")
            ));
        } else if let Some(e) = &v.empty_dir {
            let size = e
                .size_limit
                .as_ref()
                .map(quantity_string)
                .filter(|s| !s.is_empty() && s != "0")
                .unwrap_or_else(|| "<unset>".into());
            w.w(2, &format!(
                "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{size}\n",
                e.medium.as_deref().unwrap_or("")
            ));
        } else if let Some(s) = &v.secret {
            w.w(2, &format!(
                "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n",
                s.secret_name.as_deref().unwrap_or(""),
                s.optional.unwrap_or(false)
            ));
        } else if let Some(c) = &v.config_map {
            w.w(2, &format!("Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n", c.name, c.optional.unwrap_or(false)));
        } else if let Some(p) = &v.persistent_volume_claim {
            w.w(2, &format!(
                "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
                p.claim_name,
                p.read_only.unwrap_or(false)
            ));
        } else if let Some(p) = &v.projected {
            w.w(
                2,
                "Type:\tProjected (a volume that contains injected data from multiple sources)\n",
            );
            for src in p.sources.iter().flatten() {
                if let Some(s) = &src.secret {
                    w.w(
                        2,
                        &format!(
                            "SecretName:\t{}\n    Optional:\t{}\n",
                            s.name,
                            s.optional.unwrap_or(false)
                        ),
                    );
                } else if src.downward_api.is_some() {
                    w.w(2, "DownwardAPI:\ttrue\n");
                } else if let Some(c) = &src.config_map {
                    w.w(
                        2,
                        &format!(
                            "ConfigMapName:\t{}\n    Optional:\t{}\n",
                            c.name,
                            c.optional.unwrap_or(false)
                        ),
                    );
                } else if let Some(t) = &src.service_account_token {
                    w.w(
                        2,
                        &format!(
                            "TokenExpirationSeconds:\t{}\n",
                            t.expiration_seconds.unwrap_or(0)
                        ),
                    );
                }
            }
        } else {
            w.w(1, "<unknown>\n");
        }
    }
}

fn pod_template_block(w: &mut Describe, template: &PodTemplateSpec) {
    w.w(0, "Pod Template:\n");
    let meta = template.metadata.clone().unwrap_or_default();
    let spec = template.spec.clone().unwrap_or_default();
    labels_multiline(w, "  Labels", meta.labels.as_ref());
    if meta.annotations.as_ref().is_some_and(|a| !a.is_empty()) {
        annotations_multiline(w, "  Annotations", meta.annotations.as_ref());
    }
    if let Some(sa) = spec
        .service_account_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(1, &format!("Service Account:\t{sa}\n"));
    }
    if let Some(init) = spec.init_containers.as_ref().filter(|v| !v.is_empty()) {
        describe_containers(w, "Init Containers", init, None, "  ");
    }
    describe_containers(w, "Containers", &spec.containers, None, "  ");
    describe_volumes(w, spec.volumes.as_ref(), "  ");
    if let Some(pc) = spec
        .priority_class_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(1, &format!("Priority Class Name:\t{pc}\n"));
    }
    labels_multiline(w, "  Node-Selectors", spec.node_selector.as_ref());
    tolerations_multiline(w, "  Tolerations", spec.tolerations.as_ref());
}

/// `DescribePodTemplate` alone (`Pod Template:` and its block), aligned on its own, as
/// `rollout history --revision=N` prints it.
pub fn describe_pod_template(template: &PodTemplateSpec) -> String {
    let mut w = Describe::new();
    pod_template_block(&mut w, template);
    w.finish()
}

/// `kubectl rollout history ds/NAME --revision=N`: `daemonset.apps/NAME with revision #N`, the
/// template, then a blank line.
pub fn rollout_history_revision(
    ds_name: &str,
    revision: i64,
    template: &PodTemplateSpec,
) -> String {
    format!(
        "daemonset.apps/{ds_name} with revision #{revision}\n{}\n",
        describe_pod_template(template)
    )
}

fn controller_uid(meta: &ObjectMeta) -> Option<&str> {
    meta.owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
        .map(|o| o.uid.as_str())
}

/// `kubectl describe ds NAME`. `pods` are the pods matching the selector (only those controlled by
/// this DaemonSet count in `Pods Status`); `events` are the events whose involvedObject is the DS.
pub fn describe_daemon_set(
    ds: &DaemonSet,
    pods: &[&Pod],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &ds.metadata;
    let spec = ds.spec.clone().unwrap_or_default();
    let status = ds.status.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    w.w(
        0,
        &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")),
    );
    let selector = format_label_selector(Some(&spec.selector));
    w.w(
        0,
        &format!(
            "Selector:\t{}\n",
            if selector == "<none>" { "" } else { &selector }
        ),
    );
    let node_selector = spec
        .template
        .spec
        .as_ref()
        .and_then(|s| s.node_selector.clone())
        .unwrap_or_default();
    w.w(
        0,
        &format!("Node-Selector:\t{}\n", format_labels(&node_selector)),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(
        0,
        &format!(
            "Desired Number of Nodes Scheduled: {}\n",
            status.desired_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Current Number of Nodes Scheduled: {}\n",
            status.current_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Scheduled with Up-to-date Pods: {}\n",
            status.updated_number_scheduled.unwrap_or(0)
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Scheduled with Available Pods: {}\n",
            status.number_available.unwrap_or(0)
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Misscheduled: {}\n",
            status.number_misscheduled
        ),
    );
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for pod in pods {
        if meta.uid.is_some() && controller_uid(&pod.metadata) != meta.uid.as_deref() {
            continue;
        }
        match pod.status.as_ref().and_then(|s| s.phase.as_deref()) {
            Some("Running") => running += 1,
            Some("Pending") => waiting += 1,
            Some("Succeeded") => succeeded += 1,
            Some("Failed") => failed += 1,
            _ => {}
        }
    }
    w.w(0, &format!("Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"));
    pod_template_block(&mut w, &spec.template);
    w.events(events, now);
    w.finish()
}

fn resource_milli(list: Option<&BTreeMap<String, Quantity>>, name: &str) -> i128 {
    list.and_then(|l| l.get(name)).and_then(milli).unwrap_or(0)
}

/// `qos.GetPodQOS`: status.qosClass when set, else computed from cpu/memory requests and limits.
pub fn pod_qos(pod: &Pod) -> String {
    if let Some(q) = pod
        .status
        .as_ref()
        .and_then(|s| s.qos_class.clone())
        .filter(|q| !q.is_empty())
    {
        return q;
    }
    let spec = pod.spec.clone().unwrap_or_default();
    let all: Vec<&CoreContainer> = spec
        .containers
        .iter()
        .chain(spec.init_containers.iter().flatten())
        .collect();
    let mut any = false;
    let mut guaranteed = true;
    for c in &all {
        let res = c.resources.clone().unwrap_or_default();
        let req = res.requests.unwrap_or_default();
        let lim = res.limits.unwrap_or_default();
        for r in ["cpu", "memory"] {
            let l = lim.get(r).and_then(milli).filter(|v| *v != 0);
            let q = req.get(r).and_then(milli).filter(|v| *v != 0);
            if l.is_some() || q.is_some() {
                any = true;
            }
            match (q, l) {
                (_, None) => guaranteed = false,
                (Some(q), Some(l)) if q != l => guaranteed = false,
                _ => {}
            }
        }
    }
    if !any {
        "BestEffort".into()
    } else if guaranteed {
        "Guaranteed".into()
    } else {
        "Burstable".into()
    }
}

/// `kubectl describe pod NAME`.
pub fn describe_pod(pod: &Pod, events: &[&Event], now: DateTime<Utc>) -> String {
    let mut w = Describe::new();
    let meta = &pod.metadata;
    let spec = pod.spec.clone().unwrap_or_default();
    let status = pod.status.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    w.w(
        0,
        &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")),
    );
    if let Some(p) = spec.priority {
        w.w(0, &format!("Priority:\t{p}\n"));
    }
    if let Some(pc) = spec
        .priority_class_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(0, &format!("Priority Class Name:\t{pc}\n"));
    }
    if let Some(sa) = spec
        .service_account_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(0, &format!("Service Account:\t{sa}\n"));
    }
    match spec.node_name.as_deref().filter(|s| !s.is_empty()) {
        None => w.w(0, "Node:\t<none>\n"),
        Some(n) => w.w(
            0,
            &format!("Node:\t{n}/{}\n", status.host_ip.as_deref().unwrap_or("")),
        ),
    }
    if let Some(t) = &status.start_time {
        w.w(0, &format!("Start Time:\t{}\n", rfc1123z(&t.0)));
    }
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    let phase = status.phase.clone().unwrap_or_default();
    if let (Some(del), false) = (
        &meta.deletion_timestamp,
        phase == "Failed" || phase == "Succeeded",
    ) {
        w.w(
            0,
            &format!(
                "Status:\tTerminating (lasts {})\n",
                age_since(Some(&del.0), now)
            ),
        );
        w.w(
            0,
            &format!(
                "Termination Grace Period:\t{}s\n",
                meta.deletion_grace_period_seconds.unwrap_or(0)
            ),
        );
    } else {
        w.w(0, &format!("Status:\t{phase}\n"));
    }
    if let Some(r) = status.reason.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("Reason:\t{r}\n"));
    }
    if let Some(m) = status.message.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("Message:\t{m}\n"));
    }
    w.w(
        0,
        &format!("IP:\t{}\n", status.pod_ip.as_deref().unwrap_or("")),
    );
    let ips = status.pod_ips.clone().unwrap_or_default();
    if ips.is_empty() {
        w.w(0, "IPs:\t<none>\n");
    } else {
        w.w(0, "IPs:\n");
        for ip in &ips {
            w.w(1, &format!("IP:\t{}\n", ip.ip));
        }
    }
    if let Some(o) = meta
        .owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
    {
        w.w(0, &format!("Controlled By:\t{}/{}\n", o.kind, o.name));
    }
    if let Some(n) = status
        .nominated_node_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(0, &format!("NominatedNodeName:\t{n}\n"));
    }
    if let Some(init) = spec.init_containers.as_ref().filter(|v| !v.is_empty()) {
        describe_containers(
            &mut w,
            "Init Containers",
            init,
            status.init_container_statuses.as_ref(),
            "",
        );
    }
    describe_containers(
        &mut w,
        "Containers",
        &spec.containers,
        status.container_statuses.as_ref(),
        "",
    );
    let conditions = status.conditions.clone().unwrap_or_default();
    if let Some(gates) = spec.readiness_gates.as_ref().filter(|g| !g.is_empty()) {
        w.w(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let st = conditions
                .iter()
                .find(|c| c.type_ == g.condition_type)
                .map(|c| c.status.clone())
                .unwrap_or_else(|| "<none>".into());
            w.w(1, &format!("{} \t{} \n", g.condition_type, st));
        }
    }
    if !conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\n");
        for c in &conditions {
            w.w(1, &format!("{} \t{} \n", c.type_, c.status));
        }
    }
    describe_volumes(&mut w, spec.volumes.as_ref(), "");
    w.w(0, &format!("QoS Class:\t{}\n", pod_qos(pod)));
    labels_multiline(&mut w, "Node-Selectors", spec.node_selector.as_ref());
    tolerations_multiline(&mut w, "Tolerations", spec.tolerations.as_ref());
    w.events(events, now);
    w.finish()
}

fn percent(part: i128, total: i128) -> i128 {
    if total == 0 {
        0
    } else {
        (part as f64 / total as f64 * 100.0) as i128
    }
}

fn pod_requests_limits(pod: &Pod) -> (BTreeMap<String, i128>, BTreeMap<String, i128>) {
    let spec = pod.spec.clone().unwrap_or_default();
    let mut req: BTreeMap<String, i128> = BTreeMap::new();
    let mut lim: BTreeMap<String, i128> = BTreeMap::new();
    for c in &spec.containers {
        let res = c.resources.clone().unwrap_or_default();
        for (k, q) in res.requests.iter().flatten() {
            *req.entry(k.clone()).or_default() += milli(q).unwrap_or(0);
        }
        for (k, q) in res.limits.iter().flatten() {
            *lim.entry(k.clone()).or_default() += milli(q).unwrap_or(0);
        }
    }
    // Init containers run one at a time: the effective value is the max of each and the sum.
    for c in spec.init_containers.iter().flatten() {
        let res = c.resources.clone().unwrap_or_default();
        for (k, q) in res.requests.iter().flatten() {
            let v = milli(q).unwrap_or(0);
            let e = req.entry(k.clone()).or_default();
            *e = (*e).max(v);
        }
        for (k, q) in res.limits.iter().flatten() {
            let v = milli(q).unwrap_or(0);
            let e = lim.entry(k.clone()).or_default();
            *e = (*e).max(v);
        }
    }
    (req, lim)
}

fn fmt_resource(name: &str, m: i128) -> String {
    if name == "cpu" {
        format_cpu_milli(m)
    } else {
        format_bytes_milli(m)
    }
}

/// `kubectl describe node NAME`. `pods_on_node` are the pods bound to the node (terminal ones are
/// skipped); `events` are the node's events (by uid and by name).
pub fn describe_node(
    node: &Node,
    pods_on_node: &[&Pod],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &node.metadata;
    let spec = node.spec.clone().unwrap_or_default();
    let status = node.status.clone().unwrap_or_default();
    let name = meta.name.clone().unwrap_or_default();
    w.w(0, &format!("Name:\t{name}\n"));
    let roles = node_roles(node);
    w.w(
        0,
        &format!(
            "Roles:\t{}\n",
            if roles.is_empty() {
                "<none>".to_string()
            } else {
                roles.join(",")
            }
        ),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    let created = meta
        .creation_timestamp
        .as_ref()
        .map(|t| rfc1123z(&t.0))
        .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into());
    w.w(0, &format!("CreationTimestamp:\t{created}\n"));
    taints_multiline(&mut w, "Taints", spec.taints.as_ref());
    w.w(
        0,
        &format!("Unschedulable:\t{}\n", spec.unschedulable.unwrap_or(false)),
    );
    // The simulator has no Lease objects: show the one the kubelet would hold, renewed at the last
    // heartbeat of the Ready condition.
    w.w(0, "Lease:\n");
    w.w(1, &format!("HolderIdentity:\t{name}\n"));
    w.w(1, "AcquireTime:\t<unset>\n");
    let conditions = status.conditions.clone().unwrap_or_default();
    let renew = conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .and_then(|c| c.last_heartbeat_time.as_ref())
        .map(|t| rfc1123z(&t.0))
        .unwrap_or_else(|| "<unset>".into());
    w.w(1, &format!("RenewTime:\t{renew}\n"));
    if !conditions.is_empty() {
        w.w(
            0,
            "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n",
        );
        w.w(
            1,
            "----\t------\t-----------------\t------------------\t------\t-------\n",
        );
        let zero = "Mon, 01 Jan 0001 00:00:00 +0000".to_string();
        for c in &conditions {
            w.w(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    c.type_,
                    c.status,
                    c.last_heartbeat_time
                        .as_ref()
                        .map(|t| rfc1123z(&t.0))
                        .unwrap_or_else(|| zero.clone()),
                    c.last_transition_time
                        .as_ref()
                        .map(|t| rfc1123z(&t.0))
                        .unwrap_or_else(|| zero.clone()),
                    c.reason.as_deref().unwrap_or(""),
                    c.message.as_deref().unwrap_or("")
                ),
            );
        }
    }
    w.w(0, "Addresses:\n");
    for a in status.addresses.iter().flatten() {
        w.w(1, &format!("{}:\t{}\n", a.type_, a.address));
    }
    for (title, list) in [
        ("Capacity", &status.capacity),
        ("Allocatable", &status.allocatable),
    ] {
        if let Some(list) = list.as_ref().filter(|l| !l.is_empty()) {
            w.w(0, &format!("{title}:\n"));
            for (k, q) in list {
                w.w(0, &format!("  {k}:\t{}\n", quantity_string(q)));
            }
        }
    }
    let info = status.node_info.clone().unwrap_or_default();
    w.w(0, "System Info:\n");
    for (label, value) in [
        ("Machine ID", &info.machine_id),
        ("System UUID", &info.system_uuid),
        ("Boot ID", &info.boot_id),
        ("Kernel Version", &info.kernel_version),
        ("OS Image", &info.os_image),
        ("Operating System", &info.operating_system),
        ("Architecture", &info.architecture),
        ("Container Runtime Version", &info.container_runtime_version),
        ("Kubelet Version", &info.kubelet_version),
    ] {
        w.w(0, &format!("  {label}:\t{value}\n"));
    }
    if let Some(cidr) = spec.pod_cidr.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("PodCIDR:\t{cidr}\n"));
    }
    if let Some(cidrs) = spec.pod_cidrs.as_ref().filter(|v| !v.is_empty()) {
        w.w(0, &format!("PodCIDRs:\t{}\n", cidrs.join(",")));
    }
    if let Some(p) = spec.provider_id.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("ProviderID:\t{p}\n"));
    }
    // Non-terminated pods and allocated resources.
    let mut pods: Vec<&Pod> = pods_on_node
        .iter()
        .copied()
        .filter(|p| {
            !matches!(
                p.status.as_ref().and_then(|s| s.phase.as_deref()),
                Some("Succeeded") | Some("Failed")
            )
        })
        .collect();
    pods.sort_by(|a, b| {
        (a.metadata.namespace.as_deref(), a.metadata.name.as_deref())
            .cmp(&(b.metadata.namespace.as_deref(), b.metadata.name.as_deref()))
    });
    let alloc = status
        .allocatable
        .clone()
        .filter(|a| !a.is_empty())
        .or_else(|| status.capacity.clone())
        .unwrap_or_default();
    let alloc_cpu = resource_milli(Some(&alloc), "cpu");
    let alloc_mem = resource_milli(Some(&alloc), "memory");
    w.w(
        0,
        &format!("Non-terminated Pods:\t({} in total)\n", pods.len()),
    );
    w.w(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n",
    );
    w.w(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n",
    );
    let mut total_req: BTreeMap<String, i128> = BTreeMap::new();
    let mut total_lim: BTreeMap<String, i128> = BTreeMap::new();
    for pod in &pods {
        let (req, lim) = pod_requests_limits(pod);
        let g = |m: &BTreeMap<String, i128>, k: &str| m.get(k).copied().unwrap_or(0);
        w.w(
            1,
            &format!(
                "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                pod.metadata.namespace.as_deref().unwrap_or(""),
                pod.metadata.name.as_deref().unwrap_or(""),
                format_cpu_milli(g(&req, "cpu")),
                percent(g(&req, "cpu"), alloc_cpu),
                format_cpu_milli(g(&lim, "cpu")),
                percent(g(&lim, "cpu"), alloc_cpu),
                format_bytes_milli(g(&req, "memory")),
                percent(g(&req, "memory"), alloc_mem),
                format_bytes_milli(g(&lim, "memory")),
                percent(g(&lim, "memory"), alloc_mem),
                age_since(pod.metadata.creation_timestamp.as_ref().map(|t| &t.0), now)
            ),
        );
        for (k, v) in req {
            *total_req.entry(k).or_default() += v;
        }
        for (k, v) in lim {
            *total_lim.entry(k).or_default() += v;
        }
    }
    w.w(
        0,
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    w.w(1, "Resource\tRequests\tLimits\n");
    w.w(1, "--------\t--------\t------\n");
    let g = |m: &BTreeMap<String, i128>, k: &str| m.get(k).copied().unwrap_or(0);
    for r in ["cpu", "memory", "ephemeral-storage"] {
        let a = resource_milli(Some(&alloc), r);
        w.w(
            1,
            &format!(
                "{r}\t{} ({}%)\t{} ({}%)\n",
                fmt_resource(r, g(&total_req, r)),
                percent(g(&total_req, r), a),
                fmt_resource(r, g(&total_lim, r)),
                percent(g(&total_lim, r), a)
            ),
        );
    }
    for (k, _) in alloc.iter().filter(|(k, _)| k.starts_with("hugepages-")) {
        let a = resource_milli(Some(&alloc), k);
        w.w(
            1,
            &format!(
                "{k}\t{} ({}%)\t{} ({}%)\n",
                fmt_resource(k, g(&total_req, k)),
                percent(g(&total_req, k), a),
                fmt_resource(k, g(&total_lim, k)),
                percent(g(&total_lim, k), a)
            ),
        );
    }
    let standard = ["cpu", "memory", "ephemeral-storage", "pods", "storage"];
    for (k, _) in alloc.iter().filter(|(k, _)| {
        !k.starts_with("hugepages-")
            && !standard.contains(&k.as_str())
            && !k.starts_with("requests.")
            && !k.starts_with("limits.")
    }) {
        w.w(
            1,
            &format!(
                "{k}\t{}\t{}\n",
                g(&total_req, k) / 1000,
                g(&total_lim, k) / 1000
            ),
        );
    }
    w.events(events, now);
    w.finish()
}
