// Shape rules of matmul, shared by the CPU reference and the WebGPU dispatcher.
import { expectDtype, expectShape, shapeStr, type Tensor } from './tensor.ts';

export interface MatmulOptions<T extends Tensor = Tensor> {
  /** Read `a` as (B?, K, M) and use its transpose. */
  transA?: boolean;
  /** Read `b` as (B?, N, K) and use its transpose. */
  transB?: boolean;
  /** (N): added to every row of the product. */
  bias?: T;
  /** Write into this tensor instead of a new one. */
  out?: T;
  /** out += product (needs `out`). */
  accumulate?: boolean;
}

export interface MatmulDims {
  batch: number;
  M: number;
  N: number;
  K: number;
  /** Elements between batches of a, b and c; strideB 0 broadcasts b across the batch. */
  strideA: number;
  strideB: number;
  strideC: number;
  outShape: number[];
}

/** a: (B?, M, K) · b: (B?, K, N) or (K, N) → (B?, M, N), with the transposed layouts. */
export function matmulDims(a: Tensor, b: Tensor, opts: MatmulOptions = {}): MatmulDims {
  expectDtype('matmul', 'a', a, 'f32');
  expectDtype('matmul', 'b', b, 'f32');
  if (a.shape.length < 2 || a.shape.length > 3) throw new Error(`matmul: a must be 2-D or 3-D, got ${shapeStr(a.shape)}`);
  if (b.shape.length < 2 || b.shape.length > a.shape.length) {
    throw new Error(`matmul: b must be 2-D or have a's batch dimension, got ${shapeStr(b.shape)} with a ${shapeStr(a.shape)}`);
  }
  const batch = a.shape.length === 3 ? a.shape[0]! : 1;
  const [ar, ac] = a.shape.slice(-2) as [number, number];
  const [br, bc] = b.shape.slice(-2) as [number, number];
  const [M, K] = opts.transA ? [ac, ar] : [ar, ac];
  const [Kb, N] = opts.transB ? [bc, br] : [br, bc];
  if (K !== Kb) {
    throw new Error(`matmul: inner dimensions differ: a ${shapeStr(a.shape)}${opts.transA ? 'ᵀ' : ''} has K=${K}, b ${shapeStr(b.shape)}${opts.transB ? 'ᵀ' : ''} has K=${Kb}`);
  }
  if (b.shape.length === 3 && b.shape[0] !== batch) throw new Error(`matmul: batch sizes differ: a ${shapeStr(a.shape)}, b ${shapeStr(b.shape)}`);
  const outShape = a.shape.length === 3 ? [batch, M, N] : [M, N];
  if (opts.bias) expectShape('matmul', 'bias', opts.bias.shape, [N]);
  if (opts.accumulate && !opts.out) throw new Error('matmul: accumulate needs an `out` tensor to add into');
  if (opts.out) expectShape('matmul', 'out', opts.out.shape, outShape);
  return { batch, M, N, K, strideA: M * K, strideB: b.shape.length === 3 ? K * N : 0, strideC: M * N, outShape };
}
