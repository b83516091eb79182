// Argument rules of globalNorm (OptimOps), shared by the CPU reference and the WebGPU dispatcher.
import { expectDtype, type Tensor } from './tensor.ts';

export function gradNormCheck(grads: readonly Tensor[]): void {
  grads.forEach((g, i) => expectDtype('globalNorm', `grads[${i}] (${g.label})`, g, 'f32'));
}
