// CPU backend: the reference implementations behind the Backend interface. Correctness oracle,
// and the fallback where no WebGPU adapter exists.
import type { BackendCore, MatmulOps } from './backend.ts';
import { matmul } from './reference/matmul.ts';
import { allocate, dtypeOf, numel, type CpuTensor, type DType, type TypedArray } from './tensor.ts';

// Implements each op group of backend.ts as it lands; becomes `implements Backend<CpuTensor>` when all have.
export class CpuBackend implements BackendCore<CpuTensor>, MatmulOps<CpuTensor> {
  readonly kind = 'cpu' as const;

  fromArray(data: TypedArray, shape: readonly number[], label = 'tensor'): CpuTensor {
    if (data.length !== numel(shape)) throw new Error(`${label}: ${data.length} values do not fill shape (${shape.join(', ')})`);
    return { shape: [...shape], dtype: dtypeOf(data), label, data: data.slice() };
  }
  zeros(shape: readonly number[], dtype: DType = 'f32', label = 'zeros'): CpuTensor {
    return { shape: [...shape], dtype, label, data: allocate(dtype, numel(shape)) };
  }
  async read(t: CpuTensor): Promise<TypedArray> {
    return t.data.slice();
  }
  free(): void {}
  async sync(): Promise<void> {}

  matmul = matmul;
}
