// `webswe bench dist` in small: 16 simulated contributors (one of each forging kind among them) through a
// real nats-server; every kept group equals the honest play of its item (0 poisoned), nothing a hostile
// contributor sent was accepted, and the report carries the figures the README quotes.
import { readFileSync } from 'node:fs';
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
  }, 300_000);
});
