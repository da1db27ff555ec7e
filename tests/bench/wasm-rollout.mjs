// The rollout benchmark in WebAssembly (numbers, not assertions): loads the wasm build of
// crates/bench (src/wasm.rs) in headless Chromium and times each phase with performance.now(),
// as examples/rollout_timing.rs does natively. `cargo xtask bench-wasm [NODES]` builds the wasm
// with the shipped release profile, runs this and the native example, and prints both.
// Usage: node tests/bench/wasm-rollout.mjs PKG_DIR NODES MAX_UNAVAILABLE; prints one line per
// phase as the example does (`rolling update: 123.456 ms`).
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serveDir, launch } from '../e2e/harness.mjs';

const [pkgDir, nodes = '5000', maxUnavailable = '1'] = process.argv.slice(2);
const root = resolve(pkgDir);
await writeFile(join(root, 'index.html'), `<!doctype html><meta charset="utf-8"><title>rollout benchmark</title>
<script type="module">
import init, { Bench } from './dsplay_bench.js';
window.run = async (nodes, maxUnavailable) => {
  await init();
  const bench = new Bench(maxUnavailable);
  const ms = {};
  const time = (phase, f) => { const t = performance.now(); const out = f(); ms[phase] = performance.now() - t; return out; };
  time('add nodes', () => bench.add_nodes(nodes));
  time('initial rollout', () => bench.roll_out());
  time('add one node', () => bench.add_one_node());
  const updated = time('rolling update', () => bench.rolling_update());
  bench.free();
  return { ms, updated };
};
</script>`);
const server = await serveDir(root);
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => typeof window.run === 'function');
  const result = await page.evaluate(([n, mu]) => window.run(n, mu), [Number(nodes), maxUnavailable]);
  for (const [phase, ms] of Object.entries(result.ms)) console.log(`${phase}: ${ms.toFixed(3)} ms`);
  console.log(`updatedNumberScheduled: ${result.updated}`);
} finally {
  await browser.close();
  await server.close();
}
