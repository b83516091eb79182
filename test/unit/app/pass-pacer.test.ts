// The live charts' redraw pacing (src/app/pass-pacer.ts) on a simulated clock: the first pass starts at
// once and draws one item a task; requests during a pass join it; while requests stream in (a metrics row
// per training step) passes start at most once per gap after the last ended, or 4 × the last pass's
// drawing time when that is longer; every request is drawn in the end; stop ends the drawing.
import { describe, expect, it } from 'vitest';
import { PassPacer, type PacerClock } from '../../../src/app/pass-pacer.ts';

/** A clock whose timers run when `advance` passes their time; a draw takes `drawMs` of it. */
function simulated() {
  let t = 0;
  const timers: { at: number; f: () => void }[] = [];
  const clock: PacerClock = { now: () => t, later: (f, ms) => void timers.push({ at: t + ms, f }) };
  const advance = (ms: number) => {
    const until = t + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > until) break;
      timers.shift();
      t = Math.max(t, next.at);
      next.f();
    }
    t = Math.max(t, until);
  };
  return { clock, advance, tick: (ms: number) => (t += ms), pending: () => timers.length };
}

describe('PassPacer', () => {
  it('draws the first pass at once, one item a task, and joins requests made during a pass', () => {
    const sim = simulated();
    const drawn: string[] = [];
    const p = new PassPacer(['a', 'b', 'c'], (x) => drawn.push(x), { gapMs: 1000, clock: sim.clock });
    p.request();
    sim.advance(0);
    expect(drawn).toEqual(['a', 'b', 'c']); // three tasks, each at +0 ms
    expect(p.passes).toBe(1);
    let again = true;
    const q = new PassPacer(['a', 'b'], (x) => { drawn.push(`q${x}`); if (again) (again = false), q.request(); }, { gapMs: 1000, clock: sim.clock });
    q.request();
    sim.advance(0);
    expect(drawn.slice(3)).toEqual(['qa', 'qb', 'qa']); // asked again while drawing a: a drawn again in the same pass
    expect(q.passes).toBe(1);
  });

  it('while rows stream in, starts a pass at most once per gap after the last ended, and draws the last request', () => {
    const sim = simulated();
    const starts: number[] = [];
    let n = 0;
    const p = new PassPacer([1, 2], (x) => x === 1 && starts.push(sim.clock.now()), { gapMs: 1000, clock: sim.clock, passEnd: (k) => (n = k) });
    for (let i = 0; i < 80; i++) {
      p.request(); // a metrics row every 50 ms for 4 s
      sim.advance(50);
    }
    sim.advance(2000);
    expect(starts[0]).toBe(0);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(starts.length).toBeLessThanOrEqual(5); // 80 requests in 4 s: at most one pass a second
    expect(starts.at(-1)).toBeGreaterThanOrEqual(3950 - 1000); // the last request was drawn
    expect(n).toBe(p.passes);
    expect(sim.pending()).toBe(0);
  });

  it('waits 4 × the last pass when drawing is slow, and draws nothing after stop', () => {
    const sim = simulated();
    const starts: number[] = [];
    const p = new PassPacer([1], () => { starts.push(sim.clock.now()); sim.tick(400); }, { gapMs: 1000, clock: sim.clock });
    p.request();
    sim.advance(500); // pass 1 draws from 0 to 400
    p.request(); // at 500: the next pass starts 4 × 400 ms after the last ended
    sim.advance(5000);
    expect(starts).toEqual([0, 400 + 1600]);
    p.request();
    p.stop();
    sim.advance(5000);
    expect(starts).toHaveLength(2);
  });
});
