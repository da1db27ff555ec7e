//! `--help`/`-h`, `kubectl help [COMMAND]`, `help` and `sim help`: usage texts as data. Each kubectl
//! command's first line and `Usage:` line are kubectl v1.32's own (facts of the real client); the
//! examples are ours, about DaemonSets and what the playground supports.

/// One command's help.
struct Help {
    /// The words after `kubectl` (`"rollout status"`).
    path: &'static str,
    /// kubectl's one-line description.
    short: &'static str,
    /// kubectl's usage line (without `kubectl `).
    usage: &'static str,
    /// Example commands, each after a `# comment` line.
    examples: &'static [(&'static str, &'static str)],
}

const fn help(
    path: &'static str,
    short: &'static str,
    usage: &'static str,
    examples: &'static [(&'static str, &'static str)],
) -> Help {
    Help {
        path,
        short,
        usage,
        examples,
    }
}

/// The kubectl commands the playground runs.
const KUBECTL: &[Help] = &[
    help("get", "Display one or many resources.", "get [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]",
        &[("List every DaemonSet in every namespace", "kubectl get ds -A"),
          ("List pods with the node each runs on", "kubectl get pods -o wide"),
          ("Watch the pods of the demo DaemonSet", "kubectl get pods -l app=demo -w")]),
    help("describe", "Show details of a specific resource or group of resources.", "describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME) [options]",
        &[("Describe a DaemonSet, its events included", "kubectl describe ds demo"),
          ("Describe a node: taints, conditions, pods", "kubectl describe node kind-worker")]),
    help("apply", "Apply a configuration to a resource by file name or stdin.", "apply (-f FILENAME | -k DIRECTORY) [options]",
        &[("Apply a manifest typed into the terminal", "kubectl apply -f - <<EOF")]),
    help("create", "Create a resource from a file or from stdin.", "create -f FILENAME [options]",
        &[("Create a namespace", "kubectl create namespace monitoring")]),
    help("replace", "Replace a resource by file name or stdin.", "replace -f FILENAME [options]", &[]),
    help("delete", "Delete resources by file names, stdin, resources and names, or by resources and label selector.", "delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)]) [options]",
        &[("Delete a DaemonSet and its pods", "kubectl delete ds demo"),
          ("Delete one pod: the controller makes a new one", "kubectl delete pod -l app=demo")]),
    help("label", "Update the labels on a resource.", "label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]",
        &[("Label a node so a nodeSelector picks it", "kubectl label node kind-worker disk=ssd"),
          ("Remove the label", "kubectl label node kind-worker disk-")]),
    help("annotate", "Update the annotations on one or more resources.", "annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]", &[]),
    help("taint", "Update the taints on one or more nodes.", "taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N [options]",
        &[("Keep pods without a toleration off a node", "kubectl taint nodes kind-worker gpu=true:NoSchedule"),
          ("Remove the taint", "kubectl taint nodes kind-worker gpu=true:NoSchedule-")]),
    help("cordon", "Mark node as unschedulable.", "cordon NODE [options]",
        &[("Cordon a node (DaemonSet pods tolerate it)", "kubectl cordon kind-worker")]),
    help("uncordon", "Mark node as schedulable.", "uncordon NODE [options]", &[]),
    help("drain", "Drain node in preparation for maintenance.", "drain NODE [options]",
        &[("Drain a node, leaving its DaemonSet pods", "kubectl drain kind-worker --ignore-daemonsets")]),
    help("set", "Configure application resources.", "set SUBCOMMAND [options]", &[]),
    help("set image", "Update existing container image(s) of resources.", "set image (-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N [options]",
        &[("Start a rolling update of the demo DaemonSet", "kubectl set image ds/demo demo=busybox:1.36")]),
    help("patch", "Update fields of a resource using strategic merge patch, a JSON merge patch, or a JSON patch.", "patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE] [options]",
        &[("Let one more node update at a time", "kubectl patch ds demo -p '{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"maxUnavailable\":2}}}}'")]),
    help("rollout", "Manage the rollout of one or many resources.", "rollout SUBCOMMAND [options]", &[]),
    help("rollout status", "Show the status of the rollout.", "rollout status (TYPE NAME | TYPE/NAME) [flags] [options]",
        &[("Wait for the demo rollout to finish", "kubectl rollout status ds/demo")]),
    help("rollout history", "View previous rollout revisions and configurations.", "rollout history (TYPE NAME | TYPE/NAME) [flags] [options]", &[]),
    help("rollout undo", "Roll back to a previous rollout.", "rollout undo (TYPE NAME | TYPE/NAME) [flags] [options]", &[]),
    help("rollout restart", "Restart a resource.", "rollout restart RESOURCE [options]", &[]),
    help("rollout pause", "Mark the provided resource as paused.", "rollout pause RESOURCE [options]", &[]),
    help("rollout resume", "Resume a paused resource.", "rollout resume RESOURCE [options]", &[]),
    help("expose", "Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service.", "expose (-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type] [options]",
        &[("Put a Service in front of the pod web, port 80 to its 8080", "kubectl expose pod web --port=80 --target-port=8080")]),
    help("run", "Create and run a particular image in a pod.", "run NAME --image=image [--env=\"key=value\"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...] [options]", &[]),
    help("wait", "Experimental: Wait for a specific condition on one or many resources.", "wait ([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | --all)]) [--for=create|--for=delete|--for condition=available|--for=jsonpath='{}'[=value]] [options]", &[]),
    help("version", "Print the client and server version information for the current context.", "version [flags] [options]", &[]),
    help("api-resources", "Print the supported API resources on the server.", "api-resources [flags] [options]", &[]),
    help("config", "Modify kubeconfig files using subcommands like \"kubectl config set current-context my-context\".", "config SUBCOMMAND [options]", &[]),
    help("config current-context", "Display the current-context.", "config current-context [flags] [options]", &[]),
    help("config get-contexts", "Display one or many contexts from the kubeconfig file.", "config get-contexts [(-o|--output=)name)] [options]", &[]),
    help("config view", "Display merged kubeconfig settings or a specified kubeconfig file.", "config view [flags] [options]", &[]),
    help("config set-context", "Set a context entry in kubeconfig.", "config set-context [NAME | --current] [--cluster=cluster_nickname] [--user=user_nickname] [--namespace=namespace] [options]",
        &[("Make every command work in kube-system", "kubectl config set-context --current --namespace kube-system")]),
];

/// The `sim` commands (ours): (usage, what it does).
pub(crate) const SIM: &[(&str, &str)] = &[
    (
        "sim advance DURATION",
        "Move the clock forward (500ms, 30s, 2m)",
    ),
    ("sim now", "Print the virtual time"),
    (
        "sim settle [--max DURATION]",
        "Run the clock until nothing is pending",
    ),
    (
        "sim node add NAME [--labels K=V,…] [--taints K=V:EFFECT,…]",
        "Add a node",
    ),
    (
        "sim node fail|recover NAME",
        "Stop or restart a node's kubelet",
    ),
    (
        "sim node condition NAME TYPE=STATUS",
        "Set a node condition",
    ),
    (
        "sim image IMAGE [--pull ok|fail] [--start DURATION] [--ready ok|never] [--crash] [--ignore-sigterm] [--log TEXT]",
        "How an image behaves",
    ),
    (
        "sim explain ds/NAME [NODE]",
        "Why the DaemonSet does or does not run a pod on each node",
    ),
    (
        "sim rollout ds/NAME",
        "A rolling update's budgets, old and new pods, and why it is stuck",
    ),
    (
        "sim reset [--empty] [--seed N]",
        "Start again with a fresh cluster",
    ),
    ("sim seed N", "Reseed the random choices"),
    (
        "sim curl [--from node/NAME|pod/NAME] URL",
        "Which pod answers an HTTP request (Services, node and pod IPs)",
    ),
];

/// The `sim` subcommand names, for messages listing them.
pub(crate) const SIM_COMMANDS: &str =
    "advance, now, settle, node, image, explain, rollout, reset, seed, curl, help";

/// `--help` or `-h` among the words (before a `--`).
pub(crate) fn asks_for_help(words: &[String]) -> bool {
    words
        .iter()
        .take_while(|w| *w != "--")
        .any(|w| w == "--help" || w == "-h")
}

/// The help of `kubectl PATH…` for the words after `kubectl` (flags ignored; the longest known
/// command path wins, so `get ds --help` is `get`'s help), or None for an unknown command.
pub(crate) fn kubectl_command(words: &[String]) -> Option<String> {
    let path: Vec<&str> = words
        .iter()
        .take_while(|w| *w != "--")
        .filter(|w| !w.starts_with('-'))
        .map(String::as_str)
        .collect();
    let found = (1..=path.len().min(2))
        .rev()
        .find_map(|n| KUBECTL.iter().find(|h| h.path == path[..n].join(" ")))?;
    Some(render(found))
}

/// What a parent's `Available Commands:` says of a subcommand: cobra's `Short`, which is the
/// first line of the command's own help without the full stop, except where kubectl words the
/// two differently.
fn listed_short(h: &Help) -> &'static str {
    match h.path {
        "rollout history" => "View rollout history",
        "rollout undo" => "Undo a previous rollout",
        "set image" => "Update the image of a pod template",
        "config get-contexts" => "Describe one or many contexts",
        _ => h.short.trim_end_matches('.'),
    }
}

fn render(h: &Help) -> String {
    let mut text = format!("{}\n", h.short);
    let subcommands: Vec<&Help> = KUBECTL
        .iter()
        .filter(|s| {
            s.path
                .strip_prefix(h.path)
                .is_some_and(|rest| rest.starts_with(' '))
        })
        .collect();
    if !subcommands.is_empty() {
        text.push_str("\nAvailable Commands:\n");
        let mut listed: Vec<(&str, &str)> = subcommands
            .iter()
            .map(|s| (&s.path[h.path.len() + 1..], listed_short(s)))
            .collect();
        listed.sort();
        // Cobra pads names to the longest (at least 11), then two spaces and one more.
        let width = listed
            .iter()
            .map(|(n, _)| n.len())
            .max()
            .unwrap_or(0)
            .max(11)
            + 2;
        for (name, short) in listed {
            text.push_str(&format!("  {name:<width$} {short}\n"));
        }
    }
    if !h.examples.is_empty() {
        text.push_str("\nExamples:\n");
        let examples: Vec<String> = h
            .examples
            .iter()
            .map(|(what, command)| format!("  # {what}\n  {command}\n"))
            .collect();
        text.push_str(&examples.join("  \n"));
    }
    text.push_str(&format!("\nUsage:\n  kubectl {}\n\n", h.usage));
    text.push_str("Use \"kubectl options\" for a list of global command-line options (applies to all commands).");
    text
}

/// `kubectl help` (or `kubectl` alone): the commands the playground supports.
pub(crate) fn kubectl_overview() -> String {
    let mut text = String::from(
        "kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\nCommands (the ones this playground runs):\n",
    );
    for h in KUBECTL.iter().filter(|h| !h.path.contains(' ')) {
        text.push_str(&format!(
            "  {:<15} {}\n",
            h.path,
            h.short
                .split(". ")
                .next()
                .unwrap_or(h.short)
                .trim_end_matches('.')
        ));
    }
    text.push_str("\nUsage:\n  kubectl [flags] [options]\n\nUse \"kubectl <command> --help\" for more information about a given command.");
    text
}

/// `sim help`: the simulator's own commands.
pub(crate) fn sim_overview() -> String {
    let mut text =
        String::from("sim drives the simulated cluster: the clock, nodes, images.\n\nCommands:\n");
    for (usage, what) in SIM {
        text.push_str(&format!("  {usage:<80} {what}\n"));
    }
    text
}

/// `help`: where to start.
pub(crate) fn overview() -> String {
    format!(
        "Commands start with kubectl or sim; one per line (Shift+Enter for more, here-documents allowed).\n\n{}\n\n{}",
        kubectl_overview(),
        sim_overview()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_longest_known_path_is_used() {
        let get = kubectl_command(&words("get ds --help")).unwrap();
        assert!(get.starts_with("Display one or many resources.\n"));
        assert!(get.contains("\nUsage:\n  kubectl get [(-o|--output=)json"));
        let status = kubectl_command(&words("rollout status ds/demo -h")).unwrap();
        assert!(status.starts_with("Show the status of the rollout."));
        let rollout = kubectl_command(&words("rollout --help")).unwrap();
        assert!(rollout.contains(
            "Available Commands:\n  history       View rollout history\n  pause         Mark"
        ));
        assert!(rollout.contains("\n  undo          Undo a previous rollout\n\n"));
        let config = kubectl_command(&words("config -h")).unwrap();
        assert!(config
            .contains("Available Commands:\n  current-context   Display the current-context\n"));
        assert_eq!(kubectl_command(&words("frobnicate --help")), None);
    }

    #[test]
    fn help_flags_are_found_before_a_double_dash() {
        assert!(asks_for_help(&words("get ds --help")));
        assert!(asks_for_help(&words("get -h")));
        assert!(!asks_for_help(&words("run x --image=busybox -- sh -h")));
    }

    #[test]
    fn every_sim_command_is_listed() {
        for name in SIM_COMMANDS.split(", ").filter(|n| *n != "help") {
            assert!(
                SIM.iter()
                    .any(|(usage, _)| usage.starts_with(&format!("sim {name}"))),
                "{name}"
            );
        }
        assert!(overview().contains("kubectl controls"));
    }
}
