// Requests (issue 19): pods show the workload they belong to, and a `sim curl` animates a dot from
// the node it left from to the pod that answered; a node card sends one to the learner's Service.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, pause, runInTerminal, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a node card sends a request to a Service; a dot flies from that node to the pod that answered', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  await runInTerminal(page, 'kubectl create deployment web --image=nginx --replicas=2');
  await runInTerminal(page, 'kubectl expose deployment web --port=80');
  await runInTerminal(page, 'sim settle');
  // Owner badges: the Deployment's pods say so, next to the DaemonSet's.
  assert.equal(await page.locator('[data-owner^="deployment/web"] .pod-owner', { hasText: 'deploy' }).count(), 2);
  assert.ok(await page.locator('[data-owner="daemonset/demo"] .pod-owner', { hasText: 'ds' }).count() >= 1);
  await page.locator('.owner-legend').waitFor();

  await page.getByRole('button', { name: 'Send a request from kind-worker to Service web' }).click();
  const answer = page.locator('.term-out', { hasText: /^pod\/web-/ }).last();
  await answer.waitFor();
  const [, pod, node] = (await answer.textContent()).match(/^pod\/(\S+) on node\/(\S+)/);
  const flight = page.locator('.flight.flying');
  await flight.waitFor({ state: 'attached' });
  assert.equal(await flight.getAttribute('data-to-pod'), pod);
  const geometry = await page.evaluate(({ pod, node }) => {
    const layer = document.querySelector('.traffic').getBoundingClientRect();
    const centre = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2 - layer.left, r.top + r.height / 2 - layer.top]; };
    const dot = getComputedStyle(document.querySelector('.flight.flying'));
    const read = (name) => parseFloat(dot.getPropertyValue(name));
    return {
      from: [read('--x0'), read('--y0')], to: [read('--x1'), read('--y1')],
      source: centre(document.querySelector(`.node[data-node="kind-worker"] .node-head`)),
      height: layer.height,
      target: centre(document.querySelector(`[data-pod="${pod}"]`)),
      answeredOn: document.querySelector(`[data-pod="${pod}"]`).dataset.node, node,
      visible: (() => { const r = document.querySelector(`[data-pod="${pod}"]`).getBoundingClientRect(); return r.top >= layer.top && r.bottom <= layer.bottom; })(),
    };
  }, { pod, node });
  assert.equal(geometry.answeredOn, geometry.node);
  assert.ok(geometry.visible, 'the answering pod is scrolled into view');
  assert.equal(await page.locator(`[data-pod="${pod}"].answered`).count(), 1, 'and outlined');
  // A source scrolled out of view starts at the edge nearest to it.
  geometry.source[1] = Math.min(Math.max(geometry.source[1], 8), geometry.height - 8);
  for (const i of [0, 1]) {
    assert.ok(Math.abs(geometry.from[i] - geometry.source[i]) <= 2, `starts at the node: ${JSON.stringify(geometry)}`);
    assert.ok(Math.abs(geometry.to[i] - geometry.target[i]) <= 2, `ends at the pod: ${JSON.stringify(geometry)}`);
  }
  await page.waitForTimeout(500);
  await screenshot(page, 'traffic-in-flight');
  await page.context().close();
});
