// matmul on the WASM kernels (kernels/*.c `mm_item`): the operands are copied into the pool's shared
// memory (a, b, bias, and out when accumulating), the product's work items (MC × NC blocks of C,
// per batch) run on every thread, and C is copied back. Sums are f32 in k order per element (the
// WGSL kernel's precision, not the f64 of the JS backends); the copies cost O(MK + KN + MN) against
// the product's O(MNK). Small products run on the caller alone: a fork-join costs tens of µs.
import { matmulDims, type MatmulOptions } from '../matmul.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { HeapLayout, OP, type KernelPool } from './threads.ts';
import { f32 } from '../recycle.ts';

/** Products below this many multiply-adds run on one thread (thread count never changes the bits). */
const PARALLEL_MACS = 1 << 18;

export function wasmMatmul(pool: KernelPool, a: CpuTensor, b: CpuTensor, opts: MatmulOptions<CpuTensor> = {}): CpuTensor {
  const d = matmulDims(a, b, opts);
  const out = opts.out ?? { shape: d.outShape, dtype: 'f32' as const, label: 'matmul.out', data: f32(d.batch * d.M * d.N) };
  const C = out.data as Float32Array;
  const heap = new HeapLayout(pool);
  const aAt = heap.put(a.data as Float32Array), bAt = heap.put(b.data as Float32Array);
  const biasAt = opts.bias ? heap.put(opts.bias.data as Float32Array) : 0;
  const cAt = opts.accumulate ? heap.put(C) : heap.alloc(C.length);
  heap.commit();
  const items = d.batch * Math.ceil(d.M / pool.ex.mm_rows_per_item()) * Math.ceil(d.N / pool.ex.mm_cols_per_item());
  const { base: scratch, stride } = pool.matmulScratch;
  pool.run(
    OP.matmul,
    [aAt, bAt, cAt, biasAt, d.M, d.N, d.K, d.strideA, d.strideB, d.strideC, opts.transA ? 1 : 0, opts.transB ? 1 : 0, opts.accumulate ? 1 : 0, scratch, stride],
    items,
    d.batch * d.M * d.N * d.K >= PARALLEL_MACS,
  );
  heap.read(cAt, C);
  return out;
}
