// Shape rules of the attention group (attention, attentionBackward, kvWrite, attentionCached),
// shared by the CPU references and the WebGPU dispatchers, and the group's conventions.
import { expectDtype, expectShape, shapeStr, type Tensor } from './tensor.ts';

/** lse written for padding rows (seg −1), whose softmax is empty (log Σ = −∞): a finite sentinel.
 *  Every consumer (the backwards) masks those rows by seg and never reads it. */
export const LSE_PADDING = 0;

/** The WebGPU kernels keep 4 rows × HS f32 per invocation (as 32 mat4x4 per array); 128 is their cap. */
export const ATTENTION_MAX_HS = 128;

export interface AttentionDims {
  B: number;
  T: number;
  NH: number;
  NKV: number;
  HS: number;
  /** Query heads per key/value head (NH / NKV). */
  G: number;
  scale: number;
}

function heads(op: string, NH: number, NKV: number, q: Tensor, k: Tensor): void {
  if (NKV < 1 || NH % NKV !== 0) throw new Error(`${op}: NKV must divide NH: q ${shapeStr(q.shape)} has NH=${NH}, k ${shapeStr(k.shape)} has NKV=${NKV}`);
}

function scaleOf(HS: number, scale: number | undefined): number {
  return scale ?? 1 / Math.sqrt(HS);
}

/** q (B, T, NH, HS), k/v (B, T, NKV, HS), seg (B, T) i32. */
export function attentionDims(q: Tensor, k: Tensor, v: Tensor, seg: Tensor, scale?: number, op = 'attention'): AttentionDims {
  expectDtype(op, 'q', q, 'f32');
  expectDtype(op, 'k', k, 'f32');
  expectDtype(op, 'v', v, 'f32');
  expectDtype(op, 'seg', seg, 'i32');
  if (q.shape.length !== 4) throw new Error(`${op}: q must be (B, T, NH, HS), got ${shapeStr(q.shape)}`);
  const [B, T, NH, HS] = q.shape as [number, number, number, number];
  if (k.shape.length !== 4) throw new Error(`${op}: k must be (B, T, NKV, HS), got ${shapeStr(k.shape)}`);
  const NKV = k.shape[2]!;
  expectShape(op, 'k', k.shape, [B, T, NKV, HS]);
  heads(op, NH, NKV, q, k);
  expectShape(op, 'v', v.shape, [B, T, NKV, HS]);
  expectShape(op, 'seg', seg.shape, [B, T]);
  return { B, T, NH, NKV, HS, G: NH / NKV, scale: scaleOf(HS, scale) };
}

/** attentionDims plus out, dout (B, T, NH, HS) and lse (B, NH, T). */
export function attentionBackwardDims(q: Tensor, k: Tensor, v: Tensor, out: Tensor, dout: Tensor, lse: Tensor, seg: Tensor, scale?: number): AttentionDims {
  const op = 'attentionBackward';
  const d = attentionDims(q, k, v, seg, scale, op);
  expectDtype(op, 'out', out, 'f32');
  expectDtype(op, 'dout', dout, 'f32');
  expectDtype(op, 'lse', lse, 'f32');
  expectShape(op, 'out', out.shape, q.shape);
  expectShape(op, 'dout', dout.shape, q.shape);
  expectShape(op, 'lse', lse.shape, [d.B, d.NH, d.T]);
  return d;
}

export interface KvWriteDims {
  B: number;
  S: number;
  TQ: number;
  NKV: number;
  HS: number;
}

/** cache (B, S, NKV, HS), x (B, TQ, NKV, HS) with TQ ≤ S, start (B) i32. */
export function kvWriteDims(cache: Tensor, x: Tensor, start: Tensor): KvWriteDims {
  const op = 'kvWrite';
  expectDtype(op, 'cache', cache, 'f32');
  expectDtype(op, 'x', x, 'f32');
  expectDtype(op, 'start', start, 'i32');
  if (cache.shape.length !== 4) throw new Error(`${op}: cache must be (B, S, NKV, HS), got ${shapeStr(cache.shape)}`);
  const [B, S, NKV, HS] = cache.shape as [number, number, number, number];
  if (x.shape.length !== 4) throw new Error(`${op}: x must be (B, TQ, NKV, HS), got ${shapeStr(x.shape)}`);
  const TQ = x.shape[1]!;
  expectShape(op, 'x', x.shape, [B, TQ, NKV, HS]);
  if (TQ > S) throw new Error(`${op}: x ${shapeStr(x.shape)} has more rows (TQ=${TQ}) than the cache ${shapeStr(cache.shape)} holds (S=${S})`);
  expectShape(op, 'start', start.shape, [B]);
  return { B, S, TQ, NKV, HS };
}

export interface CachedDims extends AttentionDims {
  /** Cache capacity (positions). */
  S: number;
  /** New queries per sequence (T is TQ here). */
  TQ: number;
}

/** q (B, TQ, NH, HS), kCache/vCache (B, S, NKV, HS), len (B) i32, optional rows (B) i32. */
export function cachedDims(q: Tensor, kCache: Tensor, vCache: Tensor, len: Tensor, scale?: number, rows?: Tensor): CachedDims {
  const op = 'attentionCached';
  expectDtype(op, 'q', q, 'f32');
  expectDtype(op, 'kCache', kCache, 'f32');
  expectDtype(op, 'vCache', vCache, 'f32');
  expectDtype(op, 'len', len, 'i32');
  if (q.shape.length !== 4) throw new Error(`${op}: q must be (B, TQ, NH, HS), got ${shapeStr(q.shape)}`);
  const [B, TQ, NH, HS] = q.shape as [number, number, number, number];
  if (kCache.shape.length !== 4) throw new Error(`${op}: kCache must be (B, S, NKV, HS), got ${shapeStr(kCache.shape)}`);
  const [, S, NKV] = kCache.shape as [number, number, number, number];
  expectShape(op, 'kCache', kCache.shape, [B, S, NKV, HS]);
  heads(op, NH, NKV, q, kCache);
  expectShape(op, 'vCache', vCache.shape, kCache.shape);
  expectShape(op, 'len', len.shape, [B]);
  if (rows) {
    expectDtype(op, 'rows', rows, 'i32');
    expectShape(op, 'rows', rows.shape, [B]);
  }
  return { B, T: TQ, TQ, S, NH, NKV, HS, G: NH / NKV, scale: scaleOf(HS, scale) };
}
