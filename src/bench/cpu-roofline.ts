// The CPU roofline of `webswe bench kernels`: the machine's measured SIMD peak (kernels/*.c `peak_item`:
// 12 independent f32x4 multiply-add chains in registers, on one thread and on every thread of the
// pool) and read bandwidth (`stream_item`: every thread summing its share of a 128 MiB buffer, the way a
// decode step streams the weights), and the WASM backend's matmul and attention at `scratch-5m`'s training shapes (B 4 × T 256) as a
// share of that peak, beside the fast JS backend measured in the same run (speed-up = its ms / ours).
import { scratch5m } from '../model/presets.ts';
import type { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import type { CpuTensor } from '../ops/tensor.ts';
import type { WasmBackend } from '../ops/wasm/backend.ts';
import { HeapLayout, OP } from '../ops/wasm/threads.ts';
import { Rng } from '../random.ts';
import { gflops, measure } from './measure.ts';

export interface CpuPeak {
  threads: number;
  /** GFLOP/s of multiply-add chains on one thread, and on all of them at once. */
  one_thread_gflops: number;
  all_threads_gflops: number;
  /** GB/s (10⁹ bytes) read from a buffer far larger than the caches, by every thread. */
  read_gbps: number;
}

export interface CpuOpResult {
  op: string;
  shape: string;
  flops: number;
  ms: number;
  gflops: number;
  /** gflops / all_threads_gflops. */
  share_of_peak: number;
  fast_cpu_ms: number;
  /** fast_cpu_ms / ms (> 1: the WASM backend is faster). */
  speedup: number;
}

/** Peak GFLOP/s: `items` items of `steps` steps (12 chains × 4 lanes × 2 flops each), timed as a median. */
export async function measureCpuPeak(be: WasmBackend): Promise<CpuPeak> {
  const pool = be.pool, steps = 2_000_000;
  const heap = new HeapLayout(pool);
  const outAt = heap.alloc(64);
  heap.commit();
  const rate = async (items: number, parallel: boolean) => {
    const t = await measure(() => pool.run(OP.peak, [steps, outAt], items, parallel), async () => {}, { warmup: 1, minReps: 3, minMs: 300 });
    return gflops(items * steps * 12 * 4 * 2, t.ms);
  };
  const one = await rate(1, false), all = await rate(pool.threads, true);
  return { threads: pool.threads, one_thread_gflops: one, all_threads_gflops: all, read_gbps: await readBandwidth(be) };
}

/** The bytes of STREAM_FLOATS read by every thread (items of 1 MiB), timed as a median: GB/s. */
const STREAM_FLOATS = 32 * 2 ** 20;
async function readBandwidth(be: WasmBackend): Promise<number> {
  const pool = be.pool, n = 2 ** 18, items = STREAM_FLOATS / n;
  const heap = new HeapLayout(pool);
  const xAt = heap.alloc(STREAM_FLOATS), outAt = heap.alloc(items);
  heap.commit();
  heap.view(xAt, STREAM_FLOATS).fill(1); // touched, so every page is real memory (fresh pages read as shared zeros)
  const t = await measure(() => pool.run(OP.stream, [n, xAt, outAt], items, true), async () => {}, { warmup: 1, minReps: 3, minMs: 300 });
  return (STREAM_FLOATS * 4) / (t.ms / 1000) / 1e9;
}

/** tiny's matmuls (N = B·T tokens against its C, F, V) and its attention, forward and backward. */
export async function benchCpuOps(be: WasmBackend, fast: FastCpuBackend, peak: CpuPeak, onProgress?: (label: string) => void): Promise<CpuOpResult[]> {
  const c = scratch5m.config, N = 4 * 256, C = c.hiddenSize, F = c.intermediateSize, V = c.vocabSize;
  const rng = new Rng(2);
  const t = (shape: number[]): CpuTensor => be.fromArray(rng.uniform(shape.reduce((a, b) => a * b, 1)), shape);
  const out: CpuOpResult[] = [];
  const time = async (op: string, shape: string, flops: number, run: (on: WasmBackend | FastCpuBackend) => void) => {
    onProgress?.(`${op} ${shape}`);
    const ours = await measure(() => run(be), async () => {}, { minMs: 300 });
    const peer = await measure(() => run(fast), async () => {}, { minReps: 2, minMs: 300 });
    const g = gflops(flops, ours.ms);
    out.push({ op, shape, flops, ms: ours.ms, gflops: g, share_of_peak: g / peak.all_threads_gflops, fast_cpu_ms: peer.ms, speedup: peer.ms / ours.ms });
  };
  for (const [M, K, Nn, label] of [[N, C, C, 'x·Wᵀ (attention projection)'], [N, C, F, 'x·Wᵀ (MLP up)'], [N, F, C, 'h·Wᵀ (MLP down)'], [N, C, V, 'x·Eᵀ (logits)']] as const) {
    const a = t([M, K]), w = t([Nn, K]);
    await time('matmul', `${M}×${Nn}×${K} ${label}`, 2 * M * Nn * K, (on) => on.matmul(a, w, { transB: true }));
    const dy = t([M, Nn]);
    await time('matmul', `${Nn}×${K}×${M} dW = dyᵀ·x`, 2 * M * Nn * K, (on) => on.matmul(dy, a, { transA: true }));
  }
  const [B, T, NH, NKV, HS] = [4, 256, c.numHeads, c.numKvHeads, c.headDim];
  const q = t([B, T, NH, HS]), k = t([B, T, NKV, HS]), v = t([B, T, NKV, HS]), dout = t([B, T, NH, HS]);
  const seg = be.fromArray(new Int32Array(B * T), [B, T]);
  const causal = 2 * 2 * B * NH * HS * ((T * (T + 1)) / 2); // QKᵀ and P·V over the causal half
  await time('attention', `B ${B} T ${T} NH ${NH} HS ${HS} forward`, causal, (on) => on.attention(q, k, v, seg));
  const f = be.attention(q, k, v, seg);
  await time('attention', `B ${B} T ${T} NH ${NH} HS ${HS} backward`, 2.5 * causal, (on) => on.attentionBackward(q, k, v, f.out, dout, f.lse, seg));
  return out;
}
