//! `sim node add`: parsed once into the nodes to add, then added one at a time, by the
//! interpreter all at once or by the web app a slice at a time (thousands of nodes would block
//! the page): either way the same nodes are added in the same order, each followed by the
//! controllers' reaction, and the command prints the same summary.

use crate::flags::{boolean, value};
use dsplay_api::taints;
use dsplay_sim::{ApiError, Cluster, NodeOptions};

/// The most nodes one `sim node add --count` adds.
const MAX_NODE_COUNT: usize = 5_000;

/// A parsed `sim node add`: what every node looks like, their names, and how many are added.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeAdd {
    options: NodeOptions,
    /// Shared: the web app's state copies a running command at every slice of a large add.
    names: std::sync::Arc<[String]>,
    added: usize,
}

impl NodeAdd {
    /// Parses the words after `sim node add`; the error is the line the command prints.
    pub fn parse(words: &[String]) -> Result<NodeAdd, String> {
        let parsed = crate::flags::parse(
            words,
            &[
                value("labels", None),
                value("taints", None),
                value("cpu", None),
                value("memory", None),
                value("pods", None),
                boolean("control-plane", None),
                value("count", None),
                value("prefix", None),
            ],
        )
        .map_err(|message| format!("error: {message}"))?;
        let names = node_names(&parsed).map_err(|message| format!("error: {message}"))?;
        let Some(name) = names.first() else {
            return Err("error: sim node add needs a NAME (or --count N [--prefix P])".into());
        };
        let mut options = NodeOptions::new(name);
        options.control_plane = parsed.flag("control-plane");
        for pair in parsed.all("labels") {
            let (k, v) = pair.split_once('=').unwrap_or((&pair, ""));
            options.labels.insert(k.to_string(), v.to_string());
        }
        for spec in parsed.all("taints") {
            let Some((kv, effect)) = spec.rsplit_once(':') else {
                return Err(format!("error: invalid taint spec: {spec}"));
            };
            if ![
                taints::NO_SCHEDULE,
                taints::PREFER_NO_SCHEDULE,
                taints::NO_EXECUTE,
            ]
            .contains(&effect)
            {
                return Err(format!(
                    "error: invalid taint effect: {effect}, unsupported taint effect"
                ));
            }
            let (k, v) = match kv.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (kv, None),
            };
            options.taints.push(taints::taint(k, v, effect));
        }
        for (flag, field) in [
            ("cpu", &mut options.cpu),
            ("memory", &mut options.memory),
            ("pods", &mut options.pods),
        ] {
            if let Some(v) = parsed.get(flag) {
                if dsplay_api::quantity::parse_milli(v).is_none() {
                    return Err(format!("error: invalid --{flag} quantity {v:?}"));
                }
                *field = v.to_string();
            }
        }
        Ok(NodeAdd {
            options,
            names: names.into(),
            added: 0,
        })
    }

    /// How many nodes the command adds.
    pub fn count(&self) -> usize {
        self.names.len()
    }

    /// How many are added so far.
    pub fn added(&self) -> usize {
        self.added
    }

    /// Every node is added.
    pub fn is_done(&self) -> bool {
        self.added == self.names.len()
    }

    /// Adds the next node (and lets the controllers react). On an error nothing more is added.
    pub fn add_next(&mut self, cluster: &mut Cluster) -> Result<(), ApiError> {
        let Some(name) = self.names.get(self.added) else {
            return Ok(());
        };
        self.options.name = name.clone();
        cluster.add_node(&self.options)?;
        self.added += 1;
        Ok(())
    }

    /// What the command prints when adding a node fails (`Error from server (…): …`).
    pub fn error_text(error: &ApiError) -> String {
        super::api_error_text(error, None)
    }

    /// What the command prints of the nodes added so far: `node/NAME created` for a single
    /// node, else one summary line (thousands of lines help nobody); nothing if none is.
    pub fn summary(&self) -> Option<String> {
        let added = &self.names[..self.added];
        match added {
            [] => None,
            [one] if self.names.len() == 1 => Some(format!("node/{one} created")),
            [first, .., last] | [first @ last] => {
                Some(format!("{} nodes created: {first} … {last}", added.len()))
            }
        }
    }
}

/// The names `sim node add` creates: its NAME, or with `--count N` the prefix (`--prefix`, else
/// NAME, else `node-`) and numbers 1..=N zero-padded to N's width (`node-0001` … `node-5000`).
fn node_names(parsed: &crate::flags::Parsed) -> Result<Vec<String>, String> {
    let Some(count) = parsed.get("count") else {
        return Ok(parsed.args.first().cloned().into_iter().collect());
    };
    let count: usize = match count.parse() {
        Ok(n) if (1..=MAX_NODE_COUNT).contains(&n) => n,
        _ => {
            return Err(format!(
                "--count must be a number from 1 to {MAX_NODE_COUNT}, not {count:?}"
            ))
        }
    };
    let prefix = parsed
        .get("prefix")
        .or(parsed.args.first().map(String::as_str))
        .unwrap_or("node-");
    let width = count.to_string().len();
    Ok((1..=count)
        .map(|i| format!("{prefix}{i:0width$}"))
        .collect())
}
