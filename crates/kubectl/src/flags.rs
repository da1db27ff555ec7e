//! Command-line flags parsed the way kubectl's cobra/pflag does: `--flag=v`, `--flag v`, `-n v`,
//! `-nv`, booleans, interspersed with positional arguments, and pflag's error texts.
//!
//! Hand-rolled because the same parser must run in wasm with kubectl's exact messages; clap's differ.

use std::collections::BTreeMap;

/// A flag a command accepts.
#[derive(Clone, Copy, Debug)]
pub struct FlagSpec {
    /// Long name without dashes.
    pub long: &'static str,
    /// One-letter shorthand.
    pub short: Option<char>,
    /// Takes a value (otherwise boolean).
    pub takes_value: bool,
}

/// Shorthand for a value flag.
pub const fn value(long: &'static str, short: Option<char>) -> FlagSpec {
    FlagSpec {
        long,
        short,
        takes_value: true,
    }
}

/// Shorthand for a boolean flag.
pub const fn boolean(long: &'static str, short: Option<char>) -> FlagSpec {
    FlagSpec {
        long,
        short,
        takes_value: false,
    }
}

/// Flags every kubectl command accepts.
pub const GLOBAL: &[FlagSpec] = &[
    value("namespace", Some('n')),
    value("context", None),
    value("kubeconfig", None),
    value("v", Some('v')),
    boolean("help", Some('h')),
];

/// Parsed flags: values by long name (repeatable flags keep every value) and positional arguments.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// Values by long name, in order given.
    pub values: BTreeMap<String, Vec<String>>,
    /// The current context's namespace, the default of `--namespace` (set by the command runner).
    pub context_namespace: Option<String>,
    /// Positional arguments.
    pub args: Vec<String>,
}

impl Parsed {
    /// The last value of a flag.
    pub fn get(&self, long: &str) -> Option<&str> {
        self.values
            .get(long)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    /// Every value of a repeatable flag (comma lists are split).
    pub fn all(&self, long: &str) -> Vec<String> {
        self.values
            .get(long)
            .into_iter()
            .flatten()
            .flat_map(|v| v.split(',').map(str::to_string))
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// A boolean flag: present without value or `=true`.
    pub fn flag(&self, long: &str) -> bool {
        self.get(long).is_some_and(|v| v != "false")
    }

    /// A boolean flag with a default when absent.
    pub fn flag_or(&self, long: &str, default: bool) -> bool {
        match self.get(long) {
            None => default,
            Some(v) => v != "false",
        }
    }
}

/// Parses `words` against `specs` (plus the global flags). Errors are pflag's messages, e.g.
/// `unknown flag: --foo`, `unknown shorthand flag: 'z' in -z`, `flag needs an argument: 'n' in -n`.
pub fn parse(words: &[String], specs: &[FlagSpec]) -> Result<Parsed, String> {
    let all: Vec<FlagSpec> = specs.iter().chain(GLOBAL.iter()).copied().collect();
    let mut parsed = Parsed::default();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        if word == "--" {
            parsed.args.extend(words[i..].iter().cloned());
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let Some(spec) = all.iter().find(|s| s.long == name) else {
                return Err(format!("unknown flag: --{name}"));
            };
            let value = match (spec.takes_value, inline) {
                (_, Some(v)) => v,
                (false, None) => "true".to_string(),
                (true, None) => {
                    if i >= words.len() {
                        return Err(format!("flag needs an argument: --{name}"));
                    }
                    i += 1;
                    words[i - 1].clone()
                }
            };
            parsed
                .values
                .entry(spec.long.to_string())
                .or_default()
                .push(value);
        } else if word.len() > 1 && word.starts_with('-') {
            let chars: Vec<char> = word[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                let Some(spec) = all.iter().find(|s| s.short == Some(c)) else {
                    return Err(format!("unknown shorthand flag: '{c}' in {word}"));
                };
                if spec.takes_value {
                    let rest: String = chars[j + 1..].iter().collect();
                    let value = if !rest.is_empty() {
                        rest.strip_prefix('=').unwrap_or(&rest).to_string()
                    } else if i < words.len() {
                        i += 1;
                        words[i - 1].clone()
                    } else {
                        return Err(format!("flag needs an argument: '{c}' in {word}"));
                    };
                    parsed
                        .values
                        .entry(spec.long.to_string())
                        .or_default()
                        .push(value);
                    break;
                }
                parsed
                    .values
                    .entry(spec.long.to_string())
                    .or_default()
                    .push("true".to_string());
                j += 1;
            }
        } else {
            parsed.args.push(word.clone());
        }
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_like_pflag() {
        let specs = [
            value("output", Some('o')),
            boolean("all-namespaces", Some('A')),
            value("selector", Some('l')),
        ];
        let p = parse(&words("ds -n kube-system -o=wide x -Al app=x"), &specs).unwrap();
        assert_eq!(p.args, vec!["ds", "x"]);
        assert_eq!(p.get("namespace"), Some("kube-system"));
        assert_eq!(p.get("output"), Some("wide"));
        assert!(p.flag("all-namespaces"));
        assert_eq!(p.get("selector"), Some("app=x"));
        assert_eq!(
            parse(&words("--foo"), &specs).unwrap_err(),
            "unknown flag: --foo"
        );
        assert_eq!(
            parse(&words("-z"), &specs).unwrap_err(),
            "unknown shorthand flag: 'z' in -z"
        );
        assert_eq!(
            parse(&words("-n"), &specs).unwrap_err(),
            "flag needs an argument: 'n' in -n"
        );
    }
}
