// The page loads, renders the app with the default cluster, and logs no errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, screenshot } from './harness.mjs';

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
    domContentLoaded: Math.round(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd),
  }));
  console.log(`first render: node cards in the DOM ${timing.firstNode} ms after navigation start (DOMContentLoaded ${timing.domContentLoaded} ms)`);
  assert.ok(timing.firstNode > 0);
  for (const name of ['Apply', 'Add node', 'Step', 'Reset']) {
    await page.getByRole('button', { name, exact: true }).waitFor();
  }
  await page.getByLabel('Clock').waitFor();
  await page.getByLabel('Terminal input').waitFor();
  await screenshot(page, '01-loaded');
  assert.deepEqual(page.errors, [], 'no console errors');
  await page.context().close();
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
