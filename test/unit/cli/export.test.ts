// `webswe export` as a user runs it, on a run folder a real `webswe train` wrote (nano, base only): every
// stored episode comes out, as ATIF documents that read back as trajectories (fromAtif) or SFT lines
// (fromSftLine), tagged with run, phase, step and index; a bad format or folder is one line and exit 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromAtif, fromSftLine } from '../../../src/agent/export.ts';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const webswe = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 300_000 });
const SET = [
  'model.preset=scratch-30k', 'run.phases=base', 'tasks.train=test/fixtures/agent/mutations.jsonl', 'tasks.test=test/fixtures/agent/mutations.jsonl',
  'tasks.maxTrain=2', 'tasks.maxTest=1', 'tasks.difficulty=any', 'agent.maxTurns=3', 'reward.lengthThreshold=2', 'agent.contextTokens=1536',
  'bc.episodes=3', 'bc.epochs=1', 'bc.copyDrills=0', 'bc.drillSteps=0', 'bc.expertGuesses=0', 'eval.samples=2',
].flatMap((s) => ['--set', s]);

describe('webswe export', () => {
  it("writes every stored episode of a run as ATIF or SFT JSONL", () => {
    const run = join(mkdtempSync(join(tmpdir(), 'webswe-export-')), 'run');
    const t = webswe('train', '--preset', 'micro', '--out', run, ...SET);
    expect(t.status, t.stderr).toBe(0);
    const stored = readdirSync(join(run, 'trajectories')).reduce((a, f) => a + readFileSync(join(run, 'trajectories', f), 'utf8').trim().split('\n').length, 0);
    expect(stored).toBe(3 + 2); // three expert episodes, two evaluation samples
    const atif = webswe('export', '--run', run, '--format', 'atif');
    expect(atif.status, atif.stderr).toBe(0);
    const docs = JSON.parse(atif.stdout) as Parameters<typeof fromAtif>[0][];
    expect(docs).toHaveLength(stored);
    expect(docs.map((d) => (d.extra as { run: { phase: string } }).run.phase)).toEqual(['bc', 'bc', 'bc', 'eval-base', 'eval-base']);
    for (const d of docs) expect(fromAtif(d).turns.length).toBeGreaterThan(0);
    const out = join(run, 'episodes.jsonl');
    const sft = webswe('export', '--run', run, '--format', 'jsonl', '--out', out);
    expect(sft.status, sft.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(stored);
    for (const l of lines) expect(fromSftLine(l).messages.length).toBeGreaterThan(2);
    const bad = webswe('export', '--run', run, '--format', 'csv');
    expect([bad.status, bad.stderr.trim()]).toEqual([1, 'webswe: --format must be atif or jsonl, got "csv"']);
  }, 600_000);
});
