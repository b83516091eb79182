// Backend choice for CLI commands: `--backend auto|webgpu|wasm|fast-cpu` (and `--threads N` for wasm).
// auto takes WebGPU when Dawn offers a hardware adapter, and the WASM SIMD backend on every core
// otherwise — also when the only adapter is a software fallback (SwiftShader), where `webswe bench
// train --backend webgpu,wasm` measures WGSL many times slower. 'wasm' is WasmBackend (SIMD kernels
// on a thread pool; src/ops/wasm/); 'fast-cpu' is FastCpuBackend (blocked JS on one thread, sums in
// f64; src/ops/fast-cpu/). The same names in `bench`, beside 'reference' (the tests' oracle). `autoChoice` is
// the one rule; `webswe gpu` prints what it decides.
import { nodeContext, probeNodeAdapter } from '../gpu/adapter.node.ts';
import type { Backend } from '../ops/backend.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { nodeThreads, wasmBackendNode } from '../ops/wasm/threads.node.ts';
import { WebGpuBackend } from '../ops/webgpu/backend.ts';
import { UserError } from './output.ts';

export type BackendChoice = 'auto' | 'webgpu' | 'wasm' | 'fast-cpu';
export const BACKEND_CHOICES = 'auto, webgpu, wasm (WebAssembly SIMD on every core) or fast-cpu (JS, one thread)';

/** The backends' earlier spelling: refused in one line that names the name now. */
export function refuseOldBackendName(choice: string, flag = '--backend'): void {
  if (choice === 'cpu') throw new UserError(`${flag} cpu is now called fast-cpu (the blocked JS backend; the plain references are 'reference' in bench)`);
}

/** What `--backend auto` runs on, given what Dawn offers, and why (one line for a person). */
export function autoChoice(adapter: GPUAdapter | null, reason?: string): { backend: 'webgpu' | 'wasm'; why: string } {
  if (!adapter) return { backend: 'wasm', why: `no WebGPU adapter (${reason ?? 'none offered'})` };
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  if (info.isFallbackAdapter) {
    return { backend: 'wasm', why: `the only WebGPU adapter is a software fallback (${info.architecture || info.description || info.vendor || 'unnamed'}); the WASM CPU backend is faster there (--backend webgpu to force it)` };
  }
  return { backend: 'webgpu', why: `a hardware adapter (${[info.vendor, info.architecture].filter(Boolean).join(' ') || 'unnamed'})` };
}

/** `--threads`: a whole number ≥ 1, or every core when absent. */
export function parseThreads(text: string | undefined): number {
  if (text === undefined) return nodeThreads();
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new UserError(`--threads must be a whole number from 1 to 256, got "${text}"`);
  return n;
}

export async function openBackend(choice: string, threadsText?: string): Promise<{ be: Backend<Tensor>; name: string }> {
  refuseOldBackendName(choice);
  if (!['auto', 'webgpu', 'wasm', 'fast-cpu'].includes(choice)) throw new UserError(`--backend must be ${BACKEND_CHOICES}, got "${choice}"`);
  const threads = parseThreads(threadsText);
  if (threadsText !== undefined && choice !== 'wasm' && choice !== 'auto') throw new UserError(`--threads applies to the wasm backend (and auto, when it picks wasm), not ${choice}`);
  const wasm = async () => ({ be: (await wasmBackendNode(threads)) as unknown as Backend<Tensor>, name: `wasm (${threads} thread${threads === 1 ? '' : 's'})` });
  if (choice === 'fast-cpu') return { be: new FastCpuBackend() as Backend<Tensor>, name: 'fast-cpu' };
  if (choice === 'wasm') return wasm();
  const probe = await probeNodeAdapter();
  if (!probe.adapter && choice === 'webgpu') throw new UserError(`no WebGPU adapter: ${probe.reason}`);
  const auto = autoChoice(probe.adapter, probe.reason);
  if (choice === 'auto' && auto.backend === 'wasm') {
    process.stderr.write(`webswe: ${auto.why}; using the WASM CPU backend on ${threads} thread${threads === 1 ? '' : 's'}\n`);
    return wasm();
  }
  const ctx = await nodeContext();
  return { be: new WebGpuBackend(ctx) as unknown as Backend<Tensor>, name: `webgpu (${ctx.adapter.vendor} ${ctx.adapter.architecture})` };
}
