// The trainer worker: owns the GPUDevice and the runs; the page talks to it through WorkerApi (comlink):
// TrainerApi (runs, runs.ts), ExportApi (export and import, export.ts) and ModelApi (pretrained models, models.ts).
import * as Comlink from 'comlink';
import { browserContext } from '../src/gpu/adapter.browser.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { limitsRecord } from '../src/gpu/device.ts';
import { WebGpuBackend } from '../src/ops/webgpu/backend.ts';
import { checkMatmul } from '../src/ops/selfcheck.ts';
import { destroyDeviceForTest, memoryBudget, openBackend } from './backend.ts';
import { contributeApi } from './contribute.ts';
import { estimateOnDevice, iterationOnDevice } from './estimate.ts';
import { exportApi } from './export.ts';
import { modelApi } from './models.ts';
import { runManager } from './runs.ts';
import type { IterationEstimate, WorkerApi } from './trainer.api.ts';

let ctx: Promise<GpuContext> | null = null;
// A lost device is forgotten, so the next run (a resume) acquires a new one.
const context = () => {
  const p: Promise<GpuContext> = (ctx ??= browserContext().then(
    (c) => (c.onLost(() => ctx === p && (ctx = null)), c),
    (e) => {
      ctx = null;
      throw e;
    },
  ));
  return p;
};

const runs = runManager((choice, run) => openBackend(choice, context, run));
/** The iteration measurement in flight, if any (estimateIteration). */
let measuring: { key: string; p: Promise<IterationEstimate> } | null = null;
const notMeasuring = () => {
  if (measuring) throw new Error(`this tab is measuring what ${measuring.key.split('|')[0]} costs (under a minute); start the run when it is done`);
};
const api: WorkerApi = {
  async probe() {
    try {
      const c = await context();
      return { ok: true, inWorker: true, adapter: c.adapter, limits: limitsRecord(c.limits), features: [...c.features].sort() };
    } catch (e) {
      return { ok: false, inWorker: true, reason: (e as Error).message };
    }
  },
  async checkMatmul(cases, seed) {
    const backend = new WebGpuBackend(await context());
    const out = [];
    for (const [i, c] of cases.entries()) out.push(await checkMatmul(backend, c, seed + i));
    return out;
  },
  ...runs,
  memoryBudget: (choice) => memoryBudget(choice, context),
  estimateRun: (preset, choice, overrides) => estimateOnDevice(preset, choice, (c, run) => openBackend(c, context, run), overrides),
  async estimateIteration(preset, choice) {
    // A pretrained shape's measurement holds ~2 GB: never beside a training run or a second measurement (a
    // second ask for the same one shares it: the first screen's and the Model view's buttons).
    const { run } = await runs.activeRun();
    if (run) throw new Error(`run "${run}" is training in this tab; pause or stop it, then measure`);
    const key = `${preset}|${choice}`;
    if (measuring && measuring.key !== key) throw new Error(`this tab is measuring ${measuring.key.split('|')[0]}; ask again when it is done`);
    if (!measuring) {
      const p = iterationOnDevice(preset, choice, (c, r) => openBackend(c, context, r)).finally(() => (measuring = null));
      measuring = { key, p };
    }
    return measuring.p;
  },
  async startRun(req) {
    notMeasuring();
    return runs.startRun(req);
  },
  async resumeRun(name, backend) {
    notMeasuring();
    return runs.resumeRun(name, backend);
  },
  loseDeviceForTest: async () => destroyDeviceForTest(),
  ...exportApi(),
  ...modelApi(context),
  ...contributeApi((choice) => openBackend(choice, context)),
};

Comlink.expose(api);
