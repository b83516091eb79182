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
//   Decoding window (WebGPU): a read-back costs a round trip to the device, which bounds decoding at
//   small shapes. With `window` W > 1, W decode steps are recorded before anything is read: each
//   step's sampled ids (a device tensor) feed the next step's embedding directly, every row that was
//   live when the window began is assumed to go on, and rows that were not write into the cache's
//   scratch rows [S, S + CH) (never read as valid). The W steps' ids and log-probs are then read in one
//   round and the host replays the stop tests step by step as the one-step loop makes them: a row that
//   stopped inside the window keeps the tokens up to its stop (its length is set back, the positions
//   after it are garbage beyond len and are overwritten later), and the sampling counters are set to
//   what the one-step loop would have drawn. Draws are counter-based (philox(seed, counter, row)) and a
//   row's logits do not depend on the rows beside it, so the ids and log-probs are the one-step loop's.
//   A window is never longer than the most draws a live row can still make (budget, context), so a
//   generation of fewer than W tokens runs the one-step loop's forwards, not W.
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
/** Decode steps per read-back on WebGPU: one round trip per 8 steps, at the cost of at most 7 blind
 *  steps after the last row stops. */
export const WEBGPU_WINDOW = 8;

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
  /** Decode steps recorded per read-back (see the header): 1 reads every step, as CPU backends want (a
   *  read costs nothing there and blind steps would cost arithmetic); WebGPU defaults to WEBGPU_WINDOW. */
  window: number;
  /** Read-back rounds so far (each awaited read of sampled ids): `bench generate` reports them per token. */
  readRounds = 0;
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
    this.window = model.be.kind === 'webgpu' ? WEBGPU_WINDOW : 1;
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
    const { be, B } = this;
    const TQ = Math.max(1, ...tokens.map((t) => t.length));
    const real = tokens.reduce((a, t) => a + t.length, 0);
    const packed = this.pack && real > 0 && real < B * TQ;
    const N = packed ? real : B * TQ;
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
    const idsT = be.fromArray(ids, [N], 'gen.ids');
    const logits = this.forwardRows(idsT, pos, Int32Array.from(this.len), TQ, packed ? { toPad, fromPad, rows } : null, last);
    be.free(idsT);
    for (let b = 0; b < B; b++) this.len[b]! += tokens[b]!.length;
    return logits;
  }

  /**
   * The layer stack over N rows of new tokens (ids on the device), TQ per sequence at cache offsets
   * `start`, packed (gather maps) or the padded (B, TQ) layout; the logits at rows `last` (B, V).
   * Lengths are the caller's to advance.
   */
  private forwardRows(idsT: T, pos: Int32Array, startAt: Int32Array, TQ: number, pack: { toPad: Int32Array; fromPad: Int32Array; rows: Int32Array } | null, last: Int32Array, idsAt?: Int32Array): T {
    const { be, model, B } = this;
    const c = model.c;
    const N = pos.length, NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim;
    const packed = pack !== null;
    const posT = be.fromArray(pos, [N], 'gen.pos');
    const start = be.fromArray(startAt, [B], 'gen.start');
    const lenT = be.fromArray(Int32Array.from(startAt, (l) => l + TQ), [B], 'gen.len');
    const toPadT = pack ? be.fromArray(pack.toPad, [B * TQ], 'gen.toPad') : null;
    const fromPadT = pack ? be.fromArray(pack.fromPad, [N], 'gen.fromPad') : null;
    const rowsT = pack ? be.fromArray(pack.rows, [B], 'gen.rows') : null;
    const padded = (t: T, width: number) => (toPadT ? be.gatherRows(view(t, [N, width]), toPadT) : t);
    let x = be.embedding(idsT, model.p('model.embed_tokens.weight'));
    if (idsAt) {
      // Row n's token is idsT[idsAt[n]] (ids sampled in stream order): the embedded rows, gathered (a copy).
      const at = be.fromArray(idsAt, [N], 'gen.idsAt');
      const xs = be.gatherRows(x, at);
      be.free(x), be.free(at);
      x = xs;
    }
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
    for (const t of [posT, start, lenT, x, lastT, xl, y, rstd]) be.free(t);
    for (const t of [toPadT, fromPadT, rowsT]) if (t) be.free(t);
    return logits;
  }

  /** Draw one token per row from logits (B, V), advancing each row's counter. */
  async draw(logits: T, opts: SamplingOptions): Promise<{ ids: Int32Array; logp: Float32Array }> {
    const r = this.drawOnDevice(logits, opts);
    this.readRounds++;
    const [ids, logp] = (await Promise.all([this.be.read(r.ids), this.be.read(r.logp)])) as [Int32Array, Float32Array];
    this.be.free(r.ids);
    this.be.free(r.logp);
    if (!r.at) return { ids, logp };
    return { ids: Int32Array.from(r.at, (s) => ids[s]!), logp: Float32Array.from(r.at, (s) => logp[s]!) };
  }

  /** Whether draws are greedy (temperature 0 is the limit of sampling: the sampler would divide by it). */
  private static greedy(opts: SamplingOptions): boolean {
    return opts.greedy === true || opts.temperature === 0;
  }

  /** The draw, left on the device: ids and log-probs, and where sequence b's value is (`at[b]`; null:
   *  at b). Advances the counters as a draw does. */
  private drawOnDevice(logits: T, opts: SamplingOptions): { ids: T; logp: T; at: Int32Array | null } {
    const { be } = this;
    const greedy = KvGenerator.greedy(opts);
    const spread = !greedy && this.streams.some((s, b) => s !== b);
    if (greedy) return { ...be.argmax(logits), at: null };
    const sampling = { seed: opts.seed, temperature: opts.temperature ?? 1, ...(opts.topK ? { topK: opts.topK } : {}), ...(opts.topP ? { topP: opts.topP } : {}) };
    let r: { ids: T; logp: T };
    if (!spread) {
      const counters = be.fromArray(Int32Array.from(this.counters), [this.B], 'gen.counters');
      r = be.sample(logits, counters, sampling);
      be.free(counters);
    } else r = this.sampleAtStreams(logits, sampling);
    for (let b = 0; b < this.B; b++) this.counters[b]!++;
    return { ...r, at: spread ? Int32Array.from(this.streams) : null };
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
    if (this.window > 1) return this.decodeWindows(logits, opts, live, budget, out);
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
   * The decoding loop of `generate` in windows of up to `window` steps, one read-back round each (see the
   * header): the same ids, log-probs, finishes, cache lengths and counters as the one-step loop.
   */
  private async decodeWindows(first: T, opts: GenerateOptions, live: boolean[], budget: (b: number) => number, out: Generation[]): Promise<Generation[]> {
    const { be, B, S, chunk } = this;
    const greedy = KvGenerator.greedy(opts);
    const rowsOf = Int32Array.from({ length: B }, (_, b) => b);
    let logits: T | null = first;
    while (live.some(Boolean)) {
      // Real rows write at len + k (k < W); the others at the scratch rows S + k: both inside S + CH.
      // No more steps than any live row can still draw (its budget, or the context's S − len): steps past
      // every row's last possible draw would be forwards whose tokens are all thrown away.
      let W = Math.min(this.window, chunk), most = 0;
      for (let b = 0; b < B; b++) {
        if (!live[b]) continue;
        W = Math.min(W, S + chunk - this.len[b]!);
        most = Math.max(most, Math.min(budget(b) - out[b]!.ids.length, S - this.len[b]!));
      }
      W = Math.max(1, Math.min(W, most));
      const len0 = this.len.slice(), counters0 = this.counters.slice();
      const drawn: { ids: T; logp: T; at: Int32Array | null }[] = [];
      for (let k = 0; k < W; k++) {
        drawn.push(this.drawOnDevice(logits!, opts));
        be.free(logits!);
        logits = null;
        // Draw k enters the cache in forward k + 1 (the window's last draw: in the next window's first).
        if (k < W - 1) {
          const at = Int32Array.from(len0, (l, b) => (live[b] ? l + k : S + k)); // one token a row: position = start
          logits = this.forwardRows(drawn[k]!.ids, at, at, 1, null, rowsOf, drawn[k]!.at ?? undefined);
        }
      }
      this.readRounds++;
      const read = await Promise.all(drawn.flatMap((d) => [be.read(d.ids), be.read(d.logp)]));
      await this.yieldToHost();
      // The one-step loop's bookkeeping, step by step: its stops, and how many draws it would have made.
      const last = new Array<number>(B).fill(-1); // the step of each row's final draw in this window
      let draws = 0;
      for (let k = 0; k < W && live.some(Boolean); k++, draws++) {
        const at = drawn[k]!.at, ids = read[2 * k] as Int32Array, logp = read[2 * k + 1] as Float32Array;
        for (let b = 0; b < B; b++) {
          if (!live[b]) continue;
          const g = out[b]!, id = ids[at ? at[b]! : b]!;
          g.ids.push(id);
          g.logprobs.push(logp[at ? at[b]! : b]!);
          last[b] = k;
          if (opts.stopIds.includes(id) || opts.stopWhen?.(b, g.ids)) (g.finish = 'stop'), (live[b] = false);
          else if (g.ids.length >= budget(b)) (g.finish = 'length'), (live[b] = false);
          else if (len0[b]! + k + 1 >= S) (g.finish = 'context'), (live[b] = false);
        }
      }
      if (!greedy) for (let b = 0; b < B; b++) this.counters[b] = counters0[b]! + draws;
      // Tokens of this window in the cache: a row's draws up to its last, except a last draw at step W − 1.
      for (let b = 0; b < B; b++) if (last[b]! >= 0) this.len[b] = len0[b]! + Math.min(last[b]! + 1, W - 1);
      const pending = last.map((k) => k === W - 1);
      const lastDraw = drawn[W - 1]!;
      for (const d of drawn) if (d !== lastDraw) be.free(d.ids), be.free(d.logp);
      if (live.some(Boolean)) {
        // The window's last draws enter the cache (rows that just stopped too, as in the one-step loop).
        const at = Int32Array.from(this.len, (l, b) => (pending[b] ? l : S));
        logits = this.forwardRows(lastDraw.ids, at, at, 1, null, rowsOf, lastDraw.at ?? undefined);
        for (let b = 0; b < B; b++) if (pending[b]) this.len[b]!++;
      } else if (pending.some(Boolean)) {
        const ids = read[2 * (W - 1)] as Int32Array;
        be.free(this.append(pending.map((p, b) => (p ? [ids[lastDraw.at ? lastDraw.at[b]! : b]!] : []))));
      }
      be.free(lastDraw.ids), be.free(lastDraw.logp);
    }
    if (logits) be.free(logits);
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
