// Fast CPU matmul: C (B?, M, N) = A·B (+ bias), written = or +=, for every layout of matmul.shape.ts
// (A·B, A·Bᵀ, Aᵀ·B, Aᵀ·Bᵀ; batched, b broadcast). GotoBLAS-style: B is packed once per batch into
// 4-column panels (k-major), A per (MC × KC) block into 4-row panels, so the 4×4 register-blocked
// micro-kernel reads both contiguously whatever the layout. Products are summed in f64 (JS numbers)
// into an f64 tile per MC-row block across all of K, rounded to f32 once on store; the loop order is
// fixed, so the same inputs give the same bits.
import { matmulDims, type MatmulOptions } from '../matmul.shape.ts';
import type { CpuTensor } from '../tensor.ts';

const MR = 4, NR = 4; // micro-tile (register accumulators: MR·NR)
const MC = 64, KC = 256; // A block rows × depth: the packed A block (64 KiB) stays in L2, a panel pair in L1

let bPack = new Float32Array(0), aPack = new Float32Array(0), acc = new Float64Array(0);
const grow = <A extends Float32Array | Float64Array>(buf: A, n: number, make: (n: number) => A): A => (buf.length >= n ? buf : make(n));

export function matmul(a: CpuTensor, b: CpuTensor, opts: MatmulOptions<CpuTensor> = {}): CpuTensor {
  const d = matmulDims(a, b, opts);
  const out = opts.out ?? { shape: d.outShape, dtype: 'f32' as const, label: 'matmul.out', data: new Float32Array(d.batch * d.M * d.N) };
  const { M, N, K } = d;
  const A = a.data as Float32Array, Bd = b.data as Float32Array, C = out.data as Float32Array;
  const bias = opts.bias?.data as Float32Array | undefined;
  const transA = !!opts.transA, transB = !!opts.transB, accumulate = !!opts.accumulate;
  const NP = Math.ceil(N / NR), NPAD = NP * NR;
  bPack = grow(bPack, K * NPAD, (n) => new Float32Array(n));
  aPack = grow(aPack, MC * KC, (n) => new Float32Array(n));
  acc = grow(acc, MC * NPAD, (n) => new Float64Array(n));
  for (let z = 0; z < d.batch; z++) {
    if (z === 0 || d.strideB !== 0) packB(Bd, z * d.strideB, K, N, transB, bPack);
    const ao = z * d.strideA, co = z * d.strideC;
    for (let i0 = 0; i0 < M; i0 += MC) {
      const mc = Math.min(MC, M - i0), mp = Math.ceil(mc / MR);
      acc.fill(0, 0, mp * MR * NPAD);
      for (let k0 = 0; k0 < K; k0 += KC) {
        const kc = Math.min(KC, K - k0);
        packA(A, ao, M, K, transA, i0, mc, k0, kc, aPack);
        for (let jp = 0; jp < NP; jp++) {
          const pb = jp * K * NR + k0 * NR;
          for (let ip = 0; ip < mp; ip++) kernel(aPack, ip * kc * MR, bPack, pb, kc, acc, ip * MR * NPAD + jp * NR, NPAD);
        }
      }
      store(acc, NPAD, C, co + i0 * N, mc, N, bias, accumulate);
    }
  }
  return out;
}

/** Bp[jp][k][c] = B(k, jp·NR + c), zero past N. B(k, j) is b[k·N + j], or b[j·K + k] when transB. */
function packB(B: Float32Array, bo: number, K: number, N: number, transB: boolean, Bp: Float32Array): void {
  for (let j0 = 0; j0 < N; j0 += NR) {
    const base = j0 * K, w = Math.min(NR, N - j0);
    for (let c = 0; c < NR; c++) {
      let p = base + c;
      if (c >= w) {
        for (let k = 0; k < K; k++, p += NR) Bp[p] = 0;
      } else if (transB) {
        const src = bo + (j0 + c) * K;
        for (let k = 0; k < K; k++, p += NR) Bp[p] = B[src + k]!;
      } else {
        let src = bo + j0 + c;
        for (let k = 0; k < K; k++, p += NR, src += N) Bp[p] = B[src]!;
      }
    }
  }
}

/** Ap[ip][k][r] = A(i0 + ip·MR + r, k0 + k), zero past mc. A(i, k) is a[i·K + k], or a[k·M + i] when transA. */
function packA(A: Float32Array, ao: number, M: number, K: number, transA: boolean, i0: number, mc: number, k0: number, kc: number, Ap: Float32Array): void {
  for (let ip = 0; ip * MR < mc; ip++) {
    const base = ip * kc * MR, h = Math.min(MR, mc - ip * MR);
    for (let r = 0; r < MR; r++) {
      let p = base + r;
      if (r >= h) {
        for (let k = 0; k < kc; k++, p += MR) Ap[p] = 0;
      } else if (transA) {
        let src = ao + k0 * M + i0 + ip * MR + r;
        for (let k = 0; k < kc; k++, p += MR, src += M) Ap[p] = A[src]!;
      } else {
        const src = ao + (i0 + ip * MR + r) * K + k0;
        for (let k = 0; k < kc; k++, p += MR) Ap[p] = A[src + k]!;
      }
    }
  }
}

/** acc[4 × 4 tile at o, row stride ld] += Σ_k Ap[pa + 4k + r] · Bp[pb + 4k + c]. */
function kernel(Ap: Float32Array, pa: number, Bp: Float32Array, pb: number, kc: number, T: Float64Array, o: number, ld: number): void {
  let c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
  let c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
  for (let k = 0; k < kc; k++, pa += MR, pb += NR) {
    const a0 = Ap[pa]!, a1 = Ap[pa + 1]!, a2 = Ap[pa + 2]!, a3 = Ap[pa + 3]!;
    const b0 = Bp[pb]!, b1 = Bp[pb + 1]!, b2 = Bp[pb + 2]!, b3 = Bp[pb + 3]!;
    c00 += a0 * b0; c01 += a0 * b1; c02 += a0 * b2; c03 += a0 * b3;
    c10 += a1 * b0; c11 += a1 * b1; c12 += a1 * b2; c13 += a1 * b3;
    c20 += a2 * b0; c21 += a2 * b1; c22 += a2 * b2; c23 += a2 * b3;
    c30 += a3 * b0; c31 += a3 * b1; c32 += a3 * b2; c33 += a3 * b3;
  }
  T[o]! += c00; T[o + 1]! += c01; T[o + 2]! += c02; T[o + 3]! += c03; o += ld;
  T[o]! += c10; T[o + 1]! += c11; T[o + 2]! += c12; T[o + 3]! += c13; o += ld;
  T[o]! += c20; T[o + 1]! += c21; T[o + 2]! += c22; T[o + 3]! += c23; o += ld;
  T[o]! += c30; T[o + 1]! += c31; T[o + 2]! += c32; T[o + 3]! += c33;
}

/** C rows (mc × N from co) = acc + bias, or C + (acc + bias) when accumulating (the reference's order). */
function store(T: Float64Array, ld: number, C: Float32Array, co: number, mc: number, N: number, bias: Float32Array | undefined, accumulate: boolean): void {
  for (let i = 0; i < mc; i++) {
    const t = i * ld, c = co + i * N;
    for (let j = 0; j < N; j++) {
      const s = bias ? T[t + j]! + bias[j]! : T[t + j]!;
      C[c + j] = accumulate ? C[c + j]! + s : s;
    }
  }
}
