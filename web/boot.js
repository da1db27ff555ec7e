// Starts the playground: the wasm app first; the manifest editor's bundle (CodeMirror) only when an
// editor mounts (after the first render; an embed has none). A file of its own (not an inline
// script) so the page's Content-Security-Policy can forbid inline scripts.
import init from './dsplay_web.js';

// `?theme=light|dark` fixes the colour scheme (style.css's colours are `light-dark()` pairs);
// without it, or with `auto`, the page follows the system.
const theme = new URLSearchParams(location.search).get('theme');
if (theme === 'light' || theme === 'dark') document.documentElement.style.colorScheme = theme;

// Messages a host page posts before the app listens (an embed's first requests, sent as soon as
// the frame loads): kept in order until the app takes them (crates/web/src/hooks/message_api.rs),
// which also ends this queue. The app checks their origin.
const early = [];
const keep = (e) => early.push(e);
addEventListener('message', keep);
globalThis.dsplayTakeEarlyMessages = () => {
  removeEventListener('message', keep);
  return early.splice(0);
};

let editor;
// Called from Rust (components/editor/code_mirror.rs): imports editor.js once and puts it on
// `globalThis.dsplayEditor`, where the Rust bindings look for `create(…)`.
globalThis.dsplayLoadEditor = () => {
  editor ??= import('./editor.js').then((module) => {
    globalThis.dsplayEditor = module;
  });
  return editor;
};
init({ module_or_path: new URL('./dsplay_web_bg.wasm', import.meta.url) }).catch((e) => {
  console.error(e);
  document.querySelectorAll('.prerender').forEach((p) => p.remove());
  document.querySelector('.loading p').textContent = 'The playground failed to start: ' + e;
});
