// The op surface: one interface, two implementations (cpu.ts: the references; webgpu.ts: the
// kernels). The model, trainer and tests are written once against it.
import type { MatmulOptions } from './matmul.shape.ts';
import type { DType, Tensor, TypedArray } from './tensor.ts';

export interface Backend<T extends Tensor = Tensor> {
  readonly kind: 'cpu' | 'webgpu';
  /** A tensor holding a copy of `data`. */
  fromArray(data: TypedArray, shape: readonly number[], label?: string): T;
  zeros(shape: readonly number[], dtype?: DType, label?: string): T;
  /** The tensor's values on the CPU (flushes queued GPU work). */
  read(t: T): Promise<TypedArray>;
  free(t: T): void;
  /** Wait for all queued work; surfaces GPU errors. */
  sync(): Promise<void>;

  /** (B?, M, K) · (B?, K, N) → (B?, M, N); see MatmulOptions for layouts, bias and +=. */
  matmul(a: T, b: T, opts?: MatmulOptions<T>): T;
}
