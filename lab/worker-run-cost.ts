// What a run of the browser's worker sandbox costs in chromium (docs/learning.md E146): build and serve the
// app (as lab/app-learning-shot.ts does), then in the page 60 runs one after another in one sandbox of a
// level-0 training task's tests and of `node -e 0`, with one sandbox and with two at once (ms a run, wall,
// amortized), and a new sandbox for each test run (an episode's pattern: a closed sandbox's Worker serves the
// next, E156). What a Worker start costs, wall and CPU: lab/worker-start-cost.ts (the runner now takes
// postMessage off its global, so a script appended to it can no longer answer).
//
//   npx tsx lab/worker-run-cost.ts
//
// One heavy job: run it on a quiet machine.
import { readFileSync } from 'node:fs';
import { openAppWithSandboxes, ROOT } from './serve-app.ts';

const task = JSON.parse(readFileSync(`${ROOT}public/tasks/level0/train.jsonl`, 'utf8').split('\n')[5]!) as { files: Record<string, string> };
const tests = Object.keys(task.files).filter((p) => p.startsWith('test/'));
const { page, errors, close } = await openAppWithSandboxes();
try {
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
    for (let rep = 0; rep < 2; rep++) {
      await runs('test run, one sandbox', 1, (sb) => sb.runTests(arg.tests));
      await runs('node -e 0, one sandbox', 1, (sb) => sb.exec(['node', '-e', '0']));
      await runs('test run, two sandboxes at once', 2, (sb) => sb.runTests(arg.tests));
      await runs('node -e 0, two sandboxes at once', 2, (sb) => sb.exec(['node', '-e', '0']));
      await episodes('a new sandbox, a test run, closed');
      console.log('rep ' + rep + ': ' + JSON.stringify(out));
    }
    return out;`;
  const res = (await page.evaluate(({ script, arg }) => new Function('arg', `return (async () => { ${script} })();`)(arg), { script: SCRIPT, arg: { files: task.files, tests } })) as Record<string, number>;
  for (const [k, v] of Object.entries(res)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
  if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
} finally {
  await close();
}
