// `webswe train` interrupted as a user interrupts it: a real node process gets SIGINT while it clones
// the expert, writes a checkpoint and exits 130; `--resume` continues from that step and ends with the
// metrics of an uninterrupted run (timings aside). `--resume` on a folder with no checkpoint refuses
// in one line instead of starting over. SIGTERM (`kill`), and Ctrl-C reaching both the command and the process it
// re-runs itself as, stop it the same way, with nothing left running.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { vulkanEnvironment, vulkanEnvironmentApplied } from '../../../src/gpu/vulkan.node.ts';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
// nano on two fixture tasks, base only: 16 cloning steps of one episode each, a checkpoint every 4.
const SET = ['--preset', 'micro', ...[
  'model.preset=scratch-30k', 'run.phases=base', 'tasks.train=test/fixtures/agent/mutations.jsonl', 'tasks.test=test/fixtures/agent/mutations.jsonl',
  'tasks.maxTrain=2', 'tasks.maxTest=1', 'tasks.difficulty=any', 'agent.maxTurns=3', 'reward.lengthThreshold=2', 'agent.contextTokens=1536',
  'bc.episodes=8', 'bc.epochs=2', 'bc.batchEpisodes=1', 'bc.copyDrills=0', 'bc.drillSteps=0', 'bc.expertGuesses=0', 'eval.samples=1', 'run.checkpointSteps=4',
].flatMap((s) => ['--set', s])];

const metrics = (dir: string) =>
  readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => {
    const { phase, step, values } = JSON.parse(l) as { phase: string; step: number; values: unknown };
    return { phase, step, values };
  });

/** Runs `webswe train`; with `interruptAt`, sends `signal` (SIGINT) once stderr shows that many cloning steps, after
 *  `atSignal` (which sees the command's pid). */
function train(args: string[], interruptAt?: number, signal: NodeJS.Signals = 'SIGINT', o: { env?: NodeJS.ProcessEnv; atSignal?: (pid: number) => void; group?: boolean } = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    // group: in a process group of its own, signalled as a whole, as a terminal's Ctrl-C signals its foreground job.
    const p = spawn(process.execPath, [BIN, 'train', ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(o.env ? { env: o.env } : {}), ...(o.group ? { detached: true } : {}) });
    let stderr = '', stdout = '', sent = false;
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => {
      stderr += d;
      const m = [...stderr.matchAll(/base update: (\d+)\//g)].at(-1);
      if (interruptAt !== undefined && !sent && m && Number(m[1]) >= interruptAt) {
        sent = true;
        o.atSignal?.(p.pid!);
        if (o.group) process.kill(-p.pid!, signal);
        else p.kill(signal);
      }
    });
    p.on('close', (code) => resolve({ code, stderr, stdout }));
  });
}

/** Processes whose command line names `dir`. */
const running = (dir: string) => spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l.includes(dir));

describe('webswe train: Ctrl-C and --resume', () => {
  it('SIGINT during cloning checkpoints; --resume ends as the uninterrupted run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'webswe-resume-'));
    const a = await train(['--out', join(root, 'a'), ...SET]);
    expect(a.code, a.stderr).toBe(0);
    const b = await train(['--out', join(root, 'b'), ...SET], 6);
    expect(b.code, b.stderr).toBe(130);
    expect(b.stderr).toMatch(/writing a checkpoint.*--resume/);
    expect(b.stdout).toMatch(/no phase finished yet/);
    const state = JSON.parse(readFileSync(join(root, 'b', 'checkpoint', 'state.json'), 'utf8')) as { phase: string; step: number };
    expect(state.phase).toBe('base');
    expect(state.step).toBeGreaterThanOrEqual(6);
    expect(state.step).toBeLessThan(16);
    const c = await train(['--resume', join(root, 'b')]);
    expect(c.code, c.stderr).toBe(0);
    // The expert episodes were read back, not played again, and the steps before the stop not rerun.
    expect(c.stderr).not.toMatch(/expert episodes/);
    expect(c.stderr).not.toMatch(/base update: 1\//);
    expect(metrics(join(root, 'b'))).toEqual(metrics(join(root, 'a')));
    expect(readFileSync(join(root, 'b', 'weights', 'base', 'model.safetensors'))).toEqual(readFileSync(join(root, 'a', 'weights', 'base', 'model.safetensors')));
  }, 600_000);

  // Started as a user starts it, without the GPU driver's environment (this test runner sets it): the command
  // re-runs itself with it (launch.node.ts) where the machine needs that; the signal goes to the first process
  // (a `kill`), or to the whole process group (a terminal's Ctrl-C: both processes get it, and the re-run must
  // still stop after the current turn, not take the launcher's copy as a second Ctrl-C).
  it.each([
    ['SIGTERM to the command (a plain `kill`)', 'SIGTERM', false],
    ["SIGINT to the command's process group (Ctrl-C in a terminal)", 'SIGINT', true],
  ] as const)('%s stops the run after the current turn, and leaves no process behind', async (_, signal, group) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'webswe-term-')), 'run');
    const setup = vulkanEnvironment();
    const env = { ...process.env };
    for (const k of Object.keys(setup.env)) delete env[k];
    delete env.WEBSWE_REEXEC;
    let processes = 0;
    const b = await train(['--out', dir, ...SET], 4, signal, { env, group, atSignal: () => (processes = running(dir).length) });
    expect(processes).toBe(vulkanEnvironmentApplied(setup, env) ? 1 : 2);
    expect(b.code, b.stderr).toBe(130);
    expect(b.stderr).toMatch(/writing a checkpoint.*--resume/);
    expect(b.stdout).toMatch(/no phase finished yet/); // it wrote its results: it stopped, it did not quit
    expect(JSON.parse(readFileSync(join(dir, 'checkpoint', 'state.json'), 'utf8'))).toMatchObject({ phase: 'base' });
    expect(running(dir)).toEqual([]);
  }, 300_000);

  it('--resume on a folder without a checkpoint exits non-zero with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'webswe-nock-'));
    const r0 = spawnSync(process.execPath, [BIN, 'train', '--resume', dir], { encoding: 'utf8' });
    expect(r0.status).toBe(1);
    expect(r0.stderr).toMatch(/has no config\.json: not a webswe run folder/);
    // A run folder that stopped before any checkpoint: config.json, no checkpoint/.
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'config.json'), JSON.stringify({ 'model.preset': 'scratch-30k' }));
    const r = spawnSync(process.execPath, [BIN, 'train', '--resume', join(dir, 'x')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toHaveLength(1);
    expect(r.stderr).toMatch(/has no checkpoint to resume from/);
    expect(existsSync(join(dir, 'x', 'metrics.jsonl'))).toBe(false);
  });
});
