// WebGPU backend: the WGSL kernels behind the Backend interface. Ops record into the context's
// command encoder and return at once; `read`/`sync` submit and surface errors.
import type { GpuContext } from '../gpu/context.ts';
import type { BackendCore, MatmulOps } from './backend.ts';
import { matmul } from './matmul.ts';
import type { MatmulOptions } from './matmul.shape.ts';
import { allocate, dtypeOf, numel, type DType, type GpuTensor, type TypedArray } from './tensor.ts';

// Implements each op group of backend.ts as it lands; becomes `implements Backend<GpuTensor>` when all have.
export class WebGpuBackend implements BackendCore<GpuTensor>, MatmulOps<GpuTensor> {
  readonly kind = 'webgpu' as const;
  /** Bound where a kernel declares an optional input that this call does not use. */
  private readonly placeholder: GPUBuffer;

  constructor(readonly ctx: GpuContext) {
    this.placeholder = ctx.buffer('placeholder', 16);
  }

  fromArray(data: TypedArray, shape: readonly number[], label = 'tensor'): GpuTensor {
    if (data.length !== numel(shape)) throw new Error(`${label}: ${data.length} values do not fill shape (${shape.join(', ')})`);
    return { shape: [...shape], dtype: dtypeOf(data), label, buffer: this.ctx.upload(label, data) };
  }
  zeros(shape: readonly number[], dtype: DType = 'f32', label = 'zeros'): GpuTensor {
    // New buffers are zero-initialised by WebGPU.
    return { shape: [...shape], dtype, label, buffer: this.ctx.buffer(label, numel(shape) * 4) };
  }
  async read(t: GpuTensor): Promise<TypedArray> {
    const n = numel(t.shape);
    const raw = await this.ctx.read(t.buffer, n * 4);
    const out = allocate(t.dtype, n);
    new Uint8Array(out.buffer).set(new Uint8Array(raw));
    return out;
  }
  free(t: GpuTensor): void {
    this.ctx.release(t.buffer);
  }
  sync(): Promise<void> {
    return this.ctx.sync();
  }

  matmul(a: GpuTensor, b: GpuTensor, opts?: MatmulOptions<GpuTensor>): GpuTensor {
    return matmul(this.ctx, a, b, opts, this.placeholder);
  }
}
