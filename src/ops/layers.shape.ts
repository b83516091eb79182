// Shape and dtype rules of the layer ops (LayerOps in backend.ts), shared by the CPU references in
// reference/ and the WebGPU dispatchers; plus RoPE's inverse frequencies, computed once here so
// both backends rotate by bitwise-identical angles.
import { expectDtype, expectShape, numel, shapeStr, type Tensor } from './tensor.ts';

const lastDim = (op: string, arg: string, t: Tensor): number => {
  if (t.shape.length < 1) throw new Error(`${op}: ${arg} must have at least one dimension, got ${shapeStr(t.shape)}`);
  return t.shape[t.shape.length - 1]!;
};

/** ids (N…) i32, table (V, C) f32 → out (N…, C). */
export function embeddingDims(ids: Tensor, table: Tensor): { N: number; V: number; C: number; outShape: number[] } {
  expectDtype('embedding', 'ids', ids, 'i32');
  expectDtype('embedding', 'table', table, 'f32');
  if (table.shape.length !== 2) throw new Error(`embedding: table must be (V, C), got ${shapeStr(table.shape)}`);
  const [V, C] = table.shape as [number, number];
  return { N: numel(ids.shape), V, C, outShape: [...ids.shape, C] };
}

/** ids (N…) i32, dout (N…, C), dtable (V, C). */
export function embeddingBackwardDims(ids: Tensor, dout: Tensor, dtable: Tensor): { N: number; V: number; C: number } {
  const d = embeddingDims(ids, dtable);
  expectDtype('embeddingBackward', 'dout', dout, 'f32');
  expectShape('embeddingBackward', 'dout', dout.shape, d.outShape);
  return { N: d.N, V: d.V, C: d.C };
}

/** The message both backends give for an id outside [0, V). */
export function badIdMessage(op: string, arg: string, n: number, id: number, V: number): string {
  return `${op}: ${arg}[${n}] = ${id} is outside [0, ${V})`;
}

/** x (R…, D), w (D) → R rows of D; rstd has shape x.shape[:-1]. */
export function rmsnormDims(x: Tensor, w: Tensor, eps: number): { R: number; D: number; rowShape: number[] } {
  expectDtype('rmsnorm', 'x', x, 'f32');
  expectDtype('rmsnorm', 'w', w, 'f32');
  const D = lastDim('rmsnorm', 'x', x);
  expectShape('rmsnorm', 'w', w.shape, [D]);
  if (!(eps >= 0) || !Number.isFinite(eps)) throw new Error(`rmsnorm: eps must be a finite number ≥ 0, got ${eps}`);
  const rowShape = x.shape.slice(0, -1);
  return { R: numel(rowShape), D, rowShape };
}

export function rmsnormBackwardDims(dy: Tensor, x: Tensor, w: Tensor, rstd: Tensor, dw: Tensor, accumulateDx?: Tensor): { R: number; D: number } {
  const { R, D, rowShape } = rmsnormDims(x, w, 0);
  for (const [name, t] of [['dy', dy], ['rstd', rstd], ['dw', dw]] as const) expectDtype('rmsnormBackward', name, t, 'f32');
  expectShape('rmsnormBackward', 'dy', dy.shape, x.shape);
  expectShape('rmsnormBackward', 'rstd', rstd.shape, rowShape);
  expectShape('rmsnormBackward', 'dw', dw.shape, [D]);
  if (accumulateDx) {
    expectDtype('rmsnormBackward', 'accumulateDx', accumulateDx, 'f32');
    expectShape('rmsnormBackward', 'accumulateDx', accumulateDx.shape, x.shape);
  }
  return { R, D };
}

/** x (N…, H, HS), positions (N…) i32 → rows N = numel(positions). */
export function ropeDims(x: Tensor, positions: Tensor, theta: number): { N: number; H: number; HS: number } {
  expectDtype('rope', 'x', x, 'f32');
  expectDtype('rope', 'positions', positions, 'i32');
  if (x.shape.length < 3) throw new Error(`rope: x must be (N, H, HS) (or (B, T, H, HS)), got ${shapeStr(x.shape)}`);
  const [H, HS] = x.shape.slice(-2) as [number, number];
  if (HS % 2 !== 0) throw new Error(`rope: head size HS must be even, x has shape ${shapeStr(x.shape)}`);
  expectShape('rope', 'positions', positions.shape, x.shape.slice(0, -2));
  if (!(theta > 0) || !Number.isFinite(theta)) throw new Error(`rope: theta must be a finite number > 0, got ${theta}`);
  return { N: numel(positions.shape), H, HS };
}

/**
 * inv_freq[i] = 1 / theta^(2i/HS) for i < HS/2, rounded to f32 at each step as Hugging Face
 * computes it (`1.0 / (base ** (arange(0, dim, 2).float() / dim))`). The angle pos · inv_freq is
 * then one f32 multiply, exact in both backends.
 */
export function ropeInvFreq(HS: number, theta: number): Float32Array {
  const out = new Float32Array(HS / 2);
  for (let i = 0; i < HS / 2; i++) out[i] = Math.fround(1 / Math.fround(Math.pow(theta, Math.fround((2 * i) / HS))));
  return out;
}

/** Two or three f32 tensors of one shape (swiglu, add); returns the element count. */
export function sameShape(op: string, named: Record<string, Tensor>): number {
  const entries = Object.entries(named);
  const first = entries[0]![1];
  for (const [name, t] of entries) {
    expectDtype(op, name, t, 'f32');
    expectShape(op, name, t.shape, first.shape);
  }
  return numel(first.shape);
}

/** x (R…, D) → (D); `accumulate` needs `out`. */
export function colSumDims(x: Tensor, out?: Tensor, accumulate?: boolean): { R: number; D: number } {
  expectDtype('colSum', 'x', x, 'f32');
  const D = lastDim('colSum', 'x', x);
  if (accumulate && !out) throw new Error('colSum: accumulate needs an `out` tensor to add into');
  if (out) {
    expectDtype('colSum', 'out', out, 'f32');
    expectShape('colSum', 'out', out.shape, [D]);
  }
  return { R: numel(x.shape.slice(0, -1)), D };
}

/** x (R, D) f32, idx (M) i32 → (M, D). */
export function gatherRowsDims(x: Tensor, idx: Tensor): { R: number; D: number; M: number } {
  expectDtype('gatherRows', 'x', x, 'f32');
  expectDtype('gatherRows', 'idx', idx, 'i32');
  if (x.shape.length !== 2) throw new Error(`gatherRows: x must be (R, D), got ${shapeStr(x.shape)}`);
  if (idx.shape.length !== 1) throw new Error(`gatherRows: idx must be (M), got ${shapeStr(idx.shape)}`);
  const [R, D] = x.shape as [number, number];
  return { R, D, M: idx.shape[0]! };
}
