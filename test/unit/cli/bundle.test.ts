// The portable bundle (`npm run bundle:node`): built into a temporary folder, copied elsewhere, and run
// there with no Node on PATH (only sh, tar and gzip), as on a lent GPU machine: `webswe gpu --json`
// finds the adapter (SwiftShader here), `webswe solve` plays an expert episode whose tests run in the
// node sandbox on the bundled Node, `bench train` runs a training step on the WASM backend's threads and
// `bench kernels` the WGSL kernels and the CPU roofline; `bench config` gives the PyTorch peer (torch-peer.py,
// beside gpu-report.sh) its shape. The folder stays under the 60 MiB.
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
    // The worker sandbox from its prebuilt runner (no esbuild there), as the micro preset uses it.
    const worker = spawnSync(join(there, 'webswe'), ['solve', '--task', join(there, '.unpacked', 'public', 'tasks', 'level0', 'val.jsonl'), '--policy', 'expert', '--sandbox', 'worker', '--json'], { env, encoding: 'utf8', timeout: 300_000 });
    expect(worker.status, worker.stderr).toBe(0);
    expect(JSON.parse(worker.stdout)).toMatchObject({ sandbox: 'worker', end_reason: 'submitted', reward: { tests: 1 } });
    // The WASM backend's helper threads start inside the bundle (worker_threads from the one-file CLI),
    // in a training step and in bench kernels' CPU roofline beside the WGSL kernels.
    const step = spawnSync(join(there, 'webswe'), ['bench', 'train', '--model', 'scratch-160k', '--backend', 'wasm,fast-cpu', '--rows', '1', '--tokens', '64', '--steps', '1', '--json'], { env, encoding: 'utf8', timeout: 300_000 });
    expect(step.status, step.stderr).toBe(0);
    const rows = (JSON.parse(step.stdout) as { results: { backend: string; tokens_per_s: number; vs_fast_cpu?: number }[] }).results;
    expect(rows.map((r) => r.backend)).toEqual([expect.stringMatching(/^wasm \(SIMD, \d+ threads?\)/), 'fast-cpu (blocked JS)']);
    expect(rows[0]!.tokens_per_s).toBeGreaterThan(0);
    expect(rows[0]!.vs_fast_cpu).toBeGreaterThan(0);
    const kernels = spawnSync(join(there, 'webswe'), ['bench', 'kernels', '--no-peer', '--json'], { env, encoding: 'utf8', timeout: 300_000 });
    expect(kernels.status, kernels.stderr).toBe(0);
    const k = JSON.parse(kernels.stdout) as { results: { op: string }[]; cpu: { peak: { all_threads_gflops: number; read_gbps: number }; ops: { op: string; share_of_peak: number }[] } };
    expect(k.results.some((r) => r.op === 'matmul')).toBe(true);
    expect(k.cpu.peak.all_threads_gflops).toBeGreaterThan(0);
    expect(k.cpu.peak.read_gbps).toBeGreaterThan(0);
    expect(k.cpu.ops.filter((o) => o.op === 'matmul').length).toBe(8);
    // The GPU report's peer step: the 0.5 B shape's config.json for torch-peer.py, which travels beside it.
    const config = spawnSync(join(there, 'webswe'), ['bench', 'config', 'qwen2.5-coder-0.5b'], { env, encoding: 'utf8', timeout: 300_000 });
    expect(config.status, config.stderr).toBe(0);
    expect(JSON.parse(config.stdout)).toMatchObject({ model_type: 'qwen2', hidden_size: 896, num_hidden_layers: 24, webswe_lora: { rank: 16 } });
    expect(statSync(join(there, 'torch-peer.py')).isFile()).toBe(true);
  }, 900_000);
});
