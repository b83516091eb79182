// KV-cache generation on the CPU backend: behaviour log-probs equal the training forward's for
// the same tokens (tolerance 2e-5: same math, different summation order across the cache path),
// seeded determinism, chunked prefill equivalence, multi-turn appends, stop ids and budgets.
import { describe, expect, it } from 'vitest';
import { KvGenerator } from '../../../src/model/generate.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { WasmBackend } from '../../../src/ops/wasm/backend.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { loadFixtureModel } from '../../helpers/model.ts';
import { scoreSequences, twoTurnRollout } from '../../helpers/generation.ts';

const be = new CpuBackend();
const prompts = [[1, 2, 3, 4, 5, 6, 7], [9, 8], [5, 4, 3, 2, 1, 10, 11, 12, 13, 14]];
const obs = [[20, 21], [22, 23, 24, 25], [26]];

describe.each(['qwen2', 'qwen3', 'llama'])('%s generation', (name) => {
  it('behaviour log-probs equal the training forward over both turns', async () => {
    const { model } = await loadFixtureModel(be, name);
    const r = await twoTurnRollout(model, prompts, obs, 1234);
    const scores = await scoreSequences(model, r.seqs);
    for (let b = 0; b < prompts.length; b++) {
      expect(r.lens[b]).toBe(r.seqs[b]!.length);
      const got = r.sampled[b]!.map((s) => s.lp), want = r.sampled[b]!.map((s) => scores[b]![s.at]!);
      const cmp = compareArrays(`seq ${b}`, got, want, { atol: 2e-5, rtol: 1e-5 });
      expect(cmp.ok, cmp.report).toBe(true);
    }
  });
});

describe('generation', () => {
  it('is deterministic for a seed and differs across seeds', async () => {
    const { model } = await loadFixtureModel(be, 'qwen2');
    const a = await twoTurnRollout(model, prompts, obs, 7);
    const b = await twoTurnRollout(model, prompts, obs, 7);
    const c = await twoTurnRollout(model, prompts, obs, 8);
    expect(b.seqs).toEqual(a.seqs);
    expect(c.seqs).not.toEqual(a.seqs);
  });
  it('chunked prefill gives the same tokens and log-probs as one chunk', async () => {
    const { model } = await loadFixtureModel(be, 'qwen2');
    const whole = await twoTurnRollout(model, prompts, obs, 3, 128);
    const chunked = await twoTurnRollout(model, prompts, obs, 3, 3);
    expect(chunked.seqs).toEqual(whole.seqs);
    const flat = (r: typeof whole) => r.sampled.flat().map((s) => s.lp);
    expect(compareArrays('chunked', flat(chunked), flat(whole), { atol: 1e-6, rtol: 1e-6 }).ok).toBe(true);
  });
  it.each(['cpu', 'wasm'])('keepRows (%s backend): the rows kept draw the tokens and log-probs they would have drawn in the whole batch', async (kind) => {
    const wasm = kind === 'wasm' ? await WasmBackend.create(1) : undefined;
    const { model } = await loadFixtureModel(wasm ?? be, 'qwen2');
    const four = [[1, 2, 3, 4], [9, 8], [5, 4, 3, 2, 1, 10], [7, 7, 7]];
    const opts = { seed: 5, maxTokens: 6, stopIds: [] as number[] };
    const whole = new KvGenerator(model, 4, 64);
    whole.streams.splice(0, 4, 3, 0, 2, 1); // streams travel with their rows
    await whole.generate(four, opts);
    const kept = whole.keepRows([2, 0]);
    expect([kept.B, kept.len, kept.streams, kept.counters]).toEqual([2, [whole.len[2], whole.len[0]], [2, 3], [whole.counters[2], whole.counters[0]]]);
    const after = await whole.generate([[20, 21], [22], [23, 24, 25], [26]], opts);
    const shrunk = await kept.generate([[23, 24, 25], [20, 21]], opts);
    expect(shrunk).toEqual([after[2], after[0]]);
    expect(() => whole.keepRows([0, 0])).toThrow(/distinct/);
    expect(() => whole.keepRows([4])).toThrow(/\[0, 4\)/);
    whole.dispose();
    kept.dispose();
    wasm?.close();
  });
  it.each(['cpu', 'wasm'])('packed chunks (%s backend): a batch of uneven turns draws, bit for bit, what each sequence draws alone', async (kind) => {
    // Uneven prompts and observations put padding in every prefill chunk and ended rows in decode
    // steps; the batch runs only the real rows, a sequence alone has no padding at all. Greedy, as a
    // batch's sampling counters advance for rows that have stopped: the logits are what is compared.
    const wasm = kind === 'wasm' ? await WasmBackend.create(1) : undefined;
    const { model } = await loadFixtureModel(wasm ?? be, 'qwen2');
    const first = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [9, 8], [7], [5, 4, 3]];
    const second = [[20], [21, 22, 23, 24, 25, 26, 27], [28, 29], [30, 31, 32, 33, 34]];
    const opts = { seed: 9, greedy: true, maxTokens: [7, 2, 5, 4], stopIds: [] as number[] };
    const batch = new KvGenerator(model, 4, 64, 4);
    const turns = [await batch.generate(first, opts), await batch.generate(second, opts)];
    for (let b = 0; b < 4; b++) {
      const alone = new KvGenerator(model, 1, 64, 4);
      alone.streams[0] = b;
      const one = { ...opts, maxTokens: opts.maxTokens[b]! };
      const mine = [await alone.generate([first[b]!], one), await alone.generate([second[b]!], one)];
      expect(mine.map((t) => t[0]), `sequence ${b}`).toEqual(turns.map((t) => t[b]));
      expect(alone.len[0]).toBe(batch.len[b]);
      alone.dispose();
    }
    batch.dispose();
    wasm?.close();
  });
  it('temperature 0 is greedy decoding (eval.temperature = 0), not a sampler error', async () => {
    const { model } = await loadFixtureModel(be, 'qwen2');
    const greedy = await new KvGenerator(model, 2, 32).generate([[1, 2, 3], [9, 8]], { seed: 0, greedy: true, maxTokens: 6, stopIds: [] });
    const cold = await new KvGenerator(model, 2, 32).generate([[1, 2, 3], [9, 8]], { seed: 11, temperature: 0, maxTokens: 6, stopIds: [] });
    expect(cold).toEqual(greedy);
  });
  it('stops at a stop id (kept), at the budget, and refuses to overfill the cache', async () => {
    const { model } = await loadFixtureModel(be, 'qwen2');
    const gen = new KvGenerator(model, 2, 16);
    // Greedy twice from the same prompt: learn the first greedy token, then make it the stop id.
    const probe = await gen.generate([[1, 2, 3], [1, 2, 3]], { seed: 0, greedy: true, maxTokens: 1, stopIds: [] });
    const first = probe[0]!.ids[0]!;
    const gen2 = new KvGenerator(model, 2, 16);
    const out = await gen2.generate([[1, 2, 3], [1, 2, 3]], { seed: 0, greedy: true, maxTokens: [5, 2], stopIds: [first] });
    expect(out[0]).toMatchObject({ ids: [first], finish: 'stop' });
    expect(out[1]!.finish).toBe('stop');
    const gen3 = new KvGenerator(model, 1, 16);
    const long = await gen3.generate([[1, 2, 3]], { seed: 5, maxTokens: 40, stopIds: [] });
    expect(long[0]!.finish).toBe('context');
    expect(gen3.len[0]).toBeLessThanOrEqual(16);
    expect(() => gen3.append([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]])).toThrow(/the cache holds 16/);
  });
});
