// `webswe bench dist` in small: 16 simulated contributors (one of each forging kind among them) through a
// real nats-server; every kept group equals the honest play of its item (0 poisoned), nothing a hostile
// contributor sent was accepted, and the report carries the figures the README quotes. --overlap: both runs end
// with every group from the contributor process, and its figures are consistent.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { noNatsReason } from '../../helpers/nats.ts';
import { describe, expect, it } from 'vitest';
import { benchDist, HOSTILE_KINDS } from '../../../src/bench/dist.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'test/fixtures/agent/mutations.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);

describe.skipIf(noNatsReason)('bench dist', () => {
  it('keeps only honest groups under a hostile crowd', async () => {
    const r = await benchDist({ tasks: tasks.slice(0, 4), contributors: 16, hostile: 0.5, rounds: 1, tasksPerRound: 4, groupSize: 2, seed: 2 });
    expect(Object.values(r.hostile)).toEqual(HOSTILE_KINDS.map(() => 1));
    expect(r).toMatchObject({ contributors: 16, rounds: 1, groups: 4, episodes: 8, poisoned: 0, hostile_accepted: 0 });
    expect(r.accepted_per_s).toBeGreaterThan(0);
    expect(r.round_s_alone).toBeGreaterThan(0);
    expect(r.round_s_shared).toBeGreaterThan(0);
    // Play against verify, per episode, by part: the parts add up to their totals.
    const p = r.play_per_episode, v = r.verify_per_episode;
    expect(r.model).toBe('scratch-30k');
    expect(p.generation_ms).toBeGreaterThan(0);
    expect(p.sandbox_ms).toBeGreaterThan(0);
    expect(p.generation_ms + p.sandbox_ms).toBeCloseTo(p.total_ms, 6);
    for (const part of [v.replay_ms, v.forward_ms, v.check_ms]) expect(part).toBeGreaterThan(0);
    expect(v.replay_ms + v.forward_ms + v.check_ms).toBeLessThanOrEqual(v.total_ms + 1e-6);
    expect(r.verify_over_play).toBeCloseTo(v.total_ms / p.total_ms, 9);
  }, 300_000);
});

describe.skipIf(noNatsReason)('bench dist --audit', () => {
  it('under audits only forgeries an audit alone catches can reach a kept group, and only their senders are banned', async () => {
    const r = await benchDist({ tasks: tasks.slice(0, 4), contributors: 16, hostile: 0.5, rounds: 1, tasksPerRound: 4, groupSize: 2, seed: 2, audit: 0.3 });
    expect(r).toMatchObject({ audit_share: 0.3, groups: 4 });
    expect(r.forged_kept_bound).toBeCloseTo(0.7 / 0.3, 12);
    // Reward, observation, seed-of-episode, version and size forgeries are refused as at full verification; a
    // banned contributor is one that forged a log-prob or played another seed's tokens.
    for (const kind of Object.keys(r.banned)) expect(['logprob', 'other_seed']).toContain(kind);
    expect(r.poisoned).toBeLessThanOrEqual(r.hostile_accepted);
    expect(r.forged_kept_per_evader).toBeCloseTo(r.poisoned / 2, 12); // one logprob and one other_seed forger
    // Which contributor plays which item is a race, so how many results an audit draws varies from run to run
    // (the draws' rate and a deterministic catch are tested in shared-run.test): the accounting holds in any run.
    // Every kept group from a contributor passed a draw; a ban follows an audit's catch.
    expect(r.drawn).toBeGreaterThanOrEqual(r.groups - r.played_by_learner);
    expect(r.audited).toBeLessThanOrEqual(r.drawn);
    expect(Object.values(r.banned).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(r.audited);
  }, 300_000);
});

describe.skipIf(noNatsReason)('bench dist --overlap', () => {
  it('runs the shared DAPO phase with and without overlapping rounds, contributors as `webswe contribute` processes', async () => {
    const { benchOverlap } = await import('../../../src/bench/dist-overlap.node.ts');
    const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
    const seen: number[] = [];
    const r = await benchOverlap({
      tasks: tasks.slice(0, 3), test: tasks.slice(3, 4), contributors: 1, iterations: 2, tasksPerIteration: 2, groupSize: 2, model: 'scratch-30k', seed: 3,
      command: [BIN], onIteration: (x) => seen.push(x.maxOffPolicy),
    });
    expect(seen).toEqual([0, 0, 1, 1]);
    expect(r.runs.map((x) => x.max_off_policy)).toEqual([0, 1]);
    for (const x of r.runs) {
      // Every group came from the contributor process, verified: none was left to the learner.
      expect(x).toMatchObject({ accepted: 4, played_by_learner: 0 });
      expect(x.iterations).toHaveLength(2);
      for (const i of x.iterations) {
        expect(i.wait_s).toBeGreaterThanOrEqual(0);
        expect(i.wait_s).toBeLessThanOrEqual(i.total_s);
        expect(i.rollout_s + i.train_s).toBeLessThanOrEqual(i.total_s + 1e-6);
      }
      expect(x.idle_share).toBeCloseTo(x.iterations[1]!.wait_s / x.iterations[1]!.total_s, 9);
    }
    expect(r.speedup).toBeCloseTo(r.runs[0]!.iteration_s / r.runs[1]!.iteration_s, 9);
  }, 300_000);
});
