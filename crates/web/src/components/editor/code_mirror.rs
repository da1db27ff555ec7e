//! The Rust side of the CodeMirror 6 bundle (`web/editor/index.js`, built into `dist/editor.js`).
//!
//! The bundle is an ES module that `index.html` puts on `globalThis.dsplayEditor` before the wasm
//! starts: a global rather than `#[wasm_bindgen(module = …)]` so the npm bundle stays out of
//! wasm-pack's snippets and `dist/` keeps relative URLs. Where the global is missing (the
//! `wasm-pack test` page) [`CodeMirror::create`] returns an error instead of trapping.

use crate::diagnostics::Diagnostic;
use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen]
extern "C" {
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
        let handle = create_editor(parent, text, &on_change, &on_apply)
            .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))?;
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
