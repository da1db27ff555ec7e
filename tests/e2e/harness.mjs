// Shared harness of the browser end-to-end tests: a static server over dist/ on 127.0.0.1 and
// headless Debian Chromium driven by playwright-core. Run with `node --test tests/e2e/`
// (`cargo xtask test` builds dist/ first).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = join(ROOT, 'dist');
export const ARTIFACTS = join(ROOT, 'test-artifacts');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves dist/ on an ephemeral 127.0.0.1 port; resolves to { url, close }. */
export async function serveDist() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error('dist/ is missing: run `cargo xtask dist` (or `cargo xtask test`) first');
  }
  return serveDir(DIST);
}

/** Serves folder `root` on an ephemeral 127.0.0.1 port; resolves to { url, close }. */
export async function serveDir(root) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (path.endsWith('/')) file = join(file, 'index.html');
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Launches headless Debian Chromium with the flags of DESIGN.md's recipe. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/**
 * The mounted app (`#app > .app`), not the prerendered first paint the page shows until then
 * (`#app > .prerender`: the same markup, inert).
 */
export const APP = '#app > .app';

/**
 * Opens the playground in a fresh page at 1280×720 and collects console errors and page errors
 * into `page.errors`. Resolves once the app (not the first paint) has rendered its heading.
 */
export async function openPlayground(browser, url, { colorScheme = 'light', viewport = { width: 1280, height: 720 }, measureFirstRender = false } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  if (measureFirstRender) {
    // Records performance.now() when the first node card enters the DOM (the first paint's, on a
    // first visit) and when the app has mounted.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        window.__firstNodeAt ??= document.querySelector('.node[data-node]') ? performance.now() : undefined;
        window.__appAt ??= document.querySelector('#app > .app') ? performance.now() : undefined;
        if (window.__firstNodeAt && window.__appAt) observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
  }
  page.errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(url);
  await page.locator(APP + ' h1').waitFor();
  return page;
}

/** Saves a screenshot into test-artifacts/NAME.png. */
export async function screenshot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Pauses the clock if it is running (so DOM samples are stable). */
export async function pause(page) {
  const pauseButton = page.getByRole('button', { name: 'Pause', exact: true });
  if (await pauseButton.count()) await pauseButton.click();
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
}

/** Runs a line in the terminal. */
export async function runInTerminal(page, line) {
  const input = page.getByLabel('Terminal input');
  await input.fill(line);
  await input.press('Enter');
}

/**
 * Types `line` into the terminal, then waits until the command has ended: a long one (`sim
 * settle`, `sim advance`, a large `sim node add`) runs in slices, with the long-run bar showing.
 */
export async function runToEnd(page, line) {
  await runInTerminal(page, line);
  await page.locator('.long-run').waitFor({ state: 'detached', timeout: 120_000 });
}

/**
 * Waits until `locator` matches `count` elements (the views follow a command that ran in slices
 * in the next tasks), then asserts it: a count that never comes fails with both numbers.
 */
export async function waitForCount(locator, count, message, timeout = 10_000) {
  const until = Date.now() + timeout;
  while ((await locator.count()) !== count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  assert.equal(await locator.count(), count, message);
}

/** The pod chips' data attributes, for assertions. */
export async function podChips(page, selector = '[data-pod]') {
  return page.locator(selector).evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
}

/**
 * The manifest editor's text. CodeMirror renders one `.cm-line` per line (all of them for a
 * manifest of a few screens; longer ones are rendered only around the viewport).
 */
export async function editorText(page) {
  return (await page.getByLabel('Manifest YAML').locator('.cm-line').allTextContents()).join('\n');
}

/** Replaces the manifest editor's text as a user pasting would: select all, then insert. */
export async function fillEditor(page, text) {
  await page.getByLabel('Manifest YAML').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}
