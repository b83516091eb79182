// CPU backend: the reference implementations behind the Backend interface. Correctness oracle,
// and the fallback where no WebGPU adapter exists.
import type { BackendCore, LayerOps, MatmulOps } from '../backend.ts';
import { matmul } from './matmul.ts';
import type { LossOps, OptimOps, SamplingOps } from '../backend.ts';
import type { AttentionOps } from '../backend.ts';
import { attention, attentionBackward } from './attention.ts';
import { attentionCached, kvWrite } from './attention_cached.ts';
import { adamw } from './adamw.ts';
import { dapoLoss } from './dapo_loss.ts';
import { globalNorm } from './grad_norm.ts';
import { logprobs, logprobsBackward } from './logprobs.ts';
import { argmax, sample } from './sample.ts';
import { colSum } from './col_sum.ts';
import { add, scale } from './elementwise.ts';
import { embedding, embeddingBackward } from './embedding.ts';
import { gatherRows } from './gather_rows.ts';
import { rmsnorm, rmsnormBackward } from './rmsnorm.ts';
import { rope } from './rope.ts';
import { swiglu, swigluBackward } from './swiglu.ts';
import { allocate, dtypeOf, numel, type CpuTensor, type DType, type TypedArray } from '../tensor.ts';

// Implements each op group of backend.ts as it lands; becomes `implements Backend<CpuTensor>` when all have.
export class CpuBackend implements BackendCore<CpuTensor>, MatmulOps<CpuTensor>, LayerOps<CpuTensor>, LossOps<CpuTensor>, OptimOps<CpuTensor>, SamplingOps<CpuTensor>, AttentionOps<CpuTensor> {
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
  free(_t: CpuTensor): void {}
  async sync(): Promise<void> {}

  matmul = matmul;

  embedding = embedding;
  embeddingBackward = embeddingBackward;
  rmsnorm = rmsnorm;
  rmsnormBackward = rmsnormBackward;
  rope = rope;
  swiglu = swiglu;
  swigluBackward = swigluBackward;
  add = add;
  scale = scale;
  colSum = colSum;
  gatherRows = gatherRows;

  logprobs = logprobs;
  logprobsBackward = logprobsBackward;
  dapoLoss = dapoLoss;
  globalNorm = globalNorm;
  adamw = adamw;
  sample = sample;
  argmax = argmax;

  attention = attention;
  attentionBackward = attentionBackward;
  kvWrite = kvWrite;
  attentionCached = attentionCached;
}
