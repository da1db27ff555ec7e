//! The manifest corpora: every file of `tests/data/bad/` must be rejected (a decode error, an unknown
//! field under kubectl's default `--validate=strict`, or a validation error) without panicking; every
//! file of `tests/data/good/` (the scenario here-docs and the seeds' manifests) must parse and validate
//! cleanly, except the retired `extensions/v1beta1` DaemonSet, which fails with NoMatch and a hint.

use dsplay_api::defaults::apply_defaults;
use dsplay_api::manifest::{parse_manifest_bytes, parse_manifests, ManifestError};
use dsplay_api::validation::validate_create;
use std::path::{Path, PathBuf};

fn files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    out.sort();
    out
}

/// Every problem found in one file, rendered as the playground would print it.
fn problems(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for doc in parse_manifest_bytes(bytes) {
        match doc {
            Err(e) => out.push(e.to_string()),
            Ok(mut manifest) => {
                out.extend(
                    manifest
                        .unknown_fields
                        .iter()
                        .map(|f| format!("strict decoding error: unknown field \"{f}\"")),
                );
                apply_defaults(&mut manifest.object);
                out.extend(
                    validate_create(&manifest.object)
                        .iter()
                        .map(ToString::to_string),
                );
            }
        }
    }
    out
}

#[test]
fn every_bad_manifest_is_rejected_without_panic() {
    let bad = files("bad");
    assert!(bad.len() >= 100, "only {} bad manifests", bad.len());
    let mut accepted = Vec::new();
    for path in &bad {
        let bytes = std::fs::read(path).unwrap();
        let result = std::panic::catch_unwind(|| problems(&bytes));
        match result {
            Err(_) => panic!("panic on {}", path.display()),
            Ok(p) if p.is_empty() => accepted.push(path.display().to_string()),
            Ok(_) => {}
        }
    }
    assert!(accepted.is_empty(), "accepted as valid: {accepted:#?}");
}

/// The syntax-error rows are what kubectl v1.32 prints for the file
/// (`kubectl create -f FILE --dry-run=client`, which parses before it needs a server).
#[test]
fn bad_manifest_messages_are_kubectl_like() {
    let expect = [
        ("tab-01-metadata.yaml", "error converting YAML to JSON: yaml: line 4: found character that cannot start any token"),
        ("dup-01-name.yaml", "error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key \"name\" already set in map"),
        ("trunc-12-unclosed-json.json", "unexpected EOF"),
        ("trunc-13-json-bad-char.json", "json: offset 35: invalid character 'D' looking for beginning of value"),
        ("trunc-14-json-trailing-comma.json", "json: offset 47: invalid character '}' looking for beginning of object key string"),
        ("trunc-25-unterminated-flow-doc.yaml", "json: offset 2: invalid character 'a' looking for beginning of object key string"),
        // go-yaml names a parser error's 0-based line, a scanner error's 1-based one, and no line
        // on the first line or for reader errors.
        ("trunc-08-colon.yaml", "error converting YAML to JSON: yaml: line 9: did not find expected node content"),
        ("trunc-09-bad-indent.yaml", "error converting YAML to JSON: yaml: line 10: did not find expected key"),
        ("trunc-10-mapping-in-scalar.yaml", "error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context"),
        ("tab-05-leading.yaml", "error converting YAML to JSON: yaml: found character that cannot start any token"),
        ("trunc-17-yaml-directive.yaml", "error converting YAML to JSON: yaml: found incompatible YAML document"),
        ("trunc-23-stray-brace.yaml", "error converting YAML to JSON: yaml: did not find expected node content"),
        ("trunc-18-bad-anchor.yaml", "error converting YAML to JSON: yaml: unknown anchor 'nothere' referenced"),
        ("deep-08-billion-laughs.yaml", "error converting YAML to JSON: yaml: document contains excessive aliasing"),
        ("type-01-minready-string.yaml", "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32"),
        ("type-05-containers-map.yaml", "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container"),
        ("huge-02-int32-overflow.yaml", "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: json: cannot unmarshal number 2147483648 into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32"),
        ("val-27-bad-quantity.yaml", "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        ("deep-01-flow-seq.yaml", "error converting YAML to JSON: yaml: line 4: exceeded max depth of 100"),
        ("bin-01-nul.yaml", "error converting YAML to JSON: yaml: control characters are not allowed"),
        ("bin-03-nul-in-value.yaml", "error converting YAML to JSON: yaml: control characters are not allowed"),
        ("bin-07-invalid-utf8.yaml", "error converting YAML to JSON: yaml: invalid leading UTF-8 octet"),
        ("doc-09-extensions-v1beta1.yaml", "no matches for kind \"DaemonSet\" in version \"extensions/v1beta1\""),
        ("doc-05-no-apiversion.yaml", "error validating data: apiVersion not set"),
        ("val-05-selector-empty.yaml", "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset"),
        ("val-04-selector-missing.yaml", "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"demo\"}: `selector` does not match template `labels`"),
        ("val-14-surge-defaults-unavailable.yaml", "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"),
        ("val-36-node-taint-effect.yaml", "spec.taints[0].effect: Unsupported value: \"Foo\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad");
    for (file, want) in expect {
        let got = problems(&std::fs::read(root.join(file)).unwrap());
        assert_eq!(
            got.first().map(String::as_str),
            Some(want),
            "{file}: {got:#?}"
        );
    }
}

#[test]
fn oversized_input_is_rejected_before_parsing() {
    let text = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata: {{name: a}}\n# {}\n",
        "x".repeat(1024 * 1024)
    );
    let docs = parse_manifests(&text);
    assert_eq!(docs.len(), 1);
    assert!(docs[0]
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("more than the 1048576 bytes"));
    let deep = format!("a: {}", "[".repeat(1_000_000));
    assert!(parse_manifests(&deep)[0].is_err());
}

#[test]
fn every_good_manifest_parses_and_validates() {
    let good = files("good");
    assert!(good.len() >= 20, "only {} good manifests", good.len());
    for path in good {
        let text = std::fs::read_to_string(&path).unwrap();
        let docs = parse_manifests(&text);
        assert!(!docs.is_empty(), "{}", path.display());
        if path.to_string_lossy().contains("extensions-v1beta1") {
            let err = docs[0].as_ref().unwrap_err();
            assert!(matches!(err, ManifestError::NoMatch { .. }), "{err}");
            assert_eq!(
                err.to_string(),
                "no matches for kind \"DaemonSet\" in version \"extensions/v1beta1\""
            );
            assert!(err.hint().unwrap().contains("change apiVersion to apps/v1"));
            continue;
        }
        for doc in docs {
            let manifest = doc.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                manifest.unknown_fields.is_empty(),
                "{}: {:?}",
                path.display(),
                manifest.unknown_fields
            );
            let errors = validate_create(&manifest.object);
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        }
    }
}
