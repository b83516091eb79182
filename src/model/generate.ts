// Batched generation with a KV cache: B sequences of different lengths, prefill (chunks of new
// tokens, right-padded to the longest) then one token per step, sampled by the seeded
// counter-based sampler at temperature 1 (unbiased, for training rollouts) or with eval-only
// top-k/top-p. Returns the ids and their behaviour log-probs. Multi-turn episodes append
// observations with another prefill into the same cache.
//   Cache per layer: k, v (B, S + CH, NKV, HS); len[b] = tokens of sequence b in the cache.
//   New tokens go in chunks of at most CH (chunked prefill bounds activation memory); chunks are
//   aligned on each sequence's end, so every sequence's last token is in the final chunk. Rows
//   with fewer tokens than the chunk are right-padded: the padding lands at positions ≥ len[b]
//   (beyond the valid length; the CH extra rows keep it inside the cache) and is overwritten later.
//   Random streams: sequence b draws philox(seed, (counters[b], streams[b])) (streams[b] = b unless
//   set), so a sequence can keep its stream whatever other sequences share its generator.
//   Generation hands the thread back to the host every few milliseconds, so work waiting on the
//   event loop (sandbox processes ending, their timers) is not held up by a CPU backend.
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { view, type Transformer } from './transformer.ts';

export interface SamplingOptions {
  seed: number;
  temperature?: number;
  /** Evaluation only. */
  topK?: number;
  topP?: number;
  /** Greedy decoding (evaluation only). */
  greedy?: boolean;
}

export interface GenerateOptions extends SamplingOptions {
  /** Token budget per sequence for this call. */
  maxTokens: number | readonly number[];
  /** Generation of a sequence stops after it samples one of these ids (kept in the output). */
  stopIds: readonly number[];
  /** Optional: stop when this returns true for a sequence's new ids so far (stop strings). */
  stopWhen?: (b: number, ids: readonly number[]) => boolean;
  /** Sequences to generate for (default all); the others are left untouched. */
  active?: readonly boolean[];
}

export type FinishReason = 'stop' | 'length' | 'context';

export interface Generation {
  ids: number[];
  logprobs: number[];
  finish: FinishReason;
}

const YIELD_EVERY_MS = 5;

/** One turn of the host's event loop: setImmediate in Node (after pending I/O), a message in
 *  browsers and workers (setTimeout would be clamped to 4 ms when nested), else a timer. */
function hostTurn(): Promise<void> {
  const g = globalThis as unknown as {
    setImmediate?: (cb: () => void) => unknown;
    MessageChannel?: new () => { port1: { onmessage: (() => void) | null; close(): void }; port2: { postMessage(v: unknown): void } };
  };
  return new Promise((resolve) => {
    if (g.setImmediate) g.setImmediate(resolve);
    else if (g.MessageChannel) {
      const ch = new g.MessageChannel();
      ch.port1.onmessage = () => (ch.port1.close(), resolve());
      ch.port2.postMessage(null);
    } else setTimeout(resolve, 0);
  });
}

export class KvGenerator<T extends Tensor> {
  readonly k: T[] = [];
  readonly v: T[] = [];
  /** Tokens of each sequence in the cache. */
  readonly len: number[];
  /** Per-sequence sampling counters: the Philox counter of the next draw (see SamplingOps). */
  readonly counters: number[];
  /** Per-sequence Philox row (the second counter word; distinct, ≥ 0): default the sequence's row. */
  readonly streams: number[];
  /** Run only each chunk's real rows (the default); false runs the padded (B, TQ) layout, the peer
   *  `webswe bench generate` measures it against. Both give the same tokens. */
  pack = true;
  private lastYield = performance.now();
  private readonly be: Backend<T>;

  constructor(
    readonly model: Transformer<T>,
    readonly B: number,
    /** Cache capacity per sequence (tokens). */
    readonly S: number,
    /** Prefill chunk (tokens per sequence per forward). */
    readonly chunk = 128,
    /** Allocate empty caches (keepRows fills its own). */
    allocate = true,
  ) {
    this.be = model.be;
    const c = model.c;
    for (let i = 0; i < (allocate ? c.numLayers : 0); i++) {
      this.k.push(this.be.zeros([B, S + chunk, c.numKvHeads, c.headDim], 'f32', `kv.k${i}`));
      this.v.push(this.be.zeros([B, S + chunk, c.numKvHeads, c.headDim], 'f32', `kv.v${i}`));
    }
    this.len = new Array(B).fill(0);
    this.counters = new Array(B).fill(0);
    this.streams = Array.from({ length: B }, (_, b) => b);
  }

  /**
   * Append tokens[b] to sequence b (empty arrays: nothing to append) and return the logits of each
   * sequence's last token, (B, V) (rows of sequences that appended nothing are meaningless).
   */
  append(tokens: readonly (readonly number[])[]): T {
    const { B, S, chunk } = this;
    if (tokens.length !== B) throw new Error(`append: expected ${B} sequences, got ${tokens.length}`);
    for (let b = 0; b < B; b++) {
      if (this.len[b]! + tokens[b]!.length > S) {
        throw new Error(`append: sequence ${b} would hold ${this.len[b]! + tokens[b]!.length} tokens; the cache holds ${S} (raise the context budget)`);
      }
    }
    const K = Math.max(1, Math.ceil(Math.max(...tokens.map((t) => t.length)) / chunk));
    let logits: T | null = null;
    for (let k = 0; k < K; k++) {
      // Sequence b's slice of chunk k: its tokens [n − (K−k)·CH, n − (K−k−1)·CH) clipped to [0, n).
      const slices = tokens.map((t) => t.slice(Math.max(0, t.length - (K - k) * chunk), Math.max(0, t.length - (K - k - 1) * chunk)));
      if (logits) this.be.free(logits);
      logits = this.forwardChunk(slices);
    }
    return logits!;
  }

  /**
   * One forward of ≤ CH new tokens per sequence through the cache; logits of each last token.
   * Row-wise work (embedding, projections, MLP) runs on the chunk's real tokens alone, packed sequence
   * by sequence; the KV-cache ops take the padded (B, TQ) layout, gathered from the packed rows and
   * back, with each sequence's real row count so a backend may skip the padding. A row's values do
   * not depend on the rows beside it, so packing changes no token's logits.
   */
  private forwardChunk(tokens: readonly (readonly number[])[]): T {
    const { be, model, B } = this;
    const c = model.c;
    const TQ = Math.max(1, ...tokens.map((t) => t.length));
    const real = tokens.reduce((a, t) => a + t.length, 0);
    const packed = this.pack && real > 0 && real < B * TQ;
    const N = packed ? real : B * TQ, NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim;
    // toPad[b·TQ + i]: the packed row of sequence b's token i (padding rows read row 0);
    // fromPad[r]: the padded row of packed row r; last[b]: the row of b's last token.
    const ids = new Int32Array(N), pos = new Int32Array(N), last = new Int32Array(B);
    const toPad = new Int32Array(B * TQ), fromPad = new Int32Array(N), rows = new Int32Array(B);
    for (let b = 0, r = 0; b < B; b++) {
      const t = tokens[b]!;
      rows[b] = t.length;
      for (let i = 0; i < TQ; i++) {
        if (packed && i >= t.length) continue;
        ids[r] = i < t.length ? t[i]! : 0;
        pos[r] = this.len[b]! + i;
        toPad[b * TQ + i] = r;
        fromPad[r] = b * TQ + i;
        r++;
      }
      last[b] = packed ? (t.length ? toPad[b * TQ + t.length - 1]! : 0) : b * TQ + Math.max(0, t.length - 1);
    }
    const idsT = be.fromArray(ids, [N], 'gen.ids'), posT = be.fromArray(pos, [N], 'gen.pos');
    const start = be.fromArray(Int32Array.from(this.len), [B], 'gen.start');
    const lenT = be.fromArray(Int32Array.from(this.len, (l) => l + TQ), [B], 'gen.len');
    const toPadT = packed ? be.fromArray(toPad, [B * TQ], 'gen.toPad') : null;
    const fromPadT = packed ? be.fromArray(fromPad, [N], 'gen.fromPad') : null;
    const rowsT = packed ? be.fromArray(rows, [B], 'gen.rows') : null;
    const padded = (t: T, width: number) => (toPadT ? be.gatherRows(view(t, [N, width]), toPadT) : t);
    let x = be.embedding(idsT, model.p('model.embed_tokens.weight'));
    for (let i = 0; i < c.numLayers; i++) {
      const pre = model.qkv(i, x, posT);
      const q = padded(pre.q, NH * HS), k = padded(pre.k, NKV * HS), v = padded(pre.v, NKV * HS);
      be.kvWrite(this.k[i]!, view(k, [B, TQ, NKV, HS]), start);
      be.kvWrite(this.v[i]!, view(v, [B, TQ, NKV, HS]), start);
      const attPadded = be.attentionCached(view(q, [B, TQ, NH, HS]), this.k[i]!, this.v[i]!, lenT, rowsT ? { rows: rowsT } : {});
      const att = view(fromPadT ? be.gatherRows(view(attPadded, [B * TQ, NH * HS]), fromPadT) : attPadded, [N, NH * HS]);
      const post = model.attnOut(i, att, x);
      const xNext = model.layerOut(i, post);
      if (packed) for (const t of [q, k, v, attPadded]) be.free(t);
      for (const t of [x, att, post.xMid, post.h2, post.rstd2, post.g, post.u, post.s, pre.h1, pre.rstd1, pre.qRaw, pre.kRaw, pre.v, pre.q, pre.k]) be.free(t);
      if (pre.rstdQ) for (const t of [pre.rstdQ, pre.rstdK!, pre.qNormed!, pre.kNormed!]) be.free(t);
      for (const t of new Set([...Object.values(pre.xa), ...Object.values(post.xa)])) be.free(t);
      x = xNext;
    }
    const lastT = be.fromArray(last, [B], 'gen.last');
    const xl = be.gatherRows(x, lastT);
    const { y, rstd } = be.rmsnorm(xl, model.p('model.norm.weight'), c.rmsNormEps);
    const logits = be.matmul(y, model.lmHead, { transB: true });
    for (const t of [idsT, posT, start, lenT, x, lastT, xl, y, rstd]) be.free(t);
    for (const t of [toPadT, fromPadT, rowsT]) if (t) be.free(t);
    for (let b = 0; b < B; b++) this.len[b]! += tokens[b]!.length;
    return logits;
  }

  /** Draw one token per row from logits (B, V), advancing each row's counter. */
  async draw(logits: T, opts: SamplingOptions): Promise<{ ids: Int32Array; logp: Float32Array }> {
    const { be } = this;
    // Temperature 0 is the limit of sampling: greedy (the sampler would divide by it).
    const greedy = opts.greedy === true || opts.temperature === 0;
    const spread = !greedy && this.streams.some((s, b) => s !== b);
    let r: { ids: T; logp: T };
    if (greedy) r = be.argmax(logits);
    else {
      const sampling = { seed: opts.seed, temperature: opts.temperature ?? 1, ...(opts.topK ? { topK: opts.topK } : {}), ...(opts.topP ? { topP: opts.topP } : {}) };
      if (!spread) {
        const counters = be.fromArray(Int32Array.from(this.counters), [this.B], 'gen.counters');
        r = be.sample(logits, counters, sampling);
        be.free(counters);
      } else r = this.sampleAtStreams(logits, sampling);
      for (let b = 0; b < this.B; b++) this.counters[b]!++;
    }
    const ids = (await be.read(r.ids)) as Int32Array;
    const logp = (await be.read(r.logp)) as Float32Array;
    be.free(r.ids);
    be.free(r.logp);
    if (!spread) return { ids, logp };
    return { ids: Int32Array.from(this.streams, (s) => ids[s]!), logp: Float32Array.from(this.streams, (s) => logp[s]!) };
  }

  /** Sample with each sequence's logits at its stream's row of a (max stream + 1, V) batch (rows
   *  no sequence owns repeat row 0's logits and are discarded): the sampler's row is the stream. */
  private sampleAtStreams(logits: T, sampling: { seed: number; temperature: number; topK?: number; topP?: number }): { ids: T; logp: T } {
    const { be, streams } = this;
    const R = Math.max(...streams) + 1;
    if (streams.some((s) => !Number.isInteger(s) || s < 0) || new Set(streams).size !== streams.length) {
      throw new Error(`KvGenerator: streams must be distinct integers ≥ 0, got [${streams.join(', ')}]`);
    }
    const at = new Int32Array(R), counters = new Int32Array(R);
    streams.forEach((s, b) => ((at[s] = b), (counters[s] = this.counters[b]!)));
    const atT = be.fromArray(at, [R], 'gen.streamRows'), countersT = be.fromArray(counters, [R], 'gen.counters');
    const spread = be.gatherRows(logits, atT);
    const r = be.sample(spread, countersT, sampling);
    for (const t of [atT, countersT, spread]) be.free(t);
    return r;
  }

  /** Let the host run what is waiting on its event loop, at most every few milliseconds. */
  private async yieldToHost(): Promise<void> {
    if (performance.now() - this.lastYield < YIELD_EVERY_MS) return;
    await hostTurn();
    this.lastYield = performance.now();
  }

  /**
   * Generate after `prompt` (tokens appended first, one array per sequence) until each active
   * sequence stops, exhausts its budget or fills the cache.
   */
  async generate(prompt: readonly (readonly number[])[], opts: GenerateOptions): Promise<Generation[]> {
    const { B, S } = this;
    const active = opts.active ?? new Array(B).fill(true);
    const budget = (b: number) => (typeof opts.maxTokens === 'number' ? opts.maxTokens : opts.maxTokens[b]!);
    const out: Generation[] = Array.from({ length: B }, () => ({ ids: [], logprobs: [], finish: 'length' as FinishReason }));
    const live = active.map((a, b) => a && budget(b) > 0);
    let logits = this.append(prompt.map((p, b) => (active[b] ? p : [])));
    while (live.some(Boolean)) {
      const { ids, logp } = await this.draw(logits, opts);
      this.be.free(logits);
      await this.yieldToHost();
      const next: number[][] = [];
      for (let b = 0; b < B; b++) {
        if (!live[b]) {
          next.push([]);
          continue;
        }
        const g = out[b]!;
        g.ids.push(ids[b]!);
        g.logprobs.push(logp[b]!);
        if (opts.stopIds.includes(ids[b]!) || opts.stopWhen?.(b, g.ids)) {
          g.finish = 'stop';
          live[b] = false;
        } else if (g.ids.length >= budget(b)) {
          g.finish = 'length';
          live[b] = false;
        } else if (this.len[b]! + 1 >= S) {
          g.finish = 'context';
          live[b] = false;
        }
        // The drawn token enters the cache on the next append (also for stopped rows, so the
        // cache holds the whole turn: the next observation continues after it).
        next.push([ids[b]!]);
      }
      const anyLive = live.some(Boolean);
      if (!anyLive) {
        // Write the final tokens of rows that just stopped so the cache is complete.
        if (next.some((t) => t.length)) this.be.free(this.append(next));
        break;
      }
      logits = this.append(next);
    }
    return out;
  }

  /**
   * A generator of only the sequences `rows` of this one, in that order (row i of the new one is row
   * rows[i] here), with their caches, lengths, sampling counters and streams; this one is left as it was.
   * A cohort shrinks to its live episodes this way, so its later forwards compute no ended rows. A row's
   * logits do not depend on the rows computed with it, so its tokens are the ones it would have drawn.
   */
  keepRows(rows: readonly number[]): KvGenerator<T> {
    const { be, B, S, chunk } = this;
    if (!rows.length || rows.some((r) => !Number.isInteger(r) || r < 0 || r >= B) || new Set(rows).size !== rows.length) {
      throw new Error(`keepRows: rows must be distinct integers in [0, ${B}), got [${rows.join(', ')}]`);
    }
    const g = new KvGenerator(this.model, rows.length, S, chunk, false);
    const idx = be.fromArray(Int32Array.from(rows), [rows.length], 'gen.keep');
    const keep = (t: T) => {
      const width = t.shape.slice(1).reduce((a, b) => a * b, 1);
      return view(be.gatherRows(view(t, [B, width]), idx), [rows.length, ...t.shape.slice(1)]);
    };
    for (let i = 0; i < this.k.length; i++) g.k.push(keep(this.k[i]!)), g.v.push(keep(this.v[i]!));
    be.free(idx);
    rows.forEach((r, i) => ((g.len[i] = this.len[r]!), (g.counters[i] = this.counters[r]!), (g.streams[i] = this.streams[r]!)));
    return g;
  }

  dispose(): void {
    for (const t of [...this.k, ...this.v]) this.be.free(t);
  }
}
