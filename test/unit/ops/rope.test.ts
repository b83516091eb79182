// rope CPU reference: PyTorch fixtures (transformers' Qwen3RotaryEmbedding + apply_rotary_pos_emb,
// gradient by autograd) for head sizes 32/64/128 with positions from 0, a KV-cache offset (1000…)
// and far positions (32000); hand cases; inverse = backward; refusals.
// Tolerance vs PyTorch: atol 1e-5, rtol 1e-5: both form the same f32 angle; torch takes f32 cos/sin
// (≤ 1 ulp) and f32 products, the reference f64: differences are a few 1e-7 on O(1) values.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { ropeInvFreq } from '../../../src/ops/layers.shape.ts';
import { rope } from '../../../src/ops/reference/rope.ts';
import { Rng } from '../../../src/random.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const TOL = { atol: 1e-5, rtol: 1e-5 };
const f32 = (data: ArrayLike<number>, shape: number[]) => be.fromArray(Float32Array.from(data), shape);
const i32 = (data: number[]) => be.fromArray(Int32Array.from(data), [data.length]);

describe('rope reference vs PyTorch', () => {
  for (const c of loadOpFixture('rope')) {
    it(c.name, () => {
      const t = c.tensors;
      const theta = c.attrs.theta as number;
      const pos = be.fromArray(t.positions!.data, t.positions!.shape);
      const out = rope(f32(t.x!.data, t.x!.shape), pos, theta);
      const fwd = compareArrays(`${c.name} out`, out.data, t.out!.data, TOL);
      expect(fwd.ok, fwd.report).toBe(true);
      const dx = rope(f32(t.dout!.data, t.dout!.shape), pos, theta, { inverse: true });
      const bwd = compareArrays(`${c.name} dx (inverse)`, dx.data, t.dx!.data, TOL);
      expect(bwd.ok, bwd.report).toBe(true);
    });
  }
});

describe('rope reference', () => {
  it('inv_freq follows theta^(−2i/HS)', () => {
    expect([...ropeInvFreq(4, 10000)]).toEqual([1, Math.fround(0.01)]);
  });
  it('position 0 is the identity; HS = 2 rotates by pos radians', () => {
    const x = f32([1, 2, 3, 4], [1, 1, 4]);
    expect([...rope(x, i32([0]), 10000).data]).toEqual([1, 2, 3, 4]);
    const r = rope(f32([1, 0, 0, 1], [2, 1, 2]), i32([1, 2]), 10000);
    const want = [Math.cos(1), Math.sin(1), -Math.sin(2), Math.cos(2)];
    const cmp = compareArrays('HS=2', r.data, want, { atol: 1e-7, rtol: 0 });
    expect(cmp.ok, cmp.report).toBe(true);
  });
  it('inverse undoes forward; (B, T, H, HS) with positions (B, T) is the (N, H, HS) form', () => {
    const rng = new Rng(3);
    const x = f32(rng.uniform(2 * 3 * 2 * 8), [2, 3, 2, 8]);
    const pos = be.fromArray(Int32Array.from([5, 6, 7, 100, 101, 102]), [2, 3]);
    const y = rope(x, pos, 1e6);
    const flat = rope(f32(x.data, [6, 2, 8]), i32([5, 6, 7, 100, 101, 102]), 1e6);
    expect([...y.data]).toEqual([...flat.data]);
    const back = compareArrays('inverse ∘ rope', rope(y, pos, 1e6, { inverse: true }).data, x.data, { atol: 1e-6, rtol: 0 });
    expect(back.ok, back.report).toBe(true);
  });
  it('refuses bad shapes, naming both', () => {
    expect(() => rope(be.zeros([2, 1, 3]), i32([0, 1]), 1e4)).toThrow(/HS must be even/);
    expect(() => rope(be.zeros([2, 1, 4]), i32([0]), 1e4)).toThrow(/rope: positions has shape \(1\), expected \(2\)/);
    expect(() => rope(be.zeros([2, 4]), i32([0, 1]), 1e4)).toThrow(/x must be \(N, H, HS\)/);
    expect(() => rope(be.zeros([2, 1, 4]), be.zeros([2]), 1e4)).toThrow(/positions must be i32, got f32/);
  });
});
