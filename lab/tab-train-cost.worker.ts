// The worker side of lab/tab-train-cost.ts: the model benchmarks of `webswe bench train` and `bench
// generate` on the WASM backend, in a Web Worker (as the app's trainer runs them), with op results
// recycled and not (src/ops/recycle.ts). Posts the rows back.
import { benchGenerate, benchTrain, type ModelBenchResult } from '../src/rl/throughput.ts';
import { scratch160k } from '../src/model/presets.ts';
import { setRecycleMode, type RecycleMode } from '../src/ops/recycle.ts';
import { WasmBackend } from '../src/ops/wasm/backend.ts';
import { spawnWebHelper, webThreads } from '../src/ops/wasm/threads.browser.ts';

export interface CostRequest {
  recycle: RecycleMode;
  B: number;
  T: number;
  steps: number;
}

onmessage = async (e: MessageEvent<CostRequest>) => {
  const { recycle, B, T, steps } = e.data;
  try {
    setRecycleMode(recycle);
    const threads = webThreads();
    const be = await WasmBackend.create(threads, threads > 1 ? spawnWebHelper : undefined);
    const b = { name: `wasm ${threads} threads, recycle ${recycle}`, be: be as never };
    const rows: ModelBenchResult[] = [await benchTrain(b, scratch160k, { B, T, steps }), ...(await benchGenerate(b, scratch160k, { G: 8, P: 256, D: 64 }))];
    be.close();
    postMessage({ rows });
  } catch (err) {
    postMessage({ error: String((err as Error).stack ?? err) });
  }
};
