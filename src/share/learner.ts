// The learner as coordinator of a shared run (`webswe train --share`): it publishes the run's manifest
// and each policy version's weights, turns a DAPO generation round into work items (the learner picks
// every task, seed and version; a contributor takes whatever comes next), and admits a group into the
// batch only after verify.ts has checked it. Idempotent by item id: the first verified result of an item
// wins, later ones are duplicates. A rejected item is issued again (attempt + 1) up to maxAttempts, then
// the learner plays it itself; so does it with whatever is still missing when a round's time is up, so a
// run never waits forever on contributors that vanished or lie. Counts per reason and per contributor.
import { oneAtATime } from '../agent/episode.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import { utf8Decode } from '../model/dtypes.ts';
import { downloadParams } from '../model/params.ts';
import { hfFolderFiles } from '../model/weights.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { PhaseContext, RemoteRollouts, RoundRequest } from '../rl/phases.ts';
import type { Task } from '../tasks/schema.ts';
import type { IncomingResult, RunBus } from './bus.ts';
import { playItem } from './play.ts';
import { parseResultMessage, ResultError, taskForWork, type RejectReason, type ResultLimits, type RunManifest, type WorkItem } from './protocol.ts';
import { verifyResult } from './verify.ts';

export interface SharedRunOptions {
  limits: ResultLimits;
  /** Seconds a contributor holds a work item before it goes to another (JetStream ack_wait). */
  leaseSeconds: number;
  /** Issues of one item (first + after rejections) before the learner plays it itself. */
  maxAttempts: number;
  /** Seconds a round waits for results before the learner plays what is missing. */
  roundSeconds: number;
}

export interface ContributorTally {
  accepted: number;
  rejected: Partial<Record<RejectReason, number>>;
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

export class SharedRollouts implements RemoteRollouts {
  readonly tally = new Map<string, ContributorTally>();
  /** Since the last metrics() call. */
  private window = { accepted: 0, rejected: {} as Partial<Record<RejectReason, number>>, playedByLearner: 0, maxLogprobError: 0 };
  private readonly published = new Set<number>();
  private readonly done = new Set<string>();
  private results?: Awaited<ReturnType<RunBus['results']>>;

  constructor(
    readonly bus: RunBus,
    readonly opts: SharedRunOptions,
  ) {}

  /** Streams, consumers, the manifest: before the first round (a restarted learner finds them there). */
  async start(manifest: Omit<RunManifest, 'format' | 'version' | 'run' | 'limits'>): Promise<void> {
    // Each bus operation rides out a server outage (a learner restarted while the server restarts).
    await this.bus.setUp({ leaseSeconds: this.opts.leaseSeconds, maxDeliver: -1 });
    await this.bus.putManifest({ format: 'webswe-run-manifest', version: 1, run: this.bus.run, limits: this.opts.limits, ...manifest });
    // A restarted learner continues its contributors' counts from the last round's tallies.
    for (const [user, t] of Object.entries((await this.bus.getTallies()) ?? {})) if (!this.tally.has(user)) this.tally.set(user, { accepted: t.accepted, rejected: { ...t.rejected } });
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
    this.window = { accepted: 0, rejected: {}, playedByLearner: 0, maxLogprobError: 0 };
    const rejected = Object.values(w.rejected).reduce((a, b) => a + (b ?? 0), 0);
    return {
      dist_accepted: w.accepted,
      dist_rejected: rejected,
      ...Object.fromEntries(Object.entries(w.rejected).map(([r, n]) => [`dist_rejected_${r}`, n ?? 0])),
      dist_played_by_learner: w.playedByLearner,
      dist_max_logprob_error: w.maxLogprobError,
      dist_contributors: this.tally.size,
    };
  }

  /** The weights of `version` in the object store (once per version). */
  private async publishWeights<T extends Tensor>(ctx: PhaseContext<T>, version: number): Promise<void> {
    if (this.published.has(version)) return;
    if (ctx.model.lora) throw new Error('sharing a LoRA run is not supported yet: contributors would need the merged weights of every version');
    const params = await downloadParams(ctx.be, ctx.model.params);
    await this.bus.putWeights(version, hfFolderFiles({ config: ctx.model.c, tensors: params }).get('model.safetensors')!);
    this.published.add(version);
  }

  /** Play a round through contributors; the trajectories in group order (G per task), every one verified
   *  (or played by the learner). The model's weights must be `req.version`'s while this runs. */
  async play<T extends Tensor>(ctx: PhaseContext<T>, req: RoundRequest): Promise<Trajectory[]> {
    if (!this.results) throw new Error('SharedRollouts.play before start()');
    await this.publishWeights(ctx, req.version);
    const pending = new Map<string, Pending>();
    const out: Trajectory[][] = new Array(req.tasks.length);
    const local: Pending[] = [];
    for (const [g, task] of req.tasks.entries()) {
      const item = workItemOf(this.bus.run, req, g);
      pending.set(item.item, { item, task, g, issued: performance.now() });
      await this.bus.publishWork(item);
    }
    const verifier = { model: ctx.model, tokenizer: ctx.tokenizer, stopIds: ctx.stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes, limits: this.opts.limits };
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
    const handle = async (r: IncomingResult): Promise<void> => {
      let id: string | undefined;
      let turn: Promise<void> | undefined;
      let release = () => {};
      try {
        const msg = parseResultMessage(r.data, this.opts.limits);
        if (!pending.has(msg.item)) throw new ResultError(this.done.has(`${msg.run}/${msg.item}`) ? 'duplicate' : msg.item.startsWith(`${req.label}/`) ? 'unknown_item' : 'stale', `item ${msg.item} is not awaited`);
        id = msg.item;
        const before = verifying.get(id);
        turn = new Promise<void>((res) => (release = res));
        verifying.set(id, turn);
        await before;
        const p = pending.get(msg.item);
        if (!p) throw new ResultError('duplicate', `item ${msg.item} was settled by a result that arrived before this one`);
        const v = await verifyResult(p.item, p.task, msg, { ...verifier, gate });
        out[p.g] = v.trajectories;
        pending.delete(msg.item);
        this.done.add(`${msg.run}/${msg.item}`);
        this.window.maxLogprobError = Math.max(this.window.maxLogprobError, v.stats.maxLogprobError);
        this.count(r.user, 'accepted');
      } catch (e) {
        if (!(e instanceof ResultError)) throw e;
        this.count(r.user, e.reason);
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
      const r = await this.results.next(Math.min(left, 2000));
      if (!r) continue;
      const t: Promise<void> = handle(r).catch((e: unknown) => void (failure ??= e)).finally(() => inflight.delete(t));
      inflight.add(t);
    }
    await Promise.all(inflight);
    if (failure !== undefined) throw failure;
    if (ctx.shouldStop()) return [];
    // What contributors did not deliver (time is up, or every attempt was rejected): the learner plays it.
    for (const p of [...local, ...pending.values()]) {
      const res = await playItem({ ...p.item, task: p.task }, { model: ctx.model, tokenizer: ctx.tokenizer, stopIds: ctx.stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes });
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
