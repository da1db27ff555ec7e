// Lessons in the app: the catalogue, two lessons completed by typing what a learner would, goals
// ticking live, a temporal goal broken, progress surviving a reload, the free-play session kept,
// `?lesson=` with a good and a broken file, `#lesson=`, the language switch, the welcome banner.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal, DIST, ROOT } from './harness.mjs';

let server, browser;
const FIXTURES = join(DIST, 'test-fixtures');
before(async () => {
  await mkdir(FIXTURES, { recursive: true });
  await writeFile(join(FIXTURES, 'mine.yaml'), `id: mine
title: {en: My lesson, zh: 我的课程}
level: beginner
minutes: 1
languages: [en, zh]
intro: {en: Hello, zh: 你好}
steps:
- title: {en: Label a node, zh: 给节点加标签}
  text: {en: "Run \`kubectl label node kind-worker team=a\`", zh: "运行 \`kubectl label node kind-worker team=a\`"}
  goals:
  - text: {en: kind-worker is labelled team=a, zh: kind-worker 有标签 team=a}
    get: nodes -l team=a
    count: 1
  solution: kubectl label node kind-worker team=a
`);
  // Line 6: a level that does not exist.
  await writeFile(join(FIXTURES, 'broken.yaml'), 'id: broken\ntitle: Broken\nminutes: 1\nintro: x\nsteps: []\nlevel: expert\n');
  server = await serveDist();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await rm(FIXTURES, { recursive: true, force: true });
});

const panel = (page) => page.locator('section.lesson');
const goal = (page, i) => panel(page).locator(`[data-goal="${i}"]`);

/** Waits until goal `i` of the current step is met, stepping the clock. */
async function stepUntilMet(page, i) {
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let n = 0; n < 80; n++) {
    if ((await goal(page, i).getAttribute('data-goal-state')) === 'met') return;
    await step.click();
  }
  throw new Error(`goal ${i} never met: ${await panel(page).textContent()}`);
}

/** Opens the catalogue and starts lesson `id`. */
async function startFromCatalogue(page, id) {
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Lessons' });
  await dialog.waitFor();
  await dialog.locator(`[data-lesson="${id}"]`).click();
  await panel(page).and(page.locator(`[data-lesson="${id}"]`)).waitFor();
  await pause(page);
}

test('the catalogue lists the built-in lessons and Esc closes it', async () => {
  const page = await openPlayground(browser, server.url);
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Lessons' });
  await dialog.locator('[data-lesson]').first().waitFor();
  const files = (await readdir(join(ROOT, 'lessons'))).filter((f) => f.endsWith('.yaml'));
  assert.equal(await dialog.locator('[data-lesson]').count(), files.length, 'one entry per lessons/*.yaml');
  const first = dialog.locator('[data-lesson="what-is-a-daemonset"]');
  assert.match(await first.textContent(), /What a DaemonSet is.*beginner.*8 min/);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a lesson completed by typing: goals tick live, the clock updates them, progress survives a reload', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  // A free-play session to keep.
  await runInTerminal(page, 'sim node add mine');
  await page.locator('.node[data-node="mine"]').waitFor();
  await page.waitForFunction(() => (localStorage.getItem('dsplay:state') ?? '').includes('sim node add mine'));

  await startFromCatalogue(page, 'nodes-join-fail-recover');
  assert.equal(await page.locator('.node[data-node="mine"]').count(), 0, 'the lesson runs in a fresh session');
  assert.equal(await page.locator('.term-cmd').count(), 0, 'the setup is hidden from the terminal');
  assert.equal(await page.locator('.tl-mark').count(), 0, 'and from the timeline');
  assert.equal(await panel(page).getAttribute('data-lesson-state'), 'in-progress');
  assert.equal(await goal(page, 0).getAttribute('data-goal-state'), 'unmet');

  // Clicking a command of the text puts it in the terminal.
  await panel(page).locator('button.cmd', { hasText: 'sim node add kind-worker3' }).first().click();
  assert.equal(await page.getByLabel('Terminal input').inputValue(), 'sim node add kind-worker3');
  await page.getByLabel('Terminal input').press('Enter');
  await goal(page, 0).and(page.locator('[data-goal-state="met"]')).waitFor();
  assert.equal(await goal(page, 1).getAttribute('data-goal-state'), 'unmet', 'the new pod is not ready yet');
  await stepUntilMet(page, 1);
  await panel(page).getByText('Step done.').waitFor();
  await screenshot(page, '70-lesson-step-done');

  await panel(page).getByRole('button', { name: 'Next step' }).click();
  await runInTerminal(page, 'sim node fail kind-worker2');
  await runInTerminal(page, 'sim advance 60s');
  for (const i of [0, 1, 2]) await goal(page, i).and(page.locator('[data-goal-state="met"]')).waitFor();

  // The step and the steps done survive a reload.
  await page.reload();
  await page.locator('.app h1').waitFor();
  await panel(page).and(page.locator('[data-step="1"]')).waitFor();
  assert.equal(await panel(page).locator('[data-step-done="true"]').count(), 2);
  await pause(page);
  await panel(page).getByRole('button', { name: 'Next step' }).click();
  await runInTerminal(page, 'sim node recover kind-worker2');
  await runInTerminal(page, 'sim settle');
  await panel(page).and(page.locator('[data-lesson-state="complete"]')).waitFor();
  assert.match(await panel(page).textContent(), /Lesson complete/);

  // The summary goes to the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await panel(page).getByRole('button', { name: 'Copy result' }).click();
  const summary = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(summary, /nodes-join-fail-recover.*3\/3 steps done/);
  assert.match(summary, /\$ sim node recover kind-worker2/, summary);
  assert.match(summary, /2\. A node fails: done at \+\d+s\n {3}\$ sim node fail kind-worker2\n {3}\$ sim advance 60s/, summary);

  // The catalogue marks it done; the free-play session comes back.
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  await page.locator('[data-lesson="nodes-join-fail-recover"][data-mark="done"]').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Restore your previous session' }).click();
  await page.locator('.node[data-node="mine"]').waitFor();
  assert.equal(await panel(page).count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a second lesson by typing, and a temporal goal broken by the learner', async () => {
  const page = await openPlayground(browser, server.url);
  await startFromCatalogue(page, 'revision-history-rollback');
  await runInTerminal(page, 'kubectl rollout history ds/demo');
  await goal(page, 0).and(page.locator('[data-goal-state="met"]')).waitFor();
  await panel(page).getByRole('button', { name: 'Next step' }).click();
  assert.equal(await goal(page, 0).getAttribute('data-goal-state'), 'unmet');
  await runInTerminal(page, 'kubectl rollout undo ds/demo');
  await goal(page, 0).and(page.locator('[data-goal-state="met"]')).waitFor();
  await stepUntilMet(page, 1);
  await panel(page).and(page.locator('[data-lesson-state="complete"]')).waitFor();

  await startFromCatalogue(page, 'taints-and-tolerations');
  const workerPod = page.locator('.node[data-node="kind-worker2"] [data-pod^="demo-"][data-ready="true"]');
  await workerPod.waitFor();
  assert.equal(await goal(page, 1).getAttribute('data-goal-state'), 'met', 'the pod has not gone yet');
  // Breaking `never:` for a moment: the pod is deleted, and the controller puts a new one back.
  await runInTerminal(page, 'kubectl delete pods -l app=demo --field-selector spec.nodeName=kind-worker2');
  await goal(page, 1).and(page.locator('[data-goal-state="unmet"]')).waitFor();
  await runInTerminal(page, 'sim settle');
  await workerPod.waitFor();
  await runInTerminal(page, 'kubectl taint nodes kind-worker2 maintenance=yes:NoSchedule');
  await goal(page, 0).and(page.locator('[data-goal-state="met"]')).waitFor();
  assert.equal(await goal(page, 1).getAttribute('data-goal-state'), 'unmet', 'the pod was gone at some instant of the step');
  assert.equal(await panel(page).getByText('Step done.').count(), 0);
  // Retrying the step starts its history over: nothing has gone since.
  await panel(page).getByRole('button', { name: 'Retry step' }).click();
  await goal(page, 1).and(page.locator('[data-goal-state="met"]')).waitFor();
  await panel(page).getByText('Step done.').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('?lesson= loads a lesson file; a broken one shows file:line; #lesson= opens a built-in one; 中文', async () => {
  const page = await openPlayground(browser, `${server.url}?lesson=test-fixtures/mine.yaml`);
  await panel(page).and(page.locator('[data-lesson="mine"]')).waitFor();
  assert.ok(!page.url().includes('lesson='), `the parameter is removed after use: ${page.url()}`);
  await runInTerminal(page, 'kubectl label node kind-worker team=a');
  await panel(page).and(page.locator('[data-lesson-state="complete"]')).waitFor();

  await page.getByRole('button', { name: '中文', exact: true }).click();
  await panel(page).getByText('给节点加标签').waitFor();
  assert.equal(await page.getByRole('button', { name: '课程', exact: true }).count(), 1);
  await page.getByRole('button', { name: 'English', exact: true }).click();
  await panel(page).getByText('Label a node').waitFor();

  await page.goto(`${server.url}?lesson=test-fixtures/broken.yaml`);
  const error = page.locator('.lesson-error[role="alert"]');
  await error.waitFor();
  assert.match(await error.textContent(), /test-fixtures\/broken\.yaml:6:\d+: .*expert/);

  await page.goto('about:blank');
  await page.goto(`${server.url}#lesson=what-is-a-daemonset`);
  await panel(page).and(page.locator('[data-lesson="what-is-a-daemonset"]')).waitFor();
  // Followed while the app is open: the hash changes, the page does not reload.
  await page.evaluate(() => { location.hash = 'lesson=on-delete'; });
  await panel(page).and(page.locator('[data-lesson="on-delete"]')).waitFor();
  assert.ok(!page.url().includes('lesson='), page.url());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('#lesson-text= carries a whole lesson in the link; it survives a reload; a damaged one says so', async () => {
  const text = await readFile(join(FIXTURES, 'mine.yaml'), 'utf8');
  const encoded = deflateRawSync(Buffer.from(text), { level: 9 }).toString('base64url');
  const page = await openPlayground(browser, `${server.url}#lesson-text=${encoded}`);
  await panel(page).and(page.locator('[data-lesson="mine"]')).waitFor();
  assert.ok(!page.url().includes('lesson-text='), `the lesson leaves the URL after use: ${page.url()}`);
  await page.reload();
  await panel(page).and(page.locator('[data-lesson="mine"]')).waitFor();
  await runInTerminal(page, 'kubectl label node kind-worker team=a');
  await panel(page).and(page.locator('[data-lesson-state="complete"]')).waitFor();
  await page.goto('about:blank');
  await page.goto(`${server.url}#lesson-text=${encoded.slice(0, 20)}`);
  const error = page.locator('.lesson-error[role="alert"]');
  await error.waitFor();
  assert.match(await error.textContent(), /lesson in this link is damaged/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a first visit offers the first lesson in a banner that does not block the playground', async () => {
  const page = await openPlayground(browser, server.url);
  const welcome = page.getByRole('region', { name: 'Welcome' });
  await welcome.waitFor();
  await runInTerminal(page, 'kubectl get nodes');
  await page.locator('.term-cmd', { hasText: 'kubectl get nodes' }).waitFor();
  await welcome.getByRole('button', { name: 'Start the first lesson' }).click();
  await panel(page).and(page.locator('[data-lesson="what-is-a-daemonset"]')).waitFor();
  await welcome.waitFor({ state: 'detached' });
  await page.reload();
  await panel(page).waitFor();
  assert.equal(await welcome.count(), 0, 'answered once');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
