// logprobs and its backward on the WASM kernels (kernels/*.c `lp_fwd_item`, `lp_bwd_item`), 16 rows an
// item. The kernel returns each row's max m, Σ e^(x−m) and Σ e^(x−m)·(x−m); the logs are taken
// here (wasm has no log instruction): lse = m + log s, H = log s − sx/s, logp = x[t] − m − log s
// (0 for a target outside [0, V), as the reference).
import { logprobsBackwardDims, logprobsDims } from '../logprobs.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { HeapLayout, OP, type KernelPool } from './threads.ts';
import { f32 } from '../recycle.ts';

const vec = (label: string, data: Float32Array, n: number): CpuTensor => ({ shape: [n], dtype: 'f32', label, data });
/** Rows × V below this run on the caller alone. */
const PARALLEL = 1 << 16;

export function wasmLogprobs(pool: KernelPool, logits: CpuTensor, targets: CpuTensor): { logp: CpuTensor; entropy: CpuTensor; lse: CpuTensor } {
  const { N, V } = logprobsDims('logprobs', logits, targets);
  const x = logits.data as Float32Array, tg = targets.data as Int32Array;
  const heap = new HeapLayout(pool);
  const xAt = heap.put(x), mAt = heap.alloc(N), sAt = heap.alloc(N), sxAt = heap.alloc(N);
  heap.commit();
  pool.run(OP.logprobs, [xAt, N, V, mAt, sAt, sxAt], Math.ceil(N / pool.ex.lp_rows_per_item()), N * V >= PARALLEL);
  const m = heap.view(mAt, N), s = heap.view(sAt, N), sx = heap.view(sxAt, N);
  const logp = f32(N), entropy = f32(N), lse = f32(N);
  for (let n = 0; n < N; n++) {
    const logs = Math.log(s[n]!), t = tg[n]!;
    lse[n] = m[n]! + logs;
    entropy[n] = logs - sx[n]! / s[n]!;
    logp[n] = t >= 0 && t < V ? x[n * V + t]! - m[n]! - logs : 0;
  }
  return { logp: vec('logprobs.logp', logp, N), entropy: vec('logprobs.entropy', entropy, N), lse: vec('logprobs.lse', lse, N) };
}

export function wasmLogprobsBackward(
  pool: KernelPool, logits: CpuTensor, targets: CpuTensor, lse: CpuTensor, entropy: CpuTensor, dlogp: CpuTensor, dentropy?: CpuTensor, out?: CpuTensor,
): CpuTensor {
  const { N, V } = logprobsBackwardDims(logits, targets, lse, entropy, dlogp, dentropy, out);
  const dst = out ?? { shape: [N, V], dtype: 'f32' as const, label: 'logprobsBackward.dlogits', data: f32(N * V) };
  const heap = new HeapLayout(pool);
  const xAt = heap.put(logits.data as Float32Array), tAt = heap.put(targets.data as Int32Array);
  const lAt = heap.put(lse.data as Float32Array), hAt = heap.put(entropy.data as Float32Array), gAt = heap.put(dlogp.data as Float32Array);
  const ghAt = dentropy ? heap.put(dentropy.data as Float32Array) : 0;
  const yAt = heap.alloc(N * V);
  heap.commit();
  pool.run(OP.logprobsBackward, [xAt, tAt, lAt, hAt, gAt, ghAt, yAt, N, V], Math.ceil(N / pool.ex.lp_rows_per_item()), N * V >= PARALLEL);
  heap.read(yAt, dst.data as Float32Array);
  return dst;
}
