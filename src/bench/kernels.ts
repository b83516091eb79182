// `webswe bench kernels`: every op at training shapes, with napkin math (FLOPs or bytes moved,
// achieved rate) and, for matmul and attention, the peer (TF.js WebGPU) measured in the same run
// on the same adapter, and the speed-up peer ms / our ms (> 1: we are faster).
import type { GpuContext } from '../gpu/context.ts';
import { WebGpuBackend } from '../ops/webgpu/backend.ts';
import { Rng } from '../random.ts';
import { gflops, measure } from './measure.ts';
import { benchOps } from './ops.ts';

export type { BenchResult, KernelBenchOptions, ShapeSet } from './types.ts';
import type { BenchResult, KernelBenchOptions, ShapeSet } from './types.ts';

const MATMUL_SHAPES: Record<ShapeSet, [number, number, number][]> = {
  // M, N, K. small: SwiftShader-sized (~0.1 GFLOP/s); large: training shapes on a real GPU.
  small: [
    [256, 256, 256],
    [128, 512, 128],
  ],
  large: [
    [1024, 1024, 1024],
    [2048, 896, 896],
    [2048, 4864, 896],
  ],
};

export async function benchMatmul(ctx: GpuContext, opts: KernelBenchOptions): Promise<BenchResult[]> {
  const be = new WebGpuBackend(ctx);
  const rng = new Rng(1);
  const out: BenchResult[] = [];
  for (const [M, N, K] of MATMUL_SHAPES[opts.shapes]) {
    const shape = `${M}×${N}×${K}`;
    opts.onProgress?.(`matmul ${shape}`);
    const a = be.fromArray(rng.uniform(M * K), [M, K], 'bench.a');
    const b = be.fromArray(rng.uniform(K * N), [K, N], 'bench.b');
    const c = be.zeros([M, N], 'f32', 'bench.c');
    const t = await measure(() => be.matmul(a, b, { out: c }), () => ctx.sync(), opts.measure);
    const flops = 2 * M * N * K;
    const r: BenchResult = {
      op: 'matmul',
      shape,
      ms: t.ms,
      gflops: gflops(flops, t.ms),
      napkin: `2·M·N·K = ${(flops / 1e6).toFixed(1)} MFLOP; reads ≥ ${(((M * K + K * N) * 4) / 2 ** 20).toFixed(1)} MiB`,
    };
    if (opts.peer) {
      const { tf } = opts.peer;
      const ta = tf.randomUniform([M, K]), tb = tf.randomUniform([K, N]);
      let tc: ReturnType<typeof tf.matMul> | null = null;
      const pt = await measure(
        () => {
          tc?.dispose();
          tc = tf.matMul(ta, tb);
        },
        () => opts.peer!.idle(),
        opts.measure,
      );
      (tc as { dispose(): void } | null)?.dispose();
      ta.dispose();
      tb.dispose();
      Object.assign(r, { peer: 'tfjs-webgpu matMul', peer_ms: pt.ms, ratio: pt.ms / t.ms });
    }
    for (const t2 of [a, b, c]) be.free(t2);
    out.push(r);
  }
  return out;
}

/** Every op group's benchmarks, in order. Groups land here as their kernels do. */
export async function benchKernels(ctx: GpuContext, opts: KernelBenchOptions): Promise<BenchResult[]> {
  return [...(await benchMatmul(ctx, opts)), ...(await benchOps(ctx, opts))];
}
