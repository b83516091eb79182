// The backend a browser run trains on, by the CLI's rule (src/cli/backend.ts): WebGPU on a hardware
// adapter; the CPU backend where the only adapter is a software fallback (SwiftShader), on which the
// plain JS references are ~20× faster than WGSL for the small presets, or where there is no WebGPU.
import type { GpuContext } from '../src/gpu/context.ts';
import type { Backend } from '../src/ops/backend.ts';
import { CpuBackend } from '../src/ops/cpu.ts';
import type { Tensor } from '../src/ops/tensor.ts';
import { WebGpuBackend } from '../src/ops/webgpu.ts';
import type { BackendChoice } from './trainer.api.ts';

export interface OpenedBackend {
  be: Backend<Tensor>;
  /** What the run page shows, e.g. "cpu (the only WebGPU adapter is a software fallback: swiftshader)". */
  name: string;
}

let webgpu: WebGpuBackend | null = null;
let cpu: CpuBackend | null = null;

export async function openBackend(choice: BackendChoice, context: () => Promise<GpuContext>): Promise<OpenedBackend> {
  const onCpu = (why: string): OpenedBackend => ({ be: (cpu ??= new CpuBackend()) as unknown as Backend<Tensor>, name: `cpu${why ? ` (${why})` : ''}` });
  if (choice === 'cpu') return onCpu('');
  let ctx: GpuContext;
  try {
    ctx = await context();
  } catch (e) {
    if (choice === 'webgpu') throw e;
    return onCpu(`no WebGPU: ${(e as Error).message}`);
  }
  const a = ctx.adapter;
  if (choice === 'auto' && a.isFallbackAdapter) return onCpu(`the only WebGPU adapter is a software fallback: ${a.architecture || a.description || a.vendor}`);
  return { be: (webgpu ??= new WebGpuBackend(ctx)) as unknown as Backend<Tensor>, name: `webgpu (${a.vendor} ${a.architecture})`.trim() };
}
