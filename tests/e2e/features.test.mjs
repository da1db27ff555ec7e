// Explain, rollout diagnosis, autosave, share links, embed mode + postMessage, shortcuts, export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { serveDist, launch, openPlayground, screenshot, pause, runInTerminal, podChips, editorText, fillEditor, APP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const step = (page) => page.getByRole('button', { name: 'Step', exact: true }).click();

/** Node names and every pod chip's attributes, plus the clock: what must survive a restore. */
async function snapshot(page) {
  return {
    nodes: await page.locator('.node[data-node]').evaluateAll((els) => els.map((e) => e.dataset.node)),
    pods: (await podChips(page)).map(({ pod, node, phase, ready, revision, terminating }) => ({ pod, node, phase, ready, revision, terminating })),
    clock: await page.getByLabel('Clock').getAttribute('datetime'),
  };
}

test('Explain on the control-plane node shows the untolerated taint, on a worker that the pod runs', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.locator('.node[data-node="kind-control-plane"]').getByRole('button', { name: 'Explain', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Explain kind-control-plane' });
  await panel.waitFor();
  const demo = panel.locator('[data-ds="default/demo"]');
  const text = await demo.textContent();
  assert.match(text, /taint node-role\.kubernetes\.io\/control-plane:NoSchedule not tolerated/);
  assert.match(text, /no new pod/);
  assert.match(text, /shouldRun=no shouldContinueRunning=yes/);
  await screenshot(page, '20-explain-control-plane');
  await page.locator('.node[data-node="kind-worker"]').getByRole('button', { name: 'Explain', exact: true }).click();
  const worker = page.getByRole('region', { name: 'Explain kind-worker' });
  await worker.waitFor();
  assert.match(await worker.locator('[data-ds="default/demo"]').textContent(), /runs here/);
  assert.match(await worker.locator('[data-ds="default/demo"]').textContent(), /shouldRun=yes/);
  // Clicking a card's name explains that node too.
  await page.locator('.node[data-node="kind-worker2"] .node-name').click();
  await page.getByRole('region', { name: 'Explain kind-worker2' }).waitFor();
  await page.getByRole('button', { name: 'Close explanation', exact: true }).click();
  assert.equal(await page.locator('.explain').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Rollout panel diagnoses a stuck rollout as "new pods not ready"', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  for (let i = 0; i < 60; i++) {
    const pods = await podChips(page, '[data-pod^="demo-"]');
    if (pods.length === 2 && pods.every((p) => p.ready === 'true')) break;
    await step(page);
  }
  assert.equal(await page.getByRole('region', { name: 'Rollout' }).count(), 0, 'no panel while nothing is rolled out');
  await runInTerminal(page, 'sim image busybox:new --ready never');
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:new');
  await page.waitForFunction(() => document.querySelector('.term-output')?.textContent.includes('daemonset.apps/demo image updated'));
  const panel = page.getByRole('region', { name: 'Rollout' });
  await panel.waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('16');
  await panel.locator('.problem', { hasText: 'new pods not ready' }).waitFor({ timeout: 20_000 });
  await pause(page);
  const text = await panel.locator('[data-ds="default/demo"]').textContent();
  assert.match(text, /budget in use 1\/1 maxUnavailable/);
  assert.match(text, /Fix: /);
  assert.match(text, /kind-worker/);
  await screenshot(page, '21-rollout-stuck');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a share link restores the exact session in another page', async () => {
  const a = await openPlayground(browser, server.url);
  await pause(a);
  await runInTerminal(a, 'sim node add kind-worker3 --labels gpu=true');
  await runInTerminal(a, 'kubectl taint nodes kind-worker2 dedicated=x:NoExecute');
  for (let i = 0; i < 6; i++) await step(a);
  await a.locator('.node[data-node="kind-worker3"] [data-pod^="demo-"]').waitFor();
  const expected = await snapshot(a);
  await a.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await a.getByRole('textbox', { name: 'Share link' }).inputValue();
  assert.match(link, /#s=[A-Za-z0-9_-]+$/);
  assert.ok(a.url().includes('#s='), 'the link is in the URL hash');
  await screenshot(a, '22-share');

  const b = await openPlayground(browser, link);
  await b.locator('.node[data-node="kind-worker3"]').waitFor();
  await b.getByRole('button', { name: 'Play', exact: true }).waitFor();
  assert.deepEqual(await snapshot(b), expected, 'same nodes, pods, phases, revisions and clock');
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test('a share link over 8 KB still restores, with a warning about its length', async () => {
  const a = await openPlayground(browser, server.url);
  await pause(a);
  // 200 annotations of random hex: the compressed log stays well over 8 KB.
  const notes = await a.evaluate(() => {
    const hex = () => Array.from(crypto.getRandomValues(new Uint8Array(30)), (b) => b.toString(16).padStart(2, '0')).join('');
    const log = [JSON.parse(localStorage.getItem('dsplay:state') ?? 'null')?.log?.[0]].filter(Boolean);
    const values = [];
    for (let i = 0; i < 200; i++) { const v = hex(); values.push(v); log.push(`kubectl annotate nodes kind-worker note${i}=${v}`); }
    localStorage.setItem('dsplay:state', JSON.stringify({ v: 1, seed: 1, playing: false, log }));
    return values;
  });
  await a.reload();
  await a.locator(`${APP} .node[data-node="kind-worker"]`).waitFor();
  await a.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await a.getByRole('textbox', { name: 'Share link' }).inputValue();
  assert.ok(link.length > 8192, `the link is long (${link.length} characters)`);
  assert.match(await a.locator('.share-bar').textContent(), /some browsers and chat apps cut links over 8 KB/);
  const b = await openPlayground(browser, link);
  await b.getByRole('button', { name: 'Play', exact: true }).waitFor();
  await runInTerminal(b, 'kubectl get node kind-worker -o jsonpath={.metadata.annotations.note199}');
  await b.locator('.term-output', { hasText: notes[199] }).waitFor();
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test('corrupted and hostile share links give a message and the default cluster', async () => {
  const bomb = deflateRawSync(Buffer.alloc(4 << 20, 32)).toString('base64url');
  for (const [hash, message] of [['s=not*valid', /not valid base64url/], ['s=AAAA', /could not be opened/], [`s=${bomb}`, /more than 1 MiB/]]) {
    const page = await openPlayground(browser, `${server.url}#${hash}`);
    const alert = page.locator('.notice[role="alert"]');
    await alert.waitFor();
    assert.match(await alert.textContent(), /share link could not be opened/);
    assert.match(await alert.textContent(), message);
    for (const name of ['kind-control-plane', 'kind-worker', 'kind-worker2']) await page.locator(`.node[data-node="${name}"]`).waitFor();
    assert.equal(await page.locator('.node[data-node]').count(), 3);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a reload restores the autosave; Reset clears it', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'sim node add kind-worker3');
  await runInTerminal(page, 'kubectl label nodes kind-worker color=blue');
  await fillEditor(page, (await editorText(page)).replace('image: busybox', 'image: busybox:1.36'));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await page.locator('.term-output', { hasText: 'daemonset.apps/demo configured' }).waitFor();
  for (let i = 0; i < 5; i++) await step(page);
  const expected = await snapshot(page);
  assert.ok(await page.evaluate(() => localStorage.getItem('dsplay:state')), 'saved');
  await page.reload();
  await page.locator(APP + ' .node[data-node="kind-worker3"]').waitFor();
  assert.deepEqual(await snapshot(page), expected);
  assert.match(await page.locator('.node[data-node="kind-worker"]').textContent(), /color=blue/);
  assert.match(await editorText(page), /image: busybox:1\.36/, 'the editor shows the last applied manifest');
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('.node[data-node="kind-worker3"]'));
  assert.equal(await page.evaluate(() => localStorage.getItem('dsplay:state')), null, 'Reset clears the autosave');
  await page.reload();
  // A first visit again: until the app mounts, the page holds the first paint's two pictures.
  await page.locator(APP + ' .node[data-node="kind-worker2"]').waitFor();
  assert.equal(await page.locator(APP + ' .node[data-node]').count(), 3);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('corrupted storage gives a message and the default cluster, nothing thrown', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.evaluate(() => localStorage.setItem('dsplay:state', '{"v":1,"seed":1,"log":[42'));
  await page.reload();
  const alert = page.locator('.notice[role="alert"]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /autosaved session could not be restored/);
  await page.locator('.node[data-node="kind-worker2"]').waitFor();
  assert.equal(await page.locator('.node[data-node]').count(), 3);
  await screenshot(page, '23-corrupted-storage');
  await page.getByRole('button', { name: 'Dismiss message', exact: true }).click();
  assert.equal(await alert.count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('embed mode in an iframe: no chrome, readonly terminal, initial script, postMessage API', async () => {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  const src = `${server.url}?embed&readonly&script=${encodeURIComponent('sim node add kind-worker3\nkubectl cordon kind-worker3')}`;
  await page.setContent(`<!doctype html><title>host</title><iframe src="${src}" style="width:860px;height:640px;border:0"></iframe>`);
  const frame = page.frameLocator('iframe');
  await frame.locator('.node[data-node="kind-worker3"] .node-status', { hasText: 'SchedulingDisabled' }).waitFor({ timeout: 15_000 });
  assert.equal(await frame.getByRole('heading', { name: 'DaemonSet Playground' }).count(), 0, 'no header');
  assert.equal(await frame.getByLabel('Manifest YAML').count(), 0, 'no editor');
  assert.equal(await frame.getByRole('button', { name: 'Share', exact: true }).count(), 0);
  assert.ok(await frame.getByLabel('Terminal input').isDisabled(), 'readonly: the terminal input is disabled');
  await frame.getByRole('button', { name: 'Play', exact: true }).waitFor(); // no autoplay
  const overflow = await frame.locator('html').evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `fits the iframe's width (overflow ${overflow}px)`);
  await screenshot(page, '24-embed');

  const reply = await page.evaluate(() => new Promise((resolve) => {
    const iframe = document.querySelector('iframe').contentWindow;
    const got = [];
    window.addEventListener('message', (e) => {
      if (e.data?.type === 'dsplay:output') {
        got.push(e.data);
        if (got.length === 2) resolve(got);
      }
    });
    iframe.postMessage('not an object', '*');
    iframe.postMessage({ type: 'dsplay:run', id: 1 }, '*'); // no command: ignored
    iframe.postMessage({ type: 'something-else', id: 2, command: 'kubectl delete node kind-worker' }, '*');
    iframe.postMessage({ type: 'dsplay:run', id: 'a', command: 'kubectl get nodes' }, '*');
    iframe.postMessage({ type: 'dsplay:run', id: 3, command: 'kubectl get ds nope' }, '*');
  }));
  assert.equal(reply[0].id, 'a');
  assert.equal(reply[0].success, true);
  assert.match(reply[0].output, /kind-worker3\s+Ready,SchedulingDisabled/);
  assert.match(reply[0].output, /kind-worker\s+Ready/, 'the malformed delete was ignored');
  assert.equal(reply[1].id, 3);
  assert.equal(reply[1].success, false);
  assert.match(reply[1].output, /NotFound/);
  await frame.locator('.term-output', { hasText: '$ kubectl get nodes' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('the "?" key and button open the keyboard shortcuts sheet', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.locator('h1').click();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await sheet.waitFor();
  const text = await sheet.textContent();
  for (const s of ['Space', 'Play / pause', '→', 'Step to the next event', 'Ctrl/Cmd + Enter', 'Tab', 'Esc', '?']) {
    assert.ok(text.includes(s), `lists ${s}`);
  }
  await screenshot(page, '25-shortcuts');
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).click();
  await sheet.waitFor();
  await sheet.getByRole('button', { name: 'Close', exact: true }).click();
  await sheet.waitFor({ state: 'detached' });
  await page.context().close();
});

test('Export gives a kind config with labels and taints and the history as a kubectl script', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'sim node add gpu1 --labels gpu=true --taints gpu=true:NoSchedule');
  await runInTerminal(page, 'kubectl cordon kind-worker');
  await page.locator('.node[data-node="gpu1"]').waitFor();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await dialog.waitFor();
  const text = await dialog.getByLabel('Export text').inputValue();
  assert.match(text, /kind: Cluster\napiVersion: kind\.x-k8s\.io\/v1alpha4/);
  assert.match(text, /- role: control-plane/);
  assert.equal(text.match(/- role: worker/g).length, 3);
  assert.match(text, /kind: JoinConfiguration\n    nodeRegistration:\n      taints:\n      - key: gpu\n        value: "true"\n        effect: NoSchedule/);
  assert.match(text, /\nkubectl apply -f - <<'EOF'\napiVersion: apps\/v1\nkind: DaemonSet/);
  assert.match(text, /\n# sim node add gpu1 /);
  assert.match(text, /\nkubectl cordon kind-worker\n/);
  assert.match(await dialog.getByRole('link', { name: 'Download' }).getAttribute('href'), /^data:text\/plain/);
  await screenshot(page, '26-export');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await page.context().close();
});

test('kubectl explain reads its descriptions from explain.tsv, fetched after the first render (not in the wasm)', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  // Fetched by the app on its own, after the first render.
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/explain.tsv')));
  await runInTerminal(page, 'kubectl explain ds.spec.updateStrategy');
  await page.waitForFunction(() => document.querySelector('.term-output')?.textContent.includes('FIELD: updateStrategy'));
  const text = await page.locator('.term-output').textContent();
  assert.match(text, /FIELD: updateStrategy <DaemonSetUpdateStrategy>/);
  // The descriptions are data: the wasm does not carry them.
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { DIST } = await import('./harness.mjs');
  const tsv = readFileSync(join(DIST, 'explain.tsv'), 'utf8');
  const description = tsv.split('\n').find((l) => l.startsWith('field\tDaemonSetSpec.updateStrategy\t')).split('\t').pop();
  assert.ok(description.length > 20);
  assert.ok(!readFileSync(join(DIST, 'dsplay_web_bg.wasm')).includes(Buffer.from(description)), 'the wasm has no explain descriptions');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
