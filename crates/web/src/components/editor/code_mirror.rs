//! The Rust side of the CodeMirror 6 bundle (`web/editor/index.js`, built into `dist/editor.js`).
//!
//! The bundle is an ES module loaded only when an editor mounts, after the first render (the
//! cluster shows without it, and an embed, which has no editor, never fetches it): [`load`] calls
//! `boot.js`'s `dsplayLoadEditor()`, which imports it once and puts it on `globalThis.dsplayEditor`.
//! A global rather than `#[wasm_bindgen(module = …)]` so the npm bundle stays out of wasm-pack's
//! snippets and `dist/` keeps relative URLs. Where the loader is missing (the `wasm-pack test`
//! page) [`load`] returns an error instead of trapping.

use crate::diagnostics::Diagnostic;
use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen]
extern "C" {
    /// `boot.js`'s loader: imports `editor.js` once; the promise resolves when the global is set.
    #[wasm_bindgen(catch, js_name = dsplayLoadEditor)]
    fn load_editor() -> Result<js_sys::Promise, JsValue>;

    /// The handle `create` returns (an object of closures over one `EditorView`).
    type EditorHandle;

    #[wasm_bindgen(catch, js_namespace = dsplayEditor, js_name = create)]
    fn create_editor(
        parent: &Element,
        text: &str,
        on_change: &Closure<dyn FnMut()>,
        on_apply: &Closure<dyn FnMut()>,
    ) -> Result<EditorHandle, JsValue>;

    #[wasm_bindgen(method, js_name = getText)]
    fn get_text(this: &EditorHandle) -> String;

    #[wasm_bindgen(method, js_name = setText)]
    fn set_text(this: &EditorHandle, text: &str);

    #[wasm_bindgen(method, js_name = setDiagnostics)]
    fn set_diagnostics(this: &EditorHandle, json: &str);

    #[wasm_bindgen(method)]
    fn destroy(this: &EditorHandle);
}

/// Loads the CodeMirror bundle (at most once per page; later calls resolve at once).
pub async fn load() -> Result<(), String> {
    let promise = load_editor().map_err(js_error)?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(js_error)
}

fn js_error(e: JsValue) -> String {
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

/// One mounted editor. Owns the closures JS calls back, and unmounts the view when dropped, so
/// the component's effect cleanup is just dropping it.
pub struct CodeMirror {
    handle: EditorHandle,
    _on_change: Closure<dyn FnMut()>,
    _on_apply: Closure<dyn FnMut()>,
}

impl CodeMirror {
    /// Mounts an editor showing `text` into `parent`. `on_change` runs after every edit (it must
    /// not call back into the editor synchronously: CodeMirror is mid-update then); `on_apply` on
    /// Ctrl/Cmd+Enter. Fails with the JS error's text if the bundle is not loaded.
    pub fn create(
        parent: &Element,
        text: &str,
        on_change: impl FnMut() + 'static,
        on_apply: impl FnMut() + 'static,
    ) -> Result<Self, String> {
        let on_change = Closure::<dyn FnMut()>::new(on_change);
        let on_apply = Closure::<dyn FnMut()>::new(on_apply);
        let handle = create_editor(parent, text, &on_change, &on_apply).map_err(js_error)?;
        Ok(Self {
            handle,
            _on_change: on_change,
            _on_apply: on_apply,
        })
    }

    /// The whole document.
    pub fn text(&self) -> String {
        self.handle.get_text()
    }

    /// Replaces the whole document (one undoable change).
    pub fn set_text(&self, text: &str) {
        self.handle.set_text(text);
    }

    /// Shows `diagnostics` as inline lint marks, each on its line.
    pub fn set_diagnostics(&self, diagnostics: &[Diagnostic]) {
        let json: Vec<serde_json::Value> = diagnostics
            .iter()
            .map(|d| {
                serde_json::json!({
                    "line": d.line,
                    "severity": d.severity,
                    "message": d.message,
                })
            })
            .collect();
        self.handle
            .set_diagnostics(&serde_json::Value::Array(json).to_string());
    }
}

impl Drop for CodeMirror {
    fn drop(&mut self) {
        self.handle.destroy();
    }
}
