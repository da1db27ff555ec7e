// The Timeline: scrubbing back shows the cluster as it was, "Back to now" restores the latest state,
// "Continue from here" forks (the later log entries are gone).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal, podChips } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const step = (page) => page.getByRole('button', { name: 'Step', exact: true }).click();

/** The demo pods' name, node and revision (what rewinding must reproduce). */
async function demoPods(page) {
  return (await podChips(page, '[data-pod^="demo-"]')).map(({ pod, node, revision, ready, terminating }) => ({ pod, node, revision, ready, terminating }));
}

/** Steps the clock until `done(pods)` holds for the demo pods; returns them. */
async function stepUntil(page, done, what) {
  for (let i = 0; i < 80; i++) {
    const pods = await demoPods(page);
    if (done(pods)) return pods;
    await step(page);
  }
  throw new Error(`never reached: ${what}`);
}

const settled = (revision) => (pods) => pods.length === 2
  && pods.every((p) => p.ready === 'true' && p.terminating === 'false' && (revision === undefined || revision(p.revision)));

test('the timeline scrubs back before a set image, back to now, and forks with "Continue from here"', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  const before = await stepUntil(page, settled(), 'the demo pods Ready');
  const oldRevision = before[0].revision;
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:new');
  await page.locator('.term-output', { hasText: 'daemonset.apps/demo image updated' }).waitFor();
  const now = await stepUntil(page, settled((r) => r !== oldRevision), 'the rollout to the new revision');
  const newRevision = now[0].revision;
  const nowClock = await page.getByLabel('Clock').getAttribute('datetime');

  const slider = page.getByRole('slider', { name: 'Timeline' });
  const latest = Number(await slider.getAttribute('max'));
  assert.equal(Number(await slider.inputValue()), latest, 'live: the slider sits at the latest instant');
  const mark = page.locator('.tl-mark[title*="kubectl set image ds/demo"]');
  assert.equal(await mark.count(), 1, 'the command is marked on the timeline');
  const setAt = Number(await mark.getAttribute('data-at'));
  assert.ok(setAt > 0 && setAt < latest, `the set image ran inside the session (${setAt} of ${latest} ms)`);

  // At the command's instant it has run; one stop back (← on the slider) it has not.
  await slider.fill(String(setAt));
  const banner = page.getByRole('status').filter({ hasText: 'Viewing the past at' });
  await banner.waitFor();
  assert.match(await page.locator('.term-output').textContent(), /image updated/);
  await slider.press('ArrowLeft');
  await page.waitForFunction((at) => Number(document.querySelector('.tl-slider')?.value) < at, setAt);
  const past = await demoPods(page);
  assert.equal(past.length, before.length, 'as many demo pods as before the set image');
  assert.deepEqual(past.map((p) => [p.pod, p.node, p.revision]), before.map((p) => [p.pod, p.node, p.revision]));
  assert.ok(past.every((p) => p.revision === oldRevision), 'the past runs the old revision');
  assert.doesNotMatch(await page.locator('.term-output').textContent(), /image updated/, 'the terminal is as it was');
  assert.match(await slider.getAttribute('aria-valuetext'), /^\d\d:\d\d:\d\d \(T\+\d+:\d\d\.\d\)$/);
  assert.match(await banner.textContent(), /Viewing the past at \d\d:\d\d:\d\d/);
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor(); // scrubbing paused the clock
  await screenshot(page, '30-rewind-past');

  // Back to now: the latest state exactly.
  await page.getByRole('button', { name: 'Back to now', exact: true }).click();
  await banner.waitFor({ state: 'detached' });
  assert.deepEqual(await demoPods(page), now);
  assert.equal(await page.getByLabel('Clock').getAttribute('datetime'), nowClock);
  assert.equal(Number(await slider.inputValue()), latest);

  // Scrub back again and continue from there: the later entries are gone for good.
  await slider.fill(String(setAt - 1));
  await banner.waitFor();
  await screenshot(page, '31-rewind-banner');
  await page.getByRole('button', { name: 'Continue from here', exact: true }).click();
  await banner.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Pause', exact: true }).waitFor(); // the forked session plays
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('16');
  const forkedAt = Number(await slider.inputValue());
  await page.waitForFunction((at) => Number(document.querySelector('.tl-slider')?.max) > at + 20_000, forkedAt);
  await pause(page);
  const forked = await demoPods(page);
  assert.equal(forked.length, 2);
  assert.ok(forked.every((p) => p.revision === oldRevision), `no rollout after the fork: ${JSON.stringify(forked)}`);
  assert.equal(await page.locator('.tl-mark[title*="kubectl set image"]').count(), 0, 'the mark is gone');
  assert.doesNotMatch(await page.locator('.term-output').textContent(), /image updated/);
  // The forked log is the default one plus time, so the autosave is cleared rather than kept.
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('dsplay:state') ?? '{"log":[]}'));
  assert.ok(!saved.log.some((e) => e.includes('set image')), 'the autosave no longer has the set image');
  assert.notEqual(oldRevision, newRevision);
  await screenshot(page, '32-rewind-forked');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('running a command while viewing the past forks there', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await stepUntil(page, settled(), 'the demo pods Ready');
  await runInTerminal(page, 'kubectl cordon kind-worker');
  await page.locator('.node[data-node="kind-worker"] .node-status', { hasText: 'SchedulingDisabled' }).waitFor();
  for (let i = 0; i < 3; i++) await step(page);
  const slider = page.getByRole('slider', { name: 'Timeline' });
  const cordonAt = Number(await page.locator('.tl-mark[title*="kubectl cordon"]').getAttribute('data-at'));
  await slider.focus();
  // End, then ← until the slider is before the cordon: the node is schedulable again.
  for (let i = 0; i < 20 && Number(await slider.inputValue()) >= cordonAt; i++) await slider.press('ArrowLeft');
  assert.ok(Number(await slider.inputValue()) < cordonAt);
  await page.getByRole('status').filter({ hasText: 'Viewing the past at' }).waitFor();
  assert.doesNotMatch(await page.locator('.node[data-node="kind-worker"] .node-status').textContent(), /SchedulingDisabled/);
  await runInTerminal(page, 'kubectl get nodes');
  await page.getByRole('status').filter({ hasText: 'Viewing the past at' }).waitFor({ state: 'detached' });
  assert.equal(await page.locator('.tl-mark[title*="kubectl cordon"]').count(), 0, 'the later command is gone');
  assert.match(await page.locator('.term-output').textContent(), /kind-worker\s+Ready\s/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Rollout panel counts minReadySeconds down per node, and rewinding one second adds one back', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await stepUntil(page, settled(), 'the demo pods Ready');
  await runInTerminal(page, `kubectl patch ds demo --type=merge -p '{"spec":{"minReadySeconds":10}}'`);
  // The old pods become available again (Ready for over 10 s), so the update replaces one at a time.
  await runInTerminal(page, 'sim advance 15s');
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:new');
  await page.locator('.term-output', { hasText: 'daemonset.apps/demo image updated' }).waitFor();
  const panel = page.getByRole('region', { name: 'Rollout' });
  const countdown = panel.locator('.rp-countdown');
  for (let i = 0; i < 40 && !(await countdown.count()); i++) await step(page);
  const seconds = async () => Number((await countdown.first().textContent()).match(/available in (\d+)s/)[1]);
  // Let it count down a little (at least two virtual seconds after Ready), then compare with the past.
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(() => /available in [1-8]s/.test(document.querySelector('.rp-countdown')?.textContent ?? ''));
  await pause(page);
  const left = await seconds();
  const row = panel.locator('.rp-pod', { has: page.locator('.rp-countdown') });
  assert.match(await row.first().textContent(), /^new [a-z0-9]{5}/, 'the pod counting down is of the new revision');
  await screenshot(page, '33-rollout-countdown');
  assert.equal(await panel.locator('.rp-pod.old').count(), 1, `the other node still runs the old revision: ${await panel.textContent()}`);
  const slider = page.getByRole('slider', { name: 'Timeline' });
  await slider.fill(String(Number(await slider.inputValue()) - 1000));
  await page.getByRole('status').filter({ hasText: 'Viewing the past at' }).waitFor();
  assert.equal(await seconds(), left + 1, 'one second earlier, one more second to wait');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Warning events are marked on the timeline', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'sim image busybox:bad --pull fail');
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:bad');
  const warning = page.locator('.tl-mark.warning[title*="Failed pod/demo-"]');
  for (let i = 0; i < 20 && !(await warning.count()); i++) await step(page);
  assert.ok(await warning.count() > 0, 'a failed image pull is marked');
  const at = Number(await warning.first().getAttribute('data-at'));
  assert.ok(at > 0 && at <= Number(await page.getByRole('slider', { name: 'Timeline' }).getAttribute('max')));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rewinding a large session replays it in slices, with a progress line, and can go back to now meanwhile', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'sim node add --count 400 --prefix n-');
  await page.getByText('403 nodes').first().waitFor();
  await runInTerminal(page, 'sim advance 10s');
  await runInTerminal(page, 'kubectl label node n-001 zone=late');
  await page.locator('.term-output', { hasText: 'node/n-001 labeled' }).waitFor();
  const slider = page.getByRole('slider', { name: 'Timeline' });
  const labelAt = Number(await page.locator('.tl-mark[title*="kubectl label node n-001"]').getAttribute('data-at'));
  // Whether the progress line showed while the log was replayed (it may be gone in a few frames).
  await page.evaluate(() => {
    window.__rewinding = false;
    new MutationObserver(() => {
      if (document.body.innerText.includes('Rewinding:')) window.__rewinding = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await slider.fill(String(labelAt - 1000));
  await page.getByRole('status').filter({ hasText: 'Viewing the past at' }).waitFor();
  await page.waitForFunction(() => !document.body.innerText.includes('Rewinding:'));
  assert.ok(await page.evaluate(() => window.__rewinding), 'the replay showed its progress');
  await page.getByText('403 nodes').first().waitFor();
  assert.equal(await page.locator('.term-output', { hasText: 'node/n-001 labeled' }).count(), 0, 'before the label');
  await screenshot(page, '34-rewind-large');
  // Scrub again and go back to now before that replay ends: the latest state, exactly.
  await slider.fill(String(labelAt - 2000));
  await page.getByRole('button', { name: 'Back to now', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Viewing the past at' }).waitFor({ state: 'detached' });
  await page.locator('.term-output', { hasText: 'node/n-001 labeled' }).waitFor();
  assert.equal(Number(await slider.inputValue()), Number(await slider.getAttribute('max')));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
