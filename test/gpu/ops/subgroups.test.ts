// The kernels with a subgroup path (sample, argmax: their row max, and argmax's first column holding it) give
// the same bits with it as without it on the same device: max and the smallest tied index are exact in any
// order, so the draws the seeded sampler makes and the greedy tokens never depend on the adapter's subgroups.
// Both paths also give the CPU reference's tokens (sampled: below Qwen's vocabulary; greedy: at every size). Ties are placed across subgroups, with the smaller column
// in the later lane; V below a workgroup leaves lanes without a column; V 151,936 is Qwen's vocabulary.
import { describe, expect } from 'vitest';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import type { SampleOptions } from '../../../src/ops/sample.shape.ts';
import type { GpuTensor } from '../../../src/ops/tensor.ts';
import type { WebGpuBackend } from '../../../src/ops/webgpu/backend.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

/** ids and logp of `run` with the subgroup path and without it, as bytes. */
async function bothPaths(be: WebGpuBackend, run: () => { ids: GpuTensor; logp: GpuTensor }) {
  const out: Record<'sg' | 'plain', { ids: number[]; logp: Buffer }> = {} as never;
  const before = be.ctx.subgroups;
  try {
    for (const [k, on] of [['sg', true], ['plain', false]] as const) {
      be.ctx.subgroups = on;
      const r = run();
      out[k] = { ids: [...(await be.read(r.ids))], logp: Buffer.from((await be.read(r.logp)).buffer) };
      be.free(r.ids);
      be.free(r.logp);
    }
  } finally {
    be.ctx.subgroups = before;
  }
  return out;
}

describe('subgroup paths: the same bits as the fallback on one device', () => {
  const cpu = new CpuBackend();
  const cases: { label: string; B: number; V: number; opts: SampleOptions; ties?: boolean }[] = [
    { label: 'B 8, V 3000, ties across subgroups', B: 8, V: 3000, opts: { seed: 11 }, ties: true },
    { label: 'B 5, V 37 (lanes without a column)', B: 5, V: 37, opts: { seed: 12, temperature: 0.7 } },
    { label: 'B 4, V 500, top-k 20, top-p 0.9', B: 4, V: 500, opts: { seed: 13, topK: 20, topP: 0.9 }, ties: true },
    { label: 'B 2, V 151936 (Qwen2.5\'s vocabulary)', B: 2, V: 151936, opts: { seed: 14 }, ties: true },
  ];
  for (const c of cases) {
    gpuIt(c.label, async (t) => {
      const be = await sharedBackend();
      if (!be.ctx.features.has('subgroups')) return t.skip(`the adapter has no 'subgroups' feature: only the fallback runs here`);
      const rng = new Rng(c.V + c.B);
      const x = rng.uniform(c.B * c.V, -4, 4);
      // Even rows hold their maximum four times: columns 2 and 257 (lanes 2 and 1: one subgroup of any size ≥ 4,
      // the smaller column in the later lane), 259 (lane 3) and 200 (lane 200: another subgroup at any size up
      // to 128); the first is 2. Odd rows keep their random maximum, which few lanes hold.
      const tied = (b: number) => c.ties === true && b % 2 === 0;
      for (let b = 0; b < c.B; b++) if (tied(b)) for (const j of [2, 200, 257, 259]) x[b * c.V + j] = 9 + b;
      const logits = be.fromArray(x, [c.B, c.V]);
      const counters = be.fromArray(Int32Array.from({ length: c.B }, (_, b) => 100 + 7 * b), [c.B]);
      const sampled = await bothPaths(be, () => be.sample(logits, counters, c.opts));
      expect(sampled.sg.ids).toEqual(sampled.plain.ids);
      expect(sampled.sg.logp.equals(sampled.plain.logp)).toBe(true);
      // The f64 reference's draws: at Qwen's vocabulary an f32 running sum parts from f64 by more than a token's
      // mass at times (a neighbour drawn), so tokens are compared with it below that size, as sample.test.ts does.
      if (c.V <= 3000) {
        const want = cpu.sample(cpu.fromArray(x, [c.B, c.V]), cpu.fromArray(Int32Array.from({ length: c.B }, (_, b) => 100 + 7 * b), [c.B]), c.opts);
        expect(sampled.sg.ids).toEqual([...want.ids.data]);
      }
      const greedy = await bothPaths(be, () => be.argmax(logits));
      expect(greedy.sg.ids).toEqual(greedy.plain.ids);
      expect(greedy.sg.logp.equals(greedy.plain.logp)).toBe(true);
      expect(greedy.sg.ids).toEqual([...cpu.argmax(cpu.fromArray(x, [c.B, c.V])).ids.data]);
      for (let b = 0; b < c.B; b++) if (tied(b)) expect(greedy.sg.ids[b]).toBe(2);
      be.free(logits);
      be.free(counters);
    }, 120_000);
  }
  gpuIt('turning subgroups on without the feature is refused; the default follows the device', async () => {
    const be = await sharedBackend();
    expect(be.ctx.subgroups).toBe(be.ctx.features.has('subgroups'));
    if (be.ctx.features.has('subgroups')) return;
    expect(() => (be.ctx.subgroups = true)).toThrow(/this device has no 'subgroups' feature/);
  });
});
