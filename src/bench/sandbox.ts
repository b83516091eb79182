// `webswe bench sandbox`, the measuring part (core: no DOM, no Node): which tasks (a spread sample), how
// one sample is taken (a fresh sandbox on the task's files, then the timed part: apply the gold patch
// and run the task's tests, checked to pass), and the figures (median, p95) beside a peer's. The
// processes and the browser that host each sandbox are in sandbox.node.ts.
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';

/** What a sandbox should take, median per task (the targets). */
export const SANDBOX_TARGET_MS: Readonly<Record<string, number>> = Object.freeze({ node: 200, worker: 50, 'worker-node': 200 });

export interface SandboxBenchRow {
  name: string;
  shape: string;
  /** Median ms per task: apply the gold patch and run the task's tests (the peer: run the tests). */
  ms: number;
  p95_ms: number;
  samples: number;
  /** Samples whose gold run did not pass every FAIL_TO_PASS and PASS_TO_PASS test. */
  failed_checks?: number;
  target_ms?: number;
  meets_target?: boolean;
  peer?: string;
  peer_ms?: number;
  /** ms / peer_ms. */
  ratio?: number;
  /** Why this row has no figures. */
  not_measured?: string;
}

/** `k` tasks spread over the set (every n-th, sorted by id), so every library shows up. */
export function sampleTasks(tasks: readonly Task[], k: number): Task[] {
  const sorted = [...tasks].sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0));
  if (k >= sorted.length) return sorted;
  return Array.from({ length: k }, (_, i) => sorted[Math.floor((i * sorted.length) / k)]!);
}

export function quantile(samples: readonly number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** One sample: a fresh sandbox on the base files, then (timed) the gold patch and the tests. */
export async function timeGoldRun(create: SandboxFactory, task: Task, timeoutMs: number): Promise<{ ms: number; ok: boolean }> {
  const sb = await create(task.files, { timeoutMs });
  try {
    const t0 = performance.now();
    await sb.applyPatch(task.patch);
    const run = await sb.runTests(task.test_files);
    const ms = performance.now() - t0;
    const passed = new Set(run.tests.filter((t) => t.status === 'pass').map((t) => t.fullName));
    return { ms, ok: [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].every((n) => passed.has(n)) };
  } finally {
    await sb.dispose();
  }
}

/** Time every task (after `warmup` untimed ones) in one sandbox kind; `onProgress` after each. */
export async function benchSandbox(create: SandboxFactory, tasks: readonly Task[], opts: { timeoutMs: number; warmup: number; onProgress?: (done: number) => void }) {
  for (const t of tasks.slice(0, opts.warmup)) await timeGoldRun(create, t, opts.timeoutMs);
  const samples: number[] = [];
  let failed = 0;
  for (const [i, t] of tasks.entries()) {
    const r = await timeGoldRun(create, t, opts.timeoutMs);
    samples.push(r.ms);
    if (!r.ok) failed++;
    opts.onProgress?.(i + 1);
  }
  return { samples, failed };
}

export function row(name: string, shape: string, samples: readonly number[], extra: Partial<SandboxBenchRow> = {}): SandboxBenchRow {
  return { name, shape, ms: quantile(samples, 0.5), p95_ms: quantile(samples, 0.95), samples: samples.length, ...extra };
}

/** The human table: one line per row, ratio to the plain-node peer and the target. */
export function sandboxTable(rows: readonly SandboxBenchRow[]): string {
  const head = ['sandbox', 'median ms', 'p95 ms', 'n', 'vs peer', 'target', 'note'];
  const body = rows.map((r) => [
    r.name,
    r.not_measured ? '—' : r.ms.toFixed(1),
    r.not_measured ? '—' : r.p95_ms.toFixed(1),
    String(r.samples),
    r.ratio !== undefined ? `${r.ratio.toFixed(2)}× ${r.peer}` : '',
    r.target_ms !== undefined ? `< ${r.target_ms} ms ${r.meets_target ? 'met' : 'missed'}` : '',
    r.not_measured ? `not measured: ${r.not_measured}` : r.failed_checks ? `${r.failed_checks} gold runs did not pass` : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, ...body].map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}
