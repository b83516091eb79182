// Backend choice for CLI commands: `--backend auto|webgpu|cpu`. auto takes WebGPU when Dawn offers
// a hardware adapter, and the CPU backend otherwise — also when the only adapter is a software
// fallback (SwiftShader), where `webswe bench generate` measures the fast CPU backend several times
// faster than WGSL for the small presets. 'cpu' is FastCpuBackend (the references with blocked
// matmul, attention and logprobs; src/ops/fast-cpu/). `autoChoice` is the one rule; `webswe gpu`
// prints what it decides.
import { nodeContext, probeNodeAdapter } from '../gpu/adapter.node.ts';
import type { Backend } from '../ops/backend.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { WebGpuBackend } from '../ops/webgpu.ts';
import { UserError } from './output.ts';

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';

/** What `--backend auto` runs on, given what Dawn offers, and why (one line for a person). */
export function autoChoice(adapter: GPUAdapter | null, reason?: string): { backend: 'webgpu' | 'cpu'; why: string } {
  if (!adapter) return { backend: 'cpu', why: `no WebGPU adapter (${reason ?? 'none offered'})` };
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  if (info.isFallbackAdapter) {
    return { backend: 'cpu', why: `the only WebGPU adapter is a software fallback (${info.architecture || info.description || info.vendor || 'unnamed'}); the CPU backend is faster there (--backend webgpu to force it)` };
  }
  return { backend: 'webgpu', why: `a hardware adapter (${[info.vendor, info.architecture].filter(Boolean).join(' ') || 'unnamed'})` };
}

export async function openBackend(choice: string): Promise<{ be: Backend<Tensor>; name: string }> {
  if (!['auto', 'webgpu', 'cpu'].includes(choice)) throw new UserError(`--backend must be auto, webgpu or cpu, got "${choice}"`);
  if (choice === 'cpu') return { be: new FastCpuBackend() as Backend<Tensor>, name: 'cpu' };
  const probe = await probeNodeAdapter();
  if (!probe.adapter && choice === 'webgpu') throw new UserError(`no WebGPU adapter: ${probe.reason}`);
  const auto = autoChoice(probe.adapter, probe.reason);
  if (choice === 'auto' && auto.backend === 'cpu') {
    process.stderr.write(`webswe: ${auto.why}; using the CPU backend\n`);
    return { be: new FastCpuBackend() as Backend<Tensor>, name: 'cpu' };
  }
  const ctx = await nodeContext();
  return { be: new WebGpuBackend(ctx) as unknown as Backend<Tensor>, name: `webgpu (${ctx.adapter.vendor} ${ctx.adapter.architecture})` };
}
