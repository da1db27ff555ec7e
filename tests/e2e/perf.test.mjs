// Timing run (numbers for notes and the README, not assertions) of a large cluster in the
// browser: `sim node add --count` of NODES - 3 nodes (the time it takes and the longest task),
// `sim settle`, then a rolling update playing at 16x (the p50/p95 interval between animation
// frames and long tasks), then the session's share link opened in a new page (its first render,
// every node shown, the whole log replayed).
// Opt-in (slow): DSPLAY_PERF=1 node --test tests/e2e/perf.test.mjs  (DSPLAY_PERF_NODES=5000 by default).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const NODES = Number(process.env.DSPLAY_PERF_NODES ?? 5000);

/** Starts collecting long tasks on `page`; the returned function hands over and clears them. */
async function longTasks(page) {
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
      .observe({ type: 'longtask' });
  });
  return async () => page.evaluate(() => {
    const tasks = window.__longTasks;
    window.__longTasks = [];
    return { count: tasks.length, max: Math.round(Math.max(0, ...tasks)), over100: tasks.filter((t) => t > 100).map(Math.round) };
  });
}

/** The p-th percentile of `values`, to one decimal. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1);
}

test(`${NODES} nodes: node add, a rolling update at 16x, a share link`, { timeout: 900_000, skip: !process.env.DSPLAY_PERF && 'opt-in: set DSPLAY_PERF=1' }, async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  const tasks = await longTasks(page);
  let t = Date.now();
  await runInTerminal(page, `sim node add --count ${NODES - 3} --prefix n-`);
  await page.getByText(`${NODES} nodes`, { exact: true }).waitFor({ timeout: 600_000 });
  console.log(`sim node add --count ${NODES - 3}: ${Date.now() - t} ms; long tasks ${JSON.stringify(await tasks())}`);
  assert.equal(await page.locator('[data-node-cell]').count(), NODES);

  t = Date.now();
  await runInTerminal(page, 'sim settle');
  await page.locator('.long-run').waitFor({ state: 'detached', timeout: 600_000 });
  console.log(`sim settle: ${Date.now() - t} ms; long tasks ${JSON.stringify(await tasks())}`);

  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:1.36');
  await page.getByLabel('Speed').selectOption('16');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  const deltas = await page.evaluate(() => new Promise((resolve) => {
    const deltas = [];
    let last = performance.now();
    const start = last;
    function frame(now) {
      deltas.push(now - last);
      last = now;
      if (now - start < 8000) requestAnimationFrame(frame);
      else resolve(deltas);
    }
    requestAnimationFrame(frame);
  }));
  console.log(`playing at 16x for 8 s: ${deltas.length} frames, frame interval p50 ${percentile(deltas, 0.5)} ms, ` +
    `p95 ${percentile(deltas, 0.95)} ms, max ${percentile(deltas, 1)} ms; long tasks ${JSON.stringify(await tasks())}; ` +
    `clock ${await page.getByLabel('Clock').textContent()}`);
  await pause(page);
  await screenshot(page, `perf-${NODES}-nodes-rolling`);

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  const restored = await openPlayground(browser, link, { viewport: { width: 1440, height: 900 } });
  const renderedAt = await restored.evaluate(() => performance.now());
  const restoreTasks = await longTasks(restored);
  await restored.getByText(`${NODES} nodes`, { exact: true }).waitFor({ timeout: 600_000 });
  const allNodesAt = await restored.evaluate(() => performance.now());
  await restored.getByText('Restoring the session').waitFor({ state: 'detached', timeout: 600_000 });
  const restoredAt = await restored.evaluate(() => performance.now());
  console.log(`share link (${link.length} characters): first render ${Math.round(renderedAt)} ms after navigation start, ` +
    `every node shown at ${Math.round(allNodesAt)} ms, the whole log replayed at ${Math.round(restoredAt)} ms; ` +
    `long tasks meanwhile ${JSON.stringify(await restoreTasks())}`);
  await page.context().close();
  await restored.context().close();
});
