// Shape rules of logprobs / logprobsBackward (LossOps), shared by the CPU reference and the
// WebGPU dispatchers. Targets outside [0, V) are not refused (the loss masks those rows): their
// logp is 0 and their one-hot term in the backward is absent, on both backends.
import { expectDtype, expectShape, shapeStr, type Tensor } from './tensor.ts';

export interface LogprobsDims {
  N: number;
  V: number;
}

export function logprobsDims(op: string, logits: Tensor, targets: Tensor): LogprobsDims {
  expectDtype(op, 'logits', logits, 'f32');
  expectDtype(op, 'targets', targets, 'i32');
  if (logits.shape.length !== 2) throw new Error(`${op}: logits must be (N, V), got ${shapeStr(logits.shape)}`);
  const [N, V] = logits.shape as [number, number];
  if (V < 1) throw new Error(`${op}: logits ${shapeStr(logits.shape)} has an empty vocabulary`);
  expectShape(op, 'targets', targets.shape, [N]);
  return { N, V };
}

/** Checks every argument of logprobsBackward; `out` (N, V) f32 may be the logits tensor itself. */
export function logprobsBackwardDims(logits: Tensor, targets: Tensor, lse: Tensor, entropy: Tensor, dlogp: Tensor, dentropy?: Tensor, out?: Tensor): LogprobsDims {
  const op = 'logprobsBackward';
  const d = logprobsDims(op, logits, targets);
  const rows: [string, Tensor | undefined][] = [['lse', lse], ['entropy', entropy], ['dlogp', dlogp], ['dentropy', dentropy]];
  for (const [name, t] of rows) {
    if (!t) continue;
    expectDtype(op, name, t, 'f32');
    expectShape(op, name, t.shape, [d.N]);
  }
  if (out) {
    expectDtype(op, 'out', out, 'f32');
    expectShape(op, 'out', out.shape, [d.N, d.V]);
  }
  return d;
}
