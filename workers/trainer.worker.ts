// The trainer worker: owns the GPUDevice and the runs; the page talks to it through TrainerApi (comlink).
import * as Comlink from 'comlink';
import { browserContext } from '../src/gpu/adapter.browser.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { limitsRecord } from '../src/gpu/device.ts';
import { WebGpuBackend } from '../src/ops/webgpu.ts';
import { checkMatmul } from '../src/ops/selfcheck.ts';
import { openBackend } from './backend.ts';
import { runManager } from './runs.ts';
import type { TrainerApi } from './trainer.api.ts';

let ctx: Promise<GpuContext> | null = null;
const context = () =>
  (ctx ??= browserContext().catch((e) => {
    ctx = null;
    throw e;
  }));

const api: TrainerApi = {
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
  ...runManager((choice) => openBackend(choice, context)),
};

Comlink.expose(api);
