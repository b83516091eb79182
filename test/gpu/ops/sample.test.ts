// sample WGSL kernels against the CPU reference: the WGSL Philox4x32-10 (extracted from
// kernels/sample.wgsl) against Random123's known answers and the TS copy; the same tokens as the CPU
// backend for the same seed and counters (plain, tempered, top-k / top-p with ties, tiny V, 2-D
// grid); logp of the chosen token; bitwise determinism.
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { KERNELS_DIR } from '../../../src/gpu/adapter.node.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { philox4x32 } from '../../../src/ops/reference/philox.ts';
import { sample as sampleGpu } from '../../../src/ops/webgpu/sample.ts';
import type { SampleOptions } from '../../../src/ops/sample.shape.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';
import { PHILOX_KAT } from '../../helpers/philox-kat.ts';

// logp = (x − max)/T − log Z: f32 exp/log and a scan of 256 f32 chunk sums against f64 (|logp| ≲ 10).
const LOGP = { atol: 1e-5, rtol: 1e-5 };

/** Runs the Philox block of kernels/sample.wgsl on (counter, key) pairs; returns the 4 words of each. */
async function gpuPhilox(pairs: [number[], number[]][]): Promise<number[][]> {
  const be = await sharedBackend();
  const src = readFileSync(`${KERNELS_DIR}sample.wgsl`, 'utf8');
  const block = src.slice(src.indexOf('// ---- philox4x32-10'), src.indexOf('// ---- end philox'));
  expect(block).toMatch(/fn philox4x32/);
  const code = `${block}
@group(0) @binding(0) var<storage, read> inp: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> outp: array<vec4<u32>>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x < arrayLength(&outp)) { outp[id.x] = philox4x32(inp[2u * id.x], inp[2u * id.x + 1u].xy); }
}`;
  const { device } = be.ctx;
  const pipeline = device.createComputePipeline({ label: 'philox test', layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
  const input = be.ctx.upload('philox.in', Uint32Array.from(pairs.flatMap(([c, k]) => [...c, k[0]!, k[1]!, 0, 0])));
  const output = be.ctx.buffer('philox.out', pairs.length * 16);
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: input } }, { binding: 1, resource: { buffer: output } }] }));
  pass.dispatchWorkgroups(Math.ceil(pairs.length / 64));
  pass.end();
  device.queue.submit([enc.finish()]);
  const words = new Uint32Array(await be.ctx.read(output, pairs.length * 16));
  return pairs.map((_, i) => [...words.slice(4 * i, 4 * i + 4)]);
}

interface Case {
  label: string;
  B: number;
  V: number;
  opts: SampleOptions;
  /** round logits to multiples of this (creates ties at the filter thresholds) */
  quantum?: number;
  gridMax?: number;
}

const CASES: Case[] = [
  { label: 'B 64, V 1000, T 1, seed above 2^32', B: 64, V: 1000, opts: { seed: 2 ** 40 + 123 } },
  { label: 'B 33, V 5 (most chunks empty), T 0.7', B: 33, V: 5, opts: { seed: 7, temperature: 0.7 } },
  { label: 'B 16, V 500, T 0.8, top-k 20, top-p 0.9', B: 16, V: 500, opts: { seed: 3, temperature: 0.8, topK: 20, topP: 0.9 } },
  { label: 'B 16, V 300, top-k 7 with ties at the threshold', B: 16, V: 300, opts: { seed: 4, topK: 7 }, quantum: 0.5 },
  { label: 'B 16, V 300, top-p 0.5 with ties', B: 16, V: 300, opts: { seed: 5, topP: 0.5 }, quantum: 0.5 },
  { label: 'B 8, V 300, top-k 1 (greedy)', B: 8, V: 300, opts: { seed: 6, topK: 1 } },
  { label: 'B 9, V 300, 2-D grid (4 × 3 workgroups)', B: 9, V: 300, opts: { seed: 8 }, gridMax: 4 },
];

describe('philox4x32-10 in WGSL', () => {
  gpuIt('gives Random123 known answers and the TS words for 61 random counters and keys', async () => {
    const rng = new Rng(9);
    const u32 = () => Math.floor(rng.next() * 2 ** 32);
    const random = Array.from({ length: 61 }, () => [[u32(), u32(), u32(), u32()], [u32(), u32()]] as [number[], number[]]);
    const pairs = [...PHILOX_KAT.map(([c, k]) => [c, k] as [number[], number[]]), ...random];
    const got = await gpuPhilox(pairs);
    PHILOX_KAT.forEach(([, , want], i) => expect(got[i], `known answer ${i}`).toEqual(want));
    random.forEach(([c, k], i) => expect(got[PHILOX_KAT.length + i]).toEqual(philox4x32(c as [number, number, number, number], k as [number, number])));
  });
});

describe('sample kernel vs reference: the same tokens for the same seed and counters', () => {
  const cpu = new CpuBackend();
  CASES.forEach((c, i) => {
    gpuIt(c.label, async () => {
      const be = await sharedBackend();
      const rng = new Rng(50 + i);
      const logits = rng.uniform(c.B * c.V, -4, 4).map((x) => (c.quantum ? Math.round(x / c.quantum) * c.quantum : x));
      const counters = Int32Array.from({ length: c.B }, () => rng.int(2 ** 31) - 2 ** 30); // negatives too
      const want = cpu.sample(cpu.fromArray(logits, [c.B, c.V]), cpu.fromArray(counters, [c.B]), c.opts);
      const gl = be.fromArray(logits, [c.B, c.V]), gc = be.fromArray(counters, [c.B]);
      const got = c.gridMax ? sampleGpu(be.ctx, be.zeros([4]).buffer, gl, gc, c.opts, c.gridMax) : be.sample(gl, gc, c.opts);
      expect([...(await be.read(got.ids))]).toEqual([...want.ids.data]);
      const r = compareArrays(`${c.label} logp`, await be.read(got.logp), want.logp.data, LOGP);
      expect(r.ok, r.report).toBe(true);
    });
  });
  gpuIt('is bitwise deterministic (filtered and not, run twice)', async () => {
    const be = await sharedBackend();
    const rng = new Rng(60);
    const logits = be.fromArray(rng.uniform(12 * 700, -3, 3), [12, 700]);
    const counters = be.fromArray(Int32Array.from({ length: 12 }, (_, b) => 1000 + b), [12]);
    for (const opts of [{ seed: 1 }, { seed: 1, topK: 50, topP: 0.8 }]) {
      const [a, b] = [be.sample(logits, counters, opts), be.sample(logits, counters, opts)];
      for (const [p, q] of [[a.ids, b.ids], [a.logp, b.logp]] as const) {
        const [u, w] = [await be.read(p), await be.read(q)];
        expect(Buffer.from(u.buffer).equals(Buffer.from(w.buffer))).toBe(true);
      }
    }
  });
});
