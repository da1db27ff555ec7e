//! The checker itself: it passes a sound lesson and names each kind of broken one.

use dsplay_lesson::check_lesson;

/// A lesson with one step whose goal and solution are given (YAML lines, indented for `steps:`).
fn lesson(setup: &str, goals: &str, solution: &str) -> String {
    format!(
        "id: t
title: {{en: T, zh: 测}}
level: beginner
minutes: 1
languages: [en, zh]
setup: |
{setup}
intro: {{en: I, zh: 介}}
steps:
- title: {{en: S, zh: 步}}
  text: {{en: Do it, zh: 做}}
  goals:
{goals}
  solution: |
{solution}
"
    )
}

const DEMO: &str = "    kubectl apply -f - <<EOF
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: demo
    spec:
      updateStrategy:
        rollingUpdate:
          maxUnavailable: MAX
      selector:
        matchLabels: {app: demo}
      template:
        metadata:
          labels: {app: demo}
        spec:
          containers:
          - name: demo
            image: busybox:1.36
    EOF
    sim settle";

const READY_EVERYWHERE: &str =
    "  - text: {en: a ready demo pod on each worker, zh: 每个工作节点都有就绪的 demo Pod}
    daemon_pods: demo
    nodes: '!node-role.kubernetes.io/control-plane'
    ready: true
    image: busybox:1.37";

fn problems(text: &str) -> Vec<String> {
    check_lesson("t.yaml", text).problems
}

#[test]
fn a_sound_lesson_has_no_problems() {
    let text = lesson(
        &DEMO.replace("MAX", "1"),
        READY_EVERYWHERE,
        "    kubectl set image ds/demo demo=busybox:1.37\n    kubectl rollout status ds/demo",
    );
    assert_eq!(problems(&text), Vec::<String>::new());
}

#[test]
fn a_solution_that_misses_the_goal_is_reported() {
    let text = lesson(
        &DEMO.replace("MAX", "1"),
        READY_EVERYWHERE,
        "    kubectl set image ds/demo demo=busybox:1.38\n    kubectl rollout status ds/demo",
    );
    assert_eq!(
        problems(&text),
        ["step 1 (S): the solution does not reach the goal \"a ready demo pod on each worker\""]
    );
}

#[test]
fn a_goal_that_holds_at_the_start_is_reported() {
    let goals = "  - text: {en: the demo DaemonSet exists, zh: demo 存在}\n    get: ds/demo";
    let text = lesson(&DEMO.replace("MAX", "1"), goals, "    kubectl get ds");
    assert_eq!(
        problems(&text),
        ["step 1 (S): every goal already holds when the step begins; the learner has nothing to do"]
    );
}

#[test]
fn a_format_error_names_file_line_and_column() {
    let text = lesson(
        &DEMO.replace("MAX", "1"),
        "  - text: {en: x, zh: x}\n    get: ds/demo\n    number: lots",
        "    kubectl get ds",
    );
    let line = text
        .lines()
        .position(|l| l.contains("number: lots"))
        .unwrap()
        + 1;
    let found = problems(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("t.yaml:") && found[0].contains("\"lots\" is not a comparison"),
        "{found:?}"
    );
    // serde_yaml points at the goal that failed to build: the line of its first key.
    let goal_line = line - 2;
    assert!(
        found[0].starts_with(&format!("t.yaml:{goal_line}:")),
        "{found:?} (goal on line {goal_line})"
    );
    let typo = lesson(
        "    sim settle",
        "  - text: x\n    gett: ds/demo",
        "    true",
    );
    let found = problems(&typo);
    let line = typo.lines().position(|l| l.contains("gett:")).unwrap() + 1;
    assert!(
        found[0].starts_with(&format!("t.yaml:{line}:")),
        "{found:?}"
    );
    assert!(found[0].contains("unknown field `gett`"), "{found:?}");
}

#[test]
fn missing_translations_and_failing_setup_are_reported() {
    let text = lesson("    kubectl get nodez", READY_EVERYWHERE, "    sim settle")
        .replace("{en: Do it, zh: 做}", "{en: Do it}");
    let found = problems(&text);
    assert_eq!(found[0], "steps[0].text: no text in zh");
    assert!(
        found[1].starts_with("setup: `kubectl get nodez` failed:"),
        "{found:?}"
    );
}

#[test]
fn a_history_goal_sees_every_instant_of_a_rollout() {
    // Both rollouts end with every pod updated and ready; with maxUnavailable 2 both workers were
    // without a ready pod at some instant in between, and only the goal over history can tell.
    let goals = format!(
        "{READY_EVERYWHERE}
  - text: {{en: never two workers down, zh: 从未两个节点同时缺少就绪 Pod}}
    never:
      daemon_pods: demo
      nodes: '!node-role.kubernetes.io/control-plane'
      ready: true
      missing: '>= 2'
  - text: {{en: you watched the rollout, zh: 你观察了滚动更新}}
    ran: '^kubectl rollout status'"
    );
    let solution =
        "    kubectl set image ds/demo demo=busybox:1.37\n    kubectl rollout status ds/demo";
    let careful = lesson(&DEMO.replace("MAX", "1"), &goals, solution);
    assert_eq!(problems(&careful), Vec::<String>::new());
    let hasty = lesson(&DEMO.replace("MAX", "2"), &goals, solution);
    assert_eq!(
        problems(&hasty),
        ["step 1 (S): the solution does not reach the goal \"never two workers down\""]
    );
}
