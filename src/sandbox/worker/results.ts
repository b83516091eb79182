// Run-result helpers the browser sandboxes share with the node sandbox's behaviour: the output cap
// with its marker, and several test files' runs merged into one RunResult (node.node.ts has the same
// two, inline). Core code.
import type { RunResult } from '../types.ts';

/** Keeps the first `limit` characters and counts the rest. */
export class CappedText {
  private parts: string[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly limit: number) {}
  push(s: string): void {
    const room = this.limit - this.kept;
    if (room > 0) {
      const piece = s.length <= room ? s : s.slice(0, room);
      this.parts.push(piece);
      this.kept += piece.length;
    }
    this.dropped += Math.max(0, s.length - Math.max(room, 0));
  }
  text(): string {
    const t = this.parts.join('');
    return this.dropped ? `${t}\n[output truncated: ${this.dropped} more characters not shown]\n` : t;
  }
}

/** Several test files' runs as one result: tests in file order, outputs joined under one cap. */
export function mergeRuns(runs: RunResult[], outputLimit: number): RunResult {
  if (runs.length === 0) return { tests: [], output: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 0 };
  if (runs.length === 1) return { ...runs[0]! };
  const joined = runs.map((r) => r.output).join('');
  const cut = joined.length > outputLimit;
  const timed = runs.find((r) => r.timedOut);
  const result: RunResult = {
    tests: runs.flatMap((r) => r.tests),
    output: cut ? `${joined.slice(0, outputLimit)}\n[output truncated: ${joined.length - outputLimit} more characters not shown]\n` : joined,
    exitCode: timed ? null : (runs.find((r) => r.exitCode !== 0)?.exitCode ?? 0),
    timedOut: timed !== undefined,
    truncated: cut || runs.some((r) => r.truncated),
    durationMs: runs.reduce((s, r) => s + r.durationMs, 0),
  };
  if (timed?.running) result.running = timed.running;
  return result;
}
