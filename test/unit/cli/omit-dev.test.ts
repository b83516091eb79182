// The product without the dev dependencies: a copy of the repository's tracked files, `npm ci --omit=dev` (no vite,
// vitest, playwright, TypeScript or TF.js), and the CLI trains a small base phase of the learning run (worker sandbox,
// WASM backend) and writes its results. Dev dependencies are for building the app, testing and benchmarking only.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'webswe-omit-dev-'));

describe('npm ci --omit=dev', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs a CLI that trains the learning run', () => {
    for (const f of execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)) {
      if (!existsSync(join(ROOT, f))) continue; // deleted in the working tree
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      cpSync(join(ROOT, f), join(dir, f));
    }
    const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    for (const dev of ['vite', 'vitest', 'playwright-core', 'typescript', '@tensorflow/tfjs-core']) expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false);
    const out = join(dir, 'runs', 'base');
    const set = ['run.phases=base', 'bc.episodes=8', 'bc.drillSteps=20', 'bc.drillUntil=0', 'bc.copyDrills=8', 'tasks.maxTest=2', 'eval.samples=1'];
    const r = spawnSync(process.execPath, ['bin/webswe.js', 'train', '--preset', 'micro', '--backend', 'wasm', '--threads', '1', '--out', out, '--set', ...set], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { phases: { phase: string }[] };
    expect(results.phases.map((x) => x.phase)).toEqual(['base']);
  }, 600_000);
});
