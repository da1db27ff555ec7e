//! String syntax checks (`apimachinery/pkg/util/validation/validation.go`: DNS-1123 labels and
//! subdomains, qualified names, label values, percents, port names) with upstream's message text,
//! hand-written instead of regexes.

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const QUALIFIED_NAME_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `RegexError`: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')`.
#[doc(alias = "RegexError")]
pub(super) fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let list: Vec<String> = examples.iter().map(|e| format!("'{e}'")).collect();
    format!(
        "{msg} (e.g. {}, regex used for validation is '{fmt}')",
        list.join(",  or ")
    )
}

pub(super) fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn matches_dns1123_label(v: &str) -> bool {
    let b = v.as_bytes();
    !b.is_empty()
        && is_lower_alnum(b[0])
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
}

fn matches_dns1123_subdomain(v: &str) -> bool {
    v.split('.').all(matches_dns1123_label)
}

fn matches_qualified_name_part(v: &str) -> bool {
    let b = v.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsDNS1123Label`.
#[doc(alias = "IsDNS1123Label")]
pub fn is_dns1123_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !matches_dns1123_label(v) {
        if matches_dns1123_subdomain(v) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`.
#[doc(alias = "IsDNS1123Subdomain")]
pub fn is_dns1123_subdomain(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !matches_dns1123_subdomain(v) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsQualifiedName` (label and annotation keys): `[prefix/]name`.
#[doc(alias = "IsQualifiedName")]
pub fn is_qualified_name(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = match v.split_once('/') {
        None => v,
        Some((prefix, name)) if !name.contains('/') => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        Some(_) => {
            return vec![format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !matches_qualified_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`: empty, or a qualified-name part of at most 63 characters.
#[doc(alias = "IsValidLabelValue")]
pub fn is_valid_label_value(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !v.is_empty() && !matches_qualified_name_part(v) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPercent`: `^[0-9]+%$`.
#[doc(alias = "IsValidPercent")]
pub fn is_valid_percent(v: &str) -> Vec<String> {
    let ok = v
        .strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if ok {
        return Vec::new();
    }
    vec![regex_error(
        "a valid percent string must be a numeric string followed by an ending '%'",
        "[0-9]+%",
        &["1%", "93%"],
    )]
}

/// `IsValidPortName`: an IANA service name.
#[doc(alias = "IsValidPortName")]
pub(super) fn is_valid_port_name(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 15 {
        errs.push(max_len_error(15));
    }
    if !v.bytes().all(|b| is_lower_alnum(b) || b == b'-') {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !v.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if v.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if v.starts_with('-') || v.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}
