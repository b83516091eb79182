// tasks.cloneShare: cloning and RL (RFT, DAPO) split the training repositories between them, by a
// seeded hash of the repository, so no function RL trains on was cloned; 1 keeps every task for both.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/rl/config.ts';
import { phaseTasks, type PhaseContext } from '../../../src/rl/phases.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import type { Tensor } from '../../../src/ops/tensor.ts';

const FILE = 'public/tasks/level0/val.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);
const ctx = (o: Record<string, number>) => ({ cfg: resolveConfig(o), train: tasks }) as unknown as PhaseContext<Tensor>;

describe('phaseTasks', () => {
  it('splits by repository: disjoint, together every task, about the share asked', () => {
    const c = ctx({ 'tasks.cloneShare': 0.5, seed: 3 });
    const clone = phaseTasks(c, 'clone'), rl = phaseTasks(c, 'rl');
    const repos = (ts: readonly { repo: string }[]) => new Set(ts.map((t) => t.repo));
    expect([...repos(clone)].filter((r) => repos(rl).has(r))).toEqual([]);
    expect(clone.length + rl.length).toBe(tasks.length);
    const share = repos(clone).size / repos(tasks).size;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.75);
    // Seeded: the same seed splits the same way, another seed differently.
    expect(phaseTasks(ctx({ 'tasks.cloneShare': 0.5, seed: 3 }), 'clone')).toEqual(clone);
    expect(phaseTasks(ctx({ 'tasks.cloneShare': 0.5, seed: 4 }), 'clone')).not.toEqual(clone);
  });
  it('a share of 1 gives every phase every task', () => {
    const c = ctx({});
    expect(phaseTasks(c, 'clone')).toBe(tasks);
    expect(phaseTasks(c, 'rl')).toBe(tasks);
  });
});
