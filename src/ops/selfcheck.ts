// Self-check: run ops on a backend and on the CPU reference with the same seeded inputs and
// compare. Used by the browser worker (proves WebGPU works in this tab) and by tests.
import type { BackendCore, MatmulOps } from './backend.ts';
import { compareArrays } from './compare.ts';
import { CpuBackend } from './reference/backend.ts';
import type { MatmulOptions } from './matmul.shape.ts';
import type { Tensor } from './tensor.ts';
import { Rng } from '../random.ts';

export interface MatmulCase {
  batch?: number;
  M: number;
  N: number;
  K: number;
  transA?: boolean;
  transB?: boolean;
  bias?: boolean;
  accumulate?: boolean;
  /** b has no batch dimension and is shared by every batch of a. */
  broadcastB?: boolean;
}

export interface CheckResult {
  label: string;
  ok: boolean;
  report: string;
}

export function matmulCaseLabel(c: MatmulCase): string {
  const flags = [c.transA && 'Aᵀ', c.transB && 'Bᵀ', c.bias && 'bias', c.accumulate && '+=', c.broadcastB && 'bcastB'].filter(Boolean);
  return `matmul ${c.batch ? `${c.batch}×` : ''}${c.M}×${c.N}×${c.K}${flags.length ? ` [${flags.join(' ')}]` : ''}`;
}

/** f32 matmul of K terms: error grows ~ sqrt(K)·eps·|terms|; inputs in [-1, 1). */
export const MATMUL_TOLERANCE = { atol: 1e-5, rtol: 1e-4 };

export async function checkMatmul<T extends Tensor>(backend: BackendCore<T> & MatmulOps<T>, c: MatmulCase, seed: number): Promise<CheckResult> {
  const cpu = new CpuBackend();
  const rng = new Rng(seed);
  const aShape = c.transA ? [c.K, c.M] : [c.M, c.K];
  const bShape = c.transB ? [c.N, c.K] : [c.K, c.N];
  const withBatch = (s: number[], shared = false) => (c.batch && !shared ? [c.batch, ...s] : s);
  const aS = withBatch(aShape), bS = withBatch(bShape, c.broadcastB);
  const outS = withBatch([c.M, c.N]);
  const size = (s: number[]) => s.reduce((x, y) => x * y, 1);
  const aData = rng.uniform(size(aS)), bData = rng.uniform(size(bS)), biasData = rng.uniform(c.N), outData = rng.uniform(size(outS));
  const run = async <U extends Tensor>(be: BackendCore<U> & MatmulOps<U>) => {
    const opts: MatmulOptions<U> = { transA: c.transA, transB: c.transB };
    if (c.bias) opts.bias = be.fromArray(biasData, [c.N], 'bias');
    if (c.accumulate) {
      opts.out = be.fromArray(outData, outS, 'out');
      opts.accumulate = true;
    }
    return be.read(be.matmul(be.fromArray(aData, aS, 'a'), be.fromArray(bData, bS, 'b'), opts));
  };
  const label = matmulCaseLabel(c);
  const cmp = compareArrays(label, await run(backend), await run(cpu), MATMUL_TOLERANCE);
  return { label, ok: cmp.ok, report: cmp.report };
}

/** Awkward shapes: not multiples of the 64 tile or the 16-deep panel, 1-wide, every layout; products of
 *  ≤ 16 rows (WebGPU's few-row kernel) too. */
export const MATMUL_CASES: MatmulCase[] = [
  { M: 1, N: 1, K: 1 },
  { M: 64, N: 64, K: 16 },
  { M: 67, N: 45, K: 33 },
  { M: 5, N: 130, K: 17, transA: true },
  { M: 70, N: 3, K: 65, transB: true },
  { M: 33, N: 29, K: 31, transA: true, transB: true },
  { M: 17, N: 66, K: 9, bias: true },
  { M: 31, N: 18, K: 40, accumulate: true, transB: true },
  { batch: 3, M: 19, N: 21, K: 23 },
  { batch: 2, M: 40, N: 9, K: 70, broadcastB: true, bias: true },
  { M: 3, N: 300, K: 50, transB: true, bias: true },
  { M: 16, N: 37, K: 61, accumulate: true },
  { M: 4, N: 9, K: 70, transA: true, transB: true },
];
