// `webswe bench dist`: a shared run under load on loopback. A real nats-server (local-server.node.ts), a
// learner (nano, random init, node sandboxes) playing DAPO generation rounds through SharedRollouts for a
// bounded time, and N simulated contributors, each its own NATS connection and user. Honest ones answer
// an item with its honest result (played once per item and version here, then shared, so that the bench
// measures the learner and the engine rather than N copies of the same episodes); hostile ones, a share of
// them, each answer with one kind of forgery: a claimed reward of 1, a forged log-prob, a stale version,
// an oversized payload, malformed JSON, an episode played with another seed, a replay of an earlier
// result, or a publish on another contributor's subject (which the server refuses: counted here, since
// the learner never sees it). Reported: results accepted per second, each rejection reason's count, the
// learner's round time against the same round played by the learner alone, and the headline, checked
// per accepted group: poisoned = accepted groups whose trajectories differ from the honest play of their
// item (0 means no rejected or forged token reached a batch). And the balance sharing turns on, per
// episode and measured apart (nothing else running): what playing costs a contributor (generation, the
// sandbox with its grading) against what verifying it costs the learner (the sandbox replay with its
// grading, the forward pass that recomputes the log-probs, the sampler and log-prob checks); honest
// contributors here replay cached results (cost ≈ 0), so the round time shows what the learner can absorb.
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Trajectory } from '../agent/trajectory.ts';
import { RunBus } from '../share/bus.ts';
import { auditDraw, SharedRollouts, workItemOf } from '../share/learner.ts';
import { startLocalServer } from '../share/local-server.node.ts';
import { playItem } from '../share/play.ts';
import { verifyResult } from '../share/verify.ts';
import { parseWorkItem, REJECT_REASONS, type ResultMessage, type WorkItem } from '../share/protocol.ts';
import { inboxPrefix } from '../share/server-config.ts';
import { utf8Encode } from '../model/dtypes.ts';
import { toHfConfig } from '../model/config.ts';
import type { Backend } from '../ops/backend.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { nodeThreads, wasmBackendNode } from '../ops/wasm/threads.node.ts';
import { modelPreset } from '../model/presets.ts';
import { loraField } from '../model/lora.ts';
import { modelShape, randomShapeModel, SHAPE_NAMES } from '../model/shapes.ts';
import { collect, seedFor } from '../rl/collect.ts';
import { ModelPolicy } from '../rl/model-policy.ts';
import { flattenConfig, resolveConfig } from '../rl/config.ts';
import { rolloutBatch, type RoundRequest } from '../rl/phases.ts';
import { openRunPolicy, phaseContext, tokenizerCorpus } from '../rl/session.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import type { Task } from '../tasks/schema.ts';

export const HOSTILE_KINDS = ['reward', 'logprob', 'stale', 'oversized', 'malformed', 'other_seed', 'replay', 'other_subject'] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface DistBenchOptions {
  tasks: readonly Task[];
  contributors: number;
  /** Share of the contributors that are hostile (their kinds in turn). */
  hostile: number;
  /** Shared generation rounds (each tasksPerRound groups of new work). */
  rounds: number;
  tasksPerRound: number;
  groupSize: number;
  seed: number;
  /** The model shape the learner plays and verifies with, random weights: a from-scratch preset (default
   *  scratch-30k) or a pretrained shape (model/shapes.ts: LoRA rank 16, a BPE filled up to its vocabulary). */
  model?: string;
  /** The learner's backend: fast-cpu (default) or wasm (SIMD, this machine's threads). */
  backend?: 'fast-cpu' | 'wasm';
  /** dist.auditShare: the share of results whose forward-pass checks run (default 1: all). */
  audit?: number;
  onRound?(r: { round: number; seconds: number; accepted: number }): void;
  /** Each measured step as it starts (the play of each item, its verification, the learner alone, …). */
  onStep?(what: string): void;
}

/** Milliseconds per episode, by part. */
export interface PlayCost {
  total_ms: number;
  generation_ms: number;
  sandbox_ms: number;
}
export interface VerifyCost {
  total_ms: number;
  replay_ms: number;
  forward_ms: number;
  check_ms: number;
}

export interface DistBenchResult {
  contributors: number;
  hostile: Record<HostileKind, number>;
  rounds: number;
  groups: number;
  episodes: number;
  seconds: number;
  accepted_per_s: number;
  rejected: Record<string, number>;
  refused_by_server: number;
  played_by_learner: number;
  round_s_shared: number;
  round_s_alone: number;
  ratio_alone_over_shared: number;
  poisoned: number;
  hostile_accepted: number;
  model: string;
  backend: string;
  /** Per episode, measured apart: a contributor's play and the learner's verification of it. */
  play_per_episode: PlayCost;
  verify_per_episode: VerifyCost;
  /** verify ÷ play: the share of playing the learner spends to accept an episode. */
  verify_over_play: number;
  audit_share: number;
  /** Under audits: results that reached the audit draw (passed the checks before it), of them the ones audited
   *  (accepted or caught), contributors banned (by kind: null for an honest one), accepted results
   *  dropped on a ban, and per hostile contributor whose forgery only an audit catches (logprob, other_seed)
   *  the forged results that reached a kept group, beside the bound's mean (1 − p)/p. */
  drawn: number;
  audited: number;
  banned: Record<string, number>;
  dropped: number;
  forged_kept_per_evader: number;
  forged_kept_bound: number;
}

export async function benchDist(o: DistBenchOptions): Promise<DistBenchResult> {
  const server = await startLocalServer(o.contributors);
  const conns: NatsConnection[] = [];
  let stop = false;
  let closeBackend = () => {};
  try {
    const shape = o.model ?? 'scratch-30k';
    const pretrained = modelPreset(shape) ? undefined : modelShape(shape);
    if (!modelPreset(shape) && !pretrained) throw new Error(`bench dist: no model shape "${shape}" (${SHAPE_NAMES.join(', ')})`);
    const lora: Record<string, number | string> = pretrained?.lora ? { 'model.loraRank': pretrained.lora.rank, 'model.loraAlpha': pretrained.lora.alpha, 'model.loraTargets': pretrained.lora.targets.join(',') } : {};
    const cfg = resolveConfig({ 'model.preset': shape, ...lora, seed: o.seed, 'agent.maxTurns': 2, 'reward.lengthThreshold': 1, 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'dapo.groupSize': o.groupSize, 'dapo.temperature': 1 });
    const wasm = o.backend === 'wasm' ? await wasmBackendNode(nodeThreads()) : undefined;
    if (wasm) closeBackend = () => wasm.close();
    const be: Backend<Tensor> = wasm ?? new FastCpuBackend();
    const policy = await openRunPolicy(cfg, be, {
      store: { readJson: async () => null, writeJson: async () => {} }, train: o.tasks,
      ...(pretrained ? { pretrained: randomShapeModel(pretrained, tokenizerCorpus(o.tasks), o.seed) } : {}),
    });
    const { model, tokenizer, stopIds, config } = policy;
    const ctx = phaseContext(cfg, be, policy, { sandbox: sandboxFactory('node'), train: o.tasks, test: [] });
    const limits = { maxResultBytes: 4 << 20, logprobTolerance: 2e-3 };
    const learnerNc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    conns.push(learnerNc);
    const auditShare = o.audit ?? 1;
    const auditSecret = utf8Encode(`bench-audit-${o.seed}`);
    const share = new SharedRollouts(new RunBus(learnerNc, 'bench'), { limits, leaseSeconds: 10, maxAttempts: 4, roundSeconds: 120, auditShare, auditSecret });
    await share.start({ config: flattenConfig(cfg), model: { config: toHfConfig(config) as Record<string, unknown>, tokenizerJson: policy.tokenizerFiles.json, tokenizerConfig: policy.tokenizerFiles.config, ...loraField(policy.lora) } });
    const playEnv = { model, tokenizer, stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes };

    // The rounds' work, and each item's honest result (and one played with another seed), played here
    // first, so that the simulated contributors only send (their compute would otherwise share these two
    // cores with the learner's).
    const requests: RoundRequest[] = Array.from({ length: o.rounds }, (_, round) => ({
      label: `dapo/${round}/0`, tasks: Array.from({ length: o.tasksPerRound }, (_, g) => o.tasks[(round * o.tasksPerRound + g) % o.tasks.length]!), groupSize: o.groupSize,
      episodeSeed: (g, k) => seedFor(o.seed, 'bench', round, g, k), policySeed: (g) => seedFor(o.seed, 'bench-policy', round, g),
      version: 0, temperature: 1, maxTurns: cfg.agent.maxTurns, contextTokens: cfg.agent.contextTokens,
    }));
    const itemOf = (req: RoundRequest, g: number): WorkItem => workItemOf('bench', req, g);
    const honest = new Map<string, ResultMessage>(), otherSeed = new Map<string, ResultMessage>();
    const play: PlayCost = { total_ms: 0, generation_ms: 0, sandbox_ms: 0 };
    for (const req of requests) {
      for (const g of req.tasks.keys()) {
        o.onStep?.(`playing ${req.label}/${g}`);
        const p0 = performance.now();
        const r = await playItem(itemOf(req, g), playEnv);
        const wall = performance.now() - p0;
        // The group plays as one cohort: its wall time, less its sandbox and grading time, is generation.
        const sandbox = (r.trajectories as Trajectory[]).reduce((a: number, t) => a + t.timing.sandbox_ms + t.timing.reward_ms, 0);
        play.total_ms += wall, play.sandbox_ms += Math.min(sandbox, wall), play.generation_ms += Math.max(0, wall - sandbox);
        honest.set(`${req.label}/${g}`, r);
      }
    }
    // The learner's verification of each honest result, one at a time (as its gate runs them), audited as the
    // learner's draw says for a contributor's result (all of them at audit share 1).
    const verify: VerifyCost = { total_ms: 0, replay_ms: 0, forward_ms: 0, check_ms: 0 };
    for (const req of requests) {
      for (const g of req.tasks.keys()) {
        o.onStep?.(`verifying ${req.label}/${g}`);
        const v0 = performance.now();
        const audit = await auditDraw(auditSecret, 'c1', `${req.label}/${g}`, 0, auditShare);
        const { stats } = await verifyResult(itemOf(req, g), req.tasks[g]!, honest.get(`${req.label}/${g}`)!, { ...playEnv, limits, audit });
        verify.total_ms += performance.now() - v0;
        verify.replay_ms += stats.timing.replay_ms, verify.forward_ms += stats.timing.forward_ms, verify.check_ms += stats.timing.check_ms;
      }
    }
    const perEpisode = <C extends object>(c: C): C => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, (v as number) / (o.rounds * o.tasksPerRound * o.groupSize)])) as C;
    // The peer: the same rounds on the single-machine path (dapoRound without share: batches of whole
    // groups in lockstep, sandbox work overlapping generation as the run config says).
    o.onStep?.('the learner playing the rounds alone');
    const p0 = performance.now();
    for (const req of requests) {
      const specs = req.tasks.flatMap((task, g) => Array.from({ length: o.groupSize }, (_, k) => ({ task, seed: req.episodeSeed(g, k) })));
      await collect(specs, (b) => new ModelPolicy(model, tokenizer, { contextTokens: ctx.episodes.contextTokens + ctx.episodes.actionTokens, stopIds, sampling: { temperature: 1 }, seed: seedFor(o.seed, 'alone', b) }), ctx.sandbox, ctx.episodes, rolloutBatch(cfg, o.groupSize));
    }
    const roundAlone = (performance.now() - p0) / 1000 / o.rounds;
    const kindOf = (i: number): HostileKind | null => (i < Math.round(o.hostile * o.contributors) ? HOSTILE_KINDS[i % HOSTILE_KINDS.length]! : null);
    // Another seed's play of each item, for the contributors that send it (none: not played).
    const sendsOtherSeed = Array.from({ length: o.contributors }, (_, i) => kindOf(i)).includes('other_seed');
    if (sendsOtherSeed) o.onStep?.('playing each item with another seed (what an other_seed forger sends)');
    if (sendsOtherSeed) for (const req of requests) for (const g of req.tasks.keys()) otherSeed.set(`${req.label}/${g}`, await playItem({ ...itemOf(req, g), policy_seed: req.policySeed(g) + 1 }, playEnv));
    const honestOf = async (item: WorkItem) => ({ ...honest.get(item.item)!, attempt: item.attempt });
    const hostile = Object.fromEntries(HOSTILE_KINDS.map((k) => [k, 0])) as Record<HostileKind, number>;
    let refused = 0;
    const sent: ResultMessage[] = [];
    const contributor = async (i: number) => {
      const u = server.contributors[i]!;
      const nc = await connect({ servers: server.url, user: u.user, pass: u.password, inboxPrefix: inboxPrefix(u.user) });
      conns.push(nc);
      const bus = new RunBus(nc, 'bench');
      const kind = kindOf(i);
      if (kind) hostile[kind]++;
      while (!stop) {
        const w = await bus.nextWork(1000).catch(() => null);
        if (!w) continue;
        const item = parseWorkItem(w.data);
        const h = await honestOf(item);
        let payload: Uint8Array;
        const json = (m: unknown) => utf8Encode(JSON.stringify(m));
        const copy = () => JSON.parse(JSON.stringify(h)) as Omit<ResultMessage, 'trajectories'> & { trajectories: Trajectory[] };
        if (kind === 'reward') {
          const m = copy();
          m.trajectories.forEach((t) => (t.reward = { ...t.reward, tests: 1, total: 1 }));
          payload = json(m);
        } else if (kind === 'logprob') {
          const m = copy();
          const t = m.trajectories[0]!;
          const at = t.tokens!.mask.indexOf(1);
          t.tokens!.logprobs[at] = (t.tokens!.logprobs[at] ?? 0) - 0.5;
          payload = json(m);
        } else if (kind === 'stale') payload = json({ ...h, policy_version: item.policy_version + 1 });
        else if (kind === 'oversized') payload = new Uint8Array(limits.maxResultBytes + 1024).fill(32);
        else if (kind === 'malformed') payload = utf8Encode('{"format":"webswe-result","trajectories":[');
        else if (kind === 'other_seed') payload = json({ ...otherSeed.get(item.item)!, attempt: item.attempt });
        else if (kind === 'replay') {
          // An earlier honest result sent again on this contributor's subject (the first one any contributor
          // sent: verified already, or still in line, where the original, arrived first, wins).
          if (!sent.length) {
            w.nak();
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          payload = json(sent[0]);
        }
        else payload = json(h);
        try {
          await bus.publishResult(kind === 'other_subject' ? server.contributors[(i + 1) % o.contributors]!.user : u.user, payload);
        } catch {
          refused++; // the server's permissions: publishing on another's subject
          w.nak(); // give the item back at once
          continue;
        }
        if (!kind) sent.push(h);
        w.ack();
      }
    };
    const workers = Array.from({ length: o.contributors }, (_, i) => contributor(i).catch(() => undefined));

    // The shared rounds: each is new work (its label), at the model's version.
    const t0 = performance.now();
    const roundTimes: number[] = [];
    const accepted: { label: string; ts: Trajectory[]; req: RoundRequest }[] = [];
    let round = 0;
    for (const req of requests) {
      o.onStep?.(`shared round ${req.label}`);
      const r0 = performance.now();
      const ts = await share.play(ctx, req);
      roundTimes.push((performance.now() - r0) / 1000);
      accepted.push({ label: req.label, ts, req });
      o.onRound?.({ round, seconds: roundTimes.at(-1)!, accepted: ts.length / o.groupSize });
      round++;
    }
    const seconds = (performance.now() - t0) / 1000;
    const m = share.metrics();
    stop = true;
    await Promise.all(workers);

    // The headline, checked: every group the learner kept equals the honest play of its item (its tokens, its
    // reward and its behaviour log-probs).
    let poisoned = 0;
    for (const a of accepted) {
      for (const g of a.req.tasks.keys()) {
        const h = honest.get(`${a.label}/${g}`)!.trajectories as Trajectory[];
        const got = a.ts.slice(g * o.groupSize, (g + 1) * o.groupSize);
        const same = got.length === h.length && got.every((t, k) => JSON.stringify(t.tokens!.ids) === JSON.stringify(h[k]!.tokens!.ids) && JSON.stringify(t.tokens!.logprobs) === JSON.stringify(h[k]!.tokens!.logprobs) && t.reward.total === h[k]!.reward.total);
        if (!same) poisoned++;
      }
    }
    const kindOfUser = (user: string) => kindOf(Number(user.slice(1)) - 1);
    const banned: Record<string, number> = {};
    for (const [user, t] of share.tally) if (t.banned) banned[kindOfUser(user) ?? 'honest'] = (banned[kindOfUser(user) ?? 'honest'] ?? 0) + 1;
    const evaders = Array.from({ length: o.contributors }, (_, i) => kindOf(i)).filter((k) => k === 'logprob' || k === 'other_seed').length;
    const groups = accepted.reduce((a, x) => a + x.ts.length / o.groupSize, 0);
    const rejected = Object.fromEntries(REJECT_REASONS.map((r) => [r, m[`dist_rejected_${r}`] ?? 0]).filter(([, n]) => (n as number) > 0));
    const hostileAccepted = [...share.tally].filter(([user]) => kindOf(Number(user.slice(1)) - 1) !== null).reduce((a, [, t]) => a + t.accepted, 0);
    const roundShared = roundTimes.reduce((a, b) => a + b, 0) / Math.max(1, roundTimes.length);
    return {
      contributors: o.contributors, hostile, rounds: round, groups, episodes: groups * o.groupSize, seconds,
      accepted_per_s: (m.dist_accepted ?? 0) / seconds, rejected, refused_by_server: refused, played_by_learner: m.dist_played_by_learner ?? 0,
      round_s_shared: roundShared, round_s_alone: roundAlone, ratio_alone_over_shared: roundAlone / roundShared, poisoned, hostile_accepted: hostileAccepted,
      model: shape, backend: o.backend ?? 'fast-cpu', play_per_episode: perEpisode(play), verify_per_episode: perEpisode(verify), verify_over_play: verify.total_ms / play.total_ms,
      audit_share: auditShare, drawn: m.dist_drawn ?? m.dist_accepted ?? 0, audited: m.dist_audited ?? m.dist_accepted ?? 0, banned, dropped: m.dist_dropped ?? 0,
      forged_kept_per_evader: evaders ? poisoned / evaders : 0, forged_kept_bound: (1 - auditShare) / auditShare,
    };
  } finally {
    stop = true;
    for (const c of conns) await c.close().catch(() => undefined);
    await server.stop();
    closeBackend();
  }
}
