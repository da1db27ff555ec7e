// Placement changes seen in the browser: a nodeSelector applied from the editor, and a NoExecute taint.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal, podChips, editorText, fillEditor } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Steps the clock until `done(pods)` holds for the demo pods, or fails after `max` steps. */
async function stepUntil(page, done, what, max = 80) {
  await pause(page);
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < max; i++) {
    const pods = await podChips(page, '[data-pod^="demo-"]');
    if (done(pods)) return pods;
    await step.click();
  }
  throw new Error(`never reached: ${what}`);
}

const allReadyOn = (nodes) => (pods) =>
  pods.length === nodes.length && pods.every((p) => p.ready === 'true' && p.terminating === 'false') &&
  JSON.stringify(pods.map((p) => p.node).sort()) === JSON.stringify([...nodes].sort());

test('editing the manifest to add a nodeSelector and pressing Apply makes the pods leave the other nodes', async () => {
  const page = await openPlayground(browser, server.url);
  await stepUntil(page, allReadyOn(['kind-worker', 'kind-worker2']), 'demo pods ready on both workers');
  await runInTerminal(page, 'kubectl label node kind-worker2 gpu=cuda');
  const yaml = await editorText(page);
  assert.match(yaml, /\n    spec:\n/, 'the demo manifest has a pod template spec');
  await fillEditor(page, yaml.replace('\n    spec:\n', '\n    spec:\n      nodeSelector:\n        gpu: cuda\n'));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await page.waitForFunction(() => /daemonset\.apps\/demo configured/.test(document.querySelector('.term-output')?.textContent ?? ''));
  const pods = await stepUntil(page, allReadyOn(['kind-worker2']), 'only the labelled node keeps a demo pod');
  assert.equal(pods[0].node, 'kind-worker2');
  assert.match(await page.getByTestId('ds-table').textContent(), /demo\s+1\s+1\s+1\s+1\s+1\s+gpu=cuda/);
  await screenshot(page, '16-node-selector');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a NoExecute taint the DaemonSet does not tolerate removes its pod from that node', async () => {
  const page = await openPlayground(browser, server.url);
  await stepUntil(page, allReadyOn(['kind-worker', 'kind-worker2']), 'demo pods ready on both workers');
  await runInTerminal(page, 'kubectl taint nodes kind-worker dedicated=infra:NoExecute');
  await page.waitForFunction(() => /node\/kind-worker tainted/.test(document.querySelector('.term-output')?.textContent ?? ''));
  await stepUntil(page, allReadyOn(['kind-worker2']), 'the demo pod gone from the tainted node');
  assert.equal(await page.locator('.node[data-node="kind-worker"] [data-pod^="demo-"]').count(), 0);
  assert.match(await page.getByTestId('ds-table').textContent(), /demo\s+1\s+1\s+1\s+1\s+1/);
  await screenshot(page, '17-no-execute-taint');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
