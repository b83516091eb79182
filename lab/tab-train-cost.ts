// What the model's work costs in a browser tab against Node (docs/learning.md E148): `webswe bench train`'s
// step (scratch-160k, B 2 × T 512, forward + backward + AdamW) and `bench generate`'s rows (prefill, decode, an
// agent turn) on the WASM backend on every core, in a Web Worker of Debian's chromium (a page served
// cross-origin isolated, as `webswe serve` does, so the helper threads get SharedArrayBuffer) and in this
// Node process, each with op results recycled (src/ops/recycle.ts) and not, alternated, `--repeat` times.
// Prints ms per row (the lower median of the repeats) and the ratios on/off and chromium/Node.
//
//   npx tsx lab/tab-train-cost.ts [--repeat 2] [--steps 20]
//
// One heavy job: run it on a quiet machine.
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { benchGenerate, benchTrain, type ModelBenchResult } from '../src/rl/throughput.ts';
import { scratch160k } from '../src/model/presets.ts';
import { setRecycleMode, type RecycleMode } from '../src/ops/recycle.ts';
import { wasmBackendNode } from '../src/ops/wasm/threads.node.ts';
import { launchChromium } from '../src/bench/chromium.node.ts';
import type { CostRequest } from './tab-train-cost.worker.ts';

const { values: args } = parseArgs({ options: { repeat: { type: 'string', default: '2' }, steps: { type: 'string', default: '20' } } });
const repeat = Number(args.repeat), steps = Number(args.steps);
if (!(Number.isInteger(repeat) && repeat > 0 && Number.isInteger(steps) && steps > 0)) throw new Error('--repeat and --steps must be whole numbers ≥ 1');
const shape = { B: 2, T: 512, steps };

const bundle = await build({ entryPoints: [new URL('./tab-train-cost.worker.ts', import.meta.url).pathname], bundle: true, format: 'esm', write: false, platform: 'browser' });
const workerJs = bundle.outputFiles[0]!.text;
const page = `<!doctype html><script type=module>
window.cost = (req) => new Promise((res) => { const w = new Worker('/worker.js', { type: 'module' }); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(req); });
</script>`;
const server = createServer((req, res) => {
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
  res.setHeader('Content-Type', req.url === '/worker.js' ? 'text/javascript' : 'text/html');
  res.end(req.url === '/worker.js' ? workerJs : page);
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const browser = await launchChromium();
const tab = await browser.newPage();
await tab.goto(`http://localhost:${(server.address() as { port: number }).port}/`);

const inTab = async (recycle: RecycleMode): Promise<ModelBenchResult[]> => {
  const r = (await tab.evaluate((req) => (window as unknown as { cost(q: CostRequest): Promise<{ rows?: ModelBenchResult[]; error?: string }> }).cost(req), { recycle, ...shape })) as { rows?: ModelBenchResult[]; error?: string };
  if (!r.rows) throw new Error(`in chromium: ${r.error}`);
  return r.rows;
};
const inNode = async (recycle: RecycleMode): Promise<ModelBenchResult[]> => {
  setRecycleMode(recycle);
  const be = await wasmBackendNode();
  const b = { name: 'node', be: be as never };
  const rows = [await benchTrain(b, scratch160k, shape), ...(await benchGenerate(b, scratch160k, { G: 8, P: 256, D: 64 }))];
  be.close();
  return rows;
};

const ms = new Map<string, number[]>(); // `${where} ${recycle} ${row}` → ms of each repeat
for (let rep = 0; rep < repeat; rep++) {
  for (const recycle of (rep % 2 ? ['off', 'on'] : ['on', 'off']) as RecycleMode[]) {
    for (const [where, run] of [['chromium', inTab], ['node', inNode]] as const) {
      process.stderr.write(`tab-train-cost: repeat ${rep + 1}/${repeat}, ${where}, recycle ${recycle}\n`);
      for (const r of await run(recycle)) {
        const key = `${where} ${recycle} ${r.name}`;
        ms.set(key, [...(ms.get(key) ?? []), r.ms]);
      }
    }
  }
}
await browser.close();
server.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const at = (where: string, recycle: string, row: string) => median(ms.get(`${where} ${recycle} ${row}`)!);
console.log(`scratch-160k on the WASM backend, every core; train step B ${shape.B} × T ${shape.T}; generate G 8, P 256, D 64; lower medians of ${repeat} repeats`);
console.log('row'.padEnd(14) + 'chromium on'.padStart(13) + 'off'.padStart(10) + 'off/on'.padStart(9) + 'node on'.padStart(10) + 'off'.padStart(10) + 'off/on'.padStart(9) + 'chromium/node (on)'.padStart(21));
for (const row of ['train step', 'prefill', 'decode', 'turn packed', 'turn padded']) {
  const [co, cf, no, nf] = [at('chromium', 'on', row), at('chromium', 'off', row), at('node', 'on', row), at('node', 'off', row)];
  console.log(row.padEnd(14) + `${co.toFixed(1)} ms`.padStart(13) + `${cf.toFixed(1)} ms`.padStart(10) + `${(cf / co).toFixed(2)}×`.padStart(9) + `${no.toFixed(1)} ms`.padStart(10) + `${nf.toFixed(1)} ms`.padStart(10) + `${(nf / no).toFixed(2)}×`.padStart(9) + `${(co / no).toFixed(2)}×`.padStart(21));
}
process.exit(0);
