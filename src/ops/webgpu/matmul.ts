// WebGPU dispatcher of matmul (kernels/matmul.wgsl, and kernels/matmul_rows.wgsl for a product of at most
// ROWS_MAX rows: decoding): bindings, uniforms and overrides declared once. Both kernels give each element
// the same bits, so the choice by M never changes a result.
// Operands split across buffers (webgpu/split.ts: row chunks) are multiplied block by block: M, N and K
// are cut at every chunk boundary of the operand that runs along them, so each block of a, b, bias
// and c lies in one buffer and is addressed by element offset and leading dimension. E.g. logits
// (N, V) = x (N, C) · W (V, C)ᵀ with W in chunks W_j (V_j, C) and the logits in row chunks L_i:
// L_i[:, V_j columns] = x[rows of L_i] · W_jᵀ; dx (N, C) = dlogits · W sums the K = V blocks
// dlogits[:, V_j] · W_j in increasing j into dx (`+=` after the first block). Batched (3-D,
// B > 1) products take whole buffers only.
import { defineKernel } from '../../gpu/kernel.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { matmulDims, type MatmulOptions } from '../matmul.shape.ts';
import { allocTensor, rowChunks, wholeBuffer, type RowChunk } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

export const MATMUL = defineKernel({
  file: 'matmul.wgsl',
  entry: 'main',
  bindings: [
    { name: 'a', access: 'read' },
    { name: 'b', access: 'read' },
    { name: 'bias', access: 'read' },
    { name: 'c', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: {
    M: 'u32', N: 'u32', K: 'u32', strideA: 'u32', strideB: 'u32', strideC: 'u32',
    lda: 'u32', ldb: 'u32', ldc: 'u32', offA: 'u32', offB: 'u32', offC: 'u32', offBias: 'u32',
  },
  overrides: { TRANS_A: 'bool', TRANS_B: 'bool', HAS_BIAS: 'bool', ACCUMULATE: 'bool' },
  workgroupSize: [16, 16, 1],
});

/** A product of few rows: 4 rows × 256 columns per workgroup, the same sums as MATMUL (matmul_rows.wgsl). */
export const MATMUL_ROWS = defineKernel({
  file: 'matmul_rows.wgsl',
  entry: 'main',
  bindings: MATMUL.bindings,
  params: { M: 'u32', N: 'u32', K: 'u32', lda: 'u32', ldb: 'u32', ldc: 'u32', offA: 'u32', offB: 'u32', offC: 'u32', offBias: 'u32' },
  overrides: MATMUL.overrides,
  workgroupSize: [64, 1, 1],
});

const TILE = 64;
/** Rows per workgroup and columns per workgroup of MATMUL_ROWS. */
const ROWS_TILE = 4, ROWS_COLS = 256;
/** Up to this many rows a one-matrix product runs MATMUL_ROWS: MATMUL's 64-row tile would do ≥ 4× the arithmetic. */
export const ROWS_MAX = 16;

/** [start, end) spans of 0..total cut at the first rows of the given chunks (one empty span when total is 0). */
function spans(total: number, ...chunkLists: RowChunk[][]): [number, number][] {
  const cuts = new Set([0, total]);
  for (const list of chunkLists) for (const c of list) if (c.row0 > 0 && c.row0 < total) cuts.add(c.row0);
  const sorted = [...cuts].sort((x, y) => x - y);
  if (sorted.length === 1) return [[0, 0]];
  return sorted.slice(1).map((end, i) => [sorted[i]!, end]);
}

/** The chunk holding row r (spans never cross a chunk boundary). */
const at = (chunks: RowChunk[], r: number): RowChunk => chunks.find((c) => r >= c.row0 && r < c.row0 + c.rows) ?? chunks[0]!;

export function matmul(ctx: GpuContext, a: GpuTensor, b: GpuTensor, opts: MatmulOptions<GpuTensor> = {}, placeholder: GPUBuffer): GpuTensor {
  const d = matmulDims(a, b, opts);
  const out = opts.out ?? allocTensor(ctx, 'matmul.out', d.outShape, 'f32');
  const transA = !!opts.transA, transB = !!opts.transB;
  const constants = { TRANS_A: transA, TRANS_B: transB, HAS_BIAS: !!opts.bias, ACCUMULATE: !!opts.accumulate };
  const strides = { strideA: d.strideA, strideB: d.strideB, strideC: d.strideC };
  const lds = { lda: transA ? d.M : d.K, ldb: transB ? d.K : d.N, ldc: d.N };
  if (d.batch > 1) {
    const buffers = { a: wholeBuffer(a, 'matmul', 'a'), b: wholeBuffer(b, 'matmul', 'b'), bias: opts.bias ? wholeBuffer(opts.bias, 'matmul', 'bias') : placeholder, c: wholeBuffer(out, 'matmul', 'out') };
    ctx.dispatch(MATMUL, {
      buffers,
      params: { M: d.M, N: d.N, K: d.K, ...strides, ...lds, offA: 0, offB: 0, offC: 0, offBias: 0 },
      constants,
      workgroups: [Math.ceil(d.N / TILE), Math.ceil(d.M / TILE), d.batch],
    });
    return out;
  }
  // One matrix: a, b and c as row chunks of their stored layouts (one chunk each when unsplit).
  const A = rowChunks(a, lds.lda, 'matmul', 'a');
  const B = rowChunks(b, lds.ldb, 'matmul', 'b');
  const C = rowChunks(out, d.N, 'matmul', 'out');
  const bias = opts.bias ? rowChunks(opts.bias, 1, 'matmul', 'bias') : [];
  const mSpans = spans(d.M, C, transA ? [] : A);
  const nSpans = spans(d.N, transB ? B : [], bias);
  const kSpans = spans(d.K, transA ? A : [], transB ? [] : B);
  for (const [m0, m1] of mSpans) {
    for (const [n0, n1] of nSpans) {
      kSpans.forEach(([k0, k1], kb) => {
        const ca = at(A, transA ? k0 : m0), cb = at(B, transB ? n0 : k0), cc = at(C, m0);
        const cbias = opts.bias ? at(bias, n0) : null;
        const buffers = { a: ca.buffer, b: cb.buffer, bias: cbias?.buffer ?? placeholder, c: cc.buffer };
        const block = {
          M: m1 - m0, N: n1 - n0, K: k1 - k0, ...lds,
          offA: transA ? (k0 - ca.row0) * d.M + m0 : (m0 - ca.row0) * d.K + k0,
          offB: transB ? (n0 - cb.row0) * d.K + k0 : (k0 - cb.row0) * d.N + n0,
          offC: (m0 - cc.row0) * d.N + n0,
          offBias: cbias ? n0 - cbias.row0 : 0,
        };
        // Later K blocks add into what the earlier ones wrote; the bias is added once.
        const blockConstants = { ...constants, HAS_BIAS: !!opts.bias && kb === 0, ACCUMULATE: !!opts.accumulate || kb > 0 };
        if (block.M <= ROWS_MAX) {
          ctx.dispatch(MATMUL_ROWS, { buffers, params: block, constants: blockConstants, workgroups: [Math.ceil(block.N / ROWS_COLS), Math.ceil(block.M / ROWS_TILE), 1] });
        } else {
          ctx.dispatch(MATMUL, { buffers, params: { ...block, ...strides }, constants: blockConstants, workgroups: [Math.ceil(block.N / TILE), Math.ceil(block.M / TILE), 1] });
        }
      });
    }
  }
  return out;
}
