// The page loads, renders the app with the default cluster, and logs no errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, screenshot, APP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('page loads with a heading and the three default nodes', async () => {
  const page = await openPlayground(browser, server.url, { measureFirstRender: true });
  assert.equal(await page.title(), 'DaemonSet Playground');
  await page.getByRole('heading', { name: 'DaemonSet Playground' }).waitFor();
  for (const name of ['kind-control-plane', 'kind-worker', 'kind-worker2']) {
    await page.locator(`.node[data-node="${name}"]`).waitFor({ timeout: 10_000 });
  }
  const timing = await page.evaluate(() => ({
    firstNode: Math.round(window.__firstNodeAt ?? -1),
    app: Math.round(window.__appAt ?? -1),
    domContentLoaded: Math.round(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd),
  }));
  console.log(`first paint: node cards in the DOM ${timing.firstNode} ms after navigation start; the app started at ${timing.app} ms (DOMContentLoaded ${timing.domContentLoaded} ms)`);
  assert.ok(timing.firstNode > 0 && timing.firstNode <= timing.app);
  for (const name of ['Apply', 'Add node', 'Step', 'Reset']) {
    await page.getByRole('button', { name, exact: true }).waitFor();
  }
  await page.getByLabel('Clock').waitFor();
  await page.getByLabel('Terminal input').waitFor();
  await screenshot(page, '01-loaded');
  assert.deepEqual(page.errors, [], 'no console errors');
  await page.context().close();
});

/** A fresh page whose wasm download waits for `release()`. */
async function withWasmHeld(context) {
  const page = await context.newPage();
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/dsplay_web_bg.wasm', async (route) => { await held; await route.continue(); });
  return { page, release };
}

test('a first visit sees the cluster before the wasm arrives, then the app in its place', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
  const { page, release } = await withWasmHeld(context);
  await page.goto(server.url, { waitUntil: 'domcontentloaded' });
  for (const name of ['kind-control-plane', 'kind-worker', 'kind-worker2']) {
    await page.locator(`#app > .prerender.wide .node[data-node="${name}"]`).waitFor();
  }
  assert.equal(await page.locator(APP).count(), 0, 'the app has not started');
  await screenshot(page, '01-first-paint');
  // A picture until then: nothing in it takes focus, and assistive technology hears the status.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.prerender')), null);
  assert.equal(await page.getByRole('button', { name: 'Apply', exact: true }).count(), 0);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Starting the simulated cluster…' }).count(), 1);
  release();
  await page.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  await page.getByRole('button', { name: 'Apply', exact: true }).waitFor();
  assert.equal(await page.locator('.prerender, .loading').count(), 0, 'the app took their place');
  await context.close();
  // On a phone, the phone layout's picture (the app's layout there), without sideways scrolling.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const held = await withWasmHeld(phone);
  await held.page.goto(server.url, { waitUntil: 'domcontentloaded' });
  await held.page.locator('#app > .prerender.narrow .layout.narrow .node[data-node="kind-worker"]').waitFor();
  assert.equal(await held.page.locator('.prerender.wide').isVisible(), false);
  const overflow = await held.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal scrolling (overflow ${overflow}px)`);
  await screenshot(held.page, '01-first-paint-phone');
  held.release();
  await held.page.locator(`${APP} .layout.narrow .node[data-node="kind-worker"]`).waitFor();
  await phone.close();
});

test('a returning visit or a link shows the loading status, not a first visit\u2019s cluster', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const first = await context.newPage();
  await first.goto(server.url);
  await first.evaluate(() => localStorage.setItem('dsplay:welcomed', '1'));
  await first.close();
  for (const query of ['', '?theme=dark', '#lesson=what-is-a-daemonset']) {
    const { page, release } = await withWasmHeld(context);
    await page.goto(server.url + query, { waitUntil: 'domcontentloaded' });
    await page.getByText('Starting the simulated cluster…').waitFor();
    assert.equal(await page.locator('.prerender').count(), 0, query);
    release();
    await page.locator(`${APP} h1`).waitFor();
    await page.close();
  }
  await context.close();
});

test('a wasm that fails to load leaves the reason on screen, not a picture of the app', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.route('**/dsplay_web_bg.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(server.url);
  await page.getByText('The playground failed to start').waitFor();
  assert.equal(await page.locator('.prerender').count(), 0);
  await context.close();
});

test('dark theme and a narrow screen render too', async () => {
  const dark = await openPlayground(browser, server.url, { colorScheme: 'dark' });
  await dark.locator('.node[data-node="kind-worker"]').waitFor({ timeout: 10_000 });
  await screenshot(dark, '02-dark');
  await dark.context().close();
  const narrow = await openPlayground(browser, server.url, { viewport: { width: 420, height: 900 } });
  await narrow.locator('.node[data-node="kind-worker"]').waitFor({ timeout: 10_000 });
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal scrolling on a narrow screen (overflow ${overflow}px)`);
  await screenshot(narrow, '03-narrow');
  await narrow.context().close();
});

test('the page follows the system colour scheme unless ?theme= fixes it', async () => {
  const background = async (colorScheme, query) => {
    const page = await openPlayground(browser, server.url + query, { colorScheme });
    await page.locator('.node[data-node="kind-worker"]').waitFor({ timeout: 10_000 });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return bg;
  };
  const [light, dark] = ['rgb(244, 246, 250)', 'rgb(13, 17, 23)'];
  assert.equal(await background('light', ''), light);
  assert.equal(await background('dark', ''), dark);
  assert.equal(await background('light', '?theme=dark'), dark);
  assert.equal(await background('dark', '?theme=light'), light);
  assert.equal(await background('dark', '?theme=auto'), dark);
});

test('Space plays and pauses, the right arrow steps the clock', async () => {
  const page = await openPlayground(browser, server.url);
  await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  await page.locator('h1').click();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  const before = await page.getByLabel('Clock').getAttribute('datetime');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => document.querySelector('[aria-label="Clock"]').getAttribute('datetime') !== t, before);
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  await page.context().close();
});
