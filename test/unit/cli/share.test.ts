// The shared run from the terminal: `webswe share config` writes a nats-server config that the real
// server accepts (and whose users the permissions name), TLS on both listeners with a self-signed
// certificate; a `webswe train --share … --share-ca` learner and a `webswe contribute … --ca` process, two
// real node processes, play a nano DAPO iteration through that server over TLS,
// and the run folder's contributors.json credits the contributor with every group; then the same for a LoRA
// run of a model folder (the base sent once, adapters per version). Bad input (an http URL,
// a wrong password, a run id that is not a subject token) is one line naming the fix.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noNatsReason } from '../../helpers/nats.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { randomShapeModel } from '../../../src/model/shapes.ts';
import { hfFolderFiles } from '../../../src/model/weights.ts';
import { tokenizerCorpus } from '../../../src/rl/session.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { smallQwen2 } from '../../helpers/model.ts';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
const run = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d));
    p.stderr.on('data', (d: Buffer) => (stderr += d));
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });

let server: ChildProcess | undefined;
afterAll(() => void server?.kill('SIGTERM'));

describe.skipIf(noNatsReason)('webswe share config, train --share and contribute', () => {
  it('a learner and a contributor process play a DAPO iteration through the configured server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webswe-share-cli-'));
    const port = await freePort(), ws = await freePort();
    const cfg = spawnSync(process.execPath, [BIN, 'share', 'config', '--dir', join(dir, 'server'), '--contributors', '2', '--port', String(port), '--ws-port', String(ws), '--json'], { encoding: 'utf8' });
    expect(cfg.status, cfg.stderr).toBe(0);
    expect(JSON.parse(cfg.stdout)).toMatchObject({ port, websocket_port: ws, learner: 'learner', contributors: ['c001', 'c002'], tls: { self_signed: true } });
    const conf = join(dir, 'server', 'nats.conf');
    expect(spawnSync('nats-server', ['-t', '-c', conf], { encoding: 'utf8' }).status).toBe(0); // the server's own config check
    const users = JSON.parse(readFileSync(join(dir, 'server', 'users.json'), 'utf8')) as { learner: { password: string }; contributors: { user: string; password: string }[]; tls: { cert: string } };
    const ca = users.tls.cert;
    server = spawn('nats-server', ['-c', conf], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1500));

    const out = join(dir, 'run');
    const learner = run([
      'train', '--backend', 'fast-cpu', '--seed', '2', '--out', out, '--share', `nats://learner:${users.learner.password}@127.0.0.1:${port}`, '--share-ca', ca, '--share-run', 'cli1',
      ...['model.preset=scratch-30k', 'run.phases=dapo', 'tasks.train=test/fixtures/agent/mutations.jsonl', 'tasks.test=test/fixtures/agent/mutations.jsonl', 'tasks.maxTrain=3',
        'tasks.maxTest=1', 'tasks.difficulty=any', 'agent.maxTurns=2', 'reward.lengthThreshold=1', 'agent.contextTokens=1536', 'agent.actionTokens=48',
        'dapo.iterations=1', 'dapo.tasksPerIteration=2', 'dapo.groupSize=2', 'dapo.filterGroups=false', 'dapo.optimizerSteps=1', 'eval.samples=1', 'dist.roundSeconds=120'].flatMap((s) => ['--set', s]),
    ]);
    const c = users.contributors[0]!;
    const contributor = run(['contribute', '--server', `nats://${c.user}:${c.password}@127.0.0.1:${port}`, '--run', 'cli1', '--ca', ca, '--backend', 'fast-cpu', '--idle-exit', '15', '--json']);
    const [l, k] = await Promise.all([learner, contributor]);
    expect(l.status, l.stderr).toBe(0);
    expect(l.stderr).toMatch(/sharing run "cli1"/);
    expect(k.status, k.stderr).toBe(0);
    expect(k.stderr).toMatch(/joined run cli1 as c001/);
    expect(JSON.parse(k.stdout)).toMatchObject({ run: 'cli1', user: 'c001', items: 2, episodes: 4 });
    expect(JSON.parse(readFileSync(join(out, 'contributors.json'), 'utf8'))).toEqual({ c001: { accepted: 2, rejected: {} } });
    const dapo = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((x) => JSON.parse(x) as { phase: string; values: Record<string, number> }).find((r) => r.phase === 'dapo')!;
    expect(dapo.values).toMatchObject({ dist_accepted: 2, dist_rejected: 0, dist_played_by_learner: 0 });

    // Bad input: one line each, naming the fix.
    const bad = async (args: string[]) => {
      const r = await run(args);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr;
    };
    expect(await bad(['contribute', '--server', `http://127.0.0.1:${port}`, '--run', 'cli1'])).toMatch(/nats:\/\/ URL/);
    expect(await bad(['contribute', '--server', `nats://${c.user}:wrong@127.0.0.1:${port}`, '--run', 'cli1', '--ca', ca])).toMatch(/refused user "c001"/);
    expect(await bad(['contribute', '--server', `nats://${c.user}:${c.password}@127.0.0.1:${port}`, '--run', 'cli1'])).toMatch(/does not trust .*pass --ca/);
    expect(await bad(['contribute', '--server', `nats://${c.user}:${c.password}@127.0.0.1:${port}`, '--run', 'a.b', '--ca', ca])).toMatch(/subject token/);
    expect(existsSync(join(out, 'weights', 'dapo', 'model.safetensors'))).toBe(true);

    // A LoRA run of a pretrained model folder (a small Qwen2 shape with random weights and its tokenizer): the
    // contributor reads the base once and each version's adapters, and every group it plays is accepted.
    const folder = join(dir, 'model');
    mkdirSync(folder);
    const shape = smallQwen2({ vocab: 1200, layers: 2 });
    const { tasks } = parseTaskFile(readFileSync('test/fixtures/agent/mutations.jsonl', 'utf8'), 'mutations.jsonl');
    const source = randomShapeModel(shape, tokenizerCorpus(tasks), 5, 400);
    const files = hfFolderFiles({ config: source.config, tensors: await source.weights.readModel(source.config), tokenizerJson: source.tokenizerJson, tokenizerConfig: source.tokenizerConfig });
    for (const [name, bytes] of files) writeFileSync(join(folder, name), bytes);
    const outLora = join(dir, 'run-lora');
    const learnerLora = run([
      'train', '--backend', 'fast-cpu', '--seed', '2', '--out', outLora, '--share', `nats://learner:${users.learner.password}@127.0.0.1:${port}`, '--share-ca', ca, '--share-run', 'cli2',
      ...[`model.preset=${folder}`, 'model.loraRank=2', 'model.loraAlpha=4', 'run.phases=dapo', 'tasks.train=test/fixtures/agent/mutations.jsonl', 'tasks.test=test/fixtures/agent/mutations.jsonl',
        'tasks.maxTrain=3', 'tasks.maxTest=1', 'tasks.difficulty=any', 'agent.maxTurns=2', 'reward.lengthThreshold=1', 'agent.contextTokens=1536', 'agent.actionTokens=24',
        'dapo.iterations=2', 'dapo.tasksPerIteration=2', 'dapo.groupSize=2', 'dapo.filterGroups=false', 'dapo.optimizerSteps=1', 'eval.samples=1', 'dist.roundSeconds=120'].flatMap((s) => ['--set', s]),
    ]);
    const contributorLora = run(['contribute', '--server', `nats://${c.user}:${c.password}@127.0.0.1:${port}`, '--run', 'cli2', '--ca', ca, '--backend', 'fast-cpu', '--idle-exit', '15', '--json']);
    const [ll, kl] = await Promise.all([learnerLora, contributorLora]);
    expect(ll.status, ll.stderr).toBe(0);
    expect(kl.status, kl.stderr).toBe(0);
    expect(JSON.parse(kl.stdout)).toMatchObject({ run: 'cli2', user: 'c001', items: 4, episodes: 8 });
    expect(JSON.parse(readFileSync(join(outLora, 'contributors.json'), 'utf8'))).toEqual({ c001: { accepted: 4, rejected: {} } });
    const rows = readFileSync(join(outLora, 'metrics.jsonl'), 'utf8').trim().split('\n').map((x) => JSON.parse(x) as { phase: string; values: Record<string, number> }).filter((r) => r.phase === 'dapo');
    expect(rows.map((r) => r.values)).toMatchObject([0, 1].map(() => ({ dist_accepted: 2, dist_rejected: 0, dist_played_by_learner: 0 })));
    expect(existsSync(join(outLora, 'weights', 'dapo', 'adapter_model.safetensors'))).toBe(true);
  }, 300_000);
});
