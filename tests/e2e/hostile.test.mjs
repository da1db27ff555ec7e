// Hostile input from outside the page: a link that carries a script, a page that opens the
// playground and posts to it, a long `sim advance`. None may touch the user's
// saved work without consent, freeze the tab or break it (a jsonpath bomb included); the page runs
// under its strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal, APP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Records CSP violations in `window.__csp` (before any page script runs). */
async function watchCsp(page) {
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

const saved = (page, key = 'dsplay:state') => page.evaluate((k) => localStorage.getItem(k) ?? '', key);

test('hostile link: ?script= runs in a fresh session, once; the previous session is restorable; the page obeys its CSP', async () => {
  const page = await openPlayground(browser, server.url);
  await watchCsp(page);
  await pause(page);
  await runInTerminal(page, 'sim node add mine');
  await page.locator('.node[data-node="mine"]').waitFor();
  await page.waitForFunction(() => (localStorage.getItem('dsplay:state') ?? '').includes('sim node add mine'));

  await page.goto(`${server.url}?script=${encodeURIComponent('kubectl delete node mine\nsim node add evil')}`);
  await page.locator('.node[data-node="evil"]').waitFor();
  assert.equal(await page.locator('.node[data-node="mine"]').count(), 0, 'the link ran in a fresh session');
  assert.ok(!page.url().includes('script='), `the parameter is removed after use: ${page.url()}`);
  assert.match(await saved(page, 'dsplay:previous'), /sim node add mine/, 'the previous session is set aside');
  assert.ok(!(await saved(page)).includes('sim node add mine'), 'the link did not run on top of the saved session');
  const offer = page.getByRole('button', { name: 'Restore your previous session' });
  await offer.waitFor();
  await screenshot(page, '40-hostile-link');

  // A reload does not run the link again; it restores the link's session, with its ↑ history.
  await page.reload();
  await page.locator('.node[data-node="evil"]').waitFor();
  assert.equal(await page.locator('.term-cmd', { hasText: 'sim node add evil' }).count(), 1, 'ran once');
  const input = page.getByLabel('Terminal input');
  await input.focus();
  await input.press('ArrowUp');
  assert.equal(await input.inputValue(), 'sim node add evil', 'terminal history survives a reload');

  await page.goto(`${server.url}?script=${encodeURIComponent('sim node add evil2')}`);
  await page.getByRole('button', { name: 'Restore your previous session' }).click();
  await page.locator('.node[data-node="evil"]').waitFor();
  assert.equal(await page.locator('.node[data-node="evil2"]').count(), 0, 'restored the session before the link');

  assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script');
  assert.match(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'), /script-src 'self' 'wasm-unsafe-eval'/);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('hostile opener: a page that opens the main app cannot drive it with postMessage', async (t) => {
  const opener = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>opener</title>');
  });
  await new Promise((ok) => opener.listen(0, '127.0.0.1', ok));
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  // Closed however the test ends: an open server would keep `node --test` from finishing.
  t.after(async () => {
    await context.close();
    await new Promise((ok) => opener.close(ok));
  });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${opener.address().port}/`);
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    page.evaluate((url) => { window.popup = window.open(url); }, server.url),
  ]);
  await popup.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  const replies = await page.evaluate(() => new Promise((resolve) => {
    const got = [];
    window.addEventListener('message', (e) => got.push(e.data));
    for (let i = 0; i < 3; i++) window.popup.postMessage({ type: 'dsplay:run', id: i, command: 'sim node add opened' }, '*');
    setTimeout(() => resolve(got), 1000);
  }));
  assert.deepEqual(replies, [], 'no reply');
  assert.equal(await popup.locator('.node[data-node="opened"]').count(), 0, 'nothing ran');
  assert.ok(!(await saved(popup)).includes('opened'), 'nothing was saved');
});

test('long advance: a crash-looping DaemonSet and sim advance 24h run in slices, with progress and Cancel', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'sim image busybox:crash --crash');
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:crash');
  for (let i = 0; i < 10; i++) await runInTerminal(page, `sim node add n${i}`);
  // Slices are separate tasks, each queued by a message on a MessageChannel, which the page's
  // fake clock does not hold: here the messages go through a timer instead. With the page's clock
  // paused by the test (install alone fakes the timers but lets them run in real time), the run
  // cannot finish before the test looks at it, however fast the machine is (the slicing itself
  // is covered by the web crate's unit tests).
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await page.evaluate(() => {
    window.MessageChannel = class {
      constructor() {
        const port1 = { onmessage: null, closed: false, close() { this.closed = true; } };
        this.port1 = port1;
        this.port2 = {
          postMessage: (data) => setTimeout(() => { if (!port1.closed) port1.onmessage?.({ data }); }, 0),
        };
      }
    };
  });
  await runInTerminal(page, 'sim advance 24h');
  const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
  await cancel.waitFor();
  await page.getByRole('progressbar').waitFor();
  await screenshot(page, '41-long-advance');
  await cancel.click();
  await page.locator('.term-output', { hasText: 'cancelled' }).waitFor();
  await page.clock.resume();
  await runInTerminal(page, 'sim now');
  await page.locator('.term-cmd', { hasText: 'sim now' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('jsonpath bomb: 10 000 nested ranges give an error and leave the app working', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  const bomb = `kubectl get nodes -o jsonpath='${'{range .}'.repeat(10000)}${'{end}'.repeat(10000)}'`;
  await runInTerminal(page, bomb);
  await page.locator('.term-output', { hasText: /exceeded max depth/ }).waitFor();
  await runInTerminal(page, 'sim node add after-bomb');
  await page.locator('.node[data-node="after-bomb"]').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
