// What starting a Worker costs in chromium, in wall time and in CPU (docs/learning.md E156): build and serve the
// app (as lab/app-learning-shot.ts does); from a Worker of the page (as the app's trainer starts the sandbox's
// runner Workers) start 48 Workers, one at a time and 8 at once, each given a `node -e 0` job and ended at its
// exit: the built runner from a blob: URL (what the worker sandbox starts) and a bare script that answers at
// once. The CPU is every chromium process's (/proc/PID/stat, exited threads included: Linux only), so it counts
// the browser process's share of a start too.
//
//   npx tsx lab/worker-start-cost.ts
//
// One heavy job: run it on a quiet machine.
import { readdirSync, readFileSync } from 'node:fs';
import { openAppWithSandboxes } from './serve-app.ts';

const N = 48;
/** CPU seconds used so far by every chromium process (user + system, clock ticks of 1/100 s). */
function chromiumCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // the process ended while read
    }
  }
  return ticks / 100;
}

const { page, runner, errors, close } = await openAppWithSandboxes();
try {
  // The starting Worker, as text (tsx would add helpers the page does not have).
  const starter = `
    onmessage = async (e) => {
      const { url, n, par } = e.data;
      const one = () => new Promise((res, rej) => {
        const w = new Worker(url, { type: 'module' });
        w.onerror = (ev) => { ev.preventDefault(); rej(new Error('the Worker failed: ' + ev.message)); };
        w.onmessage = (m) => { if (m.data.type === 'exit') { w.terminate(); res(); } };
        w.postMessage({ files: {}, argv: ['-e', '0'] });
      });
      const t = performance.now();
      try {
        for (let i = 0; i < n; i += par) await Promise.all(Array.from({ length: Math.min(par, n - i) }, one));
        postMessage({ ms: (performance.now() - t) / n });
      } catch (err) { postMessage({ error: String(err) }); }
    };`;
  await page.evaluate(({ starter, runner }) => {
    const w = window as unknown as Record<string, unknown>;
    w.__starter = new Worker(URL.createObjectURL(new Blob([starter], { type: 'text/javascript' })));
    w.__urls = fetch(`/assets/${runner}`).then((r) => r.text()).then((text) => ({
      runner: URL.createObjectURL(new Blob([text], { type: 'text/javascript' })),
      bare: URL.createObjectURL(new Blob(["onmessage = () => postMessage({ type: 'exit', code: 0 })"], { type: 'text/javascript' })),
    }));
  }, { starter, runner });
  for (let rep = 0; rep < 2; rep++) {
    for (const kind of ['runner', 'bare'] as const) {
      for (const par of [1, 8]) {
        const cpu0 = chromiumCpu();
        const r = (await page.evaluate(async ({ kind, par, n }) => {
          const w = window as unknown as { __starter: Worker; __urls: Promise<Record<string, string>> };
          const urls = await w.__urls;
          return new Promise((res) => {
            w.__starter.onmessage = (e) => res(e.data);
            w.__starter.postMessage({ url: urls[kind], n, par });
          });
        }, { kind, par, n: N })) as { ms?: number; error?: string };
        if (r.error !== undefined) throw new Error(r.error);
        const cpu = ((chromiumCpu() - cpu0) * 1000) / N;
        console.log(`repeat ${rep + 1}: ${kind === 'runner' ? "the runner's Worker" : 'a bare Worker'}, ${par} at once: ${r.ms!.toFixed(1)} ms wall a start, ${cpu.toFixed(1)} ms of chromium's CPU a start`);
      }
    }
  }
  if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
} finally {
  await close();
}
