// SwiGLU and RMSNorm, forward and backward, on the WASM kernels (kernels/*.c `swiglu_item`,
// `swiglu_bwd_item`, `rmsnorm_item`, `rmsnorm_bwd_item`): f32 lanes with the polynomial exp of the
// attention kernels. RMSNorm's dw is summed per item of 64 rows, then the partials here in item order,
// so the result does not depend on the thread count.
import { rmsnormBackwardDims, rmsnormDims, sameShape } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { HeapLayout, OP, type KernelPool } from './threads.ts';
import { f32 } from '../recycle.ts';

const PARALLEL = 1 << 15; // elements below which a job runs on the caller alone
const bits = (x: number) => new Int32Array(Float32Array.of(x).buffer)[0]!;
const like = (t: CpuTensor, label: string, data: Float32Array): CpuTensor => ({ shape: [...t.shape], dtype: 'f32', label, data });

export function wasmSwiglu(pool: KernelPool, gate: CpuTensor, up: CpuTensor): CpuTensor {
  const n = sameShape('swiglu', { gate, up });
  const heap = new HeapLayout(pool);
  const gAt = heap.put(gate.data as Float32Array), uAt = heap.put(up.data as Float32Array), hAt = heap.alloc(n);
  heap.commit();
  pool.run(OP.swiglu, [gAt, uAt, hAt, n], Math.ceil(n / pool.ex.ew_per_item()), n >= PARALLEL);
  const h = f32(n);
  heap.read(hAt, h);
  return like(gate, 'swiglu.h', h);
}

export function wasmSwigluBackward(pool: KernelPool, dh: CpuTensor, gate: CpuTensor, up: CpuTensor): { dgate: CpuTensor; dup: CpuTensor } {
  const n = sameShape('swigluBackward', { dh, gate, up });
  const heap = new HeapLayout(pool);
  const dAt = heap.put(dh.data as Float32Array), gAt = heap.put(gate.data as Float32Array), uAt = heap.put(up.data as Float32Array);
  const dgAt = heap.alloc(n), duAt = heap.alloc(n);
  heap.commit();
  pool.run(OP.swigluBackward, [dAt, gAt, uAt, dgAt, duAt, n], Math.ceil(n / pool.ex.ew_per_item()), n >= PARALLEL);
  const dgate = f32(n), dup = f32(n);
  heap.read(dgAt, dgate);
  heap.read(duAt, dup);
  return { dgate: like(gate, 'swiglu.dgate', dgate), dup: like(gate, 'swiglu.dup', dup) };
}

export function wasmRmsnorm(pool: KernelPool, x: CpuTensor, w: CpuTensor, eps: number): { y: CpuTensor; rstd: CpuTensor } {
  const { R, D, rowShape } = rmsnormDims(x, w, eps);
  const heap = new HeapLayout(pool);
  const xAt = heap.put(x.data as Float32Array), wAt = heap.put(w.data as Float32Array), yAt = heap.alloc(R * D), rAt = heap.alloc(R);
  heap.commit();
  pool.run(OP.rmsnorm, [xAt, wAt, yAt, rAt, R, D, bits(eps)], Math.ceil(R / pool.ex.rn_rows_per_item()), R * D >= PARALLEL);
  const y = f32(R * D), rstd = f32(R);
  heap.read(yAt, y);
  heap.read(rAt, rstd);
  return { y: like(x, 'rmsnorm.y', y), rstd: { shape: rowShape, dtype: 'f32', label: 'rmsnorm.rstd', data: rstd } };
}

export function wasmRmsnormBackward(pool: KernelPool, dy: CpuTensor, x: CpuTensor, w: CpuTensor, rstd: CpuTensor, dw: CpuTensor, opts: { accumulateDx?: CpuTensor } = {}): CpuTensor {
  const { R, D } = rmsnormBackwardDims(dy, x, w, rstd, dw, opts.accumulateDx);
  const dx = opts.accumulateDx ?? like(x, 'rmsnorm.dx', f32(R * D));
  const items = Math.ceil(R / pool.ex.rn_rows_per_item());
  const heap = new HeapLayout(pool);
  const at = [dy, x, w, rstd].map((t) => heap.put(t.data as Float32Array));
  const dxAt = opts.accumulateDx ? heap.put(dx.data as Float32Array) : heap.alloc(R * D), partAt = heap.alloc(items * D);
  heap.commit();
  pool.run(OP.rmsnormBackward, [...at, dxAt, partAt, R, D, opts.accumulateDx ? 1 : 0], items, R * D >= PARALLEL);
  heap.read(dxAt, dx.data as Float32Array);
  const part = heap.view(partAt, items * D), g = dw.data as Float32Array;
  for (let d = 0; d < D; d++) {
    let s = 0;
    for (let i = 0; i < items; i++) s += part[i * D + d]!;
    g[d] = g[d]! + s;
  }
  return dx;
}
