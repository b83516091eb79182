// The backend a browser run trains on, by the CLI's rule (src/cli/backend.ts): WebGPU on a hardware
// adapter; the WASM SIMD backend on every core the browser reports where the only adapter is a
// software fallback (SwiftShader), on which it is many times faster than WGSL for the small presets,
// or where there is no WebGPU; 'fast-cpu' is the fast JS backend on one thread.
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
import type { BackendChoice } from './trainer.api.ts';

export interface OpenedBackend {
  be: Backend<Tensor>;
  /** What the run page shows, e.g. "cpu (the only WebGPU adapter is a software fallback: swiftshader)". */
  name: string;
  /** What the run may use on it (the refusal before a run starts). */
  budget: MemoryBudget;
  /** WebGPU only: told once if the device is lost (GpuContext.onLost); returns the unsubscribe function. */
  onLost?: (listener: (e: GpuDeviceLostError) => void) => () => void;
}

let webgpu: WebGpuBackend | null = null;
// The CPU backend is the fast one (blocked matmul, flash-style attention), as under the CLI: the
// plain references (src/ops/reference) stay the tests' oracle.
let cpu: FastCpuBackend | null = null;
let wasm: Promise<WasmBackend> | null = null;

/** The WASM backend on every core, made once per worker (its helper threads live as long as it). Without
 *  SharedArrayBuffer (a page that is not cross-origin isolated) it runs on this thread alone. */
function wasmBackend(): Promise<WasmBackend> {
  const threads = typeof SharedArrayBuffer === 'undefined' ? 1 : webThreads();
  return (wasm ??= WasmBackend.create(threads, spawnWebHelper).catch((e) => {
    wasm = null;
    throw e;
  }));
}

/** Which backend `choice` means here: the GPU context it would use, or why it is a CPU backend. */
async function resolve(choice: BackendChoice, context: () => Promise<GpuContext>): Promise<{ ctx: GpuContext } | { cpu: string; kind: 'cpu' | 'wasm' }> {
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
  return { ctx };
}

export async function openBackend(choice: BackendChoice, context: () => Promise<GpuContext>): Promise<OpenedBackend> {
  const r = await resolve(choice, context);
  if ('cpu' in r && r.kind === 'cpu') return { be: (cpu ??= new FastCpuBackend()) as unknown as Backend<Tensor>, name: 'fast-cpu (JS, one thread)', budget: cpuBudget() };
  if ('cpu' in r) {
    const be = await wasmBackend();
    return { be: be as unknown as Backend<Tensor>, name: `wasm (${be.threads} thread${be.threads === 1 ? '' : 's'}${r.cpu ? `; ${r.cpu}` : ''})`, budget: cpuBudget() };
  }
  const { ctx } = r;
  // A lost device's context is replaced by a new one (trainer.worker.ts): build the backend on that.
  if (webgpu?.ctx !== ctx) webgpu = new WebGpuBackend(ctx);
  const a = ctx.adapter;
  return { be: webgpu as unknown as Backend<Tensor>, name: `webgpu (${a.vendor} ${a.architecture})`.trim(), budget: webgpuMemoryBudget(limitsRecord(ctx.limits)), onLost: (l) => ctx.onLost(l) };
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
