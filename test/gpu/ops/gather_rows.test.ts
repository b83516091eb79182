// gather_rows.wgsl (gatherRows) against the CPU reference: first/last/repeated rows, D not a
// multiple of 64, one row, the 2-D dispatch past 65535 rows, out-of-range indices, determinism.
// Tolerance: exact (a copy).
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { gatherRows } from '../../../src/ops/reference/gather_rows.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();

async function check(seed: number, R: number, D: number, idxList: number[]) {
  const be = await sharedBackend();
  const x = new Rng(seed).uniform(R * D), idx = Int32Array.from(idxList);
  const got = await be.read(be.gatherRows(be.fromArray(x, [R, D]), be.fromArray(idx, [idx.length])));
  const want = gatherRows(cpu.fromArray(x, [R, D]), cpu.fromArray(idx, [idx.length]));
  const r = compareArrays(`R=${R} D=${D} M=${idx.length}`, got, want.data, { atol: 0, rtol: 0 });
  expect(r.ok, r.report).toBe(true);
}

describe('gather_rows kernel vs reference', () => {
  gpuIt('R=9 D=130: rows 0 and R−1, repeats', () => check(1, 9, 130, [8, 0, 3, 3, 8, 5]));
  gpuIt('one row', () => check(2, 4, 5, [2]));
  gpuIt('70000 rows: 2-D dispatch past 65535 workgroups', () => check(3, 3, 1, Array.from({ length: 70_000 }, (_, i) => (i * 7) % 3)));
  gpuIt('out-of-range indices give NaN rows (the reference throws)', async () => {
    const be = await sharedBackend();
    const out = await be.read(be.gatherRows(be.fromArray(new Float32Array([1, 2, 3, 4]), [2, 2]), be.fromArray(Int32Array.of(1, 2, -1), [3])));
    expect([...out.slice(0, 2)]).toEqual([3, 4]);
    expect([...out.slice(2)].every(Number.isNaN)).toBe(true);
  });
  gpuIt('is bitwise deterministic', async () => {
    const be = await sharedBackend();
    const x = be.fromArray(new Rng(5).uniform(6 * 70), [6, 70]), idx = be.fromArray(Int32Array.of(5, 1, 1, 0), [4]);
    const a = await be.read(be.gatherRows(x, idx)), b = await be.read(be.gatherRows(x, idx));
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });
});
