//! Lesson files that do not parse say what is wrong, and where.

use dsplay_lesson::parse;

/// A one-step lesson whose single goal is `goal` (YAML lines at goal indentation).
fn with_goal(goal: &str) -> String {
    format!(
        "id: t\ntitle: T\nlevel: beginner\nminutes: 1\nintro: I\nsteps:\n- title: S\n  text: X\n  goals:\n  - text: G\n{goal}\n  solution: sim settle\n"
    )
}

#[test]
fn bad_goals_are_explained_at_the_goal() {
    for (goal, message) in [
        (
            "    get: ds/demo\n    daemon_pods: demo",
            "`get:` or `daemon_pods:`, not both",
        ),
        (
            "    get: ds/demo\n    equals: x",
            "a comparison needs `jsonpath:`",
        ),
        (
            "    get: ds/demo\n    jsonpath: '{.a'\n    equals: x",
            "error parsing jsonpath",
        ),
        (
            "    get: ds/demo\n    jsonpath: '{.a}'\n    equals: x\n    contains: y",
            "compares one way",
        ),
        ("    get: pods -l 'a in (b'", "unable to parse requirement"),
        (
            "    get: widgets",
            "the server doesn't have a resource type \"widgets\"",
        ),
        (
            "    get: pods\n    for: every\n    count: 2",
            "`for:` or `count:`, not both",
        ),
        ("    get: pods\n    for: most", "unknown variant `most`"),
        ("    ran: '(unclosed'", "bad regex"),
        ("    ran: '\\p{Greek}'", "bad regex"),
        ("    ran: x\n    get: pods", "`ran:` stands alone"),
        (
            "    never: {get: pods}\n    always: {get: pods}",
            "one of `always:`, `never:`, `ever:`",
        ),
        ("    always: {get: pods, text: x}", "belong to the goal"),
        ("    get: pods\n    always: {get: pods}", "inside `always:`"),
        ("    daemon_pods: demo\n    nodes: 'a in (b'", "nodes:"),
        (
            "    daemon_pods: demo\n    missing: few",
            "\"few\" is not a comparison",
        ),
        ("    hint: H", "a goal needs a check"),
    ] {
        let text = with_goal(goal);
        let error = parse("t.yaml", &text).expect_err(goal);
        assert!(error.message.contains(message), "{goal:?}: {error}");
        // At the goal (its mapping starts on line 10, `- text: G`) or at the bad value inside it.
        let line = error.position.map(|p| p.0).unwrap_or(0);
        assert!((10..=13).contains(&line), "{goal:?}: {error}");
    }
}

#[test]
fn lesson_level_mistakes_are_reported() {
    let error = parse("t.yaml", "id: Bad Id\n").unwrap_err();
    assert!(error.to_string().starts_with("t.yaml:1:"), "{error}");
    assert!(
        error
            .message
            .contains("lesson id \"Bad Id\" must be lowercase"),
        "{error}"
    );
    let error = parse(
        "t.yaml",
        &with_goal("    get: pods").replace("title: T", "title: {e-1: T}"),
    )
    .unwrap_err();
    assert!(error.message.contains("title"), "{error}");
    let no_steps = "id: t\ntitle: T\nlevel: beginner\nminutes: 1\nintro: I\nsteps: []\n";
    assert_eq!(
        parse("t.yaml", no_steps).unwrap_err().to_string(),
        "t.yaml: a lesson needs at least one step"
    );
    let ok = parse("t.yaml", &with_goal("    get: pods\n    count: '>= 2'")).expect("parses");
    assert_eq!(ok.steps[0].goals.len(), 1);
}
