// The shelf of released runners (src/sandbox/worker/released.ts), shared by the browser's and the node host's
// worker sandboxes: newest first, dead ones skipped and ended, caps on count and jobs, the idle sweep.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_JOBS_PER_RUNNER, MAX_RELEASED, RELEASED_IDLE_MS, ReleasedRunners } from '../../../src/sandbox/worker/released.ts';

interface R { id: number; jobs: number; dead?: boolean; ended?: boolean; shelved?: boolean }
const shelf = () => new ReleasedRunners<R>({ jobs: (r) => r.jobs, alive: (r) => !r.dead && !r.ended, end: (r) => void (r.ended = true), shelved: (r, on) => void (r.shelved = on) });

afterEach(() => vi.useRealTimers());

describe('released runners', () => {
  it('hands out the newest live runner, ending the dead ones it passes', () => {
    const s = shelf();
    const a: R = { id: 1, jobs: 1 }, b: R = { id: 2, jobs: 1 }, c: R = { id: 3, jobs: 1 };
    s.put(a);
    s.put(b);
    s.put(c);
    expect([a.shelved, s.size]).toEqual([true, 3]);
    c.dead = true;
    expect(s.take()).toBe(b);
    expect([c.ended, b.shelved, s.size]).toEqual([true, false, 1]);
    expect(s.take()).toBe(a);
    expect(s.take()).toBeUndefined();
  });

  it('ends what may not wait: a full shelf, a runner at its job cap, a dead one', () => {
    const s = shelf();
    for (let i = 0; i < MAX_RELEASED; i++) s.put({ id: i, jobs: 1 });
    const extra: R = { id: 99, jobs: 1 }, worn: R = { id: 100, jobs: MAX_JOBS_PER_RUNNER }, dead: R = { id: 101, jobs: 1, dead: true };
    for (const r of [extra, worn, dead]) s.put(r);
    expect([extra.ended, s.size]).toEqual([true, MAX_RELEASED]);
    const t = shelf();
    t.put(worn);
    t.put(dead);
    expect([worn.ended, dead.ended, t.size]).toEqual([true, true, 0]);
  });

  it('ends a runner no sandbox took within the idle time, and keeps a newer one', () => {
    vi.useFakeTimers();
    const s = shelf();
    const old: R = { id: 1, jobs: 1 };
    s.put(old);
    vi.advanceTimersByTime(RELEASED_IDLE_MS / 2);
    const young: R = { id: 2, jobs: 1 };
    s.put(young);
    vi.advanceTimersByTime(RELEASED_IDLE_MS / 2);
    expect([old.ended, young.ended, s.size]).toEqual([true, undefined, 1]);
    vi.advanceTimersByTime(RELEASED_IDLE_MS);
    expect([young.ended, s.size]).toEqual([true, 0]);
  });
});
