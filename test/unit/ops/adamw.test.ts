// globalNorm and adamw CPU references against torch.optim.AdamW after clip_grad_norm_ (a few steps
// on small tensors: norm, params and both moments after every step), hand-checked first step,
// argument errors. (globalNorm by hand: grad_norm.test.ts.)
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { adamw, clipCoefficient } from '../../../src/ops/reference/adamw.ts';
import { globalNorm } from '../../../src/ops/reference/grad_norm.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import { loadOpFixture, type FixtureTensor } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const t = (f: FixtureTensor): CpuTensor => be.fromArray(f.data, f.shape);
const v = (data: number[]) => be.fromArray(new Float32Array(data), [data.length]);

// The norm: f64 sum of f32 squares vs torch's f32 norms of norms: a few ulps.
const NORM = { atol: 0, rtol: 1e-6 };
// After each step: torch runs the update in f32, the reference in f64 (rounding m, v and p to f32
// on store); the difference is a few ulps of |p| ~ 1 and compounds a little over 4 steps.
const STEP = { atol: 1e-6, rtol: 1e-5 };

describe('adamw + globalNorm references vs torch.optim.AdamW with clip_grad_norm_', () => {
  for (const c of loadOpFixture('adamw')) {
    it(`${c.name}: ${c.attrs.steps} steps`, () => {
      const a = c.attrs as { steps: number; tensors: number; lr: number; beta1: number; beta2: number; eps: number; weightDecay: number; maxNorm: number | null };
      const T = c.tensors;
      const idx = Array.from({ length: a.tensors }, (_, i) => i);
      const params = idx.map((i) => t(T[`param${i}.init`]!));
      const ms = params.map((p) => be.zeros(p.shape));
      const vs = params.map((p) => be.zeros(p.shape));
      for (let s = 1; s <= a.steps; s++) {
        const grads = idx.map((i) => t(T[`grad${i}.step${s}`]!));
        const norm = globalNorm(grads);
        const n = compareArrays(`norm step ${s}`, norm.data, T[`norm.step${s}`]!.data, NORM);
        expect(n.ok, n.report).toBe(true);
        const hp = { lr: a.lr, beta1: a.beta1, beta2: a.beta2, eps: a.eps, weightDecay: a.weightDecay, step: s };
        for (const i of idx) {
          adamw(params[i]!, grads[i]!, ms[i]!, vs[i]!, hp, a.maxNorm === null ? undefined : { norm, maxNorm: a.maxNorm });
          for (const [name, got] of [['param', params[i]!], ['m', ms[i]!], ['v', vs[i]!]] as const) {
            const r = compareArrays(`${name}${i} step ${s}`, got.data, T[`${name}${i}.step${s}`]!.data, STEP);
            expect(r.ok, r.report).toBe(true);
          }
        }
      }
    });
  }
  it('the fixtures clip in one case and not in the other', () => {
    const [active, inactive] = loadOpFixture('adamw');
    expect(clipCoefficient(active!.tensors['norm.step1']!.data[0]!, 1)).toBeLessThan(1);
    expect(clipCoefficient(inactive!.tensors['norm.step1']!.data[0]!, 10)).toBe(1);
  });
});

describe('adamw by hand', () => {
  it('adamw step 1: m̂ = g, v̂ = g², so p −= lr·(g / (|g| + eps) + wd·p)', () => {
    const p = v([1, -2]), m = v([0, 0]), vv = v([0, 0]);
    adamw(p, v([0.5, -3]), m, vv, { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, step: 1 });
    const want = [1 - 0.1 * (0.5 / (0.5 + 1e-8) + 0.01 * 1), -2 - 0.1 * (-3 / (3 + 1e-8) + 0.01 * -2)];
    const r = compareArrays('p', p.data, want, { atol: 1e-7, rtol: 0 });
    expect(r.ok, r.report).toBe(true);
    expect(compareArrays('m', m.data, [0.05, -0.3], { atol: 1e-8, rtol: 1e-6 }).ok).toBe(true);
  });
  it('clip scales the gradient by maxNorm / (norm + 1e-6) when the norm exceeds maxNorm', () => {
    const m1 = v([0]), m2 = v([0]);
    adamw(v([0]), v([4]), m1, v([0]), { lr: 0, beta1: 0.5, beta2: 0.5, eps: 0, weightDecay: 0, step: 1 }, { norm: v([4]), maxNorm: 1 });
    adamw(v([0]), v([4]), m2, v([0]), { lr: 0, beta1: 0.5, beta2: 0.5, eps: 0, weightDecay: 0, step: 1 }, { norm: v([4]), maxNorm: 8 });
    expect(m1.data[0]).toBeCloseTo(0.5 * 4 * (1 / (4 + 1e-6)), 7);
    expect(m2.data[0]).toBe(2);
  });
  it('refuses bad arguments', () => {
    const hp = { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, step: 1 };
    expect(() => adamw(v([1, 2]), v([1]), v([0, 0]), v([0, 0]), hp)).toThrow(/adamw: grad has shape \(1\), expected \(2\)/);
    expect(() => adamw(v([1]), v([1]), v([0]), v([0]), { ...hp, step: 0 })).toThrow(/adamw: step must be an integer ≥ 1/);
    expect(() => adamw(v([1]), v([1]), v([0]), v([0]), hp, { norm: v([1, 2]), maxNorm: 1 })).toThrow(/adamw: clip.norm must hold one value/);
  });
});
