// The CodeMirror manifest editor: YAML highlighting, inline lint marks from the Rust diagnostics
// (debounced), Ctrl/Cmd+Enter applies, both themes. Screenshots: test-artifacts/editor-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, pause, podChips, editorText, fillEditor, ARTIFACTS } from './harness.mjs';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The computed text colour of the first element matching `selector`. */
const colorOf = (page, selector) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).color);

/** Saves the page and a close-up of the editor panel as test-artifacts/editor-NAME(-panel).png. */
async function shoot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `editor-${name}.png`) });
  await page.locator('.editor').screenshot({ path: join(ARTIFACTS, `editor-${name}-panel.png`) });
}

test('the editor highlights YAML, marks an unknown field inline and applies on Ctrl+Enter', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  const key = page.locator('.cm-line span', { hasText: /^apiVersion$/ });
  await key.waitFor();
  assert.notEqual(await colorOf(page, '.cm-line span'), await colorOf(page, '.cm-content'), 'keys have their own colour');
  assert.match(await editorText(page), /kind: DaemonSet/);

  await fillEditor(page, (await editorText(page)).replace('image: busybox', 'imagez: busybox'));
  const mark = page.locator('.cm-lintRange-warning');
  await mark.waitFor();
  assert.match(await mark.textContent(), /imagez/, 'the mark is on the unknown key');
  await page.locator('.cm-lint-marker-warning').waitFor();
  await page.locator('.diagnostic.warning', { hasText: 'unknown field "spec.template.spec.containers[0].imagez"' }).waitFor();
  await shoot(page, 'light');

  // Keys typed in the editor stay there: Space does not toggle the clock.
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' # note');
  assert.equal(await page.getByRole('button', { name: 'Play', exact: true }).count(), 1, 'still paused');

  await fillEditor(page, (await editorText(page)).replace('imagez: busybox', 'image: busybox:1.36'));
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.locator('.term-output', { hasText: 'daemonset.apps/demo configured' }).waitFor();
  await page.locator('.diagnostics').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.cm-lintRange').count(), 0, 'no marks left');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('invalid YAML is marked on its line; Ctrl+Enter shows the error and changes nothing', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  const before = await podChips(page);
  await fillEditor(page, 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: [oops\n');
  await page.locator('.cm-lintRange-error, .cm-lintPoint-error').first().waitFor();
  await page.locator('.diagnostic.error', { hasText: 'yaml: line' }).waitFor();
  await page.keyboard.press('ControlOrMeta+Enter');
  assert.match(await page.locator('.apply-error').textContent(), /error/i);
  assert.deepEqual(await podChips(page), before, 'no pod changed');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the editor follows the dark theme', async () => {
  const page = await openPlayground(browser, server.url, { colorScheme: 'dark' });
  await pause(page);
  await page.locator('.cm-line span', { hasText: /^apiVersion$/ }).waitFor();
  const background = await page.locator('.cm-editor').evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(background, 'rgb(27, 33, 48)', 'the dark --panel-2');
  await fillEditor(page, (await editorText(page)).replace('image: busybox', 'imagez: busybox'));
  await page.locator('.cm-lintRange-warning').waitFor();
  await shoot(page, 'dark');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
