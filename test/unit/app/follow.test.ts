// The live view's copy of a turn (workers/follow.ts): a long observation is cut at a line's end, so that a file
// view's last line shown keeps its number and whole words; a text without a near line end is cut where it must be.
import { describe, expect, it } from 'vitest';
import { briefTurn } from '../../../workers/follow.ts';
import type { TurnRecord } from '../../../src/agent/trajectory.ts';

const turn = (observation: string): TurnRecord => ({ index: 0, text: '```command\nview src/a.js\n```', command: null, format_error: null, status: 'ok', observation, observation_cut: 0, exit_code: null, timing: { policy_ms: 1, exec_ms: 1 } } as unknown as TurnRecord);

describe('briefTurn', () => {
  it('cuts a long observation at a line end', () => {
    const view = Array.from({ length: 60 }, (_, i) => `${i + 1}\tconst value${i} = compute(${i}, total);`).join('\n');
    const o = briefTurn(turn(view)).observation;
    expect(o.length).toBeLessThanOrEqual(801);
    expect(o.endsWith('\n…')).toBe(true);
    const lines = o.slice(0, -2).split('\n').filter(Boolean);
    expect(lines.every((l, i) => l === `${i + 1}\tconst value${i} = compute(${i}, total);`)).toBe(true);
    expect(briefTurn(turn('short')).observation).toBe('short');
    expect(briefTurn(turn('x'.repeat(1000))).observation).toBe(`${'x'.repeat(800)}…`);
  });
});
