// embedding kernels (gather_rows.wgsl forward; embedding_sort.wgsl + embedding_backward.wgsl
// backward) against the CPU reference on seeded inputs: ids at 0 and V−1, repeated ids, one token,
// C not a multiple of the 64-wide workgroup, sort sizes spanning several workgroups, += into an
// existing gradient, out-of-range ids, and bitwise determinism.
// Tolerances: forward is a copy (exact). Backward: f32 sums in increasing n of ≤ ~150 values in
// [−1, 1) against the reference's f64 sums: atol 2e-5, rtol 1e-5 (error ≲ k·ulp·max|sum|, k ≤ ~150;
// measured on SwiftShader: max abs 3.8e-6).
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { sortIdPositions } from '../../../src/ops/webgpu/embedding.ts';
import { embedding, embeddingBackward } from '../../../src/ops/reference/embedding.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();
const BACKWARD_TOL = { atol: 2e-5, rtol: 1e-5 };

function idsWithEnds(rng: Rng, N: number, V: number): Int32Array {
  const ids = Int32Array.from({ length: N }, () => rng.int(V));
  ids[0] = 0;
  if (N > 1) ids[N - 1] = V - 1;
  if (N > 3) ids[2] = ids[1]!;  // a repeat next to its twin
  return ids;
}

async function checkCase(seed: number, N: number, V: number, C: number) {
  const be = await sharedBackend();
  const rng = new Rng(seed);
  const ids = idsWithEnds(rng, N, V), table = rng.uniform(V * C), dout = rng.uniform(N * C), dtable0 = rng.uniform(V * C);
  const label = `N=${N} V=${V} C=${C}`;

  const got = await be.read(be.embedding(be.fromArray(ids, [N]), be.fromArray(table, [V, C])));
  const want = embedding(cpu.fromArray(ids, [N]), cpu.fromArray(table, [V, C]));
  const fwd = compareArrays(`${label} forward`, got, want.data, { atol: 0, rtol: 0 });
  expect(fwd.ok, fwd.report).toBe(true);

  const dtable = be.fromArray(dtable0, [V, C]);
  be.embeddingBackward(be.fromArray(ids, [N]), be.fromArray(dout, [N, C]), dtable);
  const ref = cpu.fromArray(dtable0, [V, C]);
  embeddingBackward(cpu.fromArray(ids, [N]), cpu.fromArray(dout, [N, C]), ref);
  const bwd = compareArrays(`${label} backward (+= into dtable)`, await be.read(dtable), ref.data, BACKWARD_TOL);
  expect(bwd.ok, bwd.report).toBe(true);
}

describe('embedding kernels vs reference', () => {
  gpuIt('N=13 V=37 C=70: ends, repeats, C not a multiple of 64', () => checkCase(1, 13, 37, 70));
  gpuIt('one token (N=1, T=1)', () => checkCase(2, 1, 5, 3));
  gpuIt('N=700 V=5: long runs of repeated ids, sort over several workgroups', () => checkCase(3, 700, 5, 3));
  gpuIt('N=64 V=1000 C=130: mostly distinct ids', () => checkCase(4, 64, 1000, 130));

  for (const [N, V] of [[1, 3], [5, 2], [700, 5], [1000, 100_000]] as const) {
    gpuIt(`sort of (id, n) keys: N=${N} V=${V} (P/2 up to 512 invocations, 2 workgroups)`, async () => {
      const be = await sharedBackend();
      const ids = idsWithEnds(new Rng(N), N, V);
      ids[N - 1] = -1; // negative ids sort last, as large u32
      const { keys, P } = sortIdPositions(be.ctx, be.fromArray(ids, [N]).buffer, N);
      const got = new Uint32Array(await be.ctx.read(keys, P * 8));
      const want = [...ids].map((id, n) => [id >>> 0, n] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      for (let n = N; n < P; n++) want.push([0xffffffff, n]);
      expect([...got]).toEqual(want.flat());
    });
  }

  gpuIt('ids (B, T) give (B, T, C)', async () => {
    const be = await sharedBackend();
    const out = be.embedding(be.fromArray(Int32Array.of(1, 0, 2, 1), [2, 2]), be.fromArray(new Float32Array([0, 1, 2, 3, 4, 5]), [3, 2]));
    expect(out.shape).toEqual([2, 2, 2]);
    expect([...(await be.read(out))]).toEqual([2, 3, 0, 1, 4, 5, 2, 3]);
  });

  gpuIt('ids outside [0, V): NaN rows forward, skipped backward (the reference throws)', async () => {
    const be = await sharedBackend();
    const table = be.fromArray(new Float32Array([0, 1, 2, 3, 4, 5]), [3, 2]);
    const out = await be.read(be.embedding(be.fromArray(Int32Array.of(2, 3, -1, 0), [4]), table));
    expect([...out.slice(0, 2)]).toEqual([4, 5]);
    expect([...out.slice(2, 6)].every(Number.isNaN)).toBe(true);
    expect([...out.slice(6)]).toEqual([0, 1]);
    const dtable = be.zeros([3, 2]);
    be.embeddingBackward(be.fromArray(Int32Array.of(1, 7, -5, 1), [4]), be.fromArray(new Float32Array([1, 2, 10, 20, 100, 200, 3, 4]), [4, 2]), dtable);
    expect([...(await be.read(dtable))]).toEqual([0, 0, 4, 6, 0, 0]);
  });

  gpuIt('is bitwise deterministic (forward and backward)', async () => {
    const be = await sharedBackend();
    const rng = new Rng(9);
    const N = 200, V = 7, C = 67;
    const ids = be.fromArray(idsWithEnds(rng, N, V), [N]);
    const table = be.fromArray(rng.uniform(V * C), [V, C]);
    const dout = be.fromArray(rng.uniform(N * C), [N, C]);
    const runs: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const dtable = be.zeros([V, C]);
      be.embeddingBackward(ids, dout, dtable);
      const fwd = await be.read(be.embedding(ids, table));
      runs.push(Buffer.concat([Buffer.from(fwd.buffer), Buffer.from((await be.read(dtable)).buffer)]));
    }
    expect(runs[0]!.equals(runs[1]!)).toBe(true);
  });
});
