// The learner as coordinator of a shared run (`webswe train --share`): it publishes the run's manifest
// and each policy version's weights, turns a DAPO generation round into work items (the learner picks
// every task, seed and version; a contributor takes whatever comes next), and admits a group into the
// batch only after verify.ts has checked it. Idempotent by item id: the first verified result of an item
// wins, later ones are duplicates. A rejected item is issued again (attempt + 1) up to maxAttempts, then
// the learner plays it itself; so does it with whatever is still missing when a round's time is up, so a
// run never waits forever on contributors that vanished or lie. Counts per reason and per contributor.
// Audits (dist.auditShare p < 1): every result's replay and grading run, the forward pass that checks its sampled
// tokens and behaviour log-probs only on a share p drawn after receipt from a secret of this learner (SHA-256 of
// secret, user, item, attempt), which contributors cannot predict. A contributor caught by an audit is banned: its
// later results are refused, and its unaudited results of the round being collected are dropped and issued again.
// So each forged result is audited with probability p independently of the forger's choices, and the forgeries a
// contributor gets accepted before its first audited one are geometric: (1 − p)/p on average, P(≥ k) = (1 − p)^k.
// (Rounds already trained on are not undone.)
// Overlapping rounds (dist.maxOffPolicy 1): `prefetch` issues a round at the present weights and keeps a copy
// of them; the learner trains meanwhile, and the `play` of that round later verifies its results (and plays
// what is missing) with the copy, the weights the contributors were asked to play.
import { oneAtATime } from '../agent/episode.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import { utf8Decode, utf8Encode } from '../model/dtypes.ts';
import { downloadParams, uploadParams } from '../model/params.ts';
import { Transformer } from '../model/transformer.ts';
import { hfFolderFiles } from '../model/weights.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { PhaseContext, RemoteRollouts, RoundRequest } from '../rl/phases.ts';
import type { Task } from '../tasks/schema.ts';
import type { IncomingResult, RunBus } from './bus.ts';
import { playItem } from './play.ts';
import { parseResultMessage, ResultError, taskForWork, type RejectReason, type ResultLimits, type RunManifest, type WorkItem } from './protocol.ts';
import { verifyResult } from './verify.ts';
import { adapterBytes, freeModel, modelOfVersion, sha256Hex, splitLora, withAdapters } from './version-weights.ts';

export interface SharedRunOptions {
  limits: ResultLimits;
  /** Seconds a contributor holds a work item before it goes to another (JetStream ack_wait). */
  leaseSeconds: number;
  /** Issues of one item (first + after rejections) before the learner plays it itself. */
  maxAttempts: number;
  /** Seconds a round waits for results before the learner plays what is missing. */
  roundSeconds: number;
  /** Share of results audited (checks 3 and 4 of verify.ts); default 1: every result. */
  auditShare?: number;
  /** The audit draws' secret (default: random, this learner's own). */
  auditSecret?: Uint8Array;
  /** A contributor was caught by an audit (the CLI says how to revoke its account). */
  onBan?(user: string, why: string): void;
}

export interface ContributorTally {
  accepted: number;
  rejected: Partial<Record<RejectReason, number>>;
  /** Caught by an audit: every later result refused. */
  banned?: boolean;
}

/** Whether the result of (user, item, attempt) is audited: SHA-256(secret ‖ user ‖ item ‖ attempt) read as u ∈ [0, 1), u < p. */
export async function auditDraw(secret: Uint8Array, user: string, item: string, attempt: number, p: number): Promise<boolean> {
  if (p >= 1) return true;
  const text = utf8Encode(`\u0000${user}\u0000${item}\u0000${attempt}`);
  const bytes = new Uint8Array(secret.length + text.length);
  bytes.set(secret), bytes.set(text, secret.length);
  const h = new DataView(await crypto.subtle.digest('SHA-256', bytes));
  return h.getUint32(0) / 2 ** 32 < p;
}

/** Results verified at once (their sandbox replays overlap; forward passes take turns). */
const VERIFY_AT_ONCE = 4;

interface Pending {
  item: WorkItem;
  task: Task;
  g: number;
  /** When the current attempt was issued (performance.now()). */
  issued: number;
}

/** A round issued ahead of its play: its items, and the weights of its version (a copy the update leaves alone). */
interface Prefetched<T extends Tensor> {
  version: number;
  pending: Map<string, Pending>;
  model: Transformer<T>;
}

export class SharedRollouts implements RemoteRollouts {
  readonly tally = new Map<string, ContributorTally>();
  /** Since the last metrics() call. */
  private window = { accepted: 0, rejected: {} as Partial<Record<RejectReason, number>>, playedByLearner: 0, maxLogprobError: 0, drawn: 0, audited: 0, banned: 0, dropped: 0 };
  private readonly auditShare: number;
  private readonly auditSecret: Uint8Array;
  private readonly published = new Set<number>();
  /** A LoRA run: the SHA-256 of the base this learner process published (once). */
  private baseSha256: string | undefined;
  private readonly done = new Set<string>();
  private readonly prefetched = new Map<string, Prefetched<Tensor>>();
  /** Seconds play() spent waiting for results with nothing to verify (since the last timing() call). */
  private waitS = 0;
  private results?: Awaited<ReturnType<RunBus['results']>>;

  constructor(
    readonly bus: RunBus,
    readonly opts: SharedRunOptions,
  ) {
    this.auditShare = opts.auditShare ?? 1;
    this.auditSecret = opts.auditSecret ?? crypto.getRandomValues(new Uint8Array(32));
  }

  /** Streams, consumers, the manifest: before the first round (a restarted learner finds them there). */
  async start(manifest: Omit<RunManifest, 'format' | 'version' | 'run' | 'limits'>): Promise<void> {
    // Each bus operation rides out a server outage (a learner restarted while the server restarts).
    await this.bus.setUp({ leaseSeconds: this.opts.leaseSeconds, maxDeliver: -1 });
    await this.bus.putManifest({ format: 'webswe-run-manifest', version: 1, run: this.bus.run, limits: this.opts.limits, ...manifest });
    // A restarted learner continues its contributors' counts from the last round's tallies.
    for (const [user, t] of Object.entries((await this.bus.getTallies()) ?? {})) if (!this.tally.has(user)) this.tally.set(user, { accepted: t.accepted, rejected: { ...t.rejected }, ...((t as ContributorTally).banned ? { banned: true } : {}) });
    this.results = await this.bus.results();
  }

  private count(user: string, reason: RejectReason | 'accepted'): void {
    const t = this.tally.get(user) ?? { accepted: 0, rejected: {} };
    this.tally.set(user, t);
    if (reason === 'accepted') t.accepted++, this.window.accepted++;
    else (t.rejected[reason] = (t.rejected[reason] ?? 0) + 1), (this.window.rejected[reason] = (this.window.rejected[reason] ?? 0) + 1);
  }

  /** Counts since the last call, as metric values (dist_*). */
  metrics(): Record<string, number> {
    const w = this.window;
    this.window = { accepted: 0, rejected: {}, playedByLearner: 0, maxLogprobError: 0, drawn: 0, audited: 0, banned: 0, dropped: 0 };
    const rejected = Object.values(w.rejected).reduce((a, b) => a + (b ?? 0), 0);
    return {
      dist_accepted: w.accepted,
      dist_rejected: rejected,
      ...Object.fromEntries(Object.entries(w.rejected).map(([r, n]) => [`dist_rejected_${r}`, n ?? 0])),
      dist_played_by_learner: w.playedByLearner,
      dist_max_logprob_error: w.maxLogprobError,
      dist_contributors: this.tally.size,
      ...(this.auditShare < 1 ? { dist_drawn: w.drawn, dist_audited: w.audited, dist_banned: w.banned, dist_dropped: w.dropped } : {}),
    };
  }

  /** The learner's idle time since the last call: waiting for results with none to verify (timing values). */
  timing(): Record<string, number> {
    const w = this.waitS;
    this.waitS = 0;
    return { dist_wait_s: w };
  }

  /** The weights of `version` in the object store (once per version); the weights read, when they had to be. */
  private async publishWeights<T extends Tensor>(ctx: PhaseContext<T>, version: number): Promise<Map<string, Float32Array> | undefined> {
    if (this.published.has(version)) return undefined;
    const { c, lora } = ctx.model;
    if (lora) {
      // The frozen base once (this learner process), then each version's adapters alone.
      const parts = splitLora(ctx.model.params, c, lora);
      if (this.baseSha256 === undefined) {
        const bytes = hfFolderFiles({ config: c, tensors: await downloadParams(ctx.be, parts.base) }).get('model.safetensors')!;
        await this.bus.putBaseWeights(bytes);
        this.baseSha256 = await sha256Hex(bytes);
      }
      const adapters = await downloadParams(ctx.be, parts.adapters);
      await this.bus.putAdapters(version, adapterBytes(c, lora, adapters, this.baseSha256));
      this.published.add(version);
      return adapters;
    }
    const params = await downloadParams(ctx.be, ctx.model.params);
    await this.bus.putWeights(version, hfFolderFiles({ config: c, tensors: params }).get('model.safetensors')!);
    this.published.add(version);
    return params;
  }

  /** The weights of a version published by this learner as a model: a LoRA run's adapters on the learner's base. */
  private async versionModel<T extends Tensor>(ctx: PhaseContext<T>, version: number): Promise<Transformer<T>> {
    const { c, lora } = ctx.model;
    if (lora) return modelOfVersion(ctx.be, c, await this.bus.getAdapters(version), version, { lora, params: ctx.model.params });
    return modelOfVersion(ctx.be, c, await this.bus.getWeights(version), version);
  }

  /** A round's items on the work queue (attempt 0), in group order. */
  private async issue(req: RoundRequest): Promise<Map<string, Pending>> {
    const pending = new Map<string, Pending>();
    for (const [g, task] of req.tasks.entries()) {
      const item = workItemOf(this.bus.run, req, g);
      pending.set(item.item, { item, task, g, issued: performance.now() });
      await this.bus.publishWork(item);
    }
    return pending;
  }

  /** Free the weight copies of rounds issued but not played (a run stopped between iterations). */
  release<T extends Tensor>(ctx: PhaseContext<T>): void {
    for (const ahead of this.prefetched.values()) freeModel(ctx.be, ahead.model as Transformer<T>, ctx.model.params);
    this.prefetched.clear();
  }

  /** Issue a round at the model's present weights (`req.version`) and return: contributors play it while the
   *  learner trains. The weights are copied (one more set of parameters on the backend until the round is
   *  played), so that its results are verified against what they were played with. */
  async prefetch<T extends Tensor>(ctx: PhaseContext<T>, req: RoundRequest): Promise<void> {
    if (this.prefetched.has(req.label)) throw new Error(`round ${req.label} was issued already`);
    const { c, lora } = ctx.model;
    let model: Transformer<T>;
    if (lora) {
      // A LoRA copy is the adapters alone, on the learner's own (frozen) base tensors.
      const adapters = (await this.publishWeights(ctx, req.version)) ?? (await downloadParams(ctx.be, splitLora(ctx.model.params, c, lora).adapters));
      model = withAdapters(ctx.be, c, { lora, params: ctx.model.params }, adapters);
    } else {
      const params = (await this.publishWeights(ctx, req.version)) ?? (await downloadParams(ctx.be, ctx.model.params));
      model = new Transformer(ctx.be, c, uploadParams(ctx.be, c, params));
    }
    this.prefetched.set(req.label, { version: req.version, pending: await this.issue(req), model: model as Transformer<Tensor> });
  }

  /** Play a round through contributors; the trajectories in group order (G per task), every one verified
   *  (or played by the learner). The model's weights must be `req.version`'s while this runs. */
  async play<T extends Tensor>(ctx: PhaseContext<T>, req: RoundRequest): Promise<Trajectory[]> {
    if (!this.results) throw new Error('SharedRollouts.play before start()');
    const ahead = this.prefetched.get(req.label) as Prefetched<T> | undefined;
    this.prefetched.delete(req.label);
    if (!ahead && !req.behind) {
      await this.publishWeights(ctx, req.version);
      return this.collect(ctx, req, await this.issue(req), ctx.model);
    }
    // A round at an earlier version than the model's: issued ahead (its copy of the weights kept then), or, in a
    // resumed run, issued ahead before the stop (the weights read back from the object store, where this learner
    // put them, and its items issued again under the same ids: a result for either copy counts).
    const model = ahead?.model ?? (await this.versionModel(ctx, req.version));
    try {
      if (ahead && ahead.version !== req.version) throw new Error(`round ${req.label} was issued at policy version ${ahead.version}, asked for at ${req.version}`);
      // The lease of an item issued ahead counts from now: results that arrived while the learner trained are read
      // before any reissue.
      const now = performance.now();
      for (const p of ahead?.pending.values() ?? []) p.issued = Math.max(p.issued, now);
      return await this.collect(ctx, req, ahead?.pending ?? (await this.issue(req)), model);
    } finally {
      freeModel(ctx.be, model, ctx.model.params);
    }
  }

  /** Verify a round's results as they come (against `model`, the weights of req.version), reissue what was
   *  rejected or lost, and play what contributors did not deliver. */
  private async collect<T extends Tensor>(ctx: PhaseContext<T>, req: RoundRequest, pending: Map<string, Pending>, model: Transformer<T>): Promise<Trajectory[]> {
    const results = this.results!;
    const out: Trajectory[][] = new Array(req.tasks.length);
    const local: Pending[] = [];
    const verifier = { model, tokenizer: ctx.tokenizer, stopIds: ctx.stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes, limits: this.opts.limits };
    const deadline = performance.now() + this.opts.roundSeconds * 1000;
    /** Issue an item again (attempt + 1), or give up on contributors for it. */
    const reissue = async (p: Pending) => {
      if (p.item.attempt + 1 < this.opts.maxAttempts) {
        p.item = { ...p.item, attempt: p.item.attempt + 1 };
        p.issued = performance.now();
        await this.bus.publishWork(p.item);
      } else {
        pending.delete(p.item.item);
        local.push(p);
      }
    };
    // Results are verified a few at a time: their replays' sandbox work overlaps, while the forward passes
    // take turns at the backend (one gate). An item being verified is not reissued. Results for one item
    // are verified one at a time in the order they arrived, so the first to arrive that passes wins and a
    // later copy (another contributor replaying it on its own subject) is a duplicate, however the
    // verifications' timing falls: `verifying` maps an item to the last verification in its line.
    const verifying = new Map<string, Promise<void>>();
    const gate = oneAtATime();
    // Results accepted without an audit in this round, by item: a ban drops its contributor's.
    const unaudited = new Map<string, { user: string; p: Pending }>();
    const ban = async (user: string, why: string) => {
      const t = this.tally.get(user) ?? { accepted: 0, rejected: {} };
      if (t.banned) return;
      this.tally.set(user, { ...t, banned: true });
      this.window.banned++;
      this.opts.onBan?.(user, why);
      await this.bus.putTallies(Object.fromEntries(this.tally)); // kept at once: a learner stopped now still has it
      for (const [item, a] of [...unaudited]) {
        if (a.user !== user) continue;
        unaudited.delete(item);
        delete out[a.p.g];
        this.done.delete(`${this.bus.run}/${item}`);
        pending.set(item, a.p);
        this.window.dropped++;
        await reissue(a.p);
      }
    };
    const handle = async (r: IncomingResult): Promise<void> => {
      let id: string | undefined;
      let turn: Promise<void> | undefined;
      let release = () => {};
      let audited = true;
      try {
        const msg = parseResultMessage(r.data, this.opts.limits);
        if (this.tally.get(r.user)?.banned) throw new ResultError('banned', `${r.user} was caught by an audit`);
        if (!pending.has(msg.item)) throw new ResultError(this.done.has(`${msg.run}/${msg.item}`) ? 'duplicate' : msg.item.startsWith(`${req.label}/`) ? 'unknown_item' : 'stale', `item ${msg.item} is not awaited`);
        id = msg.item;
        const before = verifying.get(id);
        turn = new Promise<void>((res) => (release = res));
        verifying.set(id, turn);
        await before;
        const p = pending.get(msg.item);
        if (!p) throw new ResultError('duplicate', `item ${msg.item} was settled by a result that arrived before this one`);
        audited = await auditDraw(this.auditSecret, r.user, msg.item, msg.attempt, this.auditShare);
        this.window.drawn++;
        const v = await verifyResult(p.item, p.task, msg, { ...verifier, gate, audit: audited });
        // A ban while this one was verified (another of its results failed an audit): refused as well.
        if (this.tally.get(r.user)?.banned) throw new ResultError('banned', `${r.user} was caught by an audit`);
        out[p.g] = v.trajectories;
        pending.delete(msg.item);
        this.done.add(`${msg.run}/${msg.item}`);
        if (audited) this.window.audited++;
        else unaudited.set(msg.item, { user: r.user, p });
        this.window.maxLogprobError = Math.max(this.window.maxLogprobError, v.stats.maxLogprobError);
        this.count(r.user, 'accepted');
      } catch (e) {
        if (!(e instanceof ResultError)) throw e;
        this.count(r.user, e.reason);
        if (this.auditShare < 1 && audited && (e.reason === 'not_sampled' || e.reason === 'logprob_mismatch')) {
          this.window.audited++;
          await ban(r.user, e.message);
        }
        // A verified rejection of an awaited item: issue it again (unless a later result for it is already
        // in line), or give up on contributors for it.
        const p = pending.get(id ?? tryItemId(r.data) ?? '');
        if (p && e.reason !== 'duplicate' && (!id || verifying.get(id) === turn)) await reissue(p);
      } finally {
        release();
        if (id && verifying.get(id) === turn) verifying.delete(id);
        r.ack();
      }
    };
    const inflight = new Set<Promise<void>>();
    let failure: unknown;
    while ((pending.size > verifying.size || inflight.size) && !ctx.shouldStop() && failure === undefined) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      if (inflight.size >= VERIFY_AT_ONCE || pending.size === verifying.size) {
        await Promise.race(inflight);
        continue;
      }
      // An item with no verified result a lease after its issue: its contributor vanished, or acked it and
      // sent something no one can read. Issue it again (a late honest result still counts: first one wins).
      for (const p of [...pending.values()]) if (!verifying.has(p.item.item) && performance.now() - p.issued > this.opts.leaseSeconds * 1000) await reissue(p);
      const w0 = performance.now();
      const r = await results.next(Math.min(left, 2000));
      if (!inflight.size) this.waitS += (performance.now() - w0) / 1000;
      if (!r) continue;
      const t: Promise<void> = handle(r).catch((e: unknown) => void (failure ??= e)).finally(() => inflight.delete(t));
      inflight.add(t);
    }
    await Promise.all(inflight);
    if (failure !== undefined) throw failure;
    if (ctx.shouldStop()) return [];
    // What contributors did not deliver (time is up, or every attempt was rejected): the learner plays it.
    for (const p of [...local, ...pending.values()]) {
      const res = await playItem({ ...p.item, task: p.task }, { model, tokenizer: ctx.tokenizer, stopIds: ctx.stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes });
      out[p.g] = res.trajectories as Trajectory[];
      this.done.add(`${p.item.run}/${p.item.item}`);
      this.window.playedByLearner++;
    }
    await this.bus.putTallies(Object.fromEntries(this.tally));
    return out.flat();
  }
}

/** Group g of a round as a work item (attempt 0; the task without its gold patch). */
export function workItemOf(run: string, req: RoundRequest, g: number): WorkItem {
  return {
    format: 'webswe-work', version: 1, run, item: `${req.label}/${g}`, attempt: 0, policy_version: req.version,
    task: taskForWork(req.tasks[g]!), policy_seed: req.policySeed(g),
    episodes: Array.from({ length: req.groupSize }, (_, k) => ({ seed: req.episodeSeed(g, k) })),
    temperature: req.temperature, max_turns: req.maxTurns, context_tokens: req.contextTokens,
  };
}

/** The item id of a result that failed verification, when it parses that far. */
function tryItemId(data: Uint8Array): string | undefined {
  try {
    const v = JSON.parse(utf8Decode(data)) as { item?: unknown };
    return typeof v.item === 'string' ? v.item : undefined;
  } catch {
    return undefined;
  }
}
