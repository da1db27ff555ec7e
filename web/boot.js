// Starts the playground: loads the manifest editor and the wasm app. A file of its own (not an
// inline script) so the page's Content-Security-Policy can forbid inline scripts.
import * as editor from './editor.js';
import init from './dsplay_web.js';

// The manifest editor (CodeMirror), called from Rust as `dsplayEditor.create(…)`.
globalThis.dsplayEditor = editor;
init({ module_or_path: new URL('./dsplay_web_bg.wasm', import.meta.url) }).catch((e) => {
  console.error(e);
  document.querySelector('.loading p').textContent = 'The playground failed to start: ' + e;
});
