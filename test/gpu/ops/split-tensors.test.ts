// Tensors larger than the binding limit, split into row chunks (src/ops/webgpu/split.ts): a second
// GpuContext on the shared device with a 4 KiB binding limit (every storage buffer it creates is
// refused past that) runs each split-aware op and a whole model (embedding, lm_head and MLP weights,
// logits split), against the same work under the device's own limit (nothing split).
// Tolerances: gathers, row-wise ops (log-softmax, sampling, argmax), elementwise ops and products
// whose K is not cut compute every value with the same f32 operations as whole: bitwise equal. A
// product whose K is cut at chunk boundaries sums each K block in f32 and adds the blocks into the
// output: the same terms regrouped, so it differs by rounding only, |Δ| ≤ (J + 1)·ε·Σ|a·b| for J
// blocks (ε = 2⁻²⁴; dx case: ≤ 3e-5). It is held to MATMUL_TOLERANCE, the kernel's tolerance against
// the f64 reference (measured against whole: max abs 1.1e-5 on values up to ~17). The model's
// gradients (through such products) are held to 1e-5 of each tensor's largest magnitude (measured:
// ≤ 7e-7 of it); a wrong or missing block would be off by O(1). globalNorm regroups its partial sums
// (rtol 1e-6). The AdamW step and generation then start from the same values: bitwise equal.
import { describe, expect } from 'vitest';
import { GpuContext } from '../../../src/gpu/context.ts';
import { GpuOutOfMemoryError } from '../../../src/gpu/errors.ts';
import type { ModelConfig } from '../../../src/model/config.ts';
import { KvGenerator } from '../../../src/model/generate.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams, zeroGrads } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { compareArrays, type Tolerance } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import type { MatmulOptions } from '../../../src/ops/matmul.shape.ts';
import { MATMUL_TOLERANCE } from '../../../src/ops/selfcheck.ts';
import { chunkPlan, chunksOf, isSplit } from '../../../src/ops/webgpu/split.ts';
import type { BackendCore, MatmulOps } from '../../../src/ops/backend.ts';
import type { GpuTensor, Tensor, TypedArray } from '../../../src/ops/tensor.ts';
import { WebGpuBackend } from '../../../src/ops/webgpu/backend.ts';
import { Rng } from '../../../src/random.ts';
import { AdamW } from '../../../src/rl/optimizer.ts';
import { gpuIt, sharedBackend, sharedContext } from '../../helpers/gpu.ts';

const LIMIT = 4096; // bytes: 1024 f32 per binding
const EXACT: Tolerance = { atol: 0, rtol: 0 };

let splitBackend: WebGpuBackend | null = null;
/** [split: a 4 KiB binding limit, whole: the device's limit] on one device. */
async function backends(): Promise<[WebGpuBackend, WebGpuBackend]> {
  const base = await sharedContext();
  splitBackend ??= new WebGpuBackend(new GpuContext(base.device, base.adapter, { bindingLimit: LIMIT }));
  return [splitBackend, await sharedBackend()];
}

function expectClose(label: string, got: ArrayLike<number>, want: ArrayLike<number>, tol: Tolerance): void {
  const c = compareArrays(label, got, want, tol);
  expect(c.ok, c.report).toBe(true);
}

describe('split tensors: storage', () => {
  gpuIt('a tensor past the limit is stored as row chunks within the limit and reads back whole', async () => {
    const [be] = await backends();
    const data = new Rng(1).uniform(50 * 16);
    const t = be.fromArray(data, [50, 16], 'x'); // 3200 B: rows of 64 B, 64 rows fit a binding
    expect(chunksOf(t).map((c) => [c.start, c.length])).toEqual([[0, 800]]);
    const big = be.fromArray(new Rng(2).uniform(300 * 16), [300, 16], 'big'); // 19200 B
    expect(chunksOf(big).map((c) => c.length / 16)).toEqual([64, 64, 64, 64, 44]);
    for (const c of chunksOf(big)) expect(c.buffer.size).toBeLessThanOrEqual(LIMIT);
    expectClose('read back', await be.read(big), new Rng(2).uniform(300 * 16), EXACT);
    const z = be.zeros([4, 300], 'f32', 'z'); // rows of 1200 B: 3 per binding
    expect(chunksOf(z).map((c) => c.length / 300)).toEqual([3, 1]);
    expect([...(await be.read(z))].every((v) => v === 0)).toBe(true);
    be.free(z);
    expect(be.ctx.bindingLimit).toBe(LIMIT);
  });

  gpuIt('refuses a row wider than the limit, a split tensor where an op binds whole, and a bad bindingLimit', async () => {
    const [be] = await backends();
    expect(() => be.zeros([2, 1500], 'f32', 'wide')).toThrow(/^wide \(2, 1500\): one row of 1500 values needs 6000 bytes, more than one storage binding holds \(4096 bytes\); tensors are split between rows only/);
    // An activation is allocated whole: past the limit it is refused, naming its size and the limit.
    expect(() => be.embedding(be.zeros([100], 'i32'), be.zeros([10, 16]))).toThrow(GpuOutOfMemoryError);
    const x = be.fromArray(new Rng(3).uniform(100 * 16), [100, 16], 'x');
    expect(() => be.colSum(x)).toThrow(/x \(100, 16\) is split into 2 buffers .*only matmul, embedding/);
    const batched = be.fromArray(new Rng(4).uniform(2 * 40 * 16), [2, 40, 16], 'batched');
    expect(() => be.matmul(batched, batched, { transB: true })).toThrow(/matmul: a \(2, 40, 16\) is split across buffers .*matmul takes it only whole/);
    const base = await sharedContext();
    expect(() => new GpuContext(base.device, base.adapter, { bindingLimit: 100 })).toThrow(/bindingLimit must be an integer of at least 256 bytes, got 100/);
    const clamped = new GpuContext(base.device, base.adapter, { bindingLimit: 2 ** 50 });
    expect(clamped.bindingLimit).toBe(Math.min(base.limits.maxStorageBufferBindingSize, base.limits.maxBufferSize));
  });
});

interface ProductCase {
  label: string;
  a: number[];
  b: number[];
  opts: { transA?: boolean; transB?: boolean; bias?: number; accumulate?: number[] };
  /** K is cut at chunk boundaries: equal within rounding, not bitwise. */
  kCut: boolean;
}

// Shapes from the model (x (N, C), W (V, C), logits (N, V)) at N 12, C 16, V 300, and one with both
// operands transposed and split; chunks: W 64 rows, logits 3 rows, dW 64 rows.
const PRODUCTS: ProductCase[] = [
  { label: 'logits = x · Wᵀ + bias: W and the logits split (N blocks)', a: [12, 16], b: [300, 16], opts: { transB: true, bias: 300 }, kCut: false },
  { label: 'dx += dlogits · W: K = V cut at W chunks, dlogits split by rows', a: [12, 300], b: [300, 16], opts: { accumulate: [12, 16] }, kCut: true },
  { label: 'dW += dlogitsᵀ · x: K = N cut at dlogits chunks, dW split', a: [12, 300], b: [12, 16], opts: { transA: true, accumulate: [300, 16] }, kCut: true },
  { label: 'aᵀ · bᵀ with a (80, 20) and b (70, 80) split: M, N and K blocks', a: [80, 20], b: [70, 80], opts: { transA: true, transB: true }, kCut: true },
];

describe('split tensors: matmul', () => {
  for (const c of PRODUCTS) {
    gpuIt(c.label, async () => {
      const [split, whole] = await backends();
      const cpu = new CpuBackend();
      const rng = new Rng(c.label.length);
      const [aData, bData] = [rng.uniform(c.a[0]! * c.a[1]!), rng.uniform(c.b[0]! * c.b[1]!)];
      const biasData = c.opts.bias ? rng.uniform(c.opts.bias) : null;
      const outData = c.opts.accumulate ? rng.uniform(c.opts.accumulate[0]! * c.opts.accumulate[1]!) : null;
      const run = async <T extends Tensor>(be: BackendCore<T> & MatmulOps<T>, check?: (a: T, b: T, out: T) => void) => {
        const a = be.fromArray(aData, c.a, 'a'), b = be.fromArray(bData, c.b, 'b');
        const opts: MatmulOptions<T> = { transA: c.opts.transA, transB: c.opts.transB };
        if (biasData) opts.bias = be.fromArray(biasData, [biasData.length], 'bias');
        if (outData) Object.assign(opts, { out: be.fromArray(outData, c.opts.accumulate!, 'out'), accumulate: true });
        const out = be.matmul(a, b, opts);
        check?.(a, b, out);
        return be.read(out);
      };
      const got = await run(split, (a, b, out) => expect([a, b, out].some((t) => isSplit(t as GpuTensor))).toBe(true));
      expectClose(`${c.label} vs reference`, got, await run(cpu), MATMUL_TOLERANCE);
      expectClose(`${c.label} vs whole`, got, await run(whole), c.kCut ? MATMUL_TOLERANCE : EXACT);
    });
  }
});

describe('split tensors: embedding, log-softmax, sampling, optimiser', () => {
  gpuIt('embedding gather and backward over a split table equal the whole table bitwise (ids in every chunk, out of range)', async () => {
    const [split, whole] = await backends();
    const rng = new Rng(7);
    const V = 300, C = 16, N = 20;
    const ids = Int32Array.from({ length: N }, () => rng.int(V));
    ids.set([0, 63, 64, 299, 64, -1, 300, 130], 0); // chunk edges, a repeat, out of range (NaN rows, skipped in the backward)
    const table = rng.uniform(V * C), dout = rng.uniform(N * C), dtable0 = rng.uniform(V * C);
    const run = async (be: WebGpuBackend) => {
      const t = be.fromArray(table, [V, C], 'table'), dt = be.fromArray(dtable0, [V, C], 'dtable');
      const idsT = be.fromArray(ids, [N], 'ids');
      const fwd = await be.read(be.embedding(idsT, t));
      const rows = await be.read(be.gatherRows(t, be.fromArray(ids.map((i) => Math.min(Math.max(i, 0), V - 1)), [N])));
      be.embeddingBackward(idsT, be.fromArray(dout, [N, C]), dt);
      return { split: isSplit(t), fwd, rows, bwd: await be.read(dt) };
    };
    const [s, w] = [await run(split), await run(whole)];
    expect([s.split, w.split]).toEqual([true, false]);
    expect(Number.isNaN(s.fwd[5 * C]!) && Number.isNaN(s.fwd[6 * C]!)).toBe(true);
    expectClose('embedding', s.fwd, w.fwd, EXACT);
    expectClose('gatherRows', s.rows, w.rows, EXACT);
    expectClose('embeddingBackward', s.bwd, w.bwd, EXACT);
  });

  gpuIt('logprobs, logprobsBackward (in place and not), sample (plain, top-k/top-p) and argmax over split logits equal whole bitwise', async () => {
    const [split, whole] = await backends();
    const rng = new Rng(8);
    const N = 12, V = 300, B = 8;
    const logits = rng.uniform(N * V, -4, 4), targets = Int32Array.from({ length: N }, () => rng.int(V));
    targets[3] = -100;
    const dlogp = rng.uniform(N), dent = rng.uniform(N), bl = rng.uniform(B * V, -3, 3), counters = Int32Array.from({ length: B }, () => rng.int(1000));
    const run = async (be: WebGpuBackend) => {
      const l = be.fromArray(logits, [N, V], 'logits'), tg = be.fromArray(targets, [N]);
      const lp = be.logprobs(l, tg);
      const d1 = be.logprobsBackward(l, tg, lp.lse, lp.entropy, be.fromArray(dlogp, [N]), be.fromArray(dent, [N]));
      const d2 = be.logprobsBackward(l, tg, lp.lse, lp.entropy, be.fromArray(dlogp, [N]), undefined, l);
      const g = be.fromArray(bl, [B, V], 'batch logits'), gc = be.fromArray(counters, [B]);
      const plain = be.sample(g, gc, { seed: 5 }), filtered = be.sample(g, gc, { seed: 6, temperature: 0.7, topK: 20, topP: 0.9 }), greedy = be.argmax(g);
      const out: Record<string, TypedArray> = { logp: await be.read(lp.logp), entropy: await be.read(lp.entropy), lse: await be.read(lp.lse), dlogits: await be.read(d1), 'dlogits in place': await be.read(d2) };
      for (const [k, r] of Object.entries({ plain, filtered, greedy })) Object.assign(out, { [`${k} ids`]: await be.read(r.ids), [`${k} logp`]: await be.read(r.logp) });
      return { out, split: isSplit(l) && isSplit(g) && isSplit(d1) };
    };
    const [s, w] = [await run(split), await run(whole)];
    expect(s.split).toBe(true);
    for (const k of Object.keys(w.out)) expectClose(k, s.out[k]!, w.out[k]!, EXACT);
  });

  gpuIt('adamw, add and scale over split tensors equal whole bitwise; globalNorm within rounding', async () => {
    const [split, whole] = await backends();
    const rng = new Rng(9);
    const shape = [300, 16], n = 4800;
    const p0 = rng.uniform(n), grads = [rng.uniform(n, -0.1, 0.1), rng.uniform(n, -0.1, 0.1)], extra = rng.uniform(7);
    const run = async (be: WebGpuBackend) => {
      const p = be.fromArray(p0, shape, 'p'), m = be.zeros(shape), v = be.zeros(shape);
      const norm = be.globalNorm([be.fromArray(grads[0]!, shape), be.fromArray(extra, [7])]);
      const clip = { norm: be.fromArray(new Float32Array([0.9]), [1]), maxNorm: 0.5 }; // the same active clip on both
      for (let step = 1; step <= 2; step++) be.adamw(p, be.fromArray(grads[step - 1]!, shape), m, v, { lr: 1e-2, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0.1, step }, clip);
      const sum = be.add(p, m);
      be.scale(m, 0, m);
      return { p: await be.read(p), v: await be.read(v), sum: await be.read(sum), m: await be.read(m), norm: await be.read(norm), split: isSplit(p) && isSplit(sum) };
    };
    const [s, w] = [await run(split), await run(whole)];
    expect(s.split).toBe(true);
    for (const k of ['p', 'v', 'sum', 'm'] as const) expectClose(k, s[k], w[k], EXACT);
    expect([...s.m].every((x) => x === 0)).toBe(true);
    expectClose('globalNorm', s.norm, w.norm, { atol: 0, rtol: 1e-6 });
  });
});

// A Qwen2-style model whose tensors straddle the 4 KiB limit: embedding / lm_head (300, 32) in 10
// chunks, gate/up (64, 32) and down (32, 64) in 2, logits (16, 300) in 6 and generation logits (4, 300)
// in 2; q/o (32, 32) and every activation (≤ 16 × 64) fit one binding.
const config = (tied: boolean): ModelConfig => ({
  modelType: 'qwen2', vocabSize: 300, hiddenSize: 32, intermediateSize: 64, numLayers: 1, numHeads: 4, numKvHeads: 2,
  headDim: 8, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: tied, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 64,
});

describe.each([false, true])('split tensors: a model (tied embeddings: %s)', (tied) => {
  gpuIt('forward, backward, an AdamW step and generation equal the unsplit run', async () => {
    const [split, whole] = await backends();
    const c = config(tied);
    const values = initParams(c, 11, 0.2);
    const B = 2, T = 8, N = B * T, rng = new Rng(12);
    const ids = Int32Array.from({ length: N }, () => rng.int(c.vocabSize));
    const targets = Int32Array.from({ length: N }, (_, i) => (i % T === T - 1 ? 0 : ids[i + 1]!));
    const positions = Int32Array.from({ length: N }, (_, i) => i % T);
    const dlogp = Float32Array.from({ length: N }, (_, i) => (i % T === T - 1 ? 0 : -1 / (B * (T - 1))));
    const prompts = [[1, 2, 3], [4], [5, 6, 7, 8], [9, 10]];

    const run = async (be: WebGpuBackend, gradsFrom?: Map<string, Float32Array>) => {
      const params = uploadParams(be, c, values);
      const model = new Transformer(be, c, params);
      const batch = { B, T, ids: be.fromArray(ids, [N]), targets: be.fromArray(targets, [N]), positions: be.fromArray(positions, [N]), seg: be.zeros([B, T], 'i32') };
      const st = model.forward(batch);
      const fwd = { logits: await be.read(st.logits), logp: await be.read(st.logp), entropy: await be.read(st.entropy) };
      const splitSeen = ['model.embed_tokens.weight', tied ? null : 'lm_head.weight', 'model.layers.0.mlp.gate_proj.weight', 'model.layers.0.mlp.down_proj.weight']
        .filter((n): n is string => n !== null).every((n) => isSplit(params.get(n)!)) && isSplit(st.logits);
      const grads = zeroGrads(be, params);
      model.backward(st, be.fromArray(dlogp, [N]), grads);
      const gradValues = new Map<string, Float32Array>();
      for (const [n, g] of grads) gradValues.set(n, (await be.read(g)) as Float32Array);
      // The whole run steps with the split run's gradients, and the clip is off (its coefficient is
      // exactly 1: the norms differ by rounding), so the stepped parameters compare bitwise.
      if (gradsFrom) for (const [n, g] of grads) { be.free(g); grads.set(n, be.fromArray(gradsFrom.get(n)!, g.shape)); }
      const opt = new AdamW(be, params, grads, { beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1e6 });
      const norm = await opt.update(1e-2);
      const stepped = new Map<string, TypedArray>();
      for (const [n, p] of params) stepped.set(n, await be.read(p));
      const gen = new KvGenerator(model, prompts.length, 8, 4);
      const out = await gen.generate(prompts, { seed: 13, maxTokens: 4, stopIds: [] });
      gen.dispose();
      return { fwd, splitSeen, gradValues, norm, stepped, out };
    };
    const s = await run(split);
    const w = await run(whole, s.gradValues);
    expect([s.splitSeen, w.splitSeen]).toEqual([true, false]);
    expect(chunkPlan(split.ctx, [prompts.length, c.vocabSize], 'generation logits')).toHaveLength(2);
    for (const k of ['logits', 'logp', 'entropy'] as const) expectClose(k, s.fwd[k], w.fwd[k], EXACT);
    for (const [n, g] of w.gradValues) {
      const scale = g.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
      expectClose(`d ${n}`, s.gradValues.get(n)!, g, { atol: 1e-5 * scale, rtol: 0 });
    }
    // Same gradients on both sides: the norm regroups its sums (rounding only).
    expect(Math.abs(s.norm - w.norm)).toBeLessThanOrEqual(1e-6 * w.norm);
    for (const [n, p] of w.stepped) expectClose(`${n} after AdamW`, s.stepped.get(n)!, p, EXACT);
    // Same parameters: generation (prefill, decode, sampling over split logits) is bitwise the same.
    expect(s.out.map((g) => g.ids)).toEqual(w.out.map((g) => g.ids));
    expectClose('generation logprobs', s.out.flatMap((g) => g.logprobs), w.out.flatMap((g) => g.logprobs), EXACT);
  });
});
