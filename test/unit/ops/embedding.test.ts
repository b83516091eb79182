// embedding CPU reference: PyTorch fixtures (F.embedding and its autograd gradient), a hand case,
// repeated ids, += into an existing gradient, and refusals (bad ids, shapes, dtypes).
// Tolerances: forward is a copy (exact); backward sums ≤ 3 f32 values per row in f64 against
// torch's f32 accumulation: atol 1e-6, rtol 1e-6 (a few f32 ulps of O(1) values).
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { embedding, embeddingBackward } from '../../../src/ops/reference/embedding.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const f32 = (data: number[], shape: number[]) => be.fromArray(new Float32Array(data), shape);
const i32 = (data: number[], shape = [data.length]) => be.fromArray(new Int32Array(data), shape);

describe('embedding reference vs PyTorch', () => {
  for (const c of loadOpFixture('embedding')) {
    it(c.name, () => {
      const t = c.tensors;
      const ids = be.fromArray(t.ids!.data, t.ids!.shape);
      const table = be.fromArray(t.table!.data, t.table!.shape);
      const out = embedding(ids, table);
      expect(out.shape).toEqual(t.out!.shape);
      const fwd = compareArrays(`${c.name} out`, out.data, t.out!.data, { atol: 0, rtol: 0 });
      expect(fwd.ok, fwd.report).toBe(true);
      const dtable = be.zeros(t.table!.shape);
      embeddingBackward(ids, be.fromArray(t.dout!.data, t.dout!.shape), dtable);
      const bwd = compareArrays(`${c.name} dtable`, dtable.data, t.dtable!.data, { atol: 1e-6, rtol: 1e-6 });
      expect(bwd.ok, bwd.report).toBe(true);
    });
  }
});

describe('embedding reference', () => {
  const table = f32([0, 1, 10, 11, 20, 21], [3, 2]);
  it('gathers rows by hand, any ids shape', () => {
    expect([...embedding(i32([2, 0, 2]), table).data]).toEqual([20, 21, 0, 1, 20, 21]);
    expect(embedding(i32([2, 0, 1, 1], [2, 2]), table).shape).toEqual([2, 2, 2]);
  });
  it('backward sums repeated ids and adds into dtable', () => {
    const dtable = f32([1, 1, 1, 1, 1, 1], [3, 2]);
    embeddingBackward(i32([2, 0, 2, 2]), f32([1, 2, 3, 4, 5, 6, 7, 8], [4, 2]), dtable);
    expect([...dtable.data]).toEqual([4, 5, 1, 1, 1 + 1 + 5 + 7, 1 + 2 + 6 + 8]);
  });
  it('refuses ids outside [0, V), naming the position and value', () => {
    expect(() => embedding(i32([0, 3]), table)).toThrow(/embedding: ids\[1\] = 3 is outside \[0, 3\)/);
    expect(() => embedding(i32([-1]), table)).toThrow(/ids\[0\] = -1/);
    expect(() => embeddingBackward(i32([5]), f32([0, 0], [1, 2]), be.zeros([3, 2]))).toThrow(/embeddingBackward: ids\[0\] = 5/);
  });
  it('refuses bad shapes and dtypes, naming both shapes', () => {
    expect(() => embedding(f32([0], [1]), table)).toThrow(/embedding: ids must be i32, got f32/);
    expect(() => embedding(i32([0]), f32([0, 1], [2]))).toThrow(/table must be \(V, C\), got \(2\)/);
    expect(() => embeddingBackward(i32([0, 1]), f32([0, 0], [1, 2]), be.zeros([3, 2]))).toThrow(/dout has shape \(1, 2\), expected \(2, 2\)/);
  });
});
