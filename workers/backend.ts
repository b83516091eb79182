// The backend a browser run trains on, by the CLI's rule (src/cli/backend.ts): the WASM SIMD backend on
// every core the browser reports where the only adapter is a software fallback (SwiftShader, on which it
// is many times faster than WGSL for the small presets) or where there is no WebGPU; on a hardware
// adapter, the one that prices the run lower, measured at its shape (src/rl/auto-backend.ts, the rates
// kept in IndexedDB), or WebGPU when there is no run to price; 'fast-cpu' is the fast JS backend on one thread.
// Also: the memory budget of that backend (src/rl/fit.ts), and the test-only way to lose the device.
import type { GpuContext } from '../src/gpu/context.ts';
import type { GpuDeviceLostError } from '../src/gpu/errors.ts';
import { limitsRecord } from '../src/gpu/device.ts';
import type { Backend } from '../src/ops/backend.ts';
import { FastCpuBackend } from '../src/ops/fast-cpu/backend.ts';
import { WasmBackend } from '../src/ops/wasm/backend.ts';
import { spawnWebHelper, webThreads } from '../src/ops/wasm/threads.browser.ts';
import type { Tensor } from '../src/ops/tensor.ts';
import { WebGpuBackend } from '../src/ops/webgpu/backend.ts';
import { cpuMemoryBudget, webgpuMemoryBudget, type MemoryBudget } from '../src/rl/fit.ts';
import type { ModelConfig } from '../src/model/config.ts';
import type { LoraConfig } from '../src/model/lora.ts';
import { autoKey, autoRatesOf, chooseAuto, measurementShape, shapeKey, type AutoCache, type AutoDecision } from '../src/rl/auto-backend.ts';
import type { RunConfig } from '../src/rl/config.ts';
import { measureRates } from '../src/rl/throughput.ts';
import { openWebsweDb, type WebsweDatabase } from '../src/store/idb.browser.ts';
import type { BackendChoice } from './trainer.api.ts';

export interface OpenedBackend {
  be: Backend<Tensor>;
  /** What the run page shows, e.g. "cpu (the only WebGPU adapter is a software fallback: swiftshader)". */
  name: string;
  /** What the run may use on it (the refusal before a run starts). */
  budget: MemoryBudget;
  /** WebGPU only: told once if the device is lost (GpuContext.onLost); returns the unsubscribe function. */
  onLost?: (listener: (e: GpuDeviceLostError) => void) => () => void;
  /** auto on a hardware adapter: what it measured and picked. */
  auto?: AutoDecision;
}

/** A run auto can measure: its config and the model it trains. */
export interface AutoRun {
  cfg: RunConfig;
  config: ModelConfig;
  lora?: LoraConfig;
}

let dbp: Promise<WebsweDatabase> | null = null;
const db = () => (dbp ??= openWebsweDb());
/** auto's measured rates in the database's `measurements` store (a record that is not rates is measured again). */
const autoCache: AutoCache = {
  get: async (key) => autoRatesOf((await (await db()).get('measurements', key))?.value),
  set: async (key, value) => void (await (await db()).put('measurements', { key, at: Date.now(), value })),
};

let webgpu: WebGpuBackend | null = null;
// The CPU backend is the fast one (blocked matmul, flash-style attention), as under the CLI: the
// plain references (src/ops/reference) stay the tests' oracle.
let cpu: FastCpuBackend | null = null;
let wasm: Promise<WasmBackend> | null = null;

/** The WASM backend on every core, made once per worker (its helper threads live as long as it). Without
 *  SharedArrayBuffer (a page that is not cross-origin isolated) it runs on this thread alone. */
const wasmThreads = () => (typeof SharedArrayBuffer === 'undefined' ? 1 : webThreads());
function wasmBackend(): Promise<WasmBackend> {
  return (wasm ??= WasmBackend.create(wasmThreads(), spawnWebHelper).catch((e) => {
    wasm = null;
    throw e;
  }));
}

/** Which backend `choice` means here: the GPU context it would use, or why it is a CPU backend. */
async function resolve(choice: BackendChoice, context: () => Promise<GpuContext>, run?: AutoRun): Promise<{ ctx: GpuContext; auto?: AutoDecision } | { cpu: string; kind: 'cpu' | 'wasm'; auto?: AutoDecision }> {
  if (choice === 'fast-cpu') return { cpu: '', kind: 'cpu' };
  if (choice === 'wasm') return { cpu: '', kind: 'wasm' };
  let ctx: GpuContext;
  try {
    ctx = await context();
  } catch (e) {
    if (choice === 'webgpu') throw e;
    return { cpu: `no WebGPU: ${(e as Error).message}`, kind: 'wasm' };
  }
  const a = ctx.adapter;
  if (choice === 'auto' && a.isFallbackAdapter) return { cpu: `the only WebGPU adapter is a software fallback: ${a.architecture || a.description || a.vendor}`, kind: 'wasm' };
  if (choice !== 'auto' || !run) return { ctx };
  const shape = measurementShape(run.cfg.model.preset, run.config, run.lora);
  const batch = { trainRows: run.cfg.bc.batchEpisodes, rolloutRows: run.cfg.agent.rolloutBatch };
  const name = [a.vendor, a.architecture, a.description].filter(Boolean).join(' ') || 'unnamed';
  const auto = await chooseAuto({
    adapter: { kind: 'hardware', name }, cfg: run.cfg, model: run.config, shape: shape.name, cache: autoCache, scale: shape.scale,
    key: autoKey(name, shapeKey(shape.config, shape.lora), batch, wasmThreads()),
    measure: async (kind) => {
      const be = kind === 'webgpu' ? gpuBackend(ctx) : await wasmBackend();
      return measureRates({ name: kind, be: be as unknown as Backend<Tensor> }, shape, batch);
    },
  });
  return auto.backend === 'webgpu' ? { ctx, auto } : { cpu: `auto ${auto.why}`, kind: 'wasm', auto };
}

/** The WebGPU backend on `ctx` (a lost device's context is replaced by a new one, trainer.worker.ts: built again on that). */
function gpuBackend(ctx: GpuContext): WebGpuBackend {
  if (webgpu?.ctx !== ctx) webgpu = new WebGpuBackend(ctx);
  return webgpu;
}

export async function openBackend(choice: BackendChoice, context: () => Promise<GpuContext>, run?: AutoRun): Promise<OpenedBackend> {
  const r = await resolve(choice, context, run);
  const auto = r.auto ? { auto: r.auto } : {};
  if ('cpu' in r && r.kind === 'cpu') return { be: (cpu ??= new FastCpuBackend()) as unknown as Backend<Tensor>, name: 'fast-cpu (JS, one thread)', budget: cpuBudget() };
  if ('cpu' in r) {
    const be = await wasmBackend();
    return { be: be as unknown as Backend<Tensor>, name: `wasm (${be.threads} thread${be.threads === 1 ? '' : 's'}${r.cpu ? `; ${r.cpu}` : ''})`, budget: cpuBudget(), ...auto };
  }
  const { ctx } = r;
  const a = ctx.adapter;
  return {
    be: gpuBackend(ctx) as unknown as Backend<Tensor>, name: `webgpu (${`${a.vendor} ${a.architecture}`.trim()}${r.auto ? `; auto ${r.auto.why}` : ''})`,
    budget: webgpuMemoryBudget(limitsRecord(ctx.limits)), onLost: (l) => ctx.onLost(l), ...auto,
  };
}

const cpuBudget = () => cpuMemoryBudget((navigator as { deviceMemory?: number }).deviceMemory);

/** The memory budget of the backend `choice` would open (the New run form's estimate, the refusal). */
export async function memoryBudget(choice: BackendChoice, context: () => Promise<GpuContext>): Promise<MemoryBudget> {
  const r = await resolve(choice, context);
  if ('cpu' in r) return cpuBudget();
  return webgpuMemoryBudget(limitsRecord(r.ctx.limits));
}

/**
 * Test-only (the browser tier's device-loss test): destroy the device the WebGPU backend trains on,
 * which the run sees as a driver would show a lost device. Refuses when no run has used WebGPU.
 */
export function destroyDeviceForTest(): void {
  if (!webgpu) throw new Error('no WebGPU backend has been opened in this worker: start a run with backend "webgpu" first');
  webgpu.ctx.device.destroy();
}
