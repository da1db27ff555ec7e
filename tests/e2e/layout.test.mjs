// The layout (issue 16): splitters a learner drags (or moves with the arrow keys) to give the
// terminal or the editor room, kept across visits; on a phone the document order is the order shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, pause, runInTerminal, editorText, fillEditor, screenshot, runToEnd, waitForCount } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const size = (page, selector, dimension) =>
  page.locator(selector).first().evaluate((e, d) => Math.round(e.getBoundingClientRect()[d]), dimension);

/** Drags the middle of `locator` by (dx, dy) with the mouse. */
async function drag(page, locator, dx, dy) {
  const box = await locator.boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2);
  await page.mouse.move(x + dx, y + dy);
  await page.mouse.up();
}

test('the splitters resize the side column and the terminal by pointer and keyboard, are kept, and reset', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  const columns = page.getByRole('separator', { name: 'Resize the side column' });
  const rows = page.getByRole('separator', { name: 'Resize the terminal' });
  const side0 = await size(page, '.col-side', 'width');
  const bottom0 = await size(page, '.bottom', 'height');

  await drag(page, columns, 150, 0);
  assert.ok(Math.abs(await size(page, '.col-side', 'width') - (side0 + 150)) <= 2, 'the side column follows the pointer');
  await drag(page, rows, 0, -100);
  assert.ok(Math.abs(await size(page, '.bottom', 'height') - (bottom0 + 100)) <= 2, 'the terminal grows when dragged up');

  // The keyboard: arrows move the focused splitter (and do not step the clock).
  const clock = await page.getByLabel('Clock').textContent();
  await columns.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.ok(Math.abs(await size(page, '.col-side', 'width') - (side0 + 150 - 48)) <= 2, 'two steps of 24 px');
  assert.equal(await columns.getAttribute('aria-valuenow'), String(side0 + 150 - 48));
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByLabel('Clock').textContent(), clock, 'ArrowRight on a splitter is not Step');

  // Kept across a reload; a double click restores the default.
  const [side1, bottom1] = [await size(page, '.col-side', 'width'), await size(page, '.bottom', 'height')];
  await page.reload();
  await page.getByRole('heading', { name: 'DaemonSet Playground' }).waitFor();
  assert.equal(await size(page, '.col-side', 'width'), side1);
  assert.equal(await size(page, '.bottom', 'height'), bottom1);
  await columns.dblclick();
  await rows.dblclick();
  assert.equal(await size(page, '.col-side', 'width'), side0);
  assert.equal(await size(page, '.bottom', 'height'), bottom0);
  await page.context().close();
});

test('on a phone the document (and Tab) order is cluster, terminal, editor; crossing the breakpoint keeps the typed manifest', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1280, height: 800 } });
  await pause(page);
  const typed = `${await editorText(page)}\n# typed before the window narrowed`;
  await fillEditor(page, typed);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.layout.narrow').waitFor();
  const order = await page.evaluate(() => {
    const [cluster, terminal, editor] = ['.cluster', '.terminal', '.editor'].map((s) => document.querySelector(s));
    const before = (a, b) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    return before(cluster, terminal) && before(terminal, editor);
  });
  assert.ok(order, 'cluster, then terminal, then editor in the document');
  assert.equal(await page.getByRole('separator').count(), 0, 'no splitters in one column');
  assert.equal(await editorText(page), typed, 'the editor kept its text on the phone layout');
  await screenshot(page, 'layout-phone-after-resize');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('.layout.wide').waitFor();
  assert.equal(await editorText(page), typed, 'and back on the wide layout');
  await page.context().close();
});

test('at 1440×900 the terminal shows kubectl get pods -o wide one row a line', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await runInTerminal(page, 'sim settle');
  await runInTerminal(page, 'kubectl get pods -o wide');
  const output = page.locator('.term-out', { hasText: 'NOMINATED NODE' }).last();
  // One client rect per line box the text occupies.
  const [lines, rendered] = await output.evaluate((el) => [
    el.textContent.trimEnd().split('\n').length,
    new Set([...el.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size,
  ]);
  assert.ok(lines >= 3, `a header and two pods: ${lines}`);
  assert.equal(rendered, lines, 'no row wraps');
  await page.context().close();
});

test('from 50 nodes the cluster is a map: a cell per node by state, grouped by a label, a click opens the card', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  await runToEnd(page, 'sim node add --count 60 --prefix n- --labels zone=a');
  await runToEnd(page, 'sim settle');
  const cells = page.locator('[data-node-cell]');
  assert.equal(await cells.count(), 63);
  assert.equal(await page.locator('.node[data-node]').count(), 0, 'no cards until one is opened');
  // The demo DaemonSet runs a ready pod on every worker; the control plane has none.
  await waitForCount(page.locator('.cell.ok[data-node-cell]'), 62);
  await waitForCount(page.locator('.cell.empty[data-node-cell]'), 1);
  await page.getByLabel('Group nodes by').selectOption('zone');
  assert.deepEqual(await page.locator('.map-group-cells h3').allTextContents(), ['(none) (3)', 'a (60)']);
  // The cells of a run line up, an empty node's among them (the empty state's margin is not theirs).
  const tops = await page.locator('.map-group-cells').first().locator('[data-node-cell]')
    .evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().top));
  assert.deepEqual(new Set(tops).size, 1, `cell tops ${tops}`);
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:1.37');
  await runToEnd(page, 'sim advance 1s');
  await page.locator('.cell.busy').first().waitFor(); // the node being replaced is busy
  // The Rollout panel lists 40 of the 62 nodes, the one being replaced among them, and counts the rest.
  const demo = page.locator('.rollout-ds[data-ds="default/demo"]');
  await waitForCount(demo.locator('.rollout-nodes > li'), 40);
  await demo.locator('.rollout-nodes > li.unavailable').first().waitFor();
  assert.match(await demo.locator('.folded').textContent(), /^22 more nodes not listed: \d+ waiting for the new revision/);
  // Keyboard: one tab stop, arrows move; Enter opens the card.
  await cells.first().focus();
  await page.keyboard.press('ArrowRight');
  const focused = await page.evaluate(() => document.activeElement.dataset.nodeCell);
  assert.equal(focused, await cells.nth(1).getAttribute('data-node-cell'));
  await page.keyboard.press('Enter');
  await page.locator(`.node[data-node="${focused}"]`).waitFor();
  await screenshot(page, 'node-map-63-nodes');
  // Many nodes are added in slices (the page keeps answering), with the command's summary.
  await runInTerminal(page, 'sim node add --count 150 --prefix m-');
  await page.getByText('150 nodes created: m-001 … m-150').waitFor();
  assert.equal(await cells.count(), 213);
  // The cells are drawn in runs of 100, as siblings: the arrows cross from one run to the next.
  const none = page.locator('.map-group-cells').first().locator('[data-node-cell]');
  assert.ok(await none.count() > 101, `${await none.count()} cells in the first group`);
  await none.first().focus();
  for (let i = 0; i < 101; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.nodeCell), await none.nth(101).getAttribute('data-node-cell'));
  // Down / Up go to the cell under / over the focused one as the cells wrap; Home / End to the ends.
  const focusedBox = () => page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return { cell: document.activeElement.dataset.nodeCell, left: Math.round(r.left), top: Math.round(r.top) };
  });
  await page.keyboard.press('Home');
  const first = await focusedBox();
  assert.equal(first.cell, await none.first().getAttribute('data-node-cell'));
  await page.keyboard.press('ArrowDown');
  const below = await focusedBox();
  assert.equal(below.left, first.left, 'the same column');
  assert.ok(below.top > first.top, `the next row (${below.top} after ${first.top})`);
  const perRow = await none.evaluateAll((cells, top) => cells.filter((c) => Math.round(c.getBoundingClientRect().top) === top).length, first.top);
  assert.equal(below.cell, await none.nth(perRow).getAttribute('data-node-cell'), `${perRow} cells a row`);
  await page.keyboard.press('ArrowUp');
  assert.equal((await focusedBox()).cell, first.cell);
  await page.keyboard.press('ArrowUp');
  assert.equal((await focusedBox()).cell, first.cell, 'the first row has no row above');
  await page.keyboard.press('End');
  assert.equal((await focusedBox()).cell, await none.last().getAttribute('data-node-cell'));
  // At a phone's width the panel's header wraps rather than push its buttons out of the panel.
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout follows the media query's change event: measure it, not the desktop one squeezed.
  await page.locator('.layout.narrow').waitFor();
  const outside = await page.evaluate(() => [...document.querySelectorAll('.cluster .panel-head > *')]
    .filter((e) => e.getBoundingClientRect().right > e.closest('.panel').getBoundingClientRect().right + 1)
    .map((e) => e.textContent));
  assert.deepEqual(outside, []);
  await page.getByRole('button', { name: 'Cards' }).click();
  assert.equal(await page.locator('.node[data-node]').count(), 213);
  await page.context().close();
});
