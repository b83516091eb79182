// Attention forward, backward and against a KV cache on the WASM kernels (kernels/*.c `attn_fwd_item`,
// `attn_bwd_item`, `attn_cached_item`):
// items per (b, query head) forward, per (b, kv head) backward (an item owns its kv head's dk/dv, so
// no sum is split across threads) and against the cache (its keys packed once for the group's heads). The segment bookkeeping (first position of each row's segment,
// start of its contiguous run) is made here, once per batch row, as FastCpu's Quads does. f32
// throughout; head sizes that are not a multiple of 4 go to FastCpuBackend's JS (the SIMD lanes).
import { LSE_PADDING, attentionBackwardDims, attentionDims, cachedDims } from '../attention.shape.ts';
import * as fast from '../fast-cpu/attention.ts';
import { attentionCached as fastCached } from '../fast-cpu/attention_cached.ts';
import type { CpuTensor } from '../tensor.ts';
import { HeapLayout, OP, type KernelPool } from './threads.ts';
import { f32 } from '../recycle.ts';

const tensorOf = (shape: readonly number[], label: string, data: Float32Array): CpuTensor => ({ shape: [...shape], dtype: 'f32', label, data });
const bits = (x: number) => new Int32Array(Float32Array.of(x).buffer)[0]!;

/** first[b·T + t]: first position of seg[t]'s segment in row b; run[b·T + t]: start of t's run of equal ids. */
function segmentIndex(seg: Int32Array, B: number, T: number): { first: Int32Array; run: Int32Array } {
  const first = new Int32Array(B * T), run = new Int32Array(B * T);
  for (let b = 0; b < B; b++) {
    const seen = new Map<number, number>();
    for (let t = 0; t < T; t++) {
      const i = b * T + t, st = seg[i]!;
      if (!seen.has(st)) seen.set(st, t);
      first[i] = seen.get(st)!;
      run[i] = t > 0 && seg[i - 1] === st ? run[i - 1]! : t;
    }
  }
  return { first, run };
}

/** Scratch for the attention items: one block per thread on the heap. */
function scratch(pool: KernelPool, heap: HeapLayout, T: number, HS: number): { base: number; stride: number } {
  const floats = (pool.ex.attn_scratch_floats(T, HS) + 3) & ~3;
  return { base: heap.alloc(floats * pool.threads), stride: floats * 4 };
}

export function wasmAttention(pool: KernelPool, q: CpuTensor, k: CpuTensor, v: CpuTensor, seg: CpuTensor, opts: { scale?: number } = {}): { out: CpuTensor; lse: CpuTensor } {
  const { B, T, NH, NKV, HS, scale } = attentionDims(q, k, v, seg, opts.scale);
  if (HS % 4 !== 0) return fast.attention(q, k, v, seg, opts);
  const { first, run } = segmentIndex(seg.data as Int32Array, B, T);
  const heap = new HeapLayout(pool);
  const qAt = heap.put(q.data as Float32Array), kAt = heap.put(k.data as Float32Array), vAt = heap.put(v.data as Float32Array);
  const segAt = heap.put(seg.data as Int32Array), firstAt = heap.put(first), runAt = heap.put(run);
  const outAt = heap.alloc(q.data.length), mAt = heap.alloc(B * NH * T), lAt = heap.alloc(B * NH * T);
  const s = scratch(pool, heap, T, HS);
  heap.commit();
  pool.run(OP.attentionForward, [qAt, kAt, vAt, segAt, firstAt, runAt, outAt, mAt, lAt, B, T, NH, NKV, HS, bits(scale), s.base, s.stride], B * NH, B * T * NH * HS * T >= 1 << 16);
  const out = f32(q.data.length), m = heap.view(mAt, B * NH * T), l = heap.view(lAt, B * NH * T);
  heap.read(outAt, out);
  const lse = f32(B * NH * T);
  for (let i = 0; i < lse.length; i++) lse[i] = l[i]! > 0 ? m[i]! + Math.log(l[i]!) : LSE_PADDING;
  return { out: tensorOf(q.shape, 'attention.out', out), lse: tensorOf([B, NH, T], 'attention.lse', lse) };
}

export function wasmAttentionBackward(
  pool: KernelPool, q: CpuTensor, k: CpuTensor, v: CpuTensor, out: CpuTensor, dout: CpuTensor, lse: CpuTensor, seg: CpuTensor, opts: { scale?: number } = {},
): { dq: CpuTensor; dk: CpuTensor; dv: CpuTensor } {
  const { B, T, NH, NKV, HS, scale } = attentionBackwardDims(q, k, v, out, dout, lse, seg, opts.scale);
  if (HS % 4 !== 0) return fast.attentionBackward(q, k, v, out, dout, lse, seg, opts);
  const { first, run } = segmentIndex(seg.data as Int32Array, B, T);
  const heap = new HeapLayout(pool);
  const at = [q, k, v, out, dout, lse].map((t) => heap.put(t.data as Float32Array));
  const segAt = heap.put(seg.data as Int32Array), firstAt = heap.put(first), runAt = heap.put(run);
  const dqAt = heap.alloc(q.data.length), dkAt = heap.alloc(k.data.length), dvAt = heap.alloc(v.data.length);
  const s = scratch(pool, heap, T, HS);
  heap.commit();
  pool.run(OP.attentionBackward, [...at, segAt, firstAt, runAt, dqAt, dkAt, dvAt, B, T, NH, NKV, HS, bits(scale), s.base, s.stride], B * NKV, B * T * NH * HS * T >= 1 << 16);
  const dq = f32(q.data.length), dk = f32(k.data.length), dv = f32(v.data.length);
  heap.read(dqAt, dq);
  heap.read(dkAt, dk);
  heap.read(dvAt, dv);
  return { dq: tensorOf(q.shape, 'attention.dq', dq), dk: tensorOf(k.shape, 'attention.dk', dk), dv: tensorOf(v.shape, 'attention.dv', dv) };
}

/** A KV cache kept in the kernels' memory in the layout attn_cached_item reads, so that a call against it
 *  neither copies the cache in nor packs it (at micro's shapes those were most of decode's attention time:
 *  docs/architecture.md). One block per (b, kv head) of `stride` floats: K as 4-key tiles (position s, dim d
 *  at (s >> 2)·4·HS + 4d + (s & 3)), V as rows (s·HS + d), two tiles past the capacity (an 8-key block reads
 *  them), zero where nothing was written. The backend keeps one beside each cache it has seen in
 *  attentionCached and writes both in kvWrite (backend.ts); a position rewritten other than through kvWrite
 *  after it was brought in is not seen (KvGenerator only appends through kvWrite). */
export class KvTiles {
  readonly at: number;
  readonly stride: number;
  /** Positions [0, filled[b]) of sequence b hold the cache's values. */
  private readonly filled: Int32Array;
  constructor(
    private readonly pool: KernelPool,
    readonly role: 'k' | 'v',
    readonly B: number,
    readonly S: number,
    readonly NKV: number,
    readonly HS: number,
  ) {
    this.stride = (((S + 3) >> 2) + 2) * 4 * HS;
    this.at = pool.allocResident(B * NKV * this.stride * 4);
    this.filled = new Int32Array(B);
  }

  /** Brings positions [filled[b], len[b]) in from the cache's data (B, S, NKV, HS): what a call needs that
   *  kvWrite did not bring (a cache filled before its first call, or written some other way past its end). */
  sync(data: Float32Array, len: ArrayLike<number>): void {
    for (let b = 0; b < this.B; b++) {
      const from = this.filled[b]!, to = Math.min(this.S, len[b]!);
      if (to > from) this.write(data, b, from, to - from, b * this.S + from);
    }
  }

  /** Positions [s0, s0 + n) of sequence b from `src`, whose position s0 + i of b sits at row `row0 + i` (rows of NKV·HS). */
  write(src: Float32Array, b: number, s0: number, n: number, row0: number): void {
    const f = this.pool.f32, { NKV, HS, stride } = this, base = this.at / 4 + b * NKV * stride;
    if (s0 <= this.filled[b]!) this.filled[b] = Math.max(this.filled[b]!, s0 + n);
    for (let i = 0; i < n; i++) {
      const s = s0 + i, from = (row0 + i) * NKV * HS;
      for (let hk = 0; hk < NKV; hk++) {
        const o = base + hk * stride, x = from + hk * HS;
        if (this.role === 'k') {
          const t = o + (s >> 2) * 4 * HS + (s & 3);
          for (let d = 0; d < HS; d++) f[t + 4 * d] = src[x + d]!;
        } else f.set(src.subarray(x, x + HS), o + s * HS);
      }
    }
  }

  free(): void {
    this.pool.freeResident(this.at);
  }
}

/** → out (B, TQ, NH, HS); rows whose position is negative give 0, and so do padding rows i ≥ rows[b]
 *  when `rows` is given (they are skipped). Only the positions each sequence's computed rows see are
 *  copied in (the cache is allocated at its capacity S), or nothing when the cache is kept tiled
 *  (`tiles`: KvTiles of kCache and vCache holding every position written). */
export function wasmAttentionCached(pool: KernelPool, q: CpuTensor, kCache: CpuTensor, vCache: CpuTensor, len: CpuTensor, opts: { scale?: number; rows?: CpuTensor; tiles?: { k: KvTiles; v: KvTiles } } = {}): CpuTensor {
  const { B, TQ, S, NH, NKV, HS, scale } = cachedDims(q, kCache, vCache, len, opts.scale, opts.rows);
  const lens = len.data as Int32Array, rows = opts.rows?.data as Int32Array | undefined;
  for (let b = 0; b < B; b++) if (lens[b]! < 0 || lens[b]! > S) throw new Error(`attentionCached: len[${b}] = ${lens[b]} is outside the cache's 0..${S}`);
  if (HS % 4 !== 0) return fastCached(q, kCache, vCache, len, opts);
  const tiles = opts.tiles;
  const heap = new HeapLayout(pool);
  const qAt = heap.put(q.data as Float32Array), lenAt = heap.put(lens), rowsAt = rows ? heap.put(rows) : 0;
  const kAt = tiles ? 0 : heap.alloc(kCache.data.length), vAt = tiles ? 0 : heap.alloc(vCache.data.length), outAt = heap.alloc(q.data.length);
  const s = scratch(pool, heap, S, HS);
  heap.commit();
  const row = NKV * HS, K = kCache.data as Float32Array, V = vCache.data as Float32Array;
  let work = 0;
  for (let b = 0; b < B; b++) {
    const nq = rows ? Math.min(TQ, Math.max(0, rows[b]!)) : TQ, seen = Math.max(0, lens[b]! - (TQ - nq));
    if (!tiles) {
      const from = b * S * row, to = from + seen * row;
      heap.write(K.subarray(from, to), kAt + from * 4);
      heap.write(V.subarray(from, to), vAt + from * 4);
    }
    work += nq * seen;
  }
  const tiled = tiles ? [tiles.k.at, tiles.v.at, tiles.k.stride] : [0, 0, 0];
  pool.run(OP.attentionCached, [qAt, kAt, vAt, lenAt, outAt, B, TQ, S, NH, NKV, HS, bits(scale), s.base, s.stride, rowsAt, ...tiled], B * NKV, work * NH * HS >= 1 << 17);
  const out = f32(q.data.length);
  heap.read(outAt, out);
  return { shape: [B, TQ, NH, HS], dtype: 'f32', label: 'attentionCached.out', data: out };
}
