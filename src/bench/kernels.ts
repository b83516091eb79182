// `webswe bench kernels`: every op at training shapes, with napkin math (FLOPs or bytes moved,
// achieved rate) and, for matmul and attention, the peer (TF.js WebGPU) measured in the same run
// on the same adapter, and the speed-up peer ms / our ms (> 1: we are faster). A decoding product (M ≤
// ROWS_MAX rows: the few-row kernel) also gets the 64-tile kernel's time at 64 rows, the work that kernel
// does for any M ≤ 64, so `vs_tile` is what the few-row kernel saves a decode step.
import type { GpuContext } from '../gpu/context.ts';
import { WebGpuBackend } from '../ops/webgpu/backend.ts';
import { ROWS_MAX } from '../ops/webgpu/matmul.ts';
import { Rng } from '../random.ts';
import { gflops, measure } from './measure.ts';
import { benchOps } from './ops.ts';

export type { BenchResult, KernelBenchOptions, ShapeSet } from './types.ts';
import type { BenchResult, KernelBenchOptions, ShapeSet } from './types.ts';

const MATMUL_SHAPES: Record<ShapeSet, [number, number, number, ('Bᵀ' | '')?][]> = {
  // M, N, K (Bᵀ: b stored (N, K), as a model's weights are). small: SwiftShader-sized (~0.5 GFLOP/s);
  // large: training shapes on a real GPU, and decode steps of the 0.5 B shape (C 896, MLP 4864, 8 rows).
  small: [
    [256, 256, 256],
    [128, 512, 128],
    [4, 896, 896, 'Bᵀ'],
  ],
  large: [
    [1024, 1024, 1024],
    [2048, 896, 896],
    [2048, 4864, 896],
    [8, 4864, 896, 'Bᵀ'],
    [8, 896, 4864, 'Bᵀ'],
  ],
};

export async function benchMatmul(ctx: GpuContext, opts: KernelBenchOptions): Promise<BenchResult[]> {
  const be = new WebGpuBackend(ctx);
  const rng = new Rng(1);
  const out: BenchResult[] = [];
  for (const [M, N, K, layout = ''] of MATMUL_SHAPES[opts.shapes]) {
    const transB = layout === 'Bᵀ';
    const shape = `${M}×${N}×${K}${transB ? ' [Bᵀ]' : ''}`;
    opts.onProgress?.(`matmul ${shape}`);
    const a = be.fromArray(rng.uniform(M * K), [M, K], 'bench.a');
    const b = be.fromArray(rng.uniform(K * N), transB ? [N, K] : [K, N], 'bench.b');
    const c = be.zeros([M, N], 'f32', 'bench.c');
    const t = await measure(() => be.matmul(a, b, { out: c, transB }), () => ctx.sync(), opts.measure);
    const flops = 2 * M * N * K;
    const r: BenchResult = {
      op: 'matmul',
      shape,
      ms: t.ms,
      gflops: gflops(flops, t.ms),
      napkin: `2·M·N·K = ${(flops / 1e6).toFixed(1)} MFLOP; reads ≥ ${(((M * K + K * N) * 4) / 2 ** 20).toFixed(1)} MiB`,
    };
    if (M <= ROWS_MAX) {
      const a64 = be.fromArray(rng.uniform(64 * K), [64, K], 'bench.a64'), c64 = be.zeros([64, N], 'f32', 'bench.c64');
      const tile = await measure(() => be.matmul(a64, b, { out: c64, transB }), () => ctx.sync(), opts.measure);
      Object.assign(r, { tile_ms: tile.ms, vs_tile: tile.ms / t.ms, note: `64-tile kernel (its work at any M ≤ 64): ${tile.ms.toFixed(2)} ms, ${(tile.ms / t.ms).toFixed(2)}× ours` });
      be.free(a64), be.free(c64);
    }
    if (opts.peer) {
      const { tf } = opts.peer;
      const ta = tf.randomUniform([M, K]), tb = tf.randomUniform(transB ? [N, K] : [K, N]);
      let tc: ReturnType<typeof tf.matMul> | null = null;
      const pt = await measure(
        () => {
          tc?.dispose();
          tc = tf.matMul(ta, tb, false, transB);
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
