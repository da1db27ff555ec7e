// Autosave under pressure: a full storage quota and two tabs of the playground.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, screenshot, pause, runInTerminal, APP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const saved = (page) => page.evaluate(() => localStorage.getItem('dsplay:state') ?? '');

async function open(context) {
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(server.url);
  await page.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  await pause(page);
  return page;
}

test('a refused write is reported and the last good save is kept', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  // A tiny quota: writes over 3 000 characters throw, as a full storage does.
  await context.addInitScript(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (String(value).length > 3000) throw new DOMException('quota', 'QuotaExceededError');
      return setItem.call(this, key, value);
    };
  });
  const page = await open(context);
  await runInTerminal(page, 'sim node add small');
  await page.waitForFunction(() => (localStorage.getItem('dsplay:state') ?? '').includes('small'));
  await runInTerminal(page, `kubectl annotate nodes kind-worker big=${'x'.repeat(4000)}`);
  const banner = page.locator('.notice.save-failed');
  await banner.waitFor();
  assert.match(await banner.textContent(), /Autosave failed \(QuotaExceededError\)/);
  assert.match(await saved(page), /sim node add small/, 'the last good save is kept');
  await screenshot(page, '42-autosave-failed');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('two tabs: the last one to write saves, the other says so and can take over', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const a = await open(context);
  await runInTerminal(a, 'sim node add from-a');
  await a.waitForFunction(() => (localStorage.getItem('dsplay:state') ?? '').includes('from-a'));
  const b = await open(context);
  await runInTerminal(b, 'sim node add from-b');
  const notice = a.locator('.notice.other-tab');
  await notice.waitFor();
  await runInTerminal(a, 'sim node add a-unsaved');
  await a.locator('.node[data-node="a-unsaved"]').waitFor();
  assert.ok(!(await saved(a)).includes('a-unsaved'), "tab A does not overwrite tab B's save");
  assert.match(await saved(a), /from-b/);
  await screenshot(a, '43-two-tabs');
  await notice.getByRole('button', { name: 'Save this tab instead' }).click();
  await a.waitForFunction(() => (localStorage.getItem('dsplay:state') ?? '').includes('a-unsaved'));
  await b.locator('.notice.other-tab').waitFor();
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await context.close();
});
