// argmax CPU reference by hand: the first maximum, its log-probability at temperature 1, errors.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { argmax } from '../../../src/ops/reference/sample.ts';

const be = new CpuBackend();

describe('argmax reference', () => {
  it('returns the first maximum of each row and log p of it', () => {
    const r = argmax(be.fromArray(Float32Array.from([1, 3, 3, 0, -5, -2, -7, -2]), [2, 4]));
    expect([...r.ids.data]).toEqual([1, 1]);
    expect(r.logp.data[0]).toBeCloseTo(3 - Math.log(Math.exp(1) + 2 * Math.exp(3) + 1), 6);
    expect(r.logp.data[1]).toBeCloseTo(-2 - Math.log(Math.exp(-5) + 2 * Math.exp(-2) + Math.exp(-7)), 6);
  });
  it('refuses logits that are not (B, V)', () => {
    expect(() => argmax(be.fromArray(new Float32Array(3), [3]))).toThrow(/argmax: logits must be \(B, V\) with V ≥ 1, got \(3\)/);
    expect(() => argmax(be.fromArray(new Int32Array(3), [1, 3]))).toThrow(/argmax: logits must be f32, got i32/);
  });
});
