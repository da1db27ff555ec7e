fn main() {
    let cases: Vec<(&str, String)> = vec![
        ("dup", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n".into()),
        ("tab", "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: a\n".into()),
        ("trunc", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: [a\n".into()),
        ("indent", "a: b\n c: d\n".into()),
        ("badjson", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", ".into()),
        ("bin", "\x00\x01\x02binary".into()),
        ("alias", "a: &a [*a]\n".into()),
        ("deep", format!("a: {}{}", "[".repeat(200), "]".repeat(200))),
        ("deepmap", (0..200).map(|i| format!("{}k:\n", "  ".repeat(i))).collect()),
        ("wrongtype", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers: foo\n".into()),
        ("huge", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: x\n    image: y\n    ports:\n    - containerPort: 99999999999999999999\n".into()),
        ("int-str", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\nspec:\n  minReadySeconds: abc\n".into()),
        ("float", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\nspec:\n  minReadySeconds: 1.5\n".into()),
        ("name-int", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: 5\n".into()),
        ("labels-list", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\n  labels: [a]\n".into()),
        ("nonstr-key", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\n  labels: {1: a}\n".into()),
        ("tagged", "apiVersion: v1\nkind: Namespace\nmetadata: !!binary abc\n".into()),
        ("list", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata: {name: a}\n".into()),
    ];
    for (name, text) in cases {
        println!("== {name}");
        for r in dsplay_api::manifest::parse_manifests(&text) {
            match r { Ok(m) => println!("OK {:?} unknown={:?}", m.object.kind(), m.unknown_fields), Err(e) => println!("ERR {e}") }
        }
    }
}
