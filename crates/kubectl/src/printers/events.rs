//! The `Events:` block that ends every `describe` (`DescribeEvents`).

use super::age::{age_since, event_age};
use chrono::{DateTime, Utc};
use dsplay_api::types::Event;

/// The time `describe` sorts events by (`SortableEvents`: lastTimestamp), falling back to the
/// series' last observation, eventTime and firstTimestamp for events that lack it.
pub fn describe_sort_time(e: &Event) -> Option<DateTime<Utc>> {
    e.last_timestamp
        .as_ref()
        .map(|t| t.0)
        .or_else(|| {
            e.series
                .as_ref()
                .and_then(|s| s.last_observed_time.as_ref())
                .map(|t| t.0)
        })
        .or_else(|| e.event_time.as_ref().map(|t| t.0))
        .or_else(|| e.first_timestamp.as_ref().map(|t| t.0))
}

/// The AGE cell of one event row.
pub fn event_interval(e: &Event, now: DateTime<Utc>) -> String {
    let first = match &e.event_time {
        Some(t) => Some(t.0),
        None => e.first_timestamp.as_ref().map(|t| t.0),
    };
    if let Some(series) = &e.series {
        let last = series.last_observed_time.as_ref().map(|t| t.0);
        return format!(
            "{} (x{} over {})",
            age_since(last.as_ref(), now),
            series.count.unwrap_or(0),
            age_since(first.as_ref(), now)
        );
    }
    let last = e.last_timestamp.as_ref().map(|t| t.0);
    event_age(first.as_ref(), last.as_ref(), e.count.unwrap_or(0), now)
}

/// Tab-separated `Events:` text, to be aligned by the describe tabwriter. Returns
/// (`flush_before`, text): with events, kubectl flushes the writer first so the table aligns alone.
pub fn events_block(events: &[&Event], now: DateTime<Utc>) -> (bool, String) {
    if events.is_empty() {
        return (false, "Events:\t<none>\n".to_string());
    }
    let mut sorted: Vec<&Event> = events.to_vec();
    sorted.sort_by_key(|e| describe_sort_time(e));
    let mut text = String::from(
        "Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n",
    );
    for e in sorted {
        let source = source_component(e);
        text.push_str(&format!(
            "  {}\t{}\t{}\t{}\t{}\n",
            e.type_.as_deref().unwrap_or(""),
            e.reason.as_deref().unwrap_or(""),
            event_interval(e, now),
            source,
            e.message.as_deref().unwrap_or("").trim()
        ));
    }
    (true, text)
}

/// The component that reported an event: `source.component`, else `reportingComponent` (events.k8s.io
/// writers fill only the latter).
pub fn source_component(e: &Event) -> String {
    e.source
        .as_ref()
        .and_then(|s| s.component.clone())
        .filter(|s| !s.is_empty())
        .or_else(|| e.reporting_component.clone())
        .unwrap_or_default()
}
