//! `kubectl get` and `kubectl describe`.

use super::output_format::{self, OutputFormat};
use super::{namespace, parse_flags, resource_args, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value, FlagSpec, Parsed};
use crate::printers::{get as rows, output, table};
use dsplay_api::types::*;
use dsplay_api::{fields, selector, Kind, Object};
use dsplay_sim::{ApiError, Cluster};

pub(crate) const GET_FLAGS: &[FlagSpec] = &[
    value("output", Some('o')),
    boolean("all-namespaces", Some('A')),
    value("selector", Some('l')),
    value("field-selector", None),
    value("label-columns", Some('L')),
    boolean("show-labels", None),
    boolean("watch", Some('w')),
    boolean("no-headers", None),
    value("filename", Some('f')),
    value("sort-by", None),
    boolean("ignore-not-found", None),
];

/// Objects selected by kind, namespace scope, label and field selectors.
#[derive(Clone, Debug)]
pub(crate) struct Query {
    pub all_namespaces: bool,
    pub namespace: String,
    pub labels: Option<selector::Selector>,
    /// `-l` as written, and why it does not parse: the API server refuses the list request, so
    /// [`Query::select`] reports it (kubectl sends the selector unparsed).
    label_text: String,
    label_error: Option<String>,
    pub fields: Vec<fields::FieldTerm>,
}

impl Query {
    pub(crate) fn from_flags(ctx: &mut Ctx, parsed: &Parsed) -> Result<Query, Failed> {
        Query::parse(parsed).map_err(|message| {
            ctx.err(format!("error: {message}"));
            Failed
        })
    }

    /// The query of parsed `get` flags, or kubectl's message (without `error: `) for a field
    /// selector it refuses client-side. A label selector that does not parse is kept with its
    /// error: kubectl sends it unparsed and the API server refuses the list ([`Query::select`]).
    pub(crate) fn parse(parsed: &Parsed) -> Result<Query, String> {
        let label_text = parsed.get("selector").unwrap_or_default().to_string();
        let (labels, label_error) = match parsed.get("selector").map(selector::parse) {
            Some(Ok(s)) => (Some(s), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        let fields = fields::parse(parsed.get("field-selector").unwrap_or(""))?;
        Ok(Query {
            all_namespaces: parsed.flag("all-namespaces"),
            namespace: namespace(parsed),
            labels,
            label_text,
            label_error,
            fields,
        })
    }

    /// The objects of `kind` this query selects, in (namespace, name) order.
    pub(crate) fn select(&self, ctx: &mut Ctx, kind: Kind) -> Result<Vec<Object>, Failed> {
        ctx.request(kind);
        if let Some(e) = &self.label_error {
            ctx.err(self.bad_request(kind, e));
            return Err(Failed);
        }
        for (key, _, _) in &self.fields {
            if !fields::supported(kind, key) {
                ctx.err(self.bad_request(kind, &format!("field label not supported: {key}")));
                return Err(Failed);
            }
        }
        let objects = ctx.cluster.store().list(kind);
        Ok(objects
            .into_iter()
            .filter(|o| self.matches(kind, o))
            .collect())
    }

    /// Why `-l` does not parse, if it does not.
    pub(crate) fn label_error(&self) -> Option<&str> {
        self.label_error.as_deref()
    }

    /// Whether `-l` or `--field-selector` was given (even one that does not parse).
    pub(crate) fn has_selector(&self) -> bool {
        !self.label_text.is_empty() || !self.fields.is_empty()
    }

    /// The API server's refusal of this list request, as kubectl words it (cli-runtime
    /// `Selector.Visit`).
    fn bad_request(&self, kind: Kind, why: &str) -> String {
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|(k, n, v)| format!("{k}{}{v}", if *n { "!=" } else { "=" }))
            .collect();
        format!(
            "Error from server (BadRequest): Unable to find \"{}, Resource={}\" that match label selector \"{}\", field selector \"{}\": {why}",
            group_version(kind),
            kind.plural(),
            self.label_text,
            fields.join(",")
        )
    }

    /// The objects of `kind` this query selects, without error reporting (watches re-run it).
    pub(crate) fn select_in(&self, cluster: &Cluster, kind: Kind) -> Vec<Object> {
        cluster
            .store()
            .list(kind)
            .into_iter()
            .filter(|o| self.matches(kind, o))
            .collect()
    }

    /// Whether one object is selected (namespace, label and field selectors).
    pub(crate) fn matches(&self, kind: Kind, o: &Object) -> bool {
        let meta = o.metadata();
        if kind.namespaced()
            && !self.all_namespaces
            && meta.namespace.as_deref() != Some(self.namespace.as_str())
        {
            return false;
        }
        let empty = Default::default();
        if let Some(sel) = &self.labels {
            if !sel.matches(meta.labels.as_ref().unwrap_or(&empty)) {
                return false;
            }
        }
        fields::matches(o, &self.fields)
    }
}

fn group_version(kind: Kind) -> String {
    let v = kind.api_version();
    if kind.group().is_empty() {
        format!("/{v}")
    } else {
        v.to_string()
    }
}

/// The table of one kind's objects.
pub(crate) fn table_for(kind: Kind, objects: &[Object], cluster: &Cluster) -> table::Table {
    rows::table_for(kind, objects, cluster.now())
}

/// `kubectl get`.
pub(crate) fn get(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "get", words, GET_FLAGS)?;
    if parsed.args.is_empty() {
        ctx.err("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples");
        return Err(Failed);
    }
    let format = parsed.get("output").unwrap_or("").to_string();
    output_format::check_known(ctx, &format)?;
    // Upstream: pkg/cmd/get/get.go Complete (labels are a column of the table printer only).
    if parsed.flag("show-labels") && !matches!(format.as_str(), "" | "wide") {
        return ctx.fail(format!(
            "--show-labels option cannot be used with {format} printer"
        ));
    }
    let query = Query::from_flags(ctx, &parsed)?;
    let mut args = parsed.args.clone();
    let all = args[0] == "all";
    if all {
        args[0] = "pods,services,daemonsets,deployments,replicasets,statefulsets".to_string();
    }
    let requests = resource_args(ctx, &args)?;
    let printer = output_format::parse(ctx, &format)?;
    // Group requests by kind, keeping order.
    let mut kinds: Vec<Kind> = Vec::new();
    for (k, _) in &requests {
        if !kinds.contains(k) {
            kinds.push(*k);
        }
    }
    let mut failed = false;
    let mut selected: Vec<(Kind, Vec<Object>)> = Vec::new();
    let mut errors = Vec::new();
    for kind in &kinds {
        let names: Vec<String> = requests
            .iter()
            .filter(|(k, n)| k == kind && n.is_some())
            .filter_map(|(_, n)| n.clone())
            .collect();
        let pool = query.select(ctx, *kind)?;
        if names.is_empty() {
            selected.push((*kind, pool));
        } else {
            let mut found = Vec::new();
            for name in &names {
                match pool.iter().find(|o| o.name() == name) {
                    Some(o) => found.push(o.clone()),
                    None if parsed.flag("ignore-not-found") => {}
                    None => {
                        failed = true;
                        errors.push(super::api_error_text(
                            &ApiError::NotFound {
                                kind: *kind,
                                name: name.clone(),
                            },
                            None,
                        ));
                    }
                }
            }
            selected.push((*kind, found));
        }
    }
    if let Some(expr) = parsed.get("sort-by") {
        let table = printer.is_table();
        for (_, objects) in selected.iter_mut() {
            match sort_by_jsonpath(objects, expr) {
                Ok(()) => {}
                // A table of several rows is sorted by its printer, whose error kubectl's get
                // ignores: the table is not printed (and with nothing printed, "No resources
                // found"). Upstream: pkg/cmd/get/sorter.go SortingPrinter.PrintObj; get.go Run.
                Err(_) if table && objects.len() > 1 => objects.clear(),
                Err(e) => return ctx.fail(e),
            }
        }
    }
    let single_named = requests.len() == 1 && requests[0].1.is_some();
    let total: usize = selected.iter().map(|(_, v)| v.len()).sum();
    let values = || -> Vec<serde_json::Value> {
        selected
            .iter()
            .flat_map(|(_, v)| v.iter().map(Object::to_json))
            .collect()
    };
    // One named object prints as itself, anything else as a List (get.go printGeneric).
    let one_or_list = |mut values: Vec<serde_json::Value>| {
        if single_named && values.len() == 1 {
            values.swap_remove(0)
        } else {
            output::list_value(values)
        }
    };
    match &printer {
        OutputFormat::Yaml | OutputFormat::Json => {
            if total > 0 || !single_named {
                let value = one_or_list(values());
                ctx.out(if matches!(printer, OutputFormat::Yaml) {
                    output::to_yaml(&value)
                } else {
                    output::to_json(&value)
                });
            }
        }
        OutputFormat::Name => {
            let text: String = selected
                .iter()
                .flat_map(|(k, v)| v.iter().map(move |o| output::name_line(*k, o.name())))
                .collect();
            ctx.out(text);
        }
        // A missing named object prints nothing but its error.
        OutputFormat::JsonPath { .. } | OutputFormat::GoTemplate(_)
            if total > 0 || !single_named =>
        {
            super::output_format::print_template(ctx, &printer, &one_or_list(values()))?;
        }
        OutputFormat::JsonPath { .. } | OutputFormat::GoTemplate(_) => {}
        OutputFormat::CustomColumns(columns) => {
            let (text, error) = columns.render(&values(), parsed.flag("no-headers"));
            ctx.out_raw(text);
            if let Some(e) = error {
                return ctx.fail(e);
            }
        }
        OutputFormat::Table { wide } => {
            let opts = table::TableOptions {
                wide: *wide,
                with_namespace: query.all_namespaces,
                column_labels: parsed.all("label-columns"),
                show_labels: parsed.flag("show-labels"),
                no_headers: parsed.flag("no-headers"),
                kind_prefix: None,
            };
            let mut blocks = Vec::new();
            // The server answers one Table per requested type, empty or not, and kubectl prefixes
            // the names as soon as more than one came back (`multipleGVKsRequested`).
            let multi = kinds.len() > 1 || all;
            for (kind, objects) in &selected {
                if objects.is_empty() {
                    continue;
                }
                let mut o = opts.clone();
                if multi {
                    o.kind_prefix = Some(kind.qualified_singular());
                }
                let mut o2 = o.clone();
                o2.with_namespace = o.with_namespace && kind.namespaced();
                blocks.push(table_for(*kind, objects, ctx.cluster).render(&o2));
            }
            if !blocks.is_empty() {
                ctx.out(blocks.join("\n"));
            }
            if parsed.flag("watch") {
                super::watch::end_earlier(ctx);
                ctx.watch = Some(super::Watch::get(
                    ctx.cluster,
                    query.clone(),
                    kinds.clone(),
                    opts.clone(),
                ));
            }
        }
    }
    for e in errors {
        ctx.err(e);
    }
    // A watch prints no notice: its header comes with the first row (get.go `watch`).
    if printer.is_table()
        && total == 0
        && !failed
        && !parsed.flag("watch")
        && !single_named
        && !(requests.iter().any(|(_, n)| n.is_some()))
    {
        let cluster_scoped = kinds.iter().all(|k| !k.namespaced());
        if query.all_namespaces || cluster_scoped {
            ctx.err(table::no_resources_found());
        } else {
            ctx.err(table::no_resources_found_in(&query.namespace));
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

/// `kubectl describe`.
pub(crate) fn describe(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(
        ctx,
        "describe",
        words,
        &[
            value("selector", Some('l')),
            boolean("all-namespaces", Some('A')),
            boolean("show-events", None),
        ],
    )?;
    if parsed.args.is_empty() {
        return ctx.fail("You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.");
    }
    let query = Query::from_flags(ctx, &parsed)?;
    let requests = resource_args(ctx, &parsed.args)?;
    let mut texts = Vec::new();
    let mut failed = false;
    for (kind, name) in &requests {
        let pool = query.select(ctx, *kind)?;
        let objects: Vec<Object> = match name {
            Some(n) => match pool.iter().find(|o| o.name() == n) {
                Some(o) => vec![o.clone()],
                None => {
                    ctx.err(super::api_error_text(
                        &ApiError::NotFound {
                            kind: *kind,
                            name: n.clone(),
                        },
                        None,
                    ));
                    failed = true;
                    continue;
                }
            },
            None => pool,
        };
        for o in objects {
            texts.push(describe_object(ctx.cluster, &o));
        }
    }
    if texts.is_empty() && !failed {
        ctx.err(table::no_resources_found_in(&query.namespace));
    }
    ctx.out(texts.join("\n\n"));
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

pub(crate) fn events_for<'a>(cluster: &'a Cluster, uid: Option<&str>) -> Vec<&'a Event> {
    cluster
        .store()
        .events()
        .filter(|e| e.involved_object.uid.as_deref() == uid)
        .collect()
}

/// `describe` text of one object.
pub(crate) fn describe_object(cluster: &Cluster, o: &Object) -> String {
    use crate::printers::describe as d;
    let now = cluster.now();
    let store = cluster.store();
    match o {
        Object::DaemonSet(ds) => {
            let uid = ds.metadata.uid.clone().unwrap_or_default();
            let pods: Vec<&Pod> = store.pods_owned_by(&ds.metadata).collect();
            d::describe_daemon_set(ds, &pods, &events_for(cluster, Some(&uid)), now)
        }
        Object::Pod(pod) => {
            d::describe_pod(pod, &events_for(cluster, pod.metadata.uid.as_deref()), now)
        }
        Object::Node(node) => {
            let name = node.metadata.name.clone().unwrap_or_default();
            let pods: Vec<&Pod> = store
                .pods()
                .filter(|p| {
                    p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name.as_str())
                })
                .collect();
            let events: Vec<&Event> = store
                .events()
                .filter(|e| {
                    e.involved_object.kind.as_deref() == Some("Node")
                        && e.involved_object.name.as_deref() == Some(name.as_str())
                })
                .collect();
            d::describe_node(node, &pods, &events, now)
        }
        Object::PriorityClass(pc) => {
            d::describe_priority_class(pc, &events_for(cluster, pc.metadata.uid.as_deref()), now)
        }
        Object::Namespace(ns) => d::describe_namespace(ns),
        Object::Deployment(dep) => super::describe_apps::describe_deployment(cluster, dep),
        Object::ReplicaSet(rs) => {
            let uid = rs.metadata.uid.clone().unwrap_or_default();
            let pods: Vec<&Pod> = store.pods_owned_by(&rs.metadata).collect();
            d::describe_replica_set(rs, &pods, &events_for(cluster, Some(&uid)), now)
        }
        Object::Service(svc) => {
            let name = svc.metadata.name.as_deref().unwrap_or("");
            let namespace = svc.metadata.namespace.as_deref().unwrap_or("");
            let slices: Vec<&EndpointSlice> = store
                .endpoint_slices()
                .filter(|s| {
                    s.metadata.namespace.as_deref() == Some(namespace)
                        && s.metadata
                            .labels
                            .as_ref()
                            .and_then(|l| l.get(dsplay_api::service::LABEL_SERVICE_NAME))
                            .map(String::as_str)
                            == Some(name)
                })
                .collect();
            d::describe_service(
                svc,
                &slices,
                &events_for(cluster, svc.metadata.uid.as_deref()),
                now,
            )
        }
        Object::EndpointSlice(slice) => d::describe_endpoint_slice(
            slice,
            &events_for(cluster, slice.metadata.uid.as_deref()),
            now,
        ),
        Object::StatefulSet(sts) => {
            let uid = sts.metadata.uid.clone().unwrap_or_default();
            let pods: Vec<&Pod> = store.pods_owned_by(&sts.metadata).collect();
            d::describe_stateful_set(sts, &pods, &events_for(cluster, Some(&uid)), now)
        }
        Object::PersistentVolumeClaim(claim) => {
            let name = claim.metadata.name.clone().unwrap_or_default();
            let used_by: Vec<&str> = store
                .pods()
                .filter(|p| p.metadata.namespace == claim.metadata.namespace)
                .filter(|p| dsplay_sim::volume_binding::pod_claim_names(p).contains(&name))
                .filter_map(|p| p.metadata.name.as_deref())
                .collect();
            d::describe_persistent_volume_claim(
                claim,
                &used_by,
                &events_for(cluster, claim.metadata.uid.as_deref()),
                now,
            )
        }
        Object::PersistentVolume(pv) => {
            d::describe_persistent_volume(pv, &events_for(cluster, pv.metadata.uid.as_deref()), now)
        }
        Object::StorageClass(sc) => {
            d::describe_storage_class(sc, &events_for(cluster, sc.metadata.uid.as_deref()), now)
        }
        Object::Endpoints(ep) => {
            d::describe_endpoints(ep, &events_for(cluster, ep.metadata.uid.as_deref()), now)
        }
        other => format!("Name:         {}\n", other.name()),
    }
}

/// `--sort-by=JSONPATH`: a stable sort on the field's value, numeric when both values are numbers;
/// objects without the field come first, and a field no object has is an error.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go SortObjects, NewTableSorter.
fn sort_by_jsonpath(objects: &mut [Object], expr: &str) -> Result<(), String> {
    // One object is never sorted, so its expression is never read (RuntimeSorter.Sort,
    // SortingPrinter.PrintObj).
    if objects.len() < 2 {
        return Ok(());
    }
    let template = output::relaxed_json_path_expression(expr)?;
    if template.is_empty() {
        return Ok(());
    }
    let mut keyed = Vec::with_capacity(objects.len());
    for o in objects.iter() {
        let key = output::jsonpath_first(&template, &o.to_json()).map_err(|e| e.0)?;
        keyed.push((key, o.clone()));
    }
    if keyed.iter().all(|(key, _)| key.is_none()) {
        return Err(format!(
            "couldn't find any field with path {template:?} in the list of objects"
        ));
    }
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(a), Some(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
            _ => a.cmp(b),
        },
    });
    for (slot, (_, o)) in objects.iter_mut().zip(keyed) {
        *slot = o;
    }
    Ok(())
}
