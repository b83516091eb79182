// CPU reference of adamw: AdamW in place (decoupled weight decay, bias correction, optional clip by
// a global norm), elementwise in f64 with PyTorch's order of operations, stored as f32.
// The oracle for kernels/adamw.wgsl; itself checked against torch.optim.AdamW + clip_grad_norm_.
import { adamwCheck, adamwScalars, type AdamwClip, type AdamwHyper } from '../adamw.shape.ts';
import type { CpuTensor } from '../tensor.ts';

/** The clip coefficient of torch.nn.utils.clip_grad_norm_: min(1, maxNorm / (norm + 1e-6)). */
export function clipCoefficient(norm: number, maxNorm: number): number {
  return Math.min(1, maxNorm / (norm + 1e-6));
}

export function adamw(param: CpuTensor, grad: CpuTensor, m: CpuTensor, v: CpuTensor, hp: AdamwHyper, clip?: AdamwClip<CpuTensor>): void {
  const { n } = adamwCheck(param, grad, m, v, hp, clip);
  const { decay, stepSize, bc2Sqrt } = adamwScalars(hp);
  const c = clip ? clipCoefficient(clip.norm.data[0]!, clip.maxNorm) : 1;
  const P = param.data, G = grad.data, M = m.data, Vv = v.data;
  for (let i = 0; i < n; i++) {
    const g = G[i]! * c;
    const mi = hp.beta1 * M[i]! + (1 - hp.beta1) * g;
    const vi = hp.beta2 * Vv[i]! + (1 - hp.beta2) * g * g;
    M[i] = mi; // stored as f32, and the step reads the stored values (as PyTorch and the kernel do)
    Vv[i] = vi;
    P[i] = P[i]! * decay - (stepSize * M[i]!) / (Math.sqrt(Vv[i]!) / bc2Sqrt + hp.eps);
  }
}
