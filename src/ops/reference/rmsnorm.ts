// CPU reference of RMSNorm (Hugging Face LlamaRMSNorm / Qwen3RMSNorm: weight, not 1 + weight),
// forward and backward, accumulated in f64 per row; rows are every index of x but the last.
import { rmsnormBackwardDims, rmsnormDims } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

/** y = x · rstd · w, rstd = 1/sqrt(mean(x²) + eps) over the last dim. x (R, D), w (D) → y (R, D), rstd (R). */
export function rmsnorm(x: CpuTensor, w: CpuTensor, eps: number): { y: CpuTensor; rstd: CpuTensor } {
  const { R, D, rowShape } = rmsnormDims(x, w, eps);
  const X = x.data, W = w.data;
  const y = f32(R * D), rstd = f32(R);
  for (let r = 0; r < R; r++) {
    let ss = 0;
    for (let d = 0; d < D; d++) ss += X[r * D + d]! * X[r * D + d]!;
    const rs = 1 / Math.sqrt(ss / D + eps);
    rstd[r] = rs;
    for (let d = 0; d < D; d++) y[r * D + d] = X[r * D + d]! * rs * W[d]!;
  }
  return {
    y: { shape: [...x.shape], dtype: 'f32', label: 'rmsnorm.y', data: y },
    rstd: { shape: rowShape, dtype: 'f32', label: 'rmsnorm.rstd', data: rstd },
  };
}

/**
 * dx[r, d] = rstd·w[d]·dy[r, d] − x[r, d]·rstd³·(1/D)·Σ_j dy[r, j]·w[j]·x[r, j]   (= or += per accumulateDx)
 * dw[d]   += Σ_r dy[r, d]·x[r, d]·rstd[r]
 */
export function rmsnormBackward(dy: CpuTensor, x: CpuTensor, w: CpuTensor, rstd: CpuTensor, dw: CpuTensor, opts: { accumulateDx?: CpuTensor } = {}): CpuTensor {
  const { R, D } = rmsnormBackwardDims(dy, x, w, rstd, dw, opts.accumulateDx);
  const DY = dy.data, X = x.data, W = w.data;
  const dx = opts.accumulateDx ?? { shape: [...x.shape], dtype: 'f32' as const, label: 'rmsnorm.dx', data: f32(R * D) };
  const dwSum = new Float64Array(D);
  for (let r = 0; r < R; r++) {
    const rs = rstd.data[r]!;
    let dot = 0;
    for (let d = 0; d < D; d++) dot += DY[r * D + d]! * W[d]! * X[r * D + d]!;
    const k = (rs * rs * rs * dot) / D;
    for (let d = 0; d < D; d++) {
      const i = r * D + d;
      const g = rs * W[d]! * DY[i]! - X[i]! * k;
      dx.data[i] = opts.accumulateDx ? dx.data[i]! + g : g;
      dwSum[d]! += DY[i]! * X[i]! * rs;
    }
  }
  for (let d = 0; d < D; d++) dw.data[d]! += dwSum[d]!;
  return dx;
}
