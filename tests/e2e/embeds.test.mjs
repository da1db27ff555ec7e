// Embeds for documentation pages (issue 17): the frame's ready/queue protocol, embed.js's
// <dsplay-embed> on a host page of ANOTHER origin (a second server), readonly, click-to-load, the
// layout in a docs column and docs/embed.html.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { serveDist, launch, screenshot, APP } from './harness.mjs';

let server, browser, host;
before(async () => { server = await serveDist(); browser = await launch(); host = await hostServer(); });
after(async () => { await browser?.close(); await server?.close(); await host?.close(); });

/** A second origin serving `host.pages[path]` as HTML; resolves to { origin, pages, close }. */
async function hostServer() {
  const pages = {};
  const http = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((ok) => http.listen(0, '127.0.0.1', ok));
  return { origin: `http://127.0.0.1:${http.address().port}`, pages, close: () => new Promise((ok) => http.close(ok)) };
}

/** Serves `body` (inside a page that loads embed.js from the playground's server) at a fresh path. */
let pageCount = 0;
function hostPage(body) {
  const path = `/page${++pageCount}.html`;
  host.pages[path] = `<!doctype html><meta charset="utf-8"><title>docs</title>
<style>body{margin:0;padding:10px;font:14px sans-serif} dsplay-embed{width:900px}</style>
<script src="${server.url}embed.js"></script>${body}`;
  return `${host.origin}${path}`;
}

/** A page at `viewport` collecting console errors and the URLs it requested. */
async function open(url, viewport = { width: 940, height: 760 }) {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.errors = [];
  page.requested = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  page.on('request', (req) => page.requested.push(req.url()));
  // `ready` does not bubble, but the capture phase sees it from the first one on.
  await page.addInitScript(() => document.addEventListener('ready', () => { window.readyEvents = (window.readyEvents ?? 0) + 1; }, true));
  await page.goto(url);
  return page;
}

test('a request posted on the frame\'s load event is answered, after dsplay:ready', async () => {
  const page = await open(hostPage(''));
  const messages = await page.evaluate((src) => new Promise((resolve) => {
    const seen = [];
    let reply = null;
    addEventListener('message', (e) => {
      seen.push(e.data.type);
      if (e.data.type === 'dsplay:output') reply = e.data;
      if (e.data.type === 'dsplay:response') resolve({ seen, reply, state: e.data });
    });
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.addEventListener('load', () => {
      frame.contentWindow.postMessage({ type: 'dsplay:run', id: 1, command: 'sim node add kind-worker9' }, '*');
      frame.contentWindow.postMessage({ type: 'dsplay:request', id: 2, method: 'state' }, '*');
    });
    document.body.append(frame);
    setTimeout(() => resolve({ seen, reply, state: null }), 15000);
  }), `${server.url}?embed`);
  assert.equal(messages.reply?.id, 1, `answered: ${JSON.stringify(messages.seen)}`);
  assert.equal(messages.reply.success, true);
  assert.match(messages.reply.output, /kind-worker9/);
  assert.ok(messages.seen.indexOf('dsplay:ready') < messages.seen.indexOf('dsplay:output'), 'ready comes first');
  // The second early request is answered too, after the first (the node it added is there).
  const { state } = messages;
  assert.equal(state?.id, 2);
  assert.ok(state.result.nodes.some((n) => n.name === 'kind-worker9'));
  await page.context().close();
});

test('<dsplay-embed> fires ready; run(), state() and reset() (which replays script=) resolve', async () => {
  const page = await open(hostPage(`<dsplay-embed script="
      sim node add kind-worker9
      kubectl label nodes kind-worker9 disk=ssd"></dsplay-embed>`));
  const result = await page.evaluate(async () => {
    const embed = document.querySelector('dsplay-embed');
    const changes = [];
    embed.addEventListener('change', () => changes.push(1));
    if (!window.readyEvents) await new Promise((ok) => embed.addEventListener('ready', ok, { once: true }));
    const added = await embed.run('sim node add kind-worker10');
    const failed = await embed.run('kubectl get nodes nope');
    const before = await embed.state();
    await embed.reset();
    const after = await embed.state();
    return { added, failed, before, after, changes: changes.length, readyEvents: window.readyEvents };
  });
  assert.equal(result.added.success, true);
  assert.match(result.added.output, /kind-worker10/);
  assert.equal(result.failed.success, false);
  assert.match(result.failed.output, /NotFound|not found/);
  const names = (s) => s.nodes.map((n) => n.name);
  assert.ok(names(result.before).includes('kind-worker10'));
  assert.ok(result.before.daemonSets.length >= 1, 'DaemonSets listed');
  assert.ok(result.before.pods.some((p) => p.node === 'kind-worker9'), 'pods listed with their node');
  assert.ok(!names(result.after).includes('kind-worker10'), 'reset drops later commands');
  assert.deepEqual(result.after.nodes.find((n) => n.name === 'kind-worker9')?.labels?.disk, 'ssd', 'reset replays the script');
  assert.ok(result.changes >= 2, 'change events');
  assert.equal(result.readyEvents, 1, 'one ready event');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('readonly: no control changes the cluster, the clock still runs', async () => {
  const page = await open(hostPage('<dsplay-embed readonly script="kubectl cordon kind-worker"></dsplay-embed>'));
  const frame = page.frameLocator('dsplay-embed iframe');
  await frame.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  const enabled = await frame.locator('button:enabled, input:enabled, select:enabled').evaluateAll((els) =>
    els.map((e) => (e.getAttribute('aria-label') ?? e.textContent).trim()));
  const forbidden = /^(Delete|Cordon|Uncordon|Fail|Recover|Edit|Add node|Reset|Apply)\b/;
  assert.deepEqual(enabled.filter((name) => forbidden.test(name)), []);
  assert.equal(await frame.getByLabel('Terminal input').isDisabled(), true);
  await frame.getByRole('button', { name: 'Play', exact: true }).click();
  await frame.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  assert.ok(await frame.getByRole('button', { name: 'Step', exact: true }).isEnabled());
  await page.context().close();
});

test('loading="click" downloads no wasm until the play button is clicked', async () => {
  const page = await open(hostPage('<dsplay-embed loading="click" script="kubectl get ds -A"></dsplay-embed>'));
  await page.waitForLoadState('networkidle');
  const wasm = () => page.requested.filter((u) => u.endsWith('.wasm'));
  assert.deepEqual(wasm(), []);
  assert.equal(page.frames().length, 1, 'no frame yet');
  await page.getByRole('button', { name: 'Load the playground' }).click();
  await page.frameLocator('dsplay-embed iframe').locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  assert.equal(wasm().length, 1);
  await page.context().close();
});

/** How many pod chips are fully visible (not clipped, not covered) in `frame`'s viewport. */
function visiblePods(frame) {
  return frame.locator('[data-pod]').evaluateAll((els) => els.filter((e) => {
    const r = e.getBoundingClientRect();
    const inside = (x, y) => e.contains(document.elementFromPoint(x, y));
    return r.width > 0 && inside(r.left + 4, r.top + 4) && inside(r.right - 4, r.bottom - 4);
  }).length);
}

test('a 900×620 embed during a rolling update shows ≥ 4 whole pods; the diagnosis floats on demand', async () => {
  const patch = `kubectl patch ds demo --type merge -p '{"spec":{"minReadySeconds":20,"template":{"metadata":{"labels":{"v":"2"}}}}}'`;
  const script = ['sim node add kind-worker3', 'sim node add kind-worker4', 'sim settle', patch, 'sim advance 5s'].join('\n');
  const page = await open(hostPage(`<dsplay-embed style="width:900px" height="620" script="${script.replaceAll('"', '&quot;')}"></dsplay-embed>`),
    { width: 940, height: 700 });
  const frame = page.frames().find((f) => f !== page.mainFrame()) ?? (await page.waitForEvent('frameattached'));
  await frame.locator('.rollout-overlay').waitFor();
  assert.ok(await visiblePods(frame) >= 4, `visible pods: ${await visiblePods(frame)}`);
  await screenshot(page, 'embed-900x620-rollout');
  await frame.getByText('Rollout in progress').click();
  await frame.locator('.rollout-overlay .rollout').waitFor();
  await screenshot(page, 'embed-900x620-rollout-open');
  const visible = await visiblePods(frame);
  assert.ok(visible >= 4, `the open diagnosis leaves the nodes visible: ${visible}`);
  await page.context().close();
});

test('a scene shows its captions and steps forward and back', async () => {
  const scene = JSON.stringify({ steps: [
    { caption: 'Start: three nodes.', commands: '' },
    { caption: 'Add a worker: it gets a demo pod.', commands: 'sim node add kind-worker3' },
    { caption: 'Cordon it.', commands: 'kubectl cordon kind-worker3', duration: '1s' },
  ] });
  const page = await open(hostPage(`<dsplay-embed><script type="text/x-dsplay-scene">${scene}</script></dsplay-embed>`));
  const bar = page.getByRole('group', { name: 'Scene' });
  const frame = page.frameLocator('dsplay-embed iframe');
  await bar.getByText('Start: three nodes.').waitFor();
  assert.ok(await bar.getByRole('button', { name: /Previous/ }).isDisabled());
  await frame.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  await bar.getByRole('button', { name: /Next/ }).click();
  await bar.getByText('Add a worker: it gets a demo pod.').waitFor();
  await frame.locator('.node[data-node="kind-worker3"] [data-pod^="demo-"]').waitFor();
  await bar.getByRole('button', { name: /Next/ }).click();
  await bar.getByText('3 / 3').waitFor();
  await frame.locator('.node[data-node="kind-worker3"] .node-status', { hasText: 'SchedulingDisabled' }).waitFor();
  assert.ok(await bar.getByRole('button', { name: /Next/ }).isDisabled());
  await bar.getByRole('button', { name: /Previous/ }).click();
  await bar.getByText('2 / 3').waitFor();
  await frame.locator('.node[data-node="kind-worker3"] .node-status', { hasText: /^Ready$/ }).waitFor();
  await bar.getByRole('button', { name: /Previous/ }).click();
  await frame.locator('.node[data-node="kind-worker3"]').waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('docs/embed.html (dist/embed.html) loads its three embeds without a console error', async () => {
  const page = await open(`${server.url}embed.html`);
  const embeds = page.locator('dsplay-embed');
  assert.equal(await embeds.count(), 3);
  await page.frameLocator('dsplay-embed >> nth=0 >> iframe').locator(`${APP} .node[data-node="kind-worker3"]`).waitFor();
  await page.frameLocator('dsplay-embed >> nth=1 >> iframe').locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  await page.getByRole('button', { name: 'Load the playground' }).click();
  await page.frameLocator('dsplay-embed >> nth=2 >> iframe').locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  await screenshot(page, 'embed-docs-page');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Embed button gives a <dsplay-embed> snippet replaying the session, and an iframe', async () => {
  const page = await open(server.url, { width: 1280, height: 720 });
  const input = page.locator(APP).getByLabel('Terminal input');
  await input.fill('sim node add kind-worker7');
  await input.press('Enter');
  await page.locator('.node[data-node="kind-worker7"]').waitFor();
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  const text = await page.getByLabel('Embed code').inputValue();
  assert.ok(text.includes(`<script src="${server.url}embed.js" defer></script>`), text);
  // The log replayed: the command and the clock's advances around it (the app plays).
  assert.match(text, /<dsplay-embed src="[^"]+" height="620" script="(sim advance \d+ms\n)?sim node add kind-worker7(\nsim advance \d+ms)?"><\/dsplay-embed>/);
  assert.match(text, /<iframe src="[^"]+\?embed&script=[^"]*sim%20node%20add%20kind-worker7[^"]*"/);
  await page.getByRole('button', { name: 'Close' }).click();
  await page.context().close();
});

test('a looping scene moves on by itself and starts over', async () => {
  const scene = JSON.stringify([
    { caption: 'One.', commands: 'sim node add kind-worker3', duration: '500ms' },
    { caption: 'Two.', commands: 'kubectl cordon kind-worker3', duration: '500ms' },
  ]);
  const page = await open(hostPage(`<dsplay-embed loop scene='${scene}'></dsplay-embed>`));
  const bar = page.getByRole('group', { name: 'Scene' });
  await bar.getByText('1 / 2').waitFor();
  await bar.getByText('2 / 2').waitFor({ timeout: 20_000 });
  await bar.getByText('1 / 2').waitFor({ timeout: 20_000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
