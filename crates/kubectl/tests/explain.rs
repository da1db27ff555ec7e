//! `kubectl explain` in kubectl's plaintext layout, from the bundled schema. (Not in a parity
//! transcript: `dsplay serve`'s OpenAPI documents carry no schemas, so the real client cannot
//! explain against it. The layout was compared by serving the bundled schema to the real kubectl
//! v1.32 as OpenAPI v3 components: the pages below are what it printed.)

use dsplay_kubectl::{Session, SessionOptions};

fn run(command: &str) -> (String, bool) {
    let mut s = Session::new(SessionOptions::default());
    let out = s.execute(command);
    (out[0].text(), out[0].success)
}

#[test]
fn explains_a_kind() {
    let (text, ok) = run("kubectl explain ds");
    assert!(ok);
    assert!(
        text.starts_with("GROUP:      apps\nKIND:       DaemonSet\nVERSION:    v1\n\nDESCRIPTION:\n    A DaemonSet keeps one copy of a pod"),
        "{text}"
    );
    assert!(text.contains("    \nFIELDS:\n  apiVersion\t<string>\n    The group and version"));
    assert!(text.contains("\n  spec\t<DaemonSetSpec>\n"));
    // The core group has no GROUP line.
    let (text, _) = run("kubectl explain pods");
    assert!(
        text.starts_with("KIND:       Pod\nVERSION:    v1\n"),
        "{text}"
    );
}

#[test]
fn explains_a_field_path() {
    let (text, ok) = run("kubectl explain daemonsets.spec.updateStrategy");
    assert!(ok);
    assert!(text.contains("FIELD: updateStrategy <DaemonSetUpdateStrategy>\n\n\nDESCRIPTION:\n"));
    assert!(text.contains("  rollingUpdate\t<RollingUpdateDaemonSet>\n"));
    let (text, _) = run("kubectl explain ds.spec.selector");
    // The FIELD line does not repeat the parent's -required- mark.
    assert!(text.contains("FIELD: selector <LabelSelector>\n"), "{text}");
    let (text, _) = run("kubectl explain ds.spec.minReadySeconds");
    assert!(!text.contains("FIELDS:"), "{text}");
    // Lists descend into their items.
    let (text, _) = run("kubectl explain pod.spec.tolerations.effect");
    assert!(text.contains("FIELD: effect <string>"), "{text}");
}

#[test]
fn explains_recursively() {
    let (text, _) = run("kubectl explain node.spec --recursive");
    assert!(text.contains("FIELDS:\n  podCIDR\t<string>\n"), "{text}");
    assert!(
        text.contains("  taints\t<[]Taint>\n    effect\t<string> -required-\n"),
        "{text}"
    );
    assert!(
        !text.contains("Marks that repel"),
        "no descriptions: {text}"
    );
}

#[test]
fn errors_as_kubectl() {
    assert_eq!(
        run("kubectl explain ds.spec.nope"),
        (
            "GROUP:      apps\nKIND:       DaemonSet\nVERSION:    v1\n\nerror: field \"nope\" does not exist\n"
                .to_string(),
            false
        )
    );
    assert_eq!(
        run("kubectl explain nope"),
        (
            "the server doesn't have a resource type \"nope\"\n".to_string(),
            false
        )
    );
    assert_eq!(
        run("kubectl explain"),
        ("error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.\n".to_string(), false)
    );
    assert_eq!(
        run("kubectl explain a b"),
        (
            "error: We accept only this format: explain RESOURCE\n".to_string(),
            false
        )
    );
}

/// The whole page, as the real kubectl v1.32 printed it from the same schema.
#[test]
fn page_matches_kubectl() {
    let (text, _) = run("kubectl explain ds.spec.updateStrategy.type");
    assert_eq!(
        text,
        "GROUP:      apps\nKIND:       DaemonSet\nVERSION:    v1\n\nFIELD: type <string>\n\n\nDESCRIPTION:\n    RollingUpdate replaces old pods node by node on its own; OnDelete waits\n    until you delete each old pod.\n    \n\n"
    );
    let (text, _) = run("kubectl explain ds.spec.updateStrategy");
    assert!(text.ends_with("  type\t<string>\n    RollingUpdate replaces old pods node by node on its own; OnDelete waits\n    until you delete each old pod.\n\n\n"), "{text}");
}
