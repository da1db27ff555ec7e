// The demo DaemonSet: pods on the two workers only; invalid YAML; the terminal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal, podChips, fillEditor } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Waits until every demo pod is Ready, by stepping the clock. */
async function settleDemo(page) {
  await pause(page);
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 60; i++) {
    const pods = await podChips(page, '[data-pod^="demo-"]');
    if (pods.length === 2 && pods.every((p) => p.ready === 'true' && p.terminating === 'false')) return pods;
    await step.click();
  }
  throw new Error('demo pods never became ready');
}

test('the demo DaemonSet runs one pod on each worker and none on the control plane', async () => {
  const page = await openPlayground(browser, server.url);
  const pods = await settleDemo(page);
  assert.deepEqual(pods.map((p) => p.node).sort(), ['kind-worker', 'kind-worker2']);
  assert.equal(await page.locator('.node[data-node="kind-control-plane"] [data-pod^="demo-"]').count(), 0);
  for (const p of pods) {
    assert.equal(p.phase, 'Running');
    assert.match(p.revision, /^[a-z0-9]+$/, 'pods carry their controller-revision-hash');
  }
  const table = await page.getByTestId('ds-table').textContent();
  assert.match(table, /demo\s+2\s+2\s+2\s+2\s+2/);
  await screenshot(page, '10-demo-settled');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('invalid YAML shows an inline error and changes nothing', async () => {
  const page = await openPlayground(browser, server.url);
  await settleDemo(page);
  const before = await podChips(page);
  const clock = await page.getByLabel('Clock').textContent();
  await fillEditor(page, 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: [oops\n');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  const error = page.getByRole('alert');
  await error.waitFor();
  assert.match(await error.textContent(), /error/i);
  assert.deepEqual(await podChips(page), before, 'no pod changed');
  assert.equal(await page.getByLabel('Clock').textContent(), clock, 'the clock did not move');
  await screenshot(page, '11-invalid-yaml');
  await page.context().close();
});

test('the terminal runs kubectl get nodes and prints its output', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'kubectl get nodes');
  const output = page.locator('.term-output');
  await page.waitForFunction(() => /kind-control-plane\s+Ready\s+control-plane/.test(document.querySelector('.term-output')?.textContent ?? ''));
  const text = await output.textContent();
  assert.match(text, /\$ kubectl get nodes/);
  assert.match(text, /NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/);
  assert.match(text, /kind-worker2\s+Ready\s+<none>/);
  // history: ↑ brings the command back
  const input = page.getByLabel('Terminal input');
  await input.press('ArrowUp');
  assert.equal(await input.inputValue(), 'kubectl get nodes');
  await screenshot(page, '12-terminal');
  await page.context().close();
});

test('cordon from a node card is echoed in the terminal and shown on the card', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.getByRole('button', { name: 'Cordon kind-worker2', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('.term-output')?.textContent.includes('$ kubectl cordon kind-worker2'));
  await page.locator('.node[data-node="kind-worker2"] .node-status', { hasText: 'SchedulingDisabled' }).waitFor();
  await page.context().close();
});

test('adding a node through the dialog runs sim node add and the node gets a demo pod', async () => {
  const page = await openPlayground(browser, server.url);
  await settleDemo(page);
  await page.getByRole('button', { name: 'Add node', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByLabel('Name').fill('kind-worker3');
  await dialog.getByLabel('Labels').fill('gpu=true');
  await dialog.getByRole('button', { name: 'Create node', exact: true }).click();
  await page.locator('.node[data-node="kind-worker3"]').waitFor();
  assert.match(await page.locator('.term-output').textContent(), /\$ sim node add kind-worker3 --labels gpu=true/);
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 30 && !(await page.locator('.node[data-node="kind-worker3"] [data-pod^="demo-"][data-ready="true"]').count()); i++) {
    await step.click();
  }
  assert.equal(await page.locator('.node[data-node="kind-worker3"] [data-pod^="demo-"][data-ready="true"]').count(), 1);
  await screenshot(page, '13-node-added');
  await page.context().close();
});

test('kubectl set image rolls the demo pods one worker at a time onto the new revision', async () => {
  const page = await openPlayground(browser, server.url);
  const before = await settleDemo(page);
  const oldRevision = before[0].revision;
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:1.36');
  await page.waitForFunction(() => document.querySelector('.term-output')?.textContent.includes('daemonset.apps/demo image updated'));
  const step = page.getByRole('button', { name: 'Step', exact: true });
  let shotTaken = false;
  for (let i = 0; i < 120; i++) {
    const pods = await podChips(page, '[data-pod^="demo-"]');
    const workersWithReadyPod = new Set(pods.filter((p) => p.ready === 'true' && p.terminating === 'false').map((p) => p.node));
    assert.ok(workersWithReadyPod.size >= 1, `step ${i}: never more than one worker without a ready demo pod`);
    if (!shotTaken && pods.some((p) => p.revision !== oldRevision)) {
      await screenshot(page, '14-rolling-update');
      shotTaken = true;
    }
    if (pods.length === 2 && pods.every((p) => p.revision !== oldRevision && p.ready === 'true' && p.terminating === 'false')) {
      await screenshot(page, '15-rolled-out');
      return;
    }
    await step.click();
  }
  throw new Error('the rollout did not finish');
});
