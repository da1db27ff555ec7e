//! `sim node add`: parsed once into the nodes to add, then added one at a time, by the
//! interpreter all at once or by the web app a slice at a time (thousands of nodes would block
//! the page): either way the same nodes are added in the same order, each followed by the
//! controllers' reaction, and the command prints the same summary.

use crate::flags::{boolean, value};
use dsplay_api::taints;
use dsplay_sim::{ApiError, Cluster, NodeOptions};

/// The most nodes one `sim node add --count` adds.
const MAX_NODE_COUNT: usize = 5_000;

/// How many nodes join before the controllers react: they see each batch together, as upstream's
/// informers deliver a burst of node adds to one sync of each DaemonSet, and each of their passes
/// (every DaemonSet's sync and status write, every loop's read of the changes) is paid once a batch
/// instead of once a node. Fixed, so the outcome never depends on how the web app slices the command.
const NODES_PER_RECONCILE: usize = 8;

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

    /// How many times the controllers react while the nodes join ([`NODES_PER_RECONCILE`] nodes
    /// at a time): each reaction can place thousands of pending pods.
    pub fn batches(&self) -> usize {
        self.names.len().div_ceil(NODES_PER_RECONCILE)
    }

    /// Every node is added.
    pub fn is_done(&self) -> bool {
        self.added == self.names.len()
    }

    /// Adds the next node. The first call adds nothing unless every node of the command fits in
    /// the cluster ([`dsplay_sim::capacity`]). The controllers react at the end of a batch
    /// ([`NODES_PER_RECONCILE`]), after the last node, and on an error (to the nodes of the batch
    /// added before it), after which nothing more is added.
    pub fn add_next(&mut self, cluster: &mut Cluster) -> Result<(), ApiError> {
        let Some(name) = self.names.get(self.added) else {
            return Ok(());
        };
        if self.added == 0 {
            dsplay_sim::capacity::check_room_for_nodes(cluster.store(), self.names.len())?;
        }
        self.options.name = name.clone();
        let created = cluster.create_node(&self.options);
        if created.is_ok() {
            self.added += 1;
        }
        if created.is_err() || self.added.is_multiple_of(NODES_PER_RECONCILE) || self.is_done() {
            cluster.reconcile();
        }
        created
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

#[cfg(test)]
mod tests {
    use super::NODES_PER_RECONCILE;
    use crate::{Session, SessionOptions};
    use dsplay_api::Kind;

    /// The controllers react to each batch of joining nodes once: kube-proxy's DaemonSet status is
    /// written a few times a batch, far fewer times than nodes joined, and when the command ends
    /// every node runs one pod of each of kind's DaemonSets, the last (partial) batch included.
    #[test]
    fn the_controllers_see_the_joining_nodes_a_batch_at_a_time() {
        let mut session = Session::new(SessionOptions::default());
        let nodes = 5 * NODES_PER_RECONCILE + 3;
        let start = session.cluster().store().watch_log().len();
        let out = session.execute(&format!("sim node add --count {nodes} --prefix n-"));
        assert!(out[0].success, "{:?}", out[0].text());
        let store = session.cluster().store();
        let status_writes = store.watch_log()[start..]
            .iter()
            .filter(|e| e.kind == Kind::DaemonSet && e.name == "kube-proxy")
            .count();
        let batches = nodes.div_ceil(NODES_PER_RECONCILE);
        assert!(
            (1..=3 * batches).contains(&status_writes),
            "{status_writes} status writes for {batches} batches"
        );
        for ds in ["kube-proxy", "kindnet"] {
            let on_new_nodes = store
                .pods()
                .filter(|p| {
                    p.metadata
                        .name
                        .as_deref()
                        .is_some_and(|n| n.starts_with(ds))
                })
                .filter_map(|p| p.spec.as_ref()?.node_name.as_deref())
                .filter(|node| node.starts_with("n-"))
                .collect::<std::collections::BTreeSet<_>>();
            assert_eq!(on_new_nodes.len(), nodes, "{ds}");
        }
    }

    /// A node add that does not fit whole adds nothing: the cluster is as before and the error
    /// says how many more fit.
    #[test]
    fn a_node_add_past_the_clusters_room_adds_nothing() {
        use dsplay_sim::capacity::MAX_NODES;
        let mut session = Session::new(SessionOptions::default());
        let cluster = session.cluster_mut();
        for i in cluster.store().node_count()..MAX_NODES - 2 {
            cluster
                .create_node(&dsplay_sim::NodeOptions::new(&format!("n-{i}")))
                .expect("room");
        }
        let version = session.cluster().store().resource_version();
        let out = session.execute("sim node add --count 3 --prefix z-");
        assert!(!out[0].success);
        assert_eq!(
            out[0].text().trim_end(),
            format!(
                "Error from server (Forbidden): the simulated cluster holds at most {MAX_NODES} nodes: it has {}, so at most 2 more",
                MAX_NODES - 2
            )
        );
        assert_eq!(session.cluster().store().resource_version(), version);
        assert_eq!(session.cluster().store().node_count(), MAX_NODES - 2);
    }
}
