import { test, before, after } from 'node:test';
import { writeFile } from 'node:fs/promises';
import { serveDir, launch, openPlayground, pause, runInTerminal } from './harness.mjs';
let server, browser;
before(async () => { server = await serveDir(process.env.DISTDIR); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });
test('big deployment prof', { timeout: 900_000 }, async () => {
  const page = await openPlayground(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await pause(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start');
  const t = Date.now();
  await runInTerminal(page, `kubectl create deployment big --image=nginx --replicas=${process.env.N ?? 5000}`);
  await page.getByText('deployment.apps/big created').waitFor({ timeout: 600_000 });
  await page.waitForTimeout(1500);
  console.log(`took ${Date.now() - t}`);
  const { profile } = await cdp.send('Profiler.stop'); await writeFile('/tmp/wprof/profile.json', JSON.stringify(profile));
  await page.context().close();
});
