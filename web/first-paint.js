// Decides, before the page is first painted, whether the prerendered app in index.html (written by
// `cargo xtask dist` from the app itself, crates/web/src/prerender.rs) may show while the wasm
// loads. It is what a first visit sees: no link parameters (a share link, a lesson, an embed, a
// script, a theme) and nothing the app stored (every key it stores starts with "dsplay", see
// crates/web/src/browser.rs). Otherwise the app starts from something else: the page shows its
// "Starting…" status instead of a cluster that is about to be replaced. A classic script of its
// own, loaded in <head>, so it runs before the body is painted and the page's
// Content-Security-Policy can forbid inline scripts.
(() => {
  let stored = false;
  try {
    for (let i = 0; i < localStorage.length && !stored; i++) stored = localStorage.key(i).startsWith('dsplay');
  } catch {
    // Storage disabled: the app starts as on a first visit.
  }
  if (stored || location.search || location.hash) {
    // Hidden by the stylesheet until the page is parsed, then gone.
    document.documentElement.classList.add('restoring');
    addEventListener('DOMContentLoaded', () => document.querySelectorAll('.prerender').forEach((p) => p.remove()));
  }
})();
