// WasmBackend: FastCpuBackend with its hot ops (matmul, attention, attention against a KV cache,
// logprobs, SwiGLU, RMSNorm, forward and backward) on WebAssembly SIMD kernels run on all cores
// (kernels/*.c through the KernelPool of threads.ts) — the trainer's engine where no hardware GPU
// adapter exists (`--backend wasm`, and what `auto` picks there). Results are bitwise the same for
// any thread count; CpuBackend stays the oracle (test/unit/ops/wasm.test.ts). Create it with
// `await WasmBackend.create(threads, spawn)` (helper threads start asynchronously; under Node
// `wasmBackendNode` in threads.node.ts); `close()` ends them.
// `free` gives an op result's buffer back for the next result of its size class (../recycle.ts: a fresh
// typed array costs tens of µs in a browser Worker, and a training step makes ~1,500).
import { FastCpuBackend } from '../fast-cpu/backend.ts';
import type { MatmulOptions } from '../matmul.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { cachedDims, kvWriteDims } from '../attention.shape.ts';
import { kvWrite } from '../reference/attention_cached.ts';
import { KvTiles, wasmAttention, wasmAttentionBackward, wasmAttentionCached } from './attention.ts';
import { wasmLogprobs, wasmLogprobsBackward } from './logprobs.ts';
import { wasmRmsnorm, wasmRmsnormBackward, wasmSwiglu, wasmSwigluBackward } from './layers.ts';
import { wasmMatmul } from './matmul.ts';
import { KernelPool, type SpawnHelper } from './threads.ts';
import { recycle } from '../recycle.ts';

export class WasmBackend extends FastCpuBackend {
  /** KV caches kept tiled in the kernels' memory (attention.ts, KvTiles), by the cache's data: made at a
   *  cache's first attentionCached, written by kvWrite, given back by free (or when the cache is collected). */
  private readonly tiles = new WeakMap<Float32Array, KvTiles>();
  private readonly unfreed = new FinalizationRegistry<KvTiles>((t) => t.free());

  private constructor(readonly pool: KernelPool) {
    super();
  }

  /** A backend on `threads` threads; more than one needs the host's `spawn` (threads.node.ts: `wasmBackendNode`). */
  static async create(threads = 1, spawn?: SpawnHelper): Promise<WasmBackend> {
    return new WasmBackend(await KernelPool.create(threads, spawn));
  }

  get threads(): number {
    return this.pool.threads;
  }

  override matmul = (a: CpuTensor, b: CpuTensor, opts?: MatmulOptions<CpuTensor>): CpuTensor => wasmMatmul(this.pool, a, b, opts);
  override attention = (q: CpuTensor, k: CpuTensor, v: CpuTensor, seg: CpuTensor, opts?: { scale?: number }) => wasmAttention(this.pool, q, k, v, seg, opts);
  override attentionBackward = (q: CpuTensor, k: CpuTensor, v: CpuTensor, out: CpuTensor, dout: CpuTensor, lse: CpuTensor, seg: CpuTensor, opts?: { scale?: number }) =>
    wasmAttentionBackward(this.pool, q, k, v, out, dout, lse, seg, opts);
  override attentionCached = (q: CpuTensor, kCache: CpuTensor, vCache: CpuTensor, len: CpuTensor, opts: { scale?: number; rows?: CpuTensor } = {}) => {
    const { HS } = cachedDims(q, kCache, vCache, len, opts.scale, opts.rows);
    const tiled = HS % 4 === 0 && kCache.data !== vCache.data;
    if (!tiled) return wasmAttentionCached(this.pool, q, kCache, vCache, len, opts);
    const k = this.tilesOf(kCache, 'k'), v = this.tilesOf(vCache, 'v');
    k.sync(kCache.data as Float32Array, len.data);
    v.sync(vCache.data as Float32Array, len.data);
    return wasmAttentionCached(this.pool, q, kCache, vCache, len, { ...opts, tiles: { k, v } });
  };
  override kvWrite = (cache: CpuTensor, x: CpuTensor, start: CpuTensor): void => {
    kvWrite(cache, x, start);
    const t = this.tiles.get(cache.data as Float32Array);
    if (!t) return;
    const { B, TQ } = kvWriteDims(cache, x, start);
    for (let b = 0; b < B; b++) t.write(x.data as Float32Array, b, start.data[b]!, TQ, b * TQ);
  };
  override free(t: CpuTensor): void {
    const tiles = this.tiles.get(t.data as Float32Array);
    if (tiles) {
      this.tiles.delete(t.data as Float32Array);
      this.unfreed.unregister(tiles);
      tiles.free();
    }
    recycle(t.data);
  }
  override logprobs = (logits: CpuTensor, targets: CpuTensor) => wasmLogprobs(this.pool, logits, targets);
  override logprobsBackward = (logits: CpuTensor, targets: CpuTensor, lse: CpuTensor, entropy: CpuTensor, dlogp: CpuTensor, dentropy?: CpuTensor, out?: CpuTensor) =>
    wasmLogprobsBackward(this.pool, logits, targets, lse, entropy, dlogp, dentropy, out);
  override swiglu = (gate: CpuTensor, up: CpuTensor) => wasmSwiglu(this.pool, gate, up);
  override swigluBackward = (dh: CpuTensor, gate: CpuTensor, up: CpuTensor) => wasmSwigluBackward(this.pool, dh, gate, up);
  override rmsnorm = (x: CpuTensor, w: CpuTensor, eps: number) => wasmRmsnorm(this.pool, x, w, eps);
  override rmsnormBackward = (dy: CpuTensor, x: CpuTensor, w: CpuTensor, rstd: CpuTensor, dw: CpuTensor, opts?: { accumulateDx?: CpuTensor }) =>
    wasmRmsnormBackward(this.pool, dy, x, w, rstd, dw, opts);

  /** The tiled copy of a cache in `role` (made empty when first asked for; sync fills it). */
  private tilesOf(cache: CpuTensor, role: 'k' | 'v'): KvTiles {
    const data = cache.data as Float32Array;
    let t = this.tiles.get(data);
    if (t && t.role === role) return t;
    if (t) this.free(cache); // the same array in the other role: made again
    const [B, S, NKV, HS] = cache.shape as [number, number, number, number];
    t = new KvTiles(this.pool, role, B, S, NKV, HS);
    this.tiles.set(data, t);
    this.unfreed.register(data, t, t);
    return t;
  }

  close(): void {
    this.pool.close();
  }
}
