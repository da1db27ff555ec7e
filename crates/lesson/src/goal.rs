//! Goals: declarative checks over the cluster, and how a goal is written in a lesson file.
//!
//! A condition looks at the cluster at one instant:
//! - **objects**: `get:` takes what follows `kubectl get` (`ds/demo`, `pods -l app=demo -n x`,
//!   `nodes -l '!node-role.kubernetes.io/control-plane'`), optionally `jsonpath:` (kubectl's
//!   `-o jsonpath=`, per object) compared with `equals` / `not_equals` / `contains` / `matches` (a
//!   regex) / `number` (`">= 3"`), then quantified: `for: every` (the default: at least one object,
//!   and all match), `some`, `none`, or `count: "== 3"` (how many objects match);
//! - **daemon pods**: `daemon_pods: NAME` (a DaemonSet in `namespace`, default `default`) has a pod
//!   on every node of `nodes` (a label selector, default all nodes), `ready: true` counting Ready
//!   pods only, `image:` pods running that image only; `missing: "<= 1"` allows some nodes without.
//!
//! A goal is a condition that holds now; `always:` / `never:` a condition at every instant since
//! the step began, `ever:` at one of them (for lessons about *how* something happens); or `ran:` a
//! regex some command of the step matched.

use dsplay_api::pod::is_pod_ready;
use dsplay_api::{selector, Object};
use dsplay_kubectl::printers::output::jsonpath;
use dsplay_kubectl::Selection;
use dsplay_sim::Cluster;
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::fmt;

use crate::text::Text;

/// One goal of a step: learner-facing text, an optional hint, and its check.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "GoalSpec")]
pub struct Goal {
    /// What the learner must achieve.
    pub text: Text,
    /// Shown when the goal is not met.
    pub hint: Option<Text>,
    /// How it is checked.
    pub check: Check,
}

/// How a goal is checked.
#[derive(Clone, Debug)]
pub enum Check {
    /// The condition holds now.
    Now(Condition),
    /// The condition has held at every instant since the step began.
    Always(Condition),
    /// The condition has held at no instant since the step began.
    Never(Condition),
    /// The condition held at some instant since the step began.
    Ever(Condition),
    /// A command run since the step began matches the pattern.
    Ran(Pattern),
}

/// A condition on the cluster at one instant (see the module docs).
#[derive(Clone, Debug)]
pub enum Condition {
    /// Objects selected as `kubectl get` selects them, compared and counted.
    Objects {
        /// The selection.
        selection: Selection,
        /// `-o jsonpath=` template evaluated per object.
        jsonpath: Option<String>,
        /// The comparison of each object's value.
        compare: Option<Compare>,
        /// How many must match.
        quantifier: Quantifier,
    },
    /// A DaemonSet's pods cover nodes.
    DaemonPods {
        /// The DaemonSet's namespace.
        namespace: String,
        /// The DaemonSet's name.
        name: String,
        /// Which nodes (default: all).
        nodes: Option<selector::Selector>,
        /// Count Ready pods only.
        ready: bool,
        /// Count pods running this image only.
        image: Option<String>,
        /// How many of those nodes may lack such a pod.
        missing: NumCmp,
    },
}

/// A comparison of one object's jsonpath value.
#[derive(Clone, Debug)]
pub enum Compare {
    /// Exactly this text.
    Equals(String),
    /// Anything but this text.
    NotEquals(String),
    /// Contains this text.
    Contains(String),
    /// Matches this regex.
    Matches(Pattern),
    /// A number compared (a value that is not a number fails).
    Number(NumCmp),
}

/// How many selected objects must match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quantifier {
    /// At least one object, and every one matches.
    Every,
    /// At least one matches.
    Some,
    /// None matches.
    None,
    /// The number that match compares so.
    Count(NumCmp),
}

/// A regex, compiled once.
#[derive(Clone, Debug)]
pub struct Pattern(regex_lite::Regex);

impl Pattern {
    /// Whether the text matches.
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

/// `== 3`, `>= 2`, `< 1`, `!= 0`, or a bare number (`3` means `== 3`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumCmp {
    op: Op,
    value: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl NumCmp {
    /// Parses `>= 3` (see the type docs).
    pub fn parse(text: &str) -> Result<NumCmp, String> {
        let text = text.trim();
        let (op, rest) = [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("<", Op::Lt),
            (">", Op::Gt),
            ("=", Op::Eq),
        ]
        .into_iter()
        .find_map(|(s, op)| text.strip_prefix(s).map(|rest| (op, rest)))
        .unwrap_or((Op::Eq, text));
        let value = rest
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("\"{text}\" is not a comparison like \">= 3\" or \"2\""))?;
        Ok(NumCmp { op, value })
    }

    /// Whether `x` compares so.
    pub fn holds(&self, x: f64) -> bool {
        match self.op {
            Op::Eq => x == self.value,
            Op::Ne => x != self.value,
            Op::Lt => x < self.value,
            Op::Le => x <= self.value,
            Op::Gt => x > self.value,
            Op::Ge => x >= self.value,
        }
    }
}

impl<'de> Deserialize<'de> for NumCmp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NumCmp, D::Error> {
        match serde_yaml::Value::deserialize(deserializer)? {
            serde_yaml::Value::Number(n) => NumCmp::parse(&n.to_string()),
            serde_yaml::Value::String(s) => NumCmp::parse(&s),
            _ => Err("expected a number or a comparison like \">= 3\"".to_string()),
        }
        .map_err(de::Error::custom)
    }
}

impl fmt::Display for NumCmp {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let op = match self.op {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        };
        write!(f, "{op} {}", self.value)
    }
}

impl Condition {
    /// Whether the condition holds in this cluster now.
    pub fn holds(&self, cluster: &Cluster) -> bool {
        match self {
            Condition::Objects {
                selection,
                jsonpath,
                compare,
                quantifier,
            } => {
                let objects = selection.objects(cluster);
                let matching = objects
                    .iter()
                    .filter(|o| object_matches(o, jsonpath.as_deref(), compare.as_ref()))
                    .count();
                match quantifier {
                    Quantifier::Every => !objects.is_empty() && matching == objects.len(),
                    Quantifier::Some => matching > 0,
                    Quantifier::None => matching == 0,
                    Quantifier::Count(cmp) => cmp.holds(matching as f64),
                }
            }
            Condition::DaemonPods {
                namespace,
                name,
                nodes,
                ready,
                image,
                missing,
            } => {
                let store = cluster.store();
                let Some(ds) = store.daemon_set(namespace, name) else {
                    return false;
                };
                let counted = |pod: &&dsplay_api::types::Pod| {
                    pod.metadata.deletion_timestamp.is_none()
                        && (!ready || is_pod_ready(pod))
                        && image.as_ref().is_none_or(|image| {
                            pod.spec
                                .iter()
                                .flat_map(|s| &s.containers)
                                .any(|c| c.image.as_deref() == Some(image.as_str()))
                        })
                };
                let covered: std::collections::BTreeSet<&str> = store
                    .pods_owned_by(&ds.metadata)
                    .filter(counted)
                    .filter_map(|p| p.spec.as_ref()?.node_name.as_deref())
                    .collect();
                let empty = Default::default();
                let lacking = store
                    .nodes()
                    .filter(|n| {
                        nodes.as_ref().is_none_or(|sel| {
                            sel.matches(n.metadata.labels.as_ref().unwrap_or(&empty))
                        })
                    })
                    .filter(|n| !covered.contains(n.metadata.name.as_deref().unwrap_or("")))
                    .count();
                missing.holds(lacking as f64)
            }
        }
    }
}

/// One object's jsonpath value against the comparison (no jsonpath: the object counts; a jsonpath
/// without comparison: its value is not empty).
fn object_matches(object: &Object, template: Option<&str>, compare: Option<&Compare>) -> bool {
    let Some(template) = template else {
        return true;
    };
    let Ok(value) = jsonpath(template, &object.to_json()) else {
        return false;
    };
    match compare {
        None => !value.is_empty(),
        Some(Compare::Equals(s)) => value == *s,
        Some(Compare::NotEquals(s)) => value != *s,
        Some(Compare::Contains(s)) => value.contains(s.as_str()),
        Some(Compare::Matches(p)) => p.is_match(&value),
        Some(Compare::Number(cmp)) => value.trim().parse::<f64>().is_ok_and(|v| cmp.holds(v)),
    }
}

/// A goal as written (every key optional; `TryFrom` checks the combination).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalSpec {
    text: Option<Text>,
    hint: Option<Text>,
    always: Option<Box<GoalSpec>>,
    never: Option<Box<GoalSpec>>,
    ever: Option<Box<GoalSpec>>,
    ran: Option<String>,
    get: Option<String>,
    jsonpath: Option<String>,
    equals: Option<ScalarText>,
    not_equals: Option<ScalarText>,
    contains: Option<ScalarText>,
    matches: Option<String>,
    number: Option<NumCmp>,
    #[serde(rename = "for")]
    quantifier: Option<QuantifierWord>,
    count: Option<NumCmp>,
    daemon_pods: Option<String>,
    namespace: Option<String>,
    nodes: Option<String>,
    ready: Option<bool>,
    image: Option<String>,
    missing: Option<NumCmp>,
}

impl GoalSpec {
    /// Whether any key of a condition is given.
    fn has_condition_keys(&self) -> bool {
        self.get.is_some()
            || self.jsonpath.is_some()
            || self.equals.is_some()
            || self.not_equals.is_some()
            || self.contains.is_some()
            || self.matches.is_some()
            || self.number.is_some()
            || self.quantifier.is_some()
            || self.count.is_some()
            || self.daemon_pods.is_some()
            || self.namespace.is_some()
            || self.nodes.is_some()
            || self.ready.is_some()
            || self.image.is_some()
            || self.missing.is_some()
    }
}

/// `equals: 3` and `equals: "3"` mean the same: jsonpath values are text.
#[derive(Debug)]
struct ScalarText(String);

impl<'de> Deserialize<'de> for ScalarText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ScalarText, D::Error> {
        match serde_yaml::Value::deserialize(deserializer)? {
            serde_yaml::Value::String(s) => Ok(ScalarText(s)),
            serde_yaml::Value::Number(n) => Ok(ScalarText(n.to_string())),
            serde_yaml::Value::Bool(b) => Ok(ScalarText(b.to_string())),
            _ => Err(de::Error::custom("expected a text, number or boolean")),
        }
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum QuantifierWord {
    Every,
    Some,
    None,
}

impl TryFrom<GoalSpec> for Goal {
    type Error = String;

    fn try_from(mut spec: GoalSpec) -> Result<Goal, String> {
        let text = spec
            .text
            .take()
            .ok_or("a goal needs `text:` (what the learner must achieve)")?;
        let hint = spec.hint.take();
        let temporal = [
            (spec.always.take(), "always"),
            (spec.never.take(), "never"),
            (spec.ever.take(), "ever"),
        ];
        let mut temporal: Vec<(GoalSpec, &str)> = temporal
            .into_iter()
            .filter_map(|(inner, word)| inner.map(|i| (*i, word)))
            .collect();
        let check = match (temporal.pop(), spec.ran.take()) {
            _ if !temporal.is_empty() => {
                return Err("a goal takes one of `always:`, `never:`, `ever:` and `ran:`".into())
            }
            (Some((inner, word)), None) => {
                let condition = only_condition(spec, inner, word)?;
                match word {
                    "always" => Check::Always(condition),
                    "never" => Check::Never(condition),
                    _ => Check::Ever(condition),
                }
            }
            (None, Some(pattern)) => {
                if spec.has_condition_keys() {
                    return Err("`ran:` stands alone: make a second goal for the condition".into());
                }
                Check::Ran(pattern_of(&pattern)?)
            }
            (None, None) => Check::Now(condition(spec)?),
            (Some(_), Some(_)) => {
                return Err("a goal takes one of `always:`, `never:`, `ever:` and `ran:`".into())
            }
        };
        Ok(Goal { text, hint, check })
    }
}

/// The condition inside `always:` / `never:`; the goal itself must hold nothing else.
fn only_condition(outer: GoalSpec, inner: GoalSpec, word: &str) -> Result<Condition, String> {
    if outer.has_condition_keys() {
        return Err(format!(
            "put the condition inside `{word}:` (as `{word}: {{get: …}}`), not next to it"
        ));
    }
    if inner.text.is_some() || inner.hint.is_some() {
        return Err(format!(
            "`text:` and `hint:` belong to the goal, not inside `{word}:`"
        ));
    }
    if inner.always.is_some()
        || inner.never.is_some()
        || inner.ever.is_some()
        || inner.ran.is_some()
    {
        return Err(format!(
            "`{word}:` takes a condition (`get:` or `daemon_pods:`)"
        ));
    }
    condition(inner)
}

fn pattern_of(text: &str) -> Result<Pattern, String> {
    regex_lite::Regex::new(text)
        .map(Pattern)
        .map_err(|e| format!("bad regex {text:?}: {e}"))
}

/// The condition a spec describes (`get:` or `daemon_pods:` and their keys).
fn condition(spec: GoalSpec) -> Result<Condition, String> {
    match (spec.get, spec.daemon_pods) {
        (Some(get), None) => {
            if spec.nodes.is_some()
                || spec.ready.is_some()
                || spec.image.is_some()
                || spec.missing.is_some()
            {
                return Err("`nodes`, `ready`, `image` and `missing` go with `daemon_pods:`; with `get:` use a selector and `jsonpath:`".into());
            }
            if spec.namespace.is_some() {
                return Err(
                    "with `get:` give the namespace as in kubectl: `get: pods -n kube-system`"
                        .into(),
                );
            }
            let selection = Selection::parse(&get).map_err(|e| format!("get: {get:?}: {e}"))?;
            let mut compares = Vec::new();
            if let Some(ScalarText(s)) = spec.equals {
                compares.push(Compare::Equals(s));
            }
            if let Some(ScalarText(s)) = spec.not_equals {
                compares.push(Compare::NotEquals(s));
            }
            if let Some(ScalarText(s)) = spec.contains {
                compares.push(Compare::Contains(s));
            }
            if let Some(p) = spec.matches {
                compares.push(Compare::Matches(pattern_of(&p)?));
            }
            if let Some(n) = spec.number {
                compares.push(Compare::Number(n));
            }
            if compares.len() > 1 {
                return Err("a goal compares one way: `equals`, `not_equals`, `contains`, `matches` or `number`".into());
            }
            let compare = compares.pop();
            if compare.is_some() && spec.jsonpath.is_none() {
                return Err("a comparison needs `jsonpath:` (the value to compare)".into());
            }
            if let Some(template) = &spec.jsonpath {
                if let Err(e) = jsonpath(template, &serde_json::json!({})) {
                    if e.0.starts_with("error parsing jsonpath") {
                        return Err(e.0);
                    }
                }
            }
            let quantifier = match (spec.quantifier, spec.count) {
                (Some(_), Some(_)) => return Err("give `for:` or `count:`, not both".into()),
                (None, Some(n)) => Quantifier::Count(n),
                (Some(QuantifierWord::Some), None) => Quantifier::Some,
                (Some(QuantifierWord::None), None) => Quantifier::None,
                (Some(QuantifierWord::Every) | None, None) => Quantifier::Every,
            };
            Ok(Condition::Objects {
                selection,
                jsonpath: spec.jsonpath,
                compare,
                quantifier,
            })
        }
        (None, Some(name)) => {
            if spec.jsonpath.is_some() || spec.quantifier.is_some() || spec.count.is_some() {
                return Err("`jsonpath`, `for` and `count` go with `get:`".into());
            }
            let nodes = spec
                .nodes
                .map(|text| selector::parse(&text).map_err(|e| format!("nodes: {e}")))
                .transpose()?;
            Ok(Condition::DaemonPods {
                namespace: spec.namespace.unwrap_or_else(|| "default".into()),
                name,
                nodes,
                ready: spec.ready.unwrap_or(false),
                image: spec.image,
                missing: spec.missing.unwrap_or(NumCmp {
                    op: Op::Eq,
                    value: 0.0,
                }),
            })
        }
        (Some(_), Some(_)) => Err("a goal checks `get:` or `daemon_pods:`, not both".into()),
        (None, None) => Err(
            "a goal needs a check: `get:`, `daemon_pods:`, `always:`, `never:`, `ever:` or `ran:`"
                .into(),
        ),
    }
}
