// The embed's `origin=` parameter: only that origin may drive the postMessage API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { serveDist, launch, APP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/**
 * A host page on its own 127.0.0.1 port (so its own origin), framing `host.src` (set it before
 * opening the page); resolves to { origin, src, close }.
 */
async function hostPage() {
  const host = { src: 'about:blank' };
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>host</title><iframe src="${host.src}" style="width:860px;height:640px;border:0"></iframe>`);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  host.origin = `http://127.0.0.1:${server.address().port}`;
  host.close = () => new Promise((ok) => server.close(ok));
  return host;
}

/** Opens `host` framing the playground, posts one request, resolves to the reply (or null) and whether it ran. */
async function ask(host) {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${host.origin}/`);
  const frame = page.frameLocator('iframe');
  await frame.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  const reply = await page.evaluate(() => new Promise((resolve) => {
    window.addEventListener('message', (e) => { if (e.data?.type === 'dsplay:output') resolve({ origin: e.origin, ...e.data }); });
    document.querySelector('iframe').contentWindow.postMessage({ type: 'dsplay:run', id: 7, command: 'sim node add kind-worker9' }, '*');
    setTimeout(() => resolve(null), 1500);
  }));
  const added = await frame.locator('.node[data-node="kind-worker9"]').count();
  await context.close();
  return { reply, added };
}

test('with origin= the embed answers that origin and ignores others', async (t) => {
  // Two host pages on two ports: two origins; the frame allows the first one only. They are
  // closed however the test ends: a server left listening keeps `node --test` from finishing.
  const [good, evil] = [await hostPage(), await hostPage()];
  t.after(() => Promise.all([good.close(), evil.close()]));
  const src = `${server.url}?embed&origin=${encodeURIComponent(good.origin)}`;
  for (const host of [good, evil]) host.src = src;
  const allowed = await ask(good);
  assert.equal(allowed.reply?.id, 7);
  assert.equal(allowed.reply?.origin, server.url.replace(/\/$/, ''), 'the reply comes from the playground');
  assert.equal(allowed.reply?.success, true);
  assert.match(allowed.reply?.output ?? '', /node\/kind-worker9 created|kind-worker9/);
  assert.equal(allowed.added, 1);

  const other = await ask(evil);
  assert.equal(other.reply, null, 'no reply to another origin');
  assert.equal(other.added, 0, 'the request did not run');
});
