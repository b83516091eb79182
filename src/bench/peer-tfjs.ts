// The benchmark peer: TensorFlow.js's WebGPU backend on the same navigator.gpu (so the same
// adapter), in the same process. Its matMul, and an attention composed from its ops.
import type * as TF from '@tensorflow/tfjs-core';

export interface TfPeer {
  tf: typeof TF;
  /** Resolves when TF.js's queued GPU work has finished. */
  idle(): Promise<void>;
}

export async function startTfPeer(gpu: GPU): Promise<TfPeer> {
  // TF.js reads navigator.gpu; under Node there is no navigator, in a worker it is read-only.
  const g = globalThis as { navigator?: { gpu?: GPU } };
  if (!g.navigator?.gpu) Object.defineProperty(globalThis, 'navigator', { value: { ...(g.navigator ?? {}), gpu }, configurable: true });
  const tf = await import('@tensorflow/tfjs-core');
  await import('@tensorflow/tfjs-backend-webgpu');
  if (!(await tf.setBackend('webgpu'))) throw new Error('TF.js could not start its WebGPU backend on this adapter');
  await tf.ready();
  // TF.js keeps a compute pass open across ops and batches submits; close and submit both.
  const backend = tf.backend() as unknown as { endComputePassEncoder(): void; submitQueue(): void; commandEncoder: GPUCommandEncoder | null; device: GPUDevice };
  return {
    tf,
    async idle() {
      backend.endComputePassEncoder();
      if (backend.commandEncoder) backend.submitQueue();
      await backend.device.queue.onSubmittedWorkDone();
    },
  };
}

/** softmax(q kᵀ · scale + causal mask) v, per head, from TF.js ops: q, k, v (H, T, HS). */
export function tfAttention(tf: typeof TF, q: TF.Tensor3D, k: TF.Tensor3D, v: TF.Tensor3D, mask: TF.Tensor2D, scale: number): TF.Tensor3D {
  return tf.tidy(() => {
    const s = tf.add(tf.mul(tf.matMul(q, k, false, true), scale), mask);
    return tf.matMul(tf.softmax(s), v) as TF.Tensor3D;
  });
}
