// Backend choice for CLI commands: `--backend auto|webgpu|cpu`. auto takes WebGPU when Dawn offers
// a hardware adapter, and the CPU backend otherwise — also when the only adapter is a software
// fallback (SwiftShader): measured by `webswe bench generate`/`train`, the plain JS references
// are ~20× faster than WGSL on SwiftShader for the small presets. 'cpu' is FastCpuBackend (the
// references with blocked matmul, attention and logprobs; src/ops/fast-cpu/).
import { nodeContext, probeNodeAdapter } from '../gpu/adapter.node.ts';
import type { Backend } from '../ops/backend.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { WebGpuBackend } from '../ops/webgpu.ts';
import { UserError } from './output.ts';

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';

export async function openBackend(choice: string): Promise<{ be: Backend<Tensor>; name: string }> {
  if (!['auto', 'webgpu', 'cpu'].includes(choice)) throw new UserError(`--backend must be auto, webgpu or cpu, got "${choice}"`);
  if (choice === 'cpu') return { be: new FastCpuBackend() as Backend<Tensor>, name: 'cpu' };
  const probe = await probeNodeAdapter();
  if (!probe.adapter) {
    if (choice === 'webgpu') throw new UserError(`no WebGPU adapter: ${probe.reason}`);
    process.stderr.write(`webswe: no WebGPU adapter (${probe.reason}); using the CPU backend\n`);
    return { be: new FastCpuBackend() as Backend<Tensor>, name: 'cpu' };
  }
  if (choice === 'auto' && (probe.adapter.info as { isFallbackAdapter?: boolean }).isFallbackAdapter) {
    process.stderr.write(`webswe: the only WebGPU adapter is a software fallback (${probe.adapter.info.architecture || probe.adapter.info.description}); using the faster CPU backend (--backend webgpu to force it)\n`);
    return { be: new FastCpuBackend() as Backend<Tensor>, name: 'cpu' };
  }
  const ctx = await nodeContext();
  return { be: new WebGpuBackend(ctx) as unknown as Backend<Tensor>, name: `webgpu (${ctx.adapter.vendor} ${ctx.adapter.architecture})` };
}
