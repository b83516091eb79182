// What a run of the browser's worker sandbox costs in chromium (docs/learning.md E146): build and serve the
// app (as scripts/app-learning-shot.ts does), then in the page 60 runs one after another in one sandbox of a
// level-0 training task's tests and of `node -e 0`, with one sandbox and with two at once (ms a run, wall,
// amortized), a new sandbox for each test run (an episode's pattern: a closed sandbox's Worker serves the next,
// E156), and bare Workers started one after another (a `postMessage(1)` script and the runner's own), which is
// what a run paid when each run had a Worker of its own.
//
//   npx tsx scripts/worker-run-cost.ts
//
// One heavy job: run it on a quiet machine.
import { readFileSync, readdirSync } from 'node:fs';
import { openAppPage } from '../test/helpers/browser.ts';
import { buildAndServe, ROOT } from './serve-app.ts';

const task = JSON.parse(readFileSync(`${ROOT}public/tasks/level0/train.jsonl`, 'utf8').split('\n')[5]!) as { files: Record<string, string> };
const tests = Object.keys(task.files).filter((p) => p.startsWith('test/'));
const app = await buildAndServe();
const runner = readdirSync(`${ROOT}dist/assets`).find((f) => f.startsWith('runner.worker'));
if (!runner) throw new Error('the build has no runner.worker script in dist/assets');
const errors: string[] = [];
const { browser, page } = await openAppPage(errors);
try {
  await page.goto(app.url);
  await page.waitForFunction(() => (window as { webswe?: { sandboxes?: unknown } }).webswe?.sandboxes);
  // Page code as text (tsx would add helpers the page does not have).
  const SCRIPT = `
    const N = 60, out = {};
    async function runs(name, par, fn) {
      const sbs = await Promise.all(Array.from({ length: par }, () => window.webswe.sandboxes.worker(arg.files, { timeoutMs: 5000 })));
      await fn(sbs[0]);
      const t = performance.now();
      await Promise.all(sbs.map(async (sb) => { for (let i = 0; i < N; i++) await fn(sb); }));
      out[name] = (performance.now() - t) / (N * par);
      await Promise.all(sbs.map((sb) => sb.dispose()));
    }
    // An episode's pattern: a new sandbox, one test run, closed (its Worker released to the next: realm.ts).
    async function episodes(name) {
      const t = performance.now();
      for (let i = 0; i < N; i++) {
        const sb = await window.webswe.sandboxes.worker(arg.files, { timeoutMs: 5000 });
        await sb.runTests(arg.tests);
        await sb.dispose();
      }
      out[name] = (performance.now() - t) / N;
    }
    async function workers(name, url) {
      const t = performance.now();
      for (let i = 0; i < N; i++) await new Promise((res) => { const w = new Worker(url, { type: 'module' }); w.onmessage = () => { w.terminate(); res(); }; });
      out[name] = (performance.now() - t) / N;
    }
    const text = await (await fetch('/assets/' + arg.runner)).text();
    const bare = URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' }));
    const full = URL.createObjectURL(new Blob([text + '\\npostMessage(1)'], { type: 'text/javascript' }));
    for (let rep = 0; rep < 2; rep++) {
      await runs('test run, one sandbox', 1, (sb) => sb.runTests(arg.tests));
      await runs('node -e 0, one sandbox', 1, (sb) => sb.exec(['node', '-e', '0']));
      await runs('test run, two sandboxes at once', 2, (sb) => sb.runTests(arg.tests));
      await runs('node -e 0, two sandboxes at once', 2, (sb) => sb.exec(['node', '-e', '0']));
      await episodes('a new sandbox, a test run, closed');
      await workers('a bare Worker started', bare);
      await workers("the runner's Worker started", full);
      console.log('rep ' + rep + ': ' + JSON.stringify(out));
    }
    return out;`;
  const res = (await page.evaluate(({ script, arg }) => new Function('arg', `return (async () => { ${script} })();`)(arg), { script: SCRIPT, arg: { files: task.files, tests, runner } })) as Record<string, number>;
  for (const [k, v] of Object.entries(res)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
  if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await app.close();
}
