// The trainer worker's interface, shared by the page (caller) and the worker (implementation).
// Exposed with comlink; errors cross the boundary with their names (see workers/errors.ts).
import type { CheckResult, MatmulCase } from '../src/ops/selfcheck.ts';

export interface WorkerGpuInfo {
  ok: boolean;
  /** Why there is no WebGPU, and how to enable it (when !ok). */
  reason?: string;
  adapter?: { vendor: string; architecture: string; description: string; isFallbackAdapter: boolean };
  limits?: Record<string, number>;
  features?: string[];
  inWorker: boolean;
}

export interface TrainerApi {
  /** Acquire the worker's GPUDevice (once) and describe it. */
  probe(): Promise<WorkerGpuInfo>;
  /** Run matmul cases on the worker's WebGPU backend and compare with the CPU reference. */
  checkMatmul(cases: MatmulCase[], seed: number): Promise<CheckResult[]>;
}
