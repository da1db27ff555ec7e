//! Glue to the browser's APIs the app uses: `localStorage`, the page URL, the clipboard, `fetch`,
//! `postMessage`, `performance.now()` and the next task. Each function degrades to a no-op (or
//! `None`) where the API is missing (natively, in tests, in locked-down browsers); none of them
//! throws.

use crate::persist::without_link_params;

/// The page's window; `None` natively (where the app only renders to HTML, see
/// `src/bin/prerender.rs`) as in a worker.
pub fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// The page's `location.search` and `location.hash` (empty where there is no window).
pub fn location_search_and_hash() -> (String, String) {
    let location = window().map(|w| w.location());
    let get = |f: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
        location
            .as_ref()
            .and_then(|l| f(l).ok())
            .unwrap_or_default()
    };
    (get(web_sys::Location::search), get(web_sys::Location::hash))
}

/// The folder URL of the page (origin and path up to its last `/`; `./` where there is no window).
pub fn page_folder() -> String {
    let Some(location) = window().map(|w| w.location()) else {
        return "./".into();
    };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    let folder = path.rfind('/').map_or("/", |i| &path[..=i]);
    format!("{origin}{folder}")
}

fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// The text stored under `key` in `localStorage`, if any. Every key the app stores starts with
/// `dsplay` (`web/first-paint.js` takes any such key for a returning visit).
pub fn storage_get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `text` under `key`; `Err` with the browser's reason when it refuses (quota exceeded,
/// storage disabled).
pub fn storage_set(key: &str, text: &str) -> Result<(), String> {
    let storage = storage().ok_or("browser storage is not available")?;
    storage.set_item(key, text).map_err(|e| {
        js_error_name(&e).unwrap_or_else(|| "the browser refused to store it".to_string())
    })
}

/// Deletes `key` from `localStorage`.
pub fn storage_remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// The `name` of a thrown DOMException (`QuotaExceededError`…).
fn js_error_name(e: &wasm_bindgen::JsValue) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Reflect::get(e, &"name".into()).ok()?.as_string()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = e;
        None
    }
}

/// Removes the parameters that load a session (`script=`, `s=`) from the URL, without navigating,
/// so a reload restores the autosave instead of loading the link again.
pub fn drop_link_params() {
    let (search, hash) = location_search_and_hash();
    replace_url(
        &without_link_params(&search, '?'),
        &without_link_params(&hash, '#'),
    );
}

/// Replaces the URL's query and hash (each with its `?`/`#`, or empty) without navigating.
fn replace_url(search: &str, hash: &str) {
    let Some(window) = window() else {
        return;
    };
    let path = window.location().pathname().unwrap_or_default();
    if let Ok(history) = window.history() {
        let url = format!("{path}{search}{hash}");
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Puts `hash` in the URL, copies the page's link to the clipboard and returns it.
pub fn share_url(hash: &str) -> String {
    let (search, _) = location_search_and_hash();
    replace_url(&without_link_params(&search, '?'), &format!("#{hash}"));
    let Some(window) = window() else {
        return format!("#{hash}");
    };
    let link = window.location().href().unwrap_or_default();
    copy_to_clipboard(&window, &link);
    link
}

/// Copies `text` to the clipboard if the page may (a refusal is ignored).
pub fn copy_text(text: &str) {
    if let Some(window) = window() {
        copy_to_clipboard(&window, text);
    }
}

/// Sets the page's `<html lang>` (screen readers and fonts follow it).
pub fn set_document_language(code: &str) {
    if let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", code);
    }
}

/// Fetches `url` (relative to the page) as text; `Err` says why not (network, CORS or the page's
/// security policy, an HTTP error status). The request starts at the call, not at the first poll,
/// so several can be in flight at once.
#[cfg(target_arch = "wasm32")]
pub fn fetch_text(url: &str) -> impl std::future::Future<Output = Result<String, String>> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let url = url.to_string();
    let request = window().map(|w| JsFuture::from(w.fetch_with_str(&url)));
    async move {
        let response = request
            .ok_or("no window")?
            .await
            .map_err(|_| format!("{url}: could not be fetched (offline, or on another site: the page's security policy lets it fetch from its own site only)"))?;
        let response: web_sys::Response = response
            .dyn_into()
            .map_err(|_| format!("{url}: not an HTTP response"))?;
        if !response.ok() {
            return Err(format!(
                "{url}: HTTP {} {}",
                response.status(),
                response.status_text()
            ));
        }
        let text = response
            .text()
            .map_err(|_| format!("{url}: the body cannot be read"))?;
        JsFuture::from(text)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| format!("{url}: the body is not text"))
    }
}

/// Natively there is nothing to fetch from.
#[cfg(not(target_arch = "wasm32"))]
pub fn fetch_text(url: &str) -> impl std::future::Future<Output = Result<String, String>> {
    std::future::ready(Err(format!("{url}: fetching needs a browser")))
}

/// Copies `text` if the page may (secure contexts only); a refusal is ignored, not thrown.
#[cfg(target_arch = "wasm32")]
fn copy_to_clipboard(window: &web_sys::Window, text: &str) {
    use wasm_bindgen::{closure::Closure, JsValue};
    let navigator = window.navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !has_clipboard {
        return;
    }
    let ignore = Closure::wrap(Box::new(|_: JsValue| {}) as Box<dyn FnMut(JsValue)>);
    let _ = navigator.clipboard().write_text(text).catch(&ignore);
    ignore.forget();
}

#[cfg(not(target_arch = "wasm32"))]
fn copy_to_clipboard(_: &web_sys::Window, _: &str) {}

/// `encodeURIComponent(text)` (the text as is natively, where there is no JS).
pub fn encode_uri_component(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::encode_uri_component(text).into()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_string()
    }
}

/// A postMessage request from an accepted origin as the action that runs it:
/// `{type: "dsplay:run", id, command}` (answered by `dsplay:output`) or
/// `{type: "dsplay:request", id, method, arg}` (answered by `dsplay:response`); `None` for
/// anything else.
#[cfg(target_arch = "wasm32")]
pub fn parse_request(
    e: &wasm_bindgen::JsValue,
    accepts_origin: impl Fn(&str) -> bool,
) -> Option<crate::state::Action> {
    use crate::embed_request::{ReplyKind, Request};
    use crate::state::Action;
    use wasm_bindgen::JsCast;
    let event = e.dyn_ref::<web_sys::MessageEvent>()?;
    if !accepts_origin(&event.origin()) {
        return None;
    }
    let data = event.data();
    if !data.is_object() {
        return None;
    }
    let get = |k: &str| js_sys::Reflect::get(&data, &k.into()).ok();
    let id = js_sys::JSON::stringify(&get("id").unwrap_or(wasm_bindgen::JsValue::NULL))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "null".into());
    match get("type")?.as_string()?.as_str() {
        "dsplay:run" => Some(Action::Remote {
            id,
            command: get("command")?.as_string()?,
            kind: ReplyKind::Output,
        }),
        "dsplay:request" => {
            let arg = get("arg");
            let text = arg.as_ref().and_then(|a| a.as_string());
            let number = arg.as_ref().and_then(|a| a.as_f64());
            let request = Request::parse(&get("method")?.as_string()?, text, number)?;
            Some(Action::Request { id, request })
        }
        _ => None,
    }
}

/// Natively there are no messages.
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_request(
    _: &wasm_bindgen::JsValue,
    _: impl Fn(&str) -> bool,
) -> Option<crate::state::Action> {
    None
}

/// The messages `boot.js` queued before the app listened (and stops queueing): in order.
#[cfg(target_arch = "wasm32")]
pub fn take_early_messages() -> Vec<wasm_bindgen::JsValue> {
    use wasm_bindgen::JsCast;
    let take = js_sys::Reflect::get(&js_sys::global(), &"dsplayTakeEarlyMessages".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    take.and_then(|f| f.call0(&wasm_bindgen::JsValue::NULL).ok())
        .map(|list| js_sys::Array::from(&list).iter().collect())
        .unwrap_or_default()
}

/// Natively there are no messages.
#[cfg(not(target_arch = "wasm32"))]
pub fn take_early_messages() -> Vec<wasm_bindgen::JsValue> {
    Vec::new()
}

/// Posts `message` (`{type, …fields}`) to the parent window (to this window when not framed),
/// for `target_origin` only.
#[cfg(target_arch = "wasm32")]
pub fn post_to_host(kind: &str, fields: &[(&str, wasm_bindgen::JsValue)], target_origin: &str) {
    let Some(window) = window() else {
        return;
    };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &kind.into());
    for (key, value) in fields {
        let _ = js_sys::Reflect::set(&message, &(*key).into(), value);
    }
    let target = window.parent().ok().flatten().unwrap_or(window);
    let _ = target.post_message(&message, target_origin);
}

/// Natively there is no window to post to.
#[cfg(not(target_arch = "wasm32"))]
pub fn post_to_host(_: &str, _: &[(&str, wasm_bindgen::JsValue)], _: &str) {}

/// Posts a [`Reply`](crate::state::Reply): `{type: "dsplay:output", id, output, success}`, or
/// `dsplay:response` with `result` too (parsed from the reply's JSON data, else `null`).
#[cfg(target_arch = "wasm32")]
pub fn post_reply(reply: &crate::state::Reply, target_origin: &str) {
    use crate::embed_request::ReplyKind;
    use wasm_bindgen::JsValue;
    let parse = |json: &str| js_sys::JSON::parse(json).unwrap_or(JsValue::NULL);
    let mut fields = vec![
        ("id", parse(&reply.id)),
        ("output", reply.output.as_str().into()),
        ("success", reply.success.into()),
    ];
    let kind = match reply.kind {
        ReplyKind::Output => "dsplay:output",
        ReplyKind::Response => {
            fields.push(("result", reply.data.as_deref().map_or(JsValue::NULL, parse)));
            "dsplay:response"
        }
    };
    post_to_host(kind, &fields, target_origin);
}

/// Natively there is no window to post to.
#[cfg(not(target_arch = "wasm32"))]
pub fn post_reply(_: &crate::state::Reply, _: &str) {}

/// A task queued by [`next_task`]; dropped before it runs, it does not run.
pub struct NextTask {
    #[cfg(target_arch = "wasm32")]
    port: web_sys::MessagePort,
    #[cfg(target_arch = "wasm32")]
    _run: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

/// Runs `f` in a task of its own as soon as the event loop gets to it (the page paints and handles
/// input first, as between any two tasks): a message posted on a `MessageChannel`. Not
/// `setTimeout(0)`: HTML holds a timeout set from a timeout's callback, five deep, at least 4 ms,
/// and a long command's slices each waited that long (a tenth of a large node add). `None` where
/// there is no channel (natively).
#[cfg(target_arch = "wasm32")]
pub fn next_task(f: impl FnOnce() + 'static) -> Option<NextTask> {
    use wasm_bindgen::JsCast;
    let channel = web_sys::MessageChannel::new().ok()?;
    let run = wasm_bindgen::closure::Closure::once(f);
    let port = channel.port1();
    port.set_onmessage(Some(run.as_ref().unchecked_ref()));
    channel
        .port2()
        .post_message(&wasm_bindgen::JsValue::NULL)
        .ok()?;
    Some(NextTask { port, _run: run })
}

/// Resolves in a task of its own ([`next_task`]): what an async caller awaits to yield to the
/// browser.
#[cfg(target_arch = "wasm32")]
pub async fn next_task_done() {
    let mut task = None;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        task = next_task(move || {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        });
    });
    if task.is_some() {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}

/// Natively there is no event loop to queue on.
#[cfg(not(target_arch = "wasm32"))]
pub fn next_task(_: impl FnOnce() + 'static) -> Option<NextTask> {
    None
}

impl Drop for NextTask {
    fn drop(&mut self) {
        #[cfg(target_arch = "wasm32")]
        {
            self.port.set_onmessage(None);
            self.port.close();
        }
    }
}

/// Wall-clock milliseconds (`performance.now()`), or 0 where there is none (natively: the
/// reducer's unit tests).
pub fn wall_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        window()
            .and_then(|w| w.performance())
            .map(|p| p.now())
            .unwrap_or(0.0)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
