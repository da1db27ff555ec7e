//! The pod template block shared by `describe ds` and `rollout history --revision` (`describe.go`
//! `DescribePodTemplate`, `describeContainers`, `describeVolumes`).

use super::{annotations_multiline, labels_multiline, rfc1123z, tolerations_multiline, Describe};
use dsplay_api::types::*;
use k8s_openapi::api::core::v1::{
    Container as CoreContainer, ContainerState, ContainerStatus, Volume,
};

/// `describeContainerPorts` / `describeContainerHostPorts`: `80/TCP, 53/UDP`.
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
            // kubectl v1.32 prints no port name (v1.33 added ` (name)`).
            format!("{port}/{}", p.protocol.as_deref().unwrap_or(""))
        })
        .collect();
    parts.join(", ")
}

pub(super) fn quantity_string(q: &Quantity) -> String {
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

pub(super) fn describe_containers(
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

pub(super) fn describe_volumes(w: &mut Describe, volumes: Option<&Vec<Volume>>, space: &str) {
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
                // Upstream prints the sources' `Optional` pointers with `%v`: `<nil>` when unset
                // (a set one prints as an address there; the value here).
                let optional = |o: Option<bool>| o.map_or("<nil>".to_string(), |b| b.to_string());
                if let Some(s) = &src.secret {
                    w.w(
                        2,
                        &format!(
                            "SecretName:\t{}\n    SecretOptional:\t{}\n",
                            s.name,
                            optional(s.optional)
                        ),
                    );
                } else if src.downward_api.is_some() {
                    w.w(2, "DownwardAPI:\ttrue\n");
                } else if let Some(c) = &src.config_map {
                    w.w(
                        2,
                        &format!(
                            "ConfigMapName:\t{}\n    ConfigMapOptional:\t{}\n",
                            c.name,
                            optional(c.optional)
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

pub(super) fn pod_template_block(w: &mut Describe, template: &PodTemplateSpec) {
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
#[doc(alias = "DescribePodTemplate")]
pub fn describe_pod_template(template: &PodTemplateSpec) -> String {
    let mut w = Describe::new();
    pod_template_block(&mut w, template);
    w.finish()
}

/// The pod template as `rollout history --revision` and `rollout undo --dry-run=client` print it:
/// describe's lines with their raw tabs (no column alignment).
///
/// Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/history.go` `printTemplate`.
pub fn print_template(template: &PodTemplateSpec) -> String {
    let mut w = Describe::new();
    pod_template_block(&mut w, template);
    w.tw.finish_unaligned()
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
        print_template(template)
    )
}
