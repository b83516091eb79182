// The model policy: the agent loop's Policy filled by the transformer. Episodes that start together
// share one KV cache (a cohort, one row each); every turn appends only the tokens the cache has not
// seen (observation, template, a cut turn's end token) and samples the next turn for all live rows
// in one batch, returning the sampled ids verbatim with their behaviour log-probs.
// Random streams are per episode, not per cohort: every cohort samples with the policy's seed, and
// an episode draws at the Philox row of its index in the batch (EpisodeView.index; KvGenerator
// streams) with its own counter (tokens drawn so far). So its tokens depend only on the seed, the
// episode and how far it has got, never on which episodes were generated with it: a batch run as
// one cohort or as two halves (rl/collect.ts with overlap) samples the same tokens. Log-probs are
// those of the cohort's logits, the same math as the training forward's either way.
import type { EpisodeView, Policy, TurnOutput } from '../agent/policy.ts';
import type { TokenizerLike } from '../agent/render.ts';
import { KvGenerator, type SamplingOptions } from '../model/generate.ts';
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';

export interface ModelPolicyOptions {
  /** Cache capacity per episode: the context budget in tokens. */
  contextTokens: number;
  /** Ids that end a turn (the chat format's end of turn, and the model's eos ids). */
  stopIds: readonly number[];
  /** Sampling: temperature 1 and nothing else for training rollouts (docs/dapo.md). */
  sampling: Omit<SamplingOptions, 'seed'>;
  /** The sampling seed (the Philox key) of every episode this policy plays. */
  seed: number;
  name?: string;
  version?: number;
  /** Shrink a cohort to its live episodes as others end (default true; the same tokens either way). */
  compact?: boolean;
}

interface Cohort<T extends Tensor> {
  gen: KvGenerator<T>;
  rows: Map<string, number>;
}

/** Text of sampled ids; an id the tokenizer lacks (a model vocabulary padded beyond it, as Qwen's is)
 *  reads as U+FFFD rather than failing the whole batch. The token replay of a shared run decodes the same way. */
export function decodeSampled(tokenizer: TokenizerLike, ids: readonly number[]): string {
  try {
    return tokenizer.decode(ids);
  } catch {
    return ids.map((id) => {
      try {
        return tokenizer.decode([id]);
      } catch {
        return '\ufffd';
      }
    }).join('');
  }
}

export class ModelPolicy<T extends Tensor> implements Policy {
  readonly name: string;
  readonly version: number;
  private cohorts: Cohort<T>[] = [];
  private readonly where = new Map<string, Cohort<T>>();

  constructor(
    readonly model: Transformer<T>,
    readonly tokenizer: TokenizerLike,
    readonly opts: ModelPolicyOptions,
  ) {
    this.name = opts.name ?? 'model';
    this.version = opts.version ?? 0;
  }

  /** A cohort with an eighth or more of its rows ended (episodes released) keeps only its live rows, so a
   *  batch's later turns compute the episodes still playing, not the whole batch it began as. */
  private compact(cohort: Cohort<T>): void {
    const live = [...cohort.rows].sort((a, b) => a[1] - b[1]);
    const ended = cohort.gen.B - live.length;
    if (!live.length || ended < Math.max(1, cohort.gen.B / 8)) return;
    const gen = cohort.gen.keepRows(live.map(([, b]) => b));
    cohort.gen.dispose();
    cohort.gen = gen;
    live.forEach(([id], i) => cohort.rows.set(id, i));
  }

  async act(states: readonly EpisodeView[]): Promise<TurnOutput[]> {
    if (this.opts.compact !== false) for (const cohort of this.cohorts) this.compact(cohort);
    const fresh = states.filter((s) => !this.where.has(s.id));
    if (fresh.length) {
      const cohort: Cohort<T> = { gen: new KvGenerator(this.model, fresh.length, this.opts.contextTokens), rows: new Map() };
      // An episode's stream is its batch index (callers without one: its row, as given).
      const streams = fresh.map((s, b) => s.index ?? b);
      const distinct = new Set(streams).size === streams.length;
      fresh.forEach((s, b) => {
        cohort.rows.set(s.id, b);
        cohort.gen.streams[b] = distinct ? streams[b]! : b;
        this.where.set(s.id, cohort);
      });
      this.cohorts.push(cohort);
    }
    const out = new Array<TurnOutput>(states.length);
    for (const cohort of this.cohorts) {
      const mine = states.map((s, i) => ({ s, i })).filter(({ s }) => this.where.get(s.id) === cohort);
      if (!mine.length) continue;
      const B = cohort.gen.B;
      const prompt: number[][] = Array.from({ length: B }, () => []);
      const active = new Array<boolean>(B).fill(false);
      const budget = new Array<number>(B).fill(0);
      for (const { s } of mine) {
        const b = cohort.rows.get(s.id)!;
        if (!s.tokenIds) throw new Error('the model policy needs episodes rendered with a tokenizer (token ids)');
        const have = cohort.gen.len[b]!;
        if (s.tokenIds.length < have) throw new Error(`episode ${s.id}: the context shrank from ${have} to ${s.tokenIds.length} tokens`);
        prompt[b] = s.tokenIds.slice(have);
        active[b] = true;
        // Leave room in the cache for the turn's tokens.
        budget[b] = Math.max(1, Math.min(s.maxTokens, this.opts.contextTokens - s.tokenIds.length - 1));
      }
      const gens = await cohort.gen.generate(prompt, { ...this.opts.sampling, seed: this.opts.seed, maxTokens: budget, stopIds: this.opts.stopIds, active });
      for (const { s, i } of mine) {
        const g = gens[cohort.rows.get(s.id)!]!;
        const body = this.opts.stopIds.includes(g.ids.at(-1)!) ? g.ids.slice(0, -1) : g.ids;
        out[i] = { text: decodeSampled(this.tokenizer, body), tokenIds: g.ids, logprobs: g.logprobs, finish: g.finish === 'stop' ? 'stop' : 'length' };
      }
    }
    return out;
  }

  release(id: string): void {
    const cohort = this.where.get(id);
    if (!cohort) return;
    this.where.delete(id);
    cohort.rows.delete(id);
    if (cohort.rows.size === 0) {
      cohort.gen.dispose();
      this.cohorts = this.cohorts.filter((c) => c !== cohort);
    }
  }
}
