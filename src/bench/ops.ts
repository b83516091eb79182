// Benchmarks of every op besides matmul at training shapes: time per call, achieved GFLOP/s or
// GB/s with napkin math, and for attention forward+backward the tiled kernels beside our naive
// (T×T materialised) version — time and peak memory — and an attention composed of TF.js ops.
import type { GpuContext } from '../gpu/context.ts';
import { naiveAttention, naiveAttentionBackward } from '../ops/webgpu/attention_naive.ts';
import type { GpuTensor } from '../ops/tensor.ts';
import { WebGpuBackend } from '../ops/webgpu/backend.ts';
import { Rng } from '../random.ts';
import type { BenchResult, KernelBenchOptions, ShapeSet } from './types.ts';
import { gbps, gflops, measure } from './measure.ts';
import { tfAttention } from './peer-tfjs.ts';

const SIZES: Record<ShapeSet, { N: number; C: number; F: number; V: number; NH: number; NKV: number; HS: number; T: number; B: number; P: number }> = {
  // N tokens, C channels, F MLP width, V vocabulary, heads, head size, attention T, decode batch B, P params.
  small: { N: 512, C: 256, F: 688, V: 2048, NH: 4, NKV: 2, HS: 64, T: 256, B: 8, P: 1 << 20 },
  large: { N: 4096, C: 896, F: 4864, V: 32768, NH: 14, NKV: 2, HS: 64, T: 2048, B: 16, P: 1 << 24 },
};

const MiB = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

export async function benchOps(ctx: GpuContext, opts: KernelBenchOptions): Promise<BenchResult[]> {
  const be = new WebGpuBackend(ctx);
  const rng = new Rng(2);
  const s = SIZES[opts.shapes];
  const out: BenchResult[] = [];
  const f32 = (shape: number[], lo = -1, hi = 1) => be.fromArray(rng.uniform(shape.reduce((a, b) => a * b, 1), lo, hi), shape);
  const i32 = (n: number, max: number) => be.fromArray(Int32Array.from({ length: n }, () => rng.int(max)), [n]);
  /** Time `run`, whose result tensors are freed each time; `bytes` moved or `flops` done per call. */
  const op = async (name: string, shape: string, run: () => GpuTensor[] | void, work: { bytes?: number; flops?: number }, napkin: string) => {
    opts.onProgress?.(`${name} ${shape}`);
    const t = await measure(() => run()?.forEach((x) => be.free(x)), () => ctx.sync(), opts.measure);
    const r: BenchResult = { op: name, shape, ms: t.ms, napkin };
    if (work.flops) r.gflops = gflops(work.flops, t.ms);
    if (work.bytes) r.gbps = gbps(work.bytes, t.ms);
    out.push(r);
    return r;
  };
  const { N, C, F, V, NH, NKV, HS, T, B, P } = s;

  const table = f32([V, C]), ids = i32(N, V), x = f32([N, C]), w = f32([C], 0.5, 1.5);
  await op('embedding', `N ${N}, V ${V}, C ${C}`, () => [be.embedding(ids, table)], { bytes: 2 * N * C * 4 }, `gather: read + write N·C·4 B = ${MiB(2 * N * C * 4)}`);
  const dtable = be.zeros([V, C]);
  await op('embeddingBackward', `N ${N}, V ${V}, C ${C}`, () => be.embeddingBackward(ids, x, dtable), { bytes: 3 * N * C * 4 }, 'sort ids + read dout + read/write rows');
  const norm = be.rmsnorm(x, w, 1e-6);
  await op('rmsnorm', `${N}×${C}`, () => { const r = be.rmsnorm(x, w, 1e-6); return [r.y, r.rstd]; }, { bytes: 2 * N * C * 4 }, `read x, write y: ${MiB(2 * N * C * 4)}`);
  const dw = be.zeros([C]);
  await op('rmsnormBackward', `${N}×${C}`, () => [be.rmsnormBackward(x, x, w, norm.rstd, dw)], { bytes: 3 * N * C * 4 }, 'read dy, x; write dx; dw two-pass');
  const q = f32([N, NH, HS]), pos = i32(N, 4096);
  await op('rope', `${N}×${NH}×${HS}`, () => [be.rope(q, pos, 1e6)], { bytes: 2 * N * NH * HS * 4 }, `read + write N·NH·HS·4 B = ${MiB(2 * N * NH * HS * 4)}`);
  const g = f32([N, F]), u = f32([N, F]);
  await op('swiglu', `${N}×${F}`, () => [be.swiglu(g, u)], { bytes: 3 * N * F * 4 }, `read 2, write 1 × N·F·4 B`);
  await op('swigluBackward', `${N}×${F}`, () => { const r = be.swigluBackward(g, g, u); return [r.dgate, r.dup]; }, { bytes: 5 * N * F * 4 }, 'read 3, write 2 × N·F·4 B');
  await op('add', `${N}×${F}`, () => [be.add(g, u)], { bytes: 3 * N * F * 4 }, 'read 2, write 1');
  await op('colSum', `${N}×${F}`, () => [be.colSum(g)], { bytes: N * F * 4 }, 'read N·F·4 B, two passes');

  const logits = f32([N, V], -4, 4), targets = i32(N, V);
  const lp = be.logprobs(logits, targets);
  await op('logprobs', `${N}×${V}`, () => { const r = be.logprobs(logits, targets); return [r.logp, r.entropy, r.lse]; }, { bytes: N * V * 4 }, `one streaming read of the logits: ${MiB(N * V * 4)}`);
  await op('logprobsBackward', `${N}×${V}`, () => [be.logprobsBackward(logits, targets, lp.lse, lp.entropy, lp.logp, lp.entropy)], { bytes: 2 * N * V * 4 }, 'read logits, write dlogits');
  const ones = be.fromArray(new Float32Array(N).fill(1), [N]);
  await op('dapoLoss', `N ${N}`, () => { const r = be.dapoLoss(lp.logp, lp.logp, lp.entropy, ones, { epsLow: 0.2, epsHigh: 0.28 }); return [r.dlogp, r.stats]; }, { bytes: 5 * N * 4 }, 'read 4, write 1 per token; two-pass stats');
  const p = f32([P]), gr = f32([P], -1e-3, 1e-3), m = be.zeros([P]), vv = be.zeros([P]);
  const gn = be.globalNorm([gr]);
  await op('globalNorm', `${P} params`, () => [be.globalNorm([gr])], { bytes: P * 4 }, 'read every gradient once');
  let step = 0;
  await op('adamw', `${P} params`, () => be.adamw(p, gr, m, vv, { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, step: ++step }, { norm: gn, maxNorm: 1 }), { bytes: 7 * P * 4 }, 'read p, g, m, v; write p, m, v');
  const slog = f32([B, V], -4, 4), counters = i32(B, 1000);
  const sampleRun = () => { const r = be.sample(slog, counters, { seed: 1 }); return [r.ids, r.logp]; };
  const argmaxRun = () => { const r = be.argmax(slog); return [r.ids, r.logp]; };
  const sampled = await op('sample', `B ${B}, V ${V}`, sampleRun, { bytes: B * V * 4 }, 'Philox draw + inverse CDF per row');
  const greedy = await op('argmax', `B ${B}, V ${V}`, argmaxRun, { bytes: B * V * 4 }, 'one read per row');
  // Their row max has a subgroup path (the same bits): beside it, the fallback's tree on the same device.
  if (ctx.subgroups) {
    ctx.subgroups = false;
    try {
      for (const [r, run] of [[sampled, sampleRun], [greedy, argmaxRun]] as const) {
        opts.onProgress?.(`${r.op} ${r.shape} without subgroups`);
        const t = await measure(() => run().forEach((x) => be.free(x)), () => ctx.sync(), opts.measure);
        Object.assign(r, { peer: 'ours without subgroups', peer_ms: t.ms, ratio: t.ms / r.ms });
      }
    } finally {
      ctx.subgroups = true;
    }
  }

  // Attention at T tokens, one sequence: tiled (ours) vs naive (ours, T×T) vs TF.js ops.
  const aq = f32([1, T, NH, HS]), ak = f32([1, T, NKV, HS]), av = f32([1, T, NKV, HS]), seg = be.zeros([1, T], 'i32');
  const flopsF = 2 * 2 * NH * T * T * HS / 2; // q·kᵀ and P·v, causal half
  const shape = `T ${T}, NH ${NH}/${NKV}, HS ${HS}`;
  ctx.resetPeak();
  const base = ctx.allocatedBytes;
  const fwd = be.attention(aq, ak, av, seg);
  const dout = f32([1, T, NH, HS]);
  const tiled = await op('attention fwd+bwd', shape, () => {
    const f = be.attention(aq, ak, av, seg);
    const b = be.attentionBackward(aq, ak, av, f.out, dout, f.lse, seg);
    return [f.out, f.lse, b.dq, b.dk, b.dv];
  }, { flops: 3.5 * flopsF }, `causal: fwd ≈ 2·NH·T²·HS, bwd ≈ 2.5× fwd = ${(3.5 * flopsF / 1e9).toFixed(2)} GFLOP`);
  tiled.peak_bytes = ctx.peakBytes - base;
  ctx.resetPeak();
  const nbase = ctx.allocatedBytes;
  const naive = await measure(() => {
    const f = naiveAttention(ctx, aq, ak, av, seg);
    const b = naiveAttentionBackward(ctx, aq, ak, av, f.out, dout, f.lse, seg);
    for (const t of [f.out, f.lse, f.scores, b.dq, b.dk, b.dv, b.scores]) be.free(t);
  }, () => ctx.sync(), opts.measure);
  const naivePeak = ctx.peakBytes - nbase;
  Object.assign(tiled, { peer: 'ours, naive (T×T)', peer_ms: naive.ms, ratio: naive.ms / tiled.ms, note: `peak ${MiB(tiled.peak_bytes!)} vs naive ${MiB(naivePeak)}` });
  if (opts.peer) {
    const { tf } = opts.peer;
    const tq = tf.randomUniform([NH, T, HS]) as Parameters<typeof tfAttention>[1], tk = tf.randomUniform([NH, T, HS]) as typeof tq, tv = tf.randomUniform([NH, T, HS]) as typeof tq;
    const mask = tf.mul(tf.sub(tf.linalg.bandPart(tf.ones([T, T]), -1, 0), 1), 1e9) as Parameters<typeof tfAttention>[4];
    let o: { dispose(): void } | null = null;
    const pt = await measure(() => {
      o?.dispose();
      o = tfAttention(tf, tq, tk, tv, mask, 1 / Math.sqrt(HS));
    }, () => opts.peer!.idle(), opts.measure);
    opts.onProgress?.(`attention fwd ${shape} (TF.js)`);
    const ours = await measure(() => { const f = be.attention(aq, ak, av, seg); be.free(f.out); be.free(f.lse); }, () => ctx.sync(), opts.measure);
    out.push({ op: 'attention fwd', shape, ms: ours.ms, gflops: gflops(flopsF, ours.ms), napkin: `causal ≈ 2·NH·T²·HS = ${(flopsF / 1e9).toFixed(2)} GFLOP (TF.js computes the full T²)`, peer: 'tfjs-webgpu matMul+softmax', peer_ms: pt.ms, ratio: pt.ms / ours.ms });
    for (const t of [tq, tk, tv, mask]) t.dispose();
  }
  const kc = f32([B, 4 * T, NKV, HS]), vc = f32([B, 4 * T, NKV, HS]), dq = f32([B, 1, NH, HS]);
  const len = be.fromArray(Int32Array.from({ length: B }, (_, b) => 4 * T - 7 * b), [B]);
  await op('attentionCached (decode)', `B ${B}, S ${4 * T}`, () => [be.attentionCached(dq, kc, vc, len)], { bytes: 2 * B * 4 * T * NKV * HS * 4 }, `reads the whole cache: ${MiB(2 * B * 4 * T * NKV * HS * 4)}`);
  for (const t of [fwd.out, fwd.lse]) be.free(t);
  await ctx.trimPool();
  return out;
}
