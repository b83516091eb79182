// `webswe bench dist --overlap`: what overlapping rounds buy the learner. The same shared DAPO phase (a run
// preset's DAPO settings on a random-init from-scratch model, node sandboxes) twice on loopback, with
// dist.maxOffPolicy 0 and then 1: a real nats-server, the learner in this process (the trainer with
// SharedRollouts), and N contributors as separate `webswe contribute` processes, as users run them. Per
// iteration the learner's wall time and its idle time (waiting for results with none to verify: timing
// dist_wait_s); reported over the iterations after the first (the first round is issued at the start in both
// modes), with the ratio. On a machine with fewer cores than contributors + 1 they share the cores, so the figure
// is the one this machine gives, not a deployment's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import { resolveConfig, type ConfigValue } from '../rl/config.ts';
import { RUN_PRESETS } from '../rl/presets.ts';
import { train } from '../rl/trainer.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import { RunBus } from '../share/bus.ts';
import { SharedRollouts } from '../share/learner.ts';
import { startLocalServer } from '../share/local-server.node.ts';
import { FileRunStore } from '../store/fs.node.ts';
import type { Task } from '../tasks/schema.ts';

export interface OverlapBenchOptions {
  /** Training tasks (the rounds draw from them) and one held-out task (the phase's evaluation, one sample). */
  tasks: readonly Task[];
  test: readonly Task[];
  contributors: number;
  iterations: number;
  tasksPerIteration: number;
  groupSize: number;
  /** The run preset whose DAPO and agent settings the phase uses (default micro). */
  preset?: string;
  /** A from-scratch model shape (random init); default the preset's. */
  model?: string;
  seed: number;
  /** How to start `webswe contribute` (argv before the subcommand): default this process's own script. */
  command?: string[];
  onIteration?(r: { maxOffPolicy: number; iteration: number; seconds: number; waitS: number }): void;
}

export interface OverlapRun {
  max_off_policy: number;
  /** Per iteration: wall seconds, and the part the learner waited for results with none to verify. */
  iterations: { total_s: number; wait_s: number; rollout_s: number; train_s: number }[];
  /** Over the iterations after the first: mean wall seconds, and waited ÷ wall. */
  iteration_s: number;
  idle_share: number;
  played_by_learner: number;
  accepted: number;
}

export interface OverlapBenchResult {
  model: string;
  contributors: number;
  runs: OverlapRun[];
  /** Mean iteration (after the first) without overlap ÷ with it. */
  speedup: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function benchOverlap(o: OverlapBenchOptions): Promise<OverlapBenchResult> {
  if (o.iterations < 2) throw new Error('bench dist --overlap needs at least 2 iterations (the first round is never issued early)');
  const preset = RUN_PRESETS[o.preset ?? 'micro'];
  if (!preset) throw new Error(`unknown run preset ${o.preset}`);
  const runs: OverlapRun[] = [];
  let model = '';
  for (const maxOffPolicy of [0, 1]) {
    const overrides: Record<string, ConfigValue> = {
      ...(o.model ? { 'model.preset': o.model } : {}), 'run.phases': 'dapo', 'dapo.iterations': o.iterations, 'dapo.tasksPerIteration': o.tasksPerIteration,
      'dapo.groupSize': o.groupSize, 'dapo.filterGroups': false, 'eval.samples': 1, 'agent.sandbox': 'node', 'dist.maxOffPolicy': maxOffPolicy,
    };
    const cfg = resolveConfig(preset.overrides, { seed: o.seed }, overrides);
    model = cfg.model.preset;
    const server = await startLocalServer(o.contributors);
    const dir = mkdtempSync(join(tmpdir(), 'webswe-bench-overlap-'));
    const children: ChildProcess[] = [];
    const nc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    try {
      const run = `overlap${maxOffPolicy}`;
      const host = server.url.replace('nats://', '');
      const command = o.command ?? [...process.execArgv, process.argv[1]!];
      for (const u of server.contributors) {
        const c = spawn(process.execPath, [...command, 'contribute', '--server', `nats://${u.user}:${u.password}@${host}`, '--run', run, '--backend', 'fast-cpu', '--idle-exit', '300'], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        c.stderr!.on('data', (d: Buffer) => (err = (err + String(d)).slice(-2000)));
        c.on('exit', (code) => code && code !== 130 && process.stderr.write(`bench: contributor ${u.user} exited ${code}: ${err.trim().split('\n').at(-1) ?? ''}\n`));
        children.push(c);
      }
      const share = new SharedRollouts(new RunBus(nc, run), { limits: { maxResultBytes: cfg.dist.maxResultBytes, logprobTolerance: cfg.dist.logprobTolerance }, leaseSeconds: 60, maxAttempts: 3, roundSeconds: 600 });
      const store = await FileRunStore.open(dir);
      await train(cfg, {
        be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: o.tasks, test: o.test, share,
        events: {
          metrics: (rows) => {
            for (const r of rows) if (r.phase === 'dapo') o.onIteration?.({ maxOffPolicy, iteration: r.step, seconds: r.timing?.total_s ?? 0, waitS: r.timing?.dist_wait_s ?? 0 });
          },
        },
      });
      const rows = (await store.readMetrics()).filter((r) => r.phase === 'dapo');
      const its = rows.map((r) => ({ total_s: r.timing?.total_s ?? 0, wait_s: r.timing?.dist_wait_s ?? 0, rollout_s: r.timing?.rollout_s ?? 0, train_s: r.timing?.train_s ?? 0 }));
      const later = its.slice(1);
      runs.push({
        max_off_policy: maxOffPolicy, iterations: its, iteration_s: mean(later.map((i) => i.total_s)),
        idle_share: later.reduce((a, i) => a + i.wait_s, 0) / Math.max(1e-9, later.reduce((a, i) => a + i.total_s, 0)),
        played_by_learner: rows.reduce((a, r) => a + (r.values.dist_played_by_learner ?? 0), 0), accepted: rows.reduce((a, r) => a + (r.values.dist_accepted ?? 0), 0),
      });
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => c.once('exit', r)))));
      await nc.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { model, contributors: o.contributors, runs, speedup: runs[0]!.iteration_s / Math.max(1e-9, runs[1]!.iteration_s) };
}
