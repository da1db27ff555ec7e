//! A draggable divider between two panels (WAI-ARIA "window splitter"): drag it with the pointer,
//! or focus it and use the arrow keys, Home and End; a double click restores the default size.
//!
//! It sizes one neighbour (the panel before it, or the one after it) and reports the new size in
//! pixels; the app turns that into a CSS variable of the layout.

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

/// Which way the divider runs, and so which neighbour it sizes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Split {
    /// A vertical bar sizing the width of the panel before it.
    Columns,
    /// A horizontal bar sizing the height of the panel after it.
    Rows,
}

/// Props of [`Splitter`].
#[derive(Properties, PartialEq)]
pub struct SplitterProps {
    pub split: Split,
    /// The accessible name ("Resize the side column").
    pub label: AttrValue,
    /// Smallest and largest size in px.
    pub min: i32,
    pub max: i32,
    /// The size the learner chose, if any (else the stylesheet's default applies).
    pub size: Option<i32>,
    /// The new size in px, or `None` to go back to the default layout.
    pub on_resize: Callback<Option<i32>>,
}

/// Arrow keys move the divider by this much.
const KEY_STEP: i32 = 24;

/// The size of the neighbour the divider controls, as laid out now.
fn neighbour_size(bar: &Element, split: Split) -> Option<i32> {
    let rect = match split {
        Split::Columns => bar
            .previous_element_sibling()?
            .get_bounding_client_rect()
            .width(),
        Split::Rows => bar
            .next_element_sibling()?
            .get_bounding_client_rect()
            .height(),
    };
    Some(rect.round() as i32)
}

/// The divider.
#[function_component(Splitter)]
pub fn splitter(props: &SplitterProps) -> Html {
    // While dragging: the pointer position and the neighbour's size when the drag began.
    let drag = use_mut_ref(|| None::<(i32, i32)>);
    let bar = use_node_ref();
    // The neighbour's size as laid out (for `aria-valuenow`), measured after each change.
    let measured = use_state(|| 0);
    let (split, min, max) = (props.split, props.min, props.max);
    {
        let (bar, measured) = (bar.clone(), measured.clone());
        use_effect_with(props.size, move |_| {
            if let Some(size) = bar
                .cast::<Element>()
                .and_then(|b| neighbour_size(&b, split))
            {
                measured.set(size);
            }
        });
    }
    let resize = {
        let on_resize = props.on_resize.clone();
        move |size: Option<i32>| on_resize.emit(size.map(|s| s.clamp(min, max)))
    };
    let position = move |e: &PointerEvent| match split {
        Split::Columns => e.client_x(),
        Split::Rows => e.client_y(),
    };
    let onpointerdown = {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            let Some(bar) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
                return;
            };
            if let Some(size) = neighbour_size(&bar, split) {
                let _ = bar.set_pointer_capture(e.pointer_id());
                *drag.borrow_mut() = Some((position(&e), size));
                e.prevent_default();
            }
        })
    };
    let onpointermove = {
        let (drag, resize) = (drag.clone(), resize.clone());
        Callback::from(move |e: PointerEvent| {
            let Some((from, size)) = *drag.borrow() else {
                return;
            };
            let moved = position(&e) - from;
            // A column grows rightwards; the bottom row grows when the bar moves up.
            resize(Some(match split {
                Split::Columns => size + moved,
                Split::Rows => size - moved,
            }));
        })
    };
    let onpointerup = {
        let drag = drag.clone();
        Callback::from(move |_: PointerEvent| *drag.borrow_mut() = None)
    };
    let onkeydown = {
        let resize = resize.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(bar) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
                return;
            };
            let Some(size) = neighbour_size(&bar, split) else {
                return;
            };
            let (grow, shrink) = match split {
                Split::Columns => ("ArrowRight", "ArrowLeft"),
                Split::Rows => ("ArrowUp", "ArrowDown"),
            };
            let key = e.key();
            let next = match key.as_str() {
                k if k == grow => size + KEY_STEP,
                k if k == shrink => size - KEY_STEP,
                "Home" => min,
                "End" => max,
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            resize(Some(next));
        })
    };
    let ondblclick = Callback::from(move |_: MouseEvent| resize(None));
    let orientation = match split {
        Split::Columns => "vertical",
        Split::Rows => "horizontal",
    };
    html! {
        <div ref={bar} class={classes!("splitter", orientation)} role="separator" tabindex="0"
            aria-orientation={orientation} aria-label={props.label.clone()}
            aria-valuemin={min.to_string()} aria-valuemax={max.to_string()}
            aria-valuenow={measured.to_string()}
            title="Drag to resize (arrow keys when focused; double-click to reset)"
            {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()} onpointercancel={onpointerup}
            {onkeydown} {ondblclick} />
    }
}
