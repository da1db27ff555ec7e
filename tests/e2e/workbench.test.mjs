// The learner's workbench (issue 16): no keyboard trap in the editor, a multi-line terminal
// (pasted lines, here-documents with `> ` prompts, Shift+Enter, book `$ ` prompts), shortcuts that
// can prevent scrolling, no serious accessibility violations (axe-core) and a keyboard-only session.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { serveDist, launch, openPlayground, pause, runInTerminal, editorText, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Where the focus is: the focused element's aria-label, or its tag and text. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return el?.getAttribute('aria-label') || `${el?.tagName} ${el?.textContent?.trim().slice(0, 40)}`;
});

/** Presses Tab until the focused element's label or text matches `name` (keyboard only). */
async function tabTo(page, name, { max = 300, key = 'Tab' } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const at = await focused(page);
    if (typeof name === 'string' ? at === name : name.test(at)) return;
  }
  throw new Error(`${name} is not reachable with ${key}`);
}

/** The terminal's transcript text. */
const transcript = (page) => page.locator('.term-output').textContent();

test('Tab leaves the editor; Ctrl+M makes it indent; the sheet lists both', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  const editor = page.getByLabel('Manifest YAML');
  await editor.click();
  await page.keyboard.press('Tab');
  assert.notEqual(await focused(page), 'Manifest YAML', 'Tab moved the focus out of the editor');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'Manifest YAML', 'Shift+Tab came back');
  await page.keyboard.press('Shift+Tab');
  assert.notEqual(await focused(page), 'Manifest YAML', 'Shift+Tab leaves too');

  // Opting in: Ctrl+M, then Tab indents and stays.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'Manifest YAML', 'Tab indents after Ctrl+M');
  assert.match(await page.locator('.cm-line').first().textContent(), /^\s+apiVersion/);

  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await sheet.waitFor();
  assert.match(await sheet.textContent(), /Tab \/ Shift \+ TabLeave the editor/);
  assert.match(await sheet.textContent(), /Esc, then Tab/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('shortcuts prevent the default (no passive listener): Space does not scroll the phone page, laid out cluster, terminal, editor; the sheet fits it', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 390, height: 844 } });
  const warnings = [];
  page.on('console', (msg) => { if (/passive event listener/.test(msg.text())) warnings.push(msg.text()); });
  await pause(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const scrollBefore = await page.evaluate(() => window.scrollY);
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the page did not scroll');
  assert.deepEqual(warnings, []);
  // The phone layout: the cluster, then the terminal, then the editor.
  const top = (selector) => page.locator(selector).first().evaluate((e) => e.getBoundingClientRect().top);
  const [cluster, terminal, editor] = [await top('.cluster'), await top('.terminal'), await top('.editor')];
  assert.ok(cluster < terminal && terminal < editor, `cluster ${cluster} < terminal ${terminal} < editor ${editor}`);
  // The shortcuts sheet fits the phone, Close included, without scrolling.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await sheet.waitFor();
  const [scroll, client] = await sheet.evaluate((e) => [e.scrollHeight, e.clientHeight]);
  assert.ok(scroll <= client, `the sheet scrolls: ${scroll} > ${client}`);
  await page.context().close();
});

test('the terminal takes here-documents, Shift+Enter, pasted lines and book prompts', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  const input = page.getByLabel('Terminal input');
  const prompts = page.locator('.term-input .prompt');
  await input.click();

  // A here-document continues with `> ` until its delimiter.
  await page.keyboard.type('kubectl apply -f - <<EOF');
  await page.keyboard.press('Enter');
  assert.equal(await prompts.textContent(), '$\n>', 'a continuation prompt');
  for (const line of ['apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: books']) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
  assert.equal(await prompts.textContent(), '$\n>\n>\n>\n>\n>');
  assert.equal(await page.locator('.term-output', { hasText: 'namespace/books' }).count(), 0, 'not run yet');
  await page.keyboard.type('EOF');
  await page.keyboard.press('Enter');
  await page.locator('.term-output', { hasText: 'namespace/books created' }).waitFor();
  assert.equal(await input.inputValue(), '');
  assert.equal(await prompts.textContent(), '$');

  // Shift+Enter adds a line; Enter runs both commands.
  await page.keyboard.type('kubectl get ns books');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('kubectl get ds -n books');
  assert.equal(await prompts.textContent(), '$\n>');
  await page.keyboard.press('Enter');
  await page.locator('.term-output', { hasText: 'No resources found in books namespace.' }).waitFor();
  assert.match(await transcript(page), /books\s+Active/);

  // A paste from a book keeps its lines and loses its `$ ` prompts.
  await page.keyboard.insertText('$ kubectl label ns books topic=ds\n$ kubectl get ns books --show-labels');
  assert.equal(await prompts.textContent(), '$\n>');
  await page.keyboard.press('Enter');
  await page.locator('.term-output', { hasText: 'topic=ds' }).waitFor();
  assert.doesNotMatch(await transcript(page), /\$ \$ /, 'no doubled prompt');
  await screenshot(page, 'workbench-terminal');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('help prints usage; the context namespace is shown and used; the terminal maximises', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'kubectl get ds --help');
  await page.locator('.term-output', { hasText: 'Display one or many resources.' }).waitFor();
  assert.doesNotMatch(await transcript(page), /NODE SELECTOR/, 'help, not the table');
  assert.equal(await page.locator('.term-ns code').textContent(), 'default');
  await runInTerminal(page, 'kubectl config set-context --current --namespace kube-system');
  await page.locator('.term-ns code', { hasText: 'kube-system' }).waitFor();
  await runInTerminal(page, 'kubectl get ds');
  await page.locator('.term-output', { hasText: /kube-proxy\s+3/ }).waitFor();

  // Maximise: the terminal covers the page; Restore puts it back.
  const height = () => page.locator('.terminal').evaluate((e) => e.getBoundingClientRect().height);
  const small = await height();
  await page.getByRole('button', { name: 'Maximise' }).click();
  assert.ok(await height() > 600, 'maximised');
  await page.getByRole('button', { name: 'Restore' }).click();
  assert.equal(await height(), small);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('after kubectl set image the editor says the live object changed and loads it on request', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.locator('.cm-content').waitFor();
  await runInTerminal(page, 'sim advance 30s');
  await page.getByLabel('Manifest YAML').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.locator('.term-output', { hasText: /daemonset.apps\/demo (configured|unchanged)/ }).waitFor();
  assert.equal(await page.locator('.drift').count(), 0, 'no drift right after Apply');
  await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:1.36');
  const banner = page.locator('.drift');
  await banner.waitFor();
  assert.match(await banner.textContent(), /daemonset.apps\/demo changed since this was applied \(e.g. kubectl set image\): Apply would undo that/);
  assert.match(await editorText(page), /image: busybox$/m, 'the editor still holds the old manifest');
  // Old and new revisions side by side: a legend, the image tag on each chip.
  await runInTerminal(page, 'sim advance 1s');
  await page.locator('.rev-legend').waitFor();
  const tags = await page.locator('.pod:not(.system) .pod-tag').allTextContents();
  assert.ok(tags.includes(':1.36') && tags.includes(':latest'), tags.join(' '));
  assert.equal(await page.locator('.pod.rev-old .pod-tag').first().textContent(), ':latest');
  await banner.getByRole('button', { name: 'Load live manifest' }).click();
  await page.locator('.cm-line', { hasText: 'image: busybox:1.36' }).waitFor();
  await banner.waitFor({ state: 'detached' });
  assert.doesNotMatch(await editorText(page), /status:|uid:|resourceVersion/);
  await page.getByLabel('Manifest YAML').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.locator('.term-output', { hasText: 'daemonset.apps/demo unchanged' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('kubectl edit opens the live object in the editor; Apply saves it', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.locator('.cm-content').waitFor();
  await runInTerminal(page, 'kubectl edit node kind-worker');
  const banner = page.locator('.drift.editing');
  await banner.waitFor();
  assert.match(await banner.textContent(), /kubectl edit: node\/kind-worker is open here/);
  await page.locator('.cm-line', { hasText: 'kind: Node' }).waitFor();
  // Add a label after the last one and save.
  await page.locator('.cm-line', { hasText: 'kubernetes.io/os: linux' }).first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('edited: "yes"');
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.locator('.term-output', { hasText: 'node/kind-worker configured' }).waitFor();
  await banner.waitFor({ state: 'detached' });
  await page.locator('.node[data-node="kind-worker"]', { hasText: 'edited=yes' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page) {
  const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // The page's CSP forbids inline scripts: evaluate the source instead of adding a script tag.
  await page.evaluate(source);
  return page.evaluate(async () => (await window.axe.run(document))
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`));
}

test('axe-core finds no serious or critical violations on the main page, with the pod panel open', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.locator('.cm-content').waitFor();
  await page.locator('[data-pod^="demo-"]').first().click();
  await page.locator('.pod-panel').waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});

test('axe-core finds no serious or critical violations in a lesson and in an embed', async () => {
  const lesson = await openPlayground(browser, `${server.url}#lesson=talking-to-daemon-pods`);
  await lesson.locator('.panel.lesson').waitFor();
  assert.deepEqual(await seriousViolations(lesson), [], 'lesson');
  await lesson.context().close();
  const embed = await (await browser.newContext({ viewport: { width: 900, height: 620 } })).newPage();
  await embed.goto(`${server.url}?embed&script=${encodeURIComponent('kubectl get ds -A')}`);
  await embed.locator('.node').first().waitFor();
  // The cards fade in: check colours once no animation runs (axe reads the colours mid-fade).
  await embed.waitForFunction(() => document.getAnimations()
    .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
  assert.deepEqual(await seriousViolations(embed), [], 'embed');
  await embed.context().close();
});
test('keyboard only: apply a manifest, add a node, cordon it, roll an image, edit a node, delete and undo', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await page.locator('.cm-content').waitFor();
  await tabTo(page, 'Manifest YAML');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(['apiVersion: apps/v1', 'kind: DaemonSet', 'metadata:', '  name: keys', 'spec:',
    '  selector:', '    matchLabels:', '      app: keys', '  template:', '    metadata:', '      labels:', '        app: keys',
    '    spec:', '      containers:', '      - name: keys', '        image: busybox:1.35', ''].join('\n'));
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.locator('.term-output', { hasText: 'daemonset.apps/keys created' }).waitFor();

  await tabTo(page, /Add node$/);
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'New node' }).waitFor();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('kb-node');
  await page.keyboard.press('Enter');
  await page.locator('.node[data-node="kb-node"]').waitFor();

  await tabTo(page, 'Cordon kb-node');
  await page.keyboard.press('Enter');
  await page.locator('.term-output', { hasText: 'node/kb-node cordoned' }).waitFor();

  await tabTo(page, 'Terminal input');
  await page.keyboard.type('kubectl set image ds/keys keys=busybox:1.36');
  await page.keyboard.press('Enter');
  await page.locator('.term-output', { hasText: 'daemonset.apps/keys image updated' }).waitFor();
  await page.keyboard.press('Tab');
  assert.notEqual(await focused(page), 'Terminal input', 'Tab with nothing to complete leaves the terminal');

  // Edit moves the focus into the new inputs, before Delete.
  await tabTo(page, 'Edit labels and taints of kb-node', { key: 'Shift+Tab' });
  await page.keyboard.press('Enter');
  assert.equal(await focused(page), 'Label for kb-node');
  await page.keyboard.type('tier=edge');
  await page.keyboard.press('Enter');
  await page.locator('.term-output', { hasText: 'node/kb-node labeled' }).waitFor();

  // Delete offers Undo, which brings the node back.
  await tabTo(page, 'Delete node kb-node');
  await page.keyboard.press('Enter');
  await page.locator('.node[data-node="kb-node"]').waitFor({ state: 'detached' });
  assert.equal(await focused(page), 'BUTTON Undo', 'the focus went to Undo, not the page start');
  await page.keyboard.press('Enter');
  await page.locator('.node[data-node="kb-node"]').waitFor();
  assert.equal(await page.locator('.undo-toast').count(), 0);
  assert.match(await page.locator('.node[data-node="kb-node"]').textContent(), /tier=edge/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Reset offers Undo', async () => {
  const page = await openPlayground(browser, server.url);
  await pause(page);
  await runInTerminal(page, 'kubectl label node kind-worker before=reset');
  await page.locator('.term-output', { hasText: 'node/kind-worker labeled' }).waitFor();
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.locator('.undo-toast').waitFor();
  assert.doesNotMatch(await page.locator('.node[data-node="kind-worker"]').textContent(), /before=reset/);
  await page.locator('.undo-toast').getByRole('button', { name: 'Undo', exact: true }).click();
  await page.locator('.node[data-node="kind-worker"]', { hasText: 'before=reset' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('smaller fixes: the Add-node fields fit, marks of one instant are one, pods of a deleted node are apart, long pending lists end with a count', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 390, height: 844 } });
  await pause(page);
  await page.getByRole('button', { name: 'Add node' }).click();
  const dialog = page.getByRole('dialog', { name: 'New node' });
  await dialog.waitFor();
  const box = await dialog.boundingBox();
  for (const field of ['cpu', 'memory', 'pods']) {
    const input = await dialog.locator(`input[name="${field}"]`).boundingBox();
    assert.ok(input.x + input.width <= box.x + box.width, `${field} stays inside the dialog`);
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await runInTerminal(page, 'kubectl get nodes');
  await runInTerminal(page, 'kubectl get ds -A');
  await page.locator('.term-output', { hasText: 'kindnet' }).waitFor();
  const shared = page.locator('.tl-mark[title*="kubectl get nodes"]');
  assert.equal(await shared.count(), 1);
  assert.match(await shared.getAttribute('title'), /kubectl get nodes\nkubectl get ds -A/, 'one mark lists both commands');

  await runInTerminal(page, 'kubectl delete node kind-worker2');
  await page.locator('.on-deleted-nodes', { hasText: 'kube-proxy-' }).waitFor();
  assert.equal(await page.locator('.unscheduled:not(.on-deleted-nodes)').count(), 0, 'nothing is listed as not scheduled');

  // More pending pods than a list draws: the first 100, how many more, and the command listing all.
  await runInTerminal(page, 'kubectl create deployment big --image=nginx --replicas=300');
  const pending = page.locator('.unscheduled:not(.on-deleted-nodes)');
  await pending.locator('.more').waitFor();
  assert.equal(await pending.locator('[data-pod]').count(), 100);
  const more = Number((await pending.locator('.more').textContent()).match(/… and (\d+) more/)[1]);
  await pending.getByRole('button', { name: 'kubectl get pods -A --field-selector spec.nodeName=' }).click();
  await page.locator('.term-output', { hasText: '$ kubectl get pods -A --field-selector spec.nodeName=' }).waitFor();
  const listed = (await transcript(page)).split('spec.nodeName=').pop();
  assert.equal(listed.match(/ Pending /g).length, 100 + more, 'the list and its count agree with kubectl');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('clicking a pod opens its describe and logs, as kubectl prints them, kept current', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  const chip = page.locator('.node[data-node="kind-worker"] [data-pod^="demo-"]');
  const name = await chip.getAttribute('data-pod');
  await chip.click();
  const panel = page.getByRole('region', { name: `Pod ${name}` });
  await panel.waitFor();
  const shown = await panel.locator('pre').first().textContent();
  await runInTerminal(page, `kubectl describe pod ${name}`);
  await page.locator('.term-output', { hasText: `Name:             ${name}` }).waitFor();
  assert.ok((await transcript(page)).includes(shown.trim().split('\n').slice(0, 12).join('\n')), 'the panel shows what kubectl prints');
  assert.match(await panel.textContent(), new RegExp(`kubectl logs ${name}`));

  // Kept current: a kubectl label on the pod shows up in the open panel.
  await runInTerminal(page, `kubectl label pod ${name} seen=yes`);
  await panel.locator('pre', { hasText: 'seen=yes' }).waitFor();

  // Keyboard: Escape inside the panel closes it; Enter on a pod's name opens it again.
  await panel.locator('.pod-panel-body').focus();
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: `Pod ${name} details` }).focus();
  await page.keyboard.press('Enter');
  await panel.waitFor();
  assert.equal(await focused(page), 'Close pod details', 'opening moves the focus into the panel');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a Deployment and a Service of the learner\'s own get live tables; sim curl answers in the terminal', async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  assert.equal(await page.getByLabel('kubectl get deploy -A').count(), 0, 'kind\'s own Deployments only: no table');
  await runInTerminal(page, 'kubectl create deployment web --image=nginx --replicas=2');
  await runInTerminal(page, 'kubectl expose deployment web --port=80');
  await page.getByLabel('kubectl get deploy -A').filter({ hasText: /default\s+web\s+0\/2/ }).waitFor();
  await page.getByLabel('kubectl get svc -A').filter({ hasText: /default\s+web\s+ClusterIP/ }).waitFor();
  await runInTerminal(page, 'sim advance 20s');
  await page.getByLabel('kubectl get deploy -A').filter({ hasText: /default\s+web\s+2\/2/ }).waitFor();
  await runInTerminal(page, 'sim curl http://web');
  await page.locator('.term-output', { hasText: 'curl: (6) Could not resolve host: web' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('screenshots during a rolling update at 1440×900, 1280×800 and 390×844', async () => {
  for (const [width, height] of [[1440, 900], [1280, 800], [390, 844]]) {
    const page = await openPlayground(browser, server.url, { viewport: { width, height } });
    await pause(page);
    await runInTerminal(page, 'sim advance 30s');
    await runInTerminal(page, 'kubectl set image ds/demo demo=busybox:1.36');
    await runInTerminal(page, 'sim advance 2s');
    await page.locator('.rev-legend').waitFor();
    assert.ok(await page.locator('.pod.rev-old').count() > 0, 'an old pod is still there');
    await screenshot(page, `workbench-rolling-${width}x${height}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
