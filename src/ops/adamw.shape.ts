// Argument rules of adamw (OptimOps), shared by the CPU reference and the WebGPU dispatcher, and
// the per-step scalars both derive from the hyper-parameters in f64.
import { expectDtype, expectShape, numel, type Tensor } from './tensor.ts';

export interface AdamwHyper {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** 1-based step count (bias correction). */
  step: number;
}

export interface AdamwClip<T extends Tensor = Tensor> {
  /** (1): the global gradient norm, e.g. from globalNorm (read where it lives: no readback). */
  norm: T;
  maxNorm: number;
}

export function adamwCheck(param: Tensor, grad: Tensor, m: Tensor, v: Tensor, hp: AdamwHyper, clip?: AdamwClip): { n: number } {
  const op = 'adamw';
  for (const [name, t] of [['param', param], ['grad', grad], ['m', m], ['v', v]] as const) {
    expectDtype(op, name, t, 'f32');
    if (name !== 'param') expectShape(op, name, t.shape, param.shape);
  }
  if (!Number.isInteger(hp.step) || hp.step < 1) throw new Error(`adamw: step must be an integer ≥ 1 (bias correction), got ${hp.step}`);
  for (const k of ['lr', 'beta1', 'beta2', 'eps', 'weightDecay'] as const) {
    if (!Number.isFinite(hp[k]) || hp[k] < 0) throw new Error(`adamw: ${k} must be a finite number ≥ 0, got ${hp[k]}`);
  }
  if (hp.beta1 >= 1 || hp.beta2 >= 1) throw new Error(`adamw: beta1 and beta2 must be < 1, got ${hp.beta1}, ${hp.beta2}`);
  if (clip) {
    expectDtype(op, 'clip.norm', clip.norm, 'f32');
    if (numel(clip.norm.shape) !== 1) throw new Error(`adamw: clip.norm must hold one value, got shape (${clip.norm.shape.join(', ')})`);
    if (!(clip.maxNorm > 0)) throw new Error(`adamw: clip.maxNorm must be > 0, got ${clip.maxNorm}`);
  }
  return { n: numel(param.shape) };
}

/** The scalars of one step, computed once in f64 (PyTorch's order: decay, then the Adam step). */
export function adamwScalars(hp: AdamwHyper): { decay: number; stepSize: number; bc2Sqrt: number } {
  return {
    decay: 1 - hp.lr * hp.weightDecay, // p ← p·(1 − lr·wd)  (decoupled weight decay)
    stepSize: hp.lr / (1 - hp.beta1 ** hp.step), // lr / bias_correction1
    bc2Sqrt: Math.sqrt(1 - hp.beta2 ** hp.step), // √bias_correction2
  };
}
