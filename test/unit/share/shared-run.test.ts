// A shared run through a real nats-server (test/helpers/nats.ts): the server's permissions give a
// contributor exactly what contributing needs; a learner (the trainer with `share`) and two Node
// contributors play a nano DAPO iteration end to end, with a hostile third one that claims reward 1 on
// episodes that failed. Its result is rejected (reward_mismatch), the item goes to another, and the run's
// metrics are exactly those of the same run whose learner played every item itself: no rejected token
// reached a batch.
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunBus } from '../../../src/share/bus.ts';
import { contribute } from '../../../src/share/contributor.ts';
import { playItem } from '../../../src/share/play.ts';
import { parseWorkItem, type ResultMessage } from '../../../src/share/protocol.ts';
import { inboxPrefix } from '../../../src/share/server-config.ts';
import type { Trajectory } from '../../../src/agent/trajectory.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { flattenConfig, resolveConfig } from '../../../src/rl/config.ts';
import { train } from '../../../src/rl/trainer.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { FileRunStore } from '../../../src/store/fs.node.ts';
import type { MetricRecord } from '../../../src/store/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { noNatsReason, startNatsServer, type TestServer } from '../../helpers/nats.ts';
import { Objm } from '@nats-io/obj';
import { chatFormatFor, stopIdsFor } from '../../../src/agent/render.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig, parseHfConfig, toHfConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { openRunPolicy, phaseContext, tokenizerCorpus } from '../../../src/rl/session.ts';
import { adapterShapes, initAdapters, loraField, loraModules, parseLoraTargets } from '../../../src/model/lora.ts';
import { randomShapeModel } from '../../../src/model/shapes.ts';
import { smallQwen2 } from '../../helpers/model.ts';
import { Rng } from '../../../src/random.ts';
import { auditDraw, SharedRollouts, workItemOf } from '../../../src/share/learner.ts';
import { modelOfVersion } from '../../../src/share/version-weights.ts';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';

const FILE = 'test/fixtures/agent/mutations.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);
const cfg = resolveConfig({
  'model.preset': 'scratch-30k', seed: 4, 'run.phases': 'dapo', 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'agent.maxTurns': 2,
  'reward.lengthThreshold': 1, 'dapo.iterations': 1, 'dapo.tasksPerIteration': 2, 'dapo.groupSize': 2, 'dapo.filterGroups': false,
  'dapo.optimizerSteps': 1, 'eval.samples': 1,
});
const limits = { maxResultBytes: 4 << 20, logprobTolerance: 2e-3 };

let server: TestServer;
beforeAll(async () => {
  if (!noNatsReason) server = await startNatsServer(3);
}, 30_000);
afterAll(async () => server?.stop());

const as = (i: number) => {
  const u = server.contributors[i]!;
  return connect({ servers: server.url, user: u.user, pass: u.password, inboxPrefix: inboxPrefix(u.user) });
};

/** A learner's run; `o.dir`: in that run folder (a second call resumes it); `o.stopAfterDapo`: stopped after that many DAPO rows. */
async function runLearner(run: string, roundSeconds: number, runCfg = cfg, o: { dir?: string; stopAfterDapo?: number } = {}) {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'webswe-share-'));
  const store = await FileRunStore.open(dir);
  const nc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
  const share = new SharedRollouts(new RunBus(nc, run), { limits, leaseSeconds: 30, maxAttempts: 3, roundSeconds });
  let dapoRows = 0;
  const events = { metrics: (rows: MetricRecord[]) => (dapoRows += rows.filter((x) => x.phase === 'dapo').length), shouldStop: () => o.stopAfterDapo !== undefined && dapoRows >= o.stopAfterDapo };
  try {
    const r = await train(runCfg, { be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 3), test: tasks.slice(3, 4), share, events });
    const metrics = (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values, timing: m.timing }));
    const byIteration: Trajectory[][] = [];
    for (const x of await store.listTrajectorySteps()) if (x.phase === 'dapo') byIteration[x.step] = (await store.readTrajectories('dapo', x.step)) as Trajectory[];
    return { r, metrics, share, trajectories: byIteration[0]!, byIteration };
  } finally {
    await nc.close();
  }
}

const withoutDist = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('dist_')));

describe.skipIf(noNatsReason)('the server permissions', () => {
  it('let a contributor read the run and write only its own results', async () => {
    const nc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    const bus = new RunBus(nc, 'perm');
    await bus.setUp({ leaseSeconds: 30, maxDeliver: -1 });
    await bus.putManifest({ format: 'webswe-run-manifest', version: 1, run: 'perm', config: {}, model: { config: {}, tokenizerJson: {}, tokenizerConfig: {} }, limits });
    await bus.putWeights(0, new Uint8Array(200_000).fill(3));
    await bus.publishWork(JSON.parse('{"x":1}'));
    const c1 = await as(0);
    const b1 = new RunBus(c1, 'perm');
    expect((await b1.getManifest()).run).toBe('perm');
    expect((await b1.getWeights(0)).length).toBe(200_000);
    const w = await b1.nextWork(3000);
    expect(w).not.toBeNull();
    w!.ack();
    await b1.publishResult('c1', new Uint8Array([1]));
    const refused = async (f: () => Promise<unknown>) => {
      try {
        await f();
        return 'allowed';
      } catch (e) {
        return /permission/i.test(String((e as Error).message)) ? 'refused' : `failed otherwise: ${(e as Error).message}`;
      }
    };
    expect(await refused(() => b1.publishResult('c2', new Uint8Array([1])))).toBe('refused'); // another's subject
    expect(await refused(async () => (await new Objm(jetstream(c1)).open('webswe')).putBlob({ name: 'perm/v1/model.safetensors' }, new Uint8Array(9)))).toBe('refused');
    expect(await refused(async () => (await jetstreamManager(c1)).streams.delete('WEBSWE_RESULTS'))).toBe('refused');
    expect(await refused(async () => jetstream(c1).consumers.get('WEBSWE_RESULTS', 'learner_perm'))).toBe('refused'); // others' results
    expect(await refused(async () => jetstream(c1).publish('webswe.work.perm', new Uint8Array([1])))).toBe('refused'); // issue work
    await c1.close();
    await nc.close();
  }, 60_000);
});

describe.skipIf(noNatsReason)('a shared DAPO iteration', () => {
  it('two honest contributors and a hostile one: the run equals the learner playing alone', async () => {
    // The reference: every item times out at once and the learner plays it (the same seeds, one cohort per group).
    const alone = await runLearner('alone', 0);
    const dapoAlone = alone.metrics.find((m) => m.phase === 'dapo')!;
    expect(dapoAlone.values.dist_played_by_learner).toBe(2);

    // The hostile contributor takes the first item it sees and claims reward 1 for its episodes.
    const hostile = (async () => {
      const nc = await as(2);
      const bus = new RunBus(nc, 'shared');
      for (;;) {
        const w = await bus.nextWork(2000).catch(() => null);
        if (!w) continue;
        const item = parseWorkItem(w.data);
        const m = await bus.getManifest();
        void m;
        // Play with the learner's weights honestly, then lie about the reward.
        await bus.publishResult('c3', new TextEncoder().encode(JSON.stringify(claimingAllPassed(await playLike(item, bus)))));
        w.ack();
        await nc.close();
        return item.item;
      }
    })();
    const learner = runLearner('shared', 120);
    const forged = await hostile; // honest contributors join after the forgery, so it really happened
    const honest = honestContributors('shared', 8000);
    const shared = await learner;
    const done = await honest;
    expect(forged).toMatch(/^dapo\/0\/0\/\d$/);
    const dapo = shared.metrics.find((m) => m.phase === 'dapo')!;
    expect(dapo.values.dist_rejected_reward_mismatch).toBe(1);
    expect(shared.share.tally.get('c3')).toEqual({ accepted: 0, rejected: { reward_mismatch: 1 } });
    expect(dapo.values.dist_accepted).toBe(2);
    expect(dapo.values.dist_played_by_learner).toBe(0);
    expect(done.reduce((a, d) => a + d.items, 0)).toBe(2);
    // 0 poisoned: what was trained on is what the learner alone played, and so are the metrics.
    expect(shared.trajectories.map((t) => t.tokens!.ids)).toEqual(alone.trajectories.map((t) => t.tokens!.ids));
    expect(shared.trajectories.map((t) => t.reward)).toEqual(alone.trajectories.map((t) => t.reward));
    expect(withoutDist(dapo.values)).toEqual(withoutDist(dapoAlone.values));
    expect(shared.r.phases.map((p) => p['pass@1'])).toEqual(alone.r.phases.map((p) => p['pass@1']));
  }, 600_000);
});

describe.skipIf(noNatsReason)('overlapping rounds (dist.maxOffPolicy 1)', () => {
  const overlapCfg = resolveConfig({ ...flatOf(cfg), 'dapo.iterations': 2, 'dist.maxOffPolicy': 1 });
  const syncCfg = resolveConfig({ ...flatOf(cfg), 'dapo.iterations': 2 });
  it("the next iteration's round is played with the weights before the update, verified against them; contributors and a hostile one change nothing", async () => {
    const sync = await runLearner('sync2', 0, syncCfg);
    const alone = await runLearner('overlap-alone', 0, overlapCfg);
    // A contributor plays iteration 0's items honestly, then forges the reward of the first item of the round issued
    // during the update (iteration 1's), which it plays with the weights the item names (version 0). The honest
    // contributors join after the forgery, so it really happened. It stops when the learner ends: had the learner
    // played iteration 1's items itself (a round unplayed for roundSeconds), it would wait for one forever.
    let learnerDone = false;
    const hostile = (async () => {
      const nc = await as(2);
      const bus = new RunBus(nc, 'overlap');
      try {
        for (;;) {
          const w = await bus.nextWork(2000).catch(() => null);
          if (learnerDone) return null;
          if (!w) continue;
          const item = parseWorkItem(w.data);
          const honest = await playLike(item, bus);
          const lie = item.item.startsWith('dapo/1/');
          const sent = lie ? claimingAllPassed(honest) : honest;
          await bus.publishResult('c3', new TextEncoder().encode(JSON.stringify(sent)));
          w.ack();
          if (lie) return item;
        }
      } finally {
        await nc.close();
      }
    })();
    // A round unplayed for 300 s falls to the learner: on a loaded machine the hostile one plays iteration 0 slowly.
    const learner = runLearner('overlap', 300, overlapCfg).finally(() => (learnerDone = true));
    const forged = await hostile;
    if (!forged) throw new Error('the hostile contributor got no item of iteration 1: the learner played the round itself (roundSeconds passed)');
    const honest = honestContributors('overlap', 10_000);
    const shared = await learner;
    await honest;
    expect(forged.policy_version).toBe(0);
    // Iteration 1's episodes were played at version 0 (the weights before iteration 0's update), not at 1.
    const versions = (ts: Trajectory[]) => [...new Set(ts.map((t) => t.policy_version))];
    expect(versions(shared.byIteration[0]!)).toEqual([0]);
    expect(versions(shared.byIteration[1]!)).toEqual([0]);
    expect(versions(sync.byIteration[1]!)).toEqual([1]);
    // 0 poisoned: every iteration trained on what the learner alone plays on the same schedule; same metrics.
    for (const it of [0, 1]) {
      expect(shared.byIteration[it]!.map((t) => t.tokens!.ids)).toEqual(alone.byIteration[it]!.map((t) => t.tokens!.ids));
      expect(shared.byIteration[it]!.map((t) => t.reward)).toEqual(alone.byIteration[it]!.map((t) => t.reward));
    }
    const rows = (m: typeof shared.metrics) => m.filter((r) => r.phase === 'dapo');
    expect(rows(shared.metrics).map((r) => withoutDist(r.values))).toEqual(rows(alone.metrics).map((r) => withoutDist(r.values)));
    expect(shared.r.phases.map((p) => p['pass@1'])).toEqual(alone.r.phases.map((p) => p['pass@1']));
    const [d0, d1] = rows(shared.metrics);
    expect(d1!.values.dist_rejected_reward_mismatch).toBe(1);
    expect(shared.share.tally.get('c3')).toEqual({ accepted: 2, rejected: { reward_mismatch: 1 } });
    expect(d0!.values.dist_accepted! + d1!.values.dist_accepted!).toBe(4);
    expect(d0!.values.dist_played_by_learner).toBe(0);
    expect(d1!.values.dist_played_by_learner).toBe(0);
    expect(d1!.timing!.dist_wait_s).toBeGreaterThanOrEqual(0);
    // The same run as the synchronous one up to the first update; after it, the overlapped iteration trains on
    // episodes one version behind: its first mini-batch's log-probs drift from the behaviour ones, the
    // synchronous run's do not (they were played by the weights that score them).
    expect(rows(alone.metrics)[0]!.values).toEqual(rows(sync.metrics)[0]!.values);
    expect(alone.byIteration[1]!.map((t) => t.tokens!.logprobs)).not.toEqual(sync.byIteration[1]!.map((t) => t.tokens!.logprobs));
    expect(rows(sync.metrics)[1]!.values.logp_drift).toBeLessThan(1e-4);
    expect(rows(alone.metrics)[1]!.values.logp_drift).toBeGreaterThan(10 * rows(sync.metrics)[1]!.values.logp_drift!);
    for (const r of [...rows(alone.metrics), ...rows(sync.metrics)]) expect(Number.isFinite(r.values.loss)).toBe(true);
  }, 600_000);
});

const flatOf = (c: typeof cfg) => flattenConfig(c);

describe.skipIf(noNatsReason)('overlapping rounds, stopped and resumed', () => {
  it("resumed after its first iteration, the run plays the round that went out ahead at that round's version and ends as the uninterrupted run", async () => {
    const c = resolveConfig({ ...flatOf(cfg), 'dapo.iterations': 2, 'dist.maxOffPolicy': 1, 'run.checkpointEvery': 1 });
    const whole = await runLearner('resume-whole', 0, c);
    const dir = mkdtempSync(join(tmpdir(), 'webswe-share-resume-'));
    const first = await runLearner('resume-part', 0, c, { dir, stopAfterDapo: 1 });
    expect(first.r.stopped).toBe(true);
    expect(first.metrics.filter((m) => m.phase === 'dapo')).toHaveLength(1);
    const resumed = await runLearner('resume-part', 0, c, { dir });
    expect(resumed.r.stopped).toBe(false);
    expect([...new Set(resumed.byIteration[1]!.map((t) => t.policy_version))]).toEqual([0]); // the version it went out at
    expect(resumed.byIteration[1]!.map((t) => t.tokens!.logprobs)).toEqual(whole.byIteration[1]!.map((t) => t.tokens!.logprobs));
    const rows = (m: typeof whole.metrics) => m.filter((r) => r.phase === 'dapo').map((r) => withoutDist(r.values));
    expect(rows(resumed.metrics)).toEqual(rows(whole.metrics));
    expect(resumed.r.phases.map((p) => p['pass@1'])).toEqual(whole.r.phases.map((p) => p['pass@1']));
  }, 600_000);
});

/** A contributor's honest play of an item, from the bus alone (manifest and weights). */
async function playLike(item: ReturnType<typeof parseWorkItem>, bus: RunBus) {
  const m = await bus.getManifest();
  const mc = parseHfConfig(m.model.config);
  const tok = Tokenizer.fromJson(m.model.tokenizerJson, m.model.tokenizerConfig);
  const model = await modelOfVersion(new FastCpuBackend(), mc, await bus.getWeights(item.policy_version), item.policy_version);
  return playItem(item, { model, tokenizer: tok, stopIds: stopIdsFor(tok, mc.eosTokenIds), sandbox: sandboxFactory('node'), episodes: episodeOptions(resolveConfig(m.config as never), { tokenizer: tok, chatFormat: chatFormatFor(tok) }) });
}

/** A learner's side without a trainer: scratch-30k at random init (seed `init`), its tokenizer, a phase context on
 *  the first two fixture tasks, the env items are played with, and the manifest SharedRollouts.start takes. */
function scratchLearner(init: number, sandbox: ReturnType<typeof sandboxFactory> = sandboxFactory('node')) {
  const preset = MODEL_PRESETS['scratch-30k'];
  const bpe = trainBpe(tokenizerCorpus(tasks), { vocabSize: preset.tokenizerVocab });
  const tokenizer = Tokenizer.fromJson(bpe.tokenizerJson, bpe.tokenizerConfig);
  const config = freezeConfig({ ...preset.config, vocabSize: Math.min(preset.config.vocabSize, tokenizer.vocabSize) });
  const be = new FastCpuBackend();
  const model = new Transformer(be, config, uploadParams(be, config, initParams(config, init)));
  const stopIds = stopIdsFor(tokenizer, config.eosTokenIds);
  const ctx = phaseContext(cfg, be, { model, tokenizer, stopIds }, { sandbox, train: tasks.slice(0, 2), test: [] });
  return {
    ctx, env: { model, tokenizer, stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes },
    manifest: { config: flattenConfig(cfg), model: { config: toHfConfig(config) as Record<string, unknown>, tokenizerJson: bpe.tokenizerJson, tokenizerConfig: bpe.tokenizerConfig } },
  };
}

/** A result claiming that every episode passed its tests (the forgery the replay's grading catches). */
const claimingAllPassed = (m: ResultMessage): ResultMessage => ({ ...m, trajectories: (m.trajectories as Trajectory[]).map((t) => ({ ...t, reward: { ...t.reward, tests: 1, total: 1 } })) });

/** Two honest `contribute` loops (users c1 and c2) on `run`, ending after `idleMs` without work. */
const honestContributors = (run: string, idleMs: number) =>
  Promise.all([0, 1].map(async (i) => {
    const nc = await as(i);
    try {
      return await contribute({ bus: new RunBus(nc, run), user: `c${i + 1}`, be: new FastCpuBackend(), sandbox: sandboxFactory('node'), idleMs });
    } finally {
      await nc.close();
    }
  }));

describe.skipIf(noNatsReason)('two results for one item', () => {
  it('the first to arrive wins, even when a copy sent after it verifies faster', async () => {
    // A contributor that copies another's result onto its own subject must not take the credit, however
    // the two verifications' timing falls: here the original's first sandbox is 3 s slow, so the copy's
    // verification would finish first; results of one item are verified in the order they arrived. Two
    // items, so that the learner reads on (the copy) while the first is verified.
    let slowNext = 0;
    const sandbox: ReturnType<typeof sandboxFactory> = async (...a) => {
      if (slowNext-- > 0) await new Promise((r) => setTimeout(r, 3000));
      return sandboxFactory('node')(...a);
    };
    const { ctx, env, manifest } = scratchLearner(4, sandbox);
    const req = {
      label: 'dapo/0/0', tasks: tasks.slice(0, 2), groupSize: 2, episodeSeed: (g: number, k: number) => 100 + k, policySeed: () => 7,
      version: 0, temperature: 1, maxTurns: cfg.agent.maxTurns, contextTokens: cfg.agent.contextTokens,
    };
    const [original, second] = [await playItem(workItemOf('race', req, 0), env), await playItem(workItemOf('race', req, 1), env)];
    const bytes = new TextEncoder().encode(JSON.stringify(original));
    const lnc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    const share = new SharedRollouts(new RunBus(lnc, 'race'), { limits, leaseSeconds: 60, maxAttempts: 3, roundSeconds: 120 });
    await share.start(manifest);
    const [c1, c2] = await Promise.all([as(0), as(1)]);
    try {
      slowNext = 1; // the first sandbox a verification opens: the original's
      const played = share.play(ctx, req);
      const b1 = new RunBus(c1, 'race');
      for (let i = 0; i < 2; i++) {
        const w = await b1.nextWork(10_000);
        expect(w).not.toBeNull();
        w!.ack();
      }
      await b1.publishResult('c1', bytes);
      await new RunBus(c2, 'race').publishResult('c2', bytes); // the copy, after the original was stored
      await b1.publishResult('c1', new TextEncoder().encode(JSON.stringify(second)));
      const ts = await played;
      expect(ts.map((t) => t.tokens!.ids)).toEqual([original, second].flatMap((m) => (m.trajectories as Trajectory[]).map((t) => t.tokens!.ids)));
      expect(share.tally.get('c1')).toEqual({ accepted: 2, rejected: {} });
      expect(share.tally.get('c2')).toEqual({ accepted: 0, rejected: { duplicate: 1 } });
      expect(share.metrics().dist_played_by_learner ?? 0).toBe(0);
    } finally {
      await Promise.all([c1.close(), c2.close(), lnc.close()]);
    }
  }, 120_000);
});

describe.skipIf(noNatsReason)('audits (dist.auditShare below 1)', () => {
  it('a forged log-prob that was not audited is accepted, the next one is caught: its contributor is banned and its accepted result dropped and played again', async () => {
    const { ctx, env, manifest } = scratchLearner(5);
    const req = {
      label: 'dapo/0/0', tasks: tasks.slice(0, 2), groupSize: 2, episodeSeed: (g: number, k: number) => 200 + 10 * g + k, policySeed: (g: number) => 9 + g,
      version: 0, temperature: 1, maxTurns: cfg.agent.maxTurns, contextTokens: cfg.agent.contextTokens,
    };
    const honest = [await playItem(workItemOf('audit', req, 0), env), await playItem(workItemOf('audit', req, 1), env)];
    // The forgery an audit alone catches: one behaviour log-prob made up (tokens, observations and reward honest).
    const forge = (m: ResultMessage): ResultMessage => {
      const f = JSON.parse(JSON.stringify(m)) as ResultMessage & { trajectories: Trajectory[] };
      const t = f.trajectories[0]!.tokens!;
      t.logprobs[t.mask.indexOf(1)]! -= 0.5;
      return f;
    };
    // A secret under which c1's result for item 0 is not audited and its result for item 1 is (share 1/2).
    const p = 0.5;
    let secret = new Uint8Array(0);
    for (let s = 0; ; s++) {
      secret = new TextEncoder().encode(`audit-test-${s}`);
      if (!(await auditDraw(secret, 'c1', 'dapo/0/0/0', 0, p)) && (await auditDraw(secret, 'c1', 'dapo/0/0/1', 0, p))) break;
    }
    const lnc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    const banned: string[] = [];
    const share = new SharedRollouts(new RunBus(lnc, 'audit'), { limits, leaseSeconds: 60, maxAttempts: 3, roundSeconds: 120, auditShare: p, auditSecret: secret, onBan: (u) => banned.push(u) });
    await share.start(manifest);
    const [c1, c2] = await Promise.all([as(0), as(1)]);
    const send = (bus: RunBus, user: string, m: ResultMessage) => bus.publishResult(user, new TextEncoder().encode(JSON.stringify(m)));
    try {
      const played = share.play(ctx, req);
      const b1 = new RunBus(c1, 'audit'), b2 = new RunBus(c2, 'audit');
      for (let i = 0; i < 2; i++) (await b1.nextWork(10_000))!.ack();
      await send(b1, 'c1', forge(honest[0]!));
      while ((share.tally.get('c1')?.accepted ?? 0) < 1) await new Promise((r) => setTimeout(r, 100)); // accepted, unaudited
      await send(b1, 'c1', forge(honest[1]!)); // audited: caught
      while (!banned.length) await new Promise((r) => setTimeout(r, 100));
      await send(b1, 'c1', honest[1]!); // an honest-looking result from a banned contributor: refused
      // Both items are on the queue again (attempt 1): the one whose result was dropped, and the rejected one.
      const again = [];
      for (let i = 0; i < 2; i++) {
        const w = (await b2.nextWork(10_000))!;
        again.push(parseWorkItem(w.data));
        w.ack();
      }
      expect(again.map((w) => [w.item, w.attempt]).sort()).toEqual([['dapo/0/0/0', 1], ['dapo/0/0/1', 1]]);
      for (const w of again) await send(b2, 'c2', { ...honest[Number(w.item.at(-1))]!, attempt: w.attempt });
      const ts = await played;
      // 0 poisoned: what the round returns is the honest play, behaviour log-probs included.
      expect(ts.map((t) => t.tokens!.logprobs)).toEqual(honest.flatMap((m) => (m.trajectories as Trajectory[]).map((t) => t.tokens!.logprobs)));
      expect(ts.map((t) => t.tokens!.ids)).toEqual(honest.flatMap((m) => (m.trajectories as Trajectory[]).map((t) => t.tokens!.ids)));
      expect(banned).toEqual(['c1']);
      expect(share.tally.get('c1')).toEqual({ accepted: 1, rejected: { logprob_mismatch: 1, banned: 1 }, banned: true });
      expect((await share.bus.getTallies())?.c1).toMatchObject({ banned: true }); // stored at the ban, for a restarted learner
      expect(share.tally.get('c2')).toEqual({ accepted: 2, rejected: {} });
      const m = share.metrics();
      expect(m).toMatchObject({ dist_banned: 1, dist_dropped: 1, dist_played_by_learner: 0 });
      expect(m.dist_audited).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([c1.close(), c2.close(), lnc.close()]);
    }
  }, 120_000);
});

describe.skipIf(noNatsReason)('a shared LoRA run', () => {
  it('publishes the base once and each version\'s adapters; contributors play each version on them (in step, issued ahead, resumed behind), every round equals the learner\'s own play, and only round copies\' adapters are freed', async () => {
    const shape = smallQwen2({ vocab: 1200, layers: 2 });
    const lcfg = resolveConfig({ ...flattenConfig(cfg), 'model.preset': shape.name, 'model.loraRank': 2, 'model.loraAlpha': 4, 'model.loraTargets': 'q,v,down' });
    const lora = { rank: 2, alpha: 4, targets: parseLoraTargets('q,v,down') };
    // Adapters with B ≠ 0, so that a version's adapters change what is sampled.
    const adaptersAt = (seed: number) => {
      const a = initAdapters(loraModules(shape.config, lora), lora.rank, seed);
      const rng = new Rng(seed);
      for (const [n, v] of a) if (n.endsWith('lora_B.weight')) for (let i = 0; i < v.length; i++) v[i] = (rng.next() - 0.5) * 0.6;
      return a;
    };
    // A backend that records what is freed (activations too; the CPU backends' free does nothing, so a wrongly freed
    // tensor would otherwise only show on WebGPU).
    const be = new FastCpuBackend();
    const freed = new Set<unknown>();
    const free = be.free.bind(be);
    be.free = (t) => (freed.add(t), free(t));
    const store = { readJson: async () => null, writeJson: async () => {} };
    const policy = await openRunPolicy(lcfg, be, { store, train: tasks, pretrained: randomShapeModel(shape, tokenizerCorpus(tasks), 3, 400) }, { params: new Map(), adapters: adaptersAt(1) });
    expect(policy.lora?.rank).toBe(2);
    const ctx = phaseContext(lcfg, be, policy, { sandbox: sandboxFactory('node'), train: tasks.slice(0, 2), test: [] });
    const env = { model: policy.model, tokenizer: policy.tokenizer, stopIds: policy.stopIds, sandbox: ctx.sandbox, episodes: ctx.episodes };
    const lnc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    const share = new SharedRollouts(new RunBus(lnc, 'lora'), { limits, leaseSeconds: 60, maxAttempts: 3, roundSeconds: 120 });
    await share.start({ config: flattenConfig(lcfg), model: { config: toHfConfig(policy.config) as Record<string, unknown>, tokenizerJson: policy.tokenizerFiles.json, tokenizerConfig: policy.tokenizerFiles.config, ...loraField(policy.lora) } });
    const contributors = honestContributors('lora', 5000);
    const req = (version: number, label: string) => ({
      label, tasks: tasks.slice(0, 2), groupSize: 2, episodeSeed: (g: number, k: number) => 300 + 10 * g + k, policySeed: (g: number) => 7 + g,
      version, temperature: 1, maxTurns: lcfg.agent.maxTurns, contextTokens: lcfg.agent.contextTokens,
    });
    const own = async (r: ReturnType<typeof req>) => (await Promise.all([0, 1].map((g) => playItem(workItemOf('lora', r, g), env)))).flatMap((m) => m.trajectories as Trajectory[]);
    const same = (a: Trajectory[], b: Trajectory[]) => {
      expect(a.map((t) => t.tokens!.ids)).toEqual(b.map((t) => t.tokens!.ids));
      expect(a.map((t) => t.tokens!.logprobs)).toEqual(b.map((t) => t.tokens!.logprobs));
    };
    const objects = await new Objm(jetstream(lnc)).open('webswe');
    try {
      // Version 0 in step; a round issued ahead at version 0 (dist.maxOffPolicy 1), then an update.
      const inStep = req(0, 'dapo/0/0'), ahead = req(0, 'dapo/0/1'), behind = { ...req(0, 'dapo/0/2'), behind: true };
      const alone0 = [await own(inStep), await own(ahead), await own(behind)];
      same(await share.play(ctx, inStep), alone0[0]!);
      const baseInfo = await objects.info('lora/base/model.safetensors');
      await share.prefetch(ctx, ahead);
      // The update, in place as AdamW makes it: version 1's adapters on the same tensors.
      for (const [n, v] of adaptersAt(2)) (policy.model.params.get(n) as unknown as { data: Float32Array }).data.set(v);
      same(await share.play(ctx, ahead), alone0[1]!); // verified against the copy kept at version 0
      const v1 = req(1, 'dapo/1/0');
      const shared1 = await share.play(ctx, v1);
      same(shared1, await own(v1));
      // The adapters changed what is sampled: the same item and seeds at version 0 and 1 differ.
      expect(shared1.map((t) => t.tokens!.ids)).not.toEqual(alone0[0]!.map((t) => t.tokens!.ids));
      // A resumed learner's round behind its weights: version 0's adapters read back from the store onto its base.
      same(await share.play(ctx, behind), alone0[2]!);
      const m = share.metrics();
      expect(m).toMatchObject({ dist_accepted: 8, dist_played_by_learner: 0, dist_rejected: 0 });
      // Frees: the two round copies' adapters (issued ahead, behind), never the learner's base or adapters.
      const nAdapters = adapterShapes(shape.config, lora).size;
      const adapterFrees = [...freed].filter((t) => /\.lora_[AB]\.weight$/.test((t as { label: string }).label));
      expect(adapterFrees).toHaveLength(2 * nAdapters);
      for (const p of policy.model.params.values()) expect(freed.has(p)).toBe(false);
      // The object store: the base once (not written again at version 1), each version's adapters (small).
      const baseAfter = await objects.info('lora/base/model.safetensors');
      expect(baseAfter?.nuid).toBe(baseInfo?.nuid);
      expect(baseAfter!.size).toBeGreaterThan(4 * (1200 * 32));
      for (const v of [0, 1]) expect((await objects.info(`lora/v${v}/adapters.safetensors`))!.size).toBeLessThan(baseAfter!.size / 5);
      expect(await objects.info('lora/v0/model.safetensors')).toBeNull();
    } finally {
      await contributors;
      await lnc.close();
    }
  }, 180_000);
});
