// The portable bundle (`npm run bundle:node`): built into a temporary folder, copied elsewhere, and run
// there with no Node on PATH (only sh, tar and gzip), as on a lent GPU machine: `webswe gpu --json`
// finds the adapter (SwiftShader here), and `webswe solve` plays an expert episode whose tests run in the
// node sandbox on the bundled Node. The folder stays under the 60 MiB.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm run bundle:node', () => {
  it('makes a folder that runs webswe without Node or npm', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'webswe-bundle-'));
    const built = join(tmp, 'built');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-node.mjs'), built], { stdio: 'pipe' });
    const size = statSync(join(built, 'payload.tar.gz')).size + statSync(join(built, 'webswe')).size + statSync(join(built, 'gpu-report.sh')).size;
    expect(size).toBeLessThan(60 * 2 ** 20);
    // Elsewhere, with a PATH that has the launcher's tools and no node.
    const there = join(tmp, 'elsewhere');
    cpSync(built, there, { recursive: true });
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    for (const t of ['sh', 'tar', 'gzip', 'mkdir', 'rm', 'mv', 'dirname']) {
      const p = execFileSync('sh', ['-c', `command -v ${t}`]).toString().trim();
      symlinkSync(p, join(bin, t));
    }
    const env = { HOME: tmp, PATH: bin };
    expect(spawnSync('sh', ['-c', 'command -v node'], { env }).status).not.toBe(0);
    const gpu = spawnSync(join(there, 'webswe'), ['gpu', '--json'], { env, encoding: 'utf8', timeout: 300_000 });
    expect(gpu.status, gpu.stderr).toBe(0);
    const doc = JSON.parse(gpu.stdout) as { backend: string; backendReason: string };
    expect(['wasm', 'webgpu']).toContain(doc.backend);
    expect(doc.backendReason).toBeTruthy();
    const solve = spawnSync(join(there, 'webswe'), ['solve', '--task', join(there, '.unpacked', 'public', 'tasks', 'level0', 'val.jsonl'), '--policy', 'expert', '--json'], { env, encoding: 'utf8', timeout: 300_000 });
    expect(solve.status, solve.stderr).toBe(0);
    expect(JSON.parse(solve.stdout)).toMatchObject({ end_reason: 'submitted', reward: { tests: 1 } });
  }, 600_000);
});
