//! Requests in flight: for each `sim curl` the last command made, a dot travels from the node it
//! left from (or from the cluster panel's corner, for a request from outside the cluster) to the
//! pod that answered, which is outlined for a moment. The positions are measured after rendering;
//! CSS does the motion.

use crate::model::traffic::Flight;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Props of [`Traffic`].
#[derive(Properties, PartialEq)]
pub struct TrafficProps {
    pub flights: Rc<Vec<Flight>>,
}

/// The layer of dots, over the cluster view.
#[function_component(Traffic)]
pub fn traffic(props: &TrafficProps) -> Html {
    let layer = use_node_ref();
    {
        let layer = layer.clone();
        use_effect_with(props.flights.clone(), move |flights| {
            if let Some(layer) = layer.cast::<Element>() {
                place(&layer, flights);
            }
        });
    }
    html! {
        <div class="traffic" ref={layer} aria-hidden="true">
            { for props.flights.iter().map(|f| html! {
                <span key={f.id} class="flight" data-flight={f.id.to_string()} data-to-pod={f.to_pod.clone()}></span>
            }) }
        </div>
    }
}

/// Sets each dot's start and end (relative to the layer) and starts it.
fn place(layer: &Element, flights: &[Flight]) {
    let Some(panel) = layer.parent_element() else {
        return;
    };
    let origin = layer.get_bounding_client_rect();
    let centre = |el: &Element| {
        let r = el.get_bounding_client_rect();
        (
            r.left() + r.width() / 2.0 - origin.left(),
            r.top() + r.height() / 2.0 - origin.top(),
        )
    };
    let find = |selector: String| panel.query_selector(&selector).ok().flatten();
    for flight in flights {
        let Some(dot) = find(format!(".flight[data-flight=\"{}\"]", flight.id))
            .and_then(|d| d.dyn_into::<HtmlElement>().ok())
        else {
            continue;
        };
        let target = find(format!(
            "[data-pod=\"{}\"][data-namespace=\"{}\"]",
            flight.to_pod, flight.to_namespace
        ));
        let source = flight
            .from_node
            .as_ref()
            .and_then(|node| find(format!(".node[data-node=\"{node}\"] .node-head")));
        let Some(target) = target else {
            continue;
        };
        // The answer is the point: bring the pod into view (at once, so the measures hold).
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        target.scroll_into_view_with_scroll_into_view_options(&options);
        let (x1, y1) = centre(&target);
        // A source scrolled out of view starts at the layer's edge nearest to it.
        let (x0, y0) = source.map(|s| centre(&s)).unwrap_or((8.0, 8.0));
        let y0 = y0.clamp(8.0, (origin.height() - 8.0).max(8.0));
        let style = dot.style();
        for (name, value) in [("--x0", x0), ("--y0", y0), ("--x1", x1), ("--y1", y1)] {
            let _ = style.set_property(name, &format!("{value:.0}px"));
        }
        let _ = dot.class_list().add_1("flying");
        // The pod that answered is outlined a moment (all that shows with reduced motion).
        let _ = target.class_list().add_1("answered");
        gloo::timers::callback::Timeout::new(ANSWERED_MS, move || {
            let _ = target.class_list().remove_1("answered");
        })
        .forget();
    }
}

/// How long the answering pod stays outlined (as long as the dot's flight).
const ANSWERED_MS: u32 = 1_600;
