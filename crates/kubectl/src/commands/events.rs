//! `kubectl events [--for TYPE/NAME] [--types Normal,Warning] [-A] [-w]`: the cluster's events, oldest
//! first, in kubectl's `events` layout (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE); with `--watch`
//! the events there are and then each new or updated one, until the next `sim` command.
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/cmd/events/events.go (`Validate`, `Run`: the
//! `--for` field selector, `SortableEvents`) and event_printer.go (`PrintObj`, `getInterval`).

use super::output_format::{self, OutputFormat};
use super::{namespace, parse_flags, CmdResult, Ctx, Failed};
use crate::flags::{boolean, value, FlagSpec};
use crate::printers::events::{describe_sort_time, event_interval};
use crate::printers::output::{self, GoStruct};
use crate::printers::tabwriter::TabWriter;
use dsplay_api::types::Event;
use dsplay_api::Object;

const EVENTS_FLAGS: &[FlagSpec] = &[
    boolean("all-namespaces", Some('A')),
    value("for", None),
    value("types", None),
    boolean("watch", Some('w')),
    value("chunk-size", None),
    value("output", Some('o')),
    boolean("no-headers", None),
];

/// The formats `kubectl events -o` knows: its PrintFlags' `AllowedFormats`, sorted (no table
/// formats: the table is the default printer).
const EVENTS_FORMATS: &str = "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml";

/// `corev1.EventList` and what it holds, in Go's field order (`kubectl events -o json` encodes the
/// typed list its client returned). Upstream: staging/src/k8s.io/api/core/v1/types.go Event,
/// EventSource, ObjectReference, EventSeries; apimachinery's ObjectMeta and ListMeta.
const EVENT_LIST: GoStruct = GoStruct {
    fields: &[
        ("kind", None),
        ("apiVersion", None),
        ("metadata", None),
        ("items", Some(&EVENT)),
    ],
};
const EVENT: GoStruct = GoStruct {
    fields: &[
        ("kind", None),
        ("apiVersion", None),
        ("metadata", Some(&OBJECT_META)),
        ("involvedObject", Some(&OBJECT_REFERENCE)),
        ("reason", None),
        ("message", None),
        ("source", Some(&EVENT_SOURCE)),
        ("firstTimestamp", None),
        ("lastTimestamp", None),
        ("count", None),
        ("type", None),
        ("eventTime", None),
        ("series", Some(&EVENT_SERIES)),
        ("action", None),
        ("related", Some(&OBJECT_REFERENCE)),
        ("reportingComponent", None),
        ("reportingInstance", None),
    ],
};
const OBJECT_META: GoStruct = GoStruct {
    fields: &[
        ("name", None),
        ("generateName", None),
        ("namespace", None),
        ("selfLink", None),
        ("uid", None),
        ("resourceVersion", None),
        ("generation", None),
        ("creationTimestamp", None),
        ("deletionTimestamp", None),
        ("deletionGracePeriodSeconds", None),
        ("labels", None),
        ("annotations", None),
        ("ownerReferences", None),
        ("finalizers", None),
    ],
};
const OBJECT_REFERENCE: GoStruct = GoStruct {
    fields: &[
        ("kind", None),
        ("namespace", None),
        ("name", None),
        ("uid", None),
        ("apiVersion", None),
        ("resourceVersion", None),
        ("fieldPath", None),
    ],
};
const EVENT_SOURCE: GoStruct = GoStruct {
    fields: &[("component", None), ("host", None)],
};
const EVENT_SERIES: GoStruct = GoStruct {
    fields: &[("count", None), ("lastObservedTime", None)],
};

/// `kubectl events`.
pub(crate) fn events(ctx: &mut Ctx, words: &[String]) -> CmdResult {
    let parsed = parse_flags(ctx, "events", words, EVENTS_FLAGS)?;
    let printer = match parsed.get("output").filter(|o| !o.is_empty()) {
        None => None,
        Some(text) => Some(events_printer(ctx, text)?),
    };
    let types = parsed.all("types");
    if types
        .iter()
        .any(|t| !t.eq_ignore_ascii_case("Normal") && !t.eq_ignore_ascii_case("Warning"))
    {
        return ctx.fail("valid --types are Normal or Warning");
    }
    let all = parsed.flag("all-namespaces");
    let ns = namespace(&parsed);
    let about = match parsed.get("for") {
        None => None,
        Some(spec) => {
            let Some((kind, name)) = spec.split_once('/') else {
                return ctx.fail("--for must be in resource/name form");
            };
            let kind = match super::resource_name::resolve(kind) {
                Ok(k) => k,
                Err(message) => {
                    // kubectl prints this one without its `error: ` prefix.
                    ctx.err(message);
                    return Err(Failed);
                }
            };
            Some((kind, name.to_string()))
        }
    };
    let filter = EventFilter {
        all,
        namespace: ns,
        types,
        about,
    };
    if parsed.flag("watch") {
        if printer.as_ref().is_some_and(|p| {
            !matches!(
                p,
                OutputFormat::Yaml | OutputFormat::Json | OutputFormat::Name
            )
        }) {
            return ctx.fail("\"kubectl events --watch\" with a template output is not available in the playground: use -o yaml, -o json or -o name");
        }
        super::watch::end_earlier(ctx);
        let (watch, rows) =
            super::Watch::events(ctx.cluster, filter, printer, parsed.flag("no-headers"));
        ctx.out(rows);
        ctx.watch = Some(watch);
        return Ok(());
    }
    let mut events: Vec<&Event> = ctx
        .cluster
        .store()
        .events()
        .filter(|e| filter.matches(e))
        .collect();
    if events.is_empty() {
        ctx.err(if all {
            "No events found.".to_string()
        } else {
            format!("No events found in {} namespace.", filter.namespace)
        });
        return Ok(());
    }
    events.sort_by_key(|e| describe_sort_time(e));
    if let Some(printer) = printer {
        let events: Vec<Event> = events.into_iter().cloned().collect();
        return print_event_list(ctx, &printer, events);
    }
    let now = ctx.cluster.now();
    let mut w = TabWriter::for_table();
    if !parsed.flag("no-headers") {
        w.write(&filter.header());
    }
    for e in events {
        w.write(&filter.row(e, now));
    }
    ctx.out(w.finish());
    Ok(())
}

/// Which events `kubectl events` shows: its namespace (or all), `--types` and `--for`.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/events/events.go `Run` (the `--for` field
/// selector, `filteredEventType`).
#[derive(Clone, Debug)]
pub(crate) struct EventFilter {
    all: bool,
    namespace: String,
    types: Vec<String>,
    about: Option<(dsplay_api::Kind, String)>,
}

impl EventFilter {
    /// Whether the event is shown.
    pub(crate) fn matches(&self, e: &Event) -> bool {
        let in_namespace = self.all || e.metadata.namespace.as_deref() == Some(&self.namespace);
        let typed = self.types.is_empty()
            || self.types.iter().any(|t| {
                e.type_
                    .as_deref()
                    .is_some_and(|et| et.eq_ignore_ascii_case(t))
            });
        let about = self.about.as_ref().is_none_or(|(kind, name)| {
            let o = &e.involved_object;
            o.kind.as_deref() == Some(kind.name())
                && o.api_version.as_deref() == Some(kind.api_version())
                && o.name.as_deref() == Some(name.as_str())
        });
        in_namespace && typed && about
    }

    /// The header line (with NAMESPACE for `-A`). Upstream: event_printer.go `printHeadings`.
    pub(crate) fn header(&self) -> String {
        let prefix = if self.all { "NAMESPACE\t" } else { "" };
        format!("{prefix}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n")
    }

    /// One event's line, tab-separated. Upstream: event_printer.go `printOneEvent`.
    pub(crate) fn row(&self, e: &Event, now: chrono::DateTime<chrono::Utc>) -> String {
        let namespace = if self.all {
            format!("{}\t", e.metadata.namespace.as_deref().unwrap_or(""))
        } else {
            String::new()
        };
        format!(
            "{namespace}{}\t{}\t{}\t{}/{}\t{}\n",
            event_interval(e, now),
            e.type_.as_deref().unwrap_or(""),
            e.reason.as_deref().unwrap_or(""),
            e.involved_object.kind.as_deref().unwrap_or(""),
            e.involved_object.name.as_deref().unwrap_or(""),
            e.message.as_deref().unwrap_or("").trim()
        )
    }
}

/// One event as a watch prints it with `-o yaml|json|name` (None for other formats): each object
/// on its own, YAML documents separated by `---`.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/events/events.go runWatch (`PrintObj` per event);
/// cli-runtime printers/yaml.go `PrintObj` (the separator before every document but the first).
pub(crate) fn watched_event_text(format: &OutputFormat, e: &Event, first: bool) -> Option<String> {
    let value = || Object::Event(e.clone()).to_json();
    match format {
        OutputFormat::Yaml => {
            let separator = if first { "" } else { "---\n" };
            Some(format!("{separator}{}", output::to_yaml(&value())))
        }
        OutputFormat::Json => Some(output::to_json_typed(&value(), &EVENT)),
        OutputFormat::Name => Some(output::name_line(
            dsplay_api::Kind::Event,
            e.metadata.name.as_deref().unwrap_or(""),
        )),
        _ => None,
    }
}

/// The printer `kubectl events -o TEXT` names, or kubectl's error for a format it lacks.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/events/events.go Complete (`PrintFlags.ToPrinter`).
fn events_printer(ctx: &mut Ctx, text: &str) -> Result<OutputFormat, Failed> {
    let name = text.split_once('=').map_or(text, |(name, _)| name);
    let bare = matches!(name, "json" | "yaml" | "name");
    if !EVENTS_FORMATS.split(',').any(|f| f == name) || (bare && name != text) {
        ctx.err(format!("error: unable to match a printer suitable for the output format \"{text}\", allowed formats are: {EVENTS_FORMATS}"));
        return Err(Failed);
    }
    output_format::parse(ctx, text)
}

/// `kubectl events -o …`: the typed `EventList` (kind and apiVersion set, empty list metadata)
/// through the printer. The playground keeps no `managedFields`, which a real cluster's events
/// carry in this output.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/cmd/events/events.go Run.
fn print_event_list(ctx: &mut Ctx, printer: &OutputFormat, events: Vec<Event>) -> CmdResult {
    let items: Vec<serde_json::Value> = events
        .into_iter()
        .map(|e| Object::Event(e).to_json())
        .collect();
    let list = serde_json::json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "EventList",
        "metadata": {},
    });
    match printer {
        OutputFormat::Yaml => ctx.out(output::to_yaml(&list)),
        OutputFormat::Json => ctx.out(output::to_json_typed(&list, &EVENT_LIST)),
        // kubectl's name printer refuses a typed list ("list types are not supported by name
        // printing") and `Run` drops the error: nothing is printed, and the command succeeds.
        OutputFormat::Name => {}
        OutputFormat::JsonPath { .. } | OutputFormat::GoTemplate(_) => {
            output_format::print_template(ctx, printer, &list)?
        }
        // Not among the formats `events_printer` accepts.
        OutputFormat::Table { .. } | OutputFormat::CustomColumns(_) => {}
    }
    Ok(())
}
