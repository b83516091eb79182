// Replayed turns that try to escape or break the node sandbox: '..' and absolute paths, symbolic
// links, writes and deletes outside the repository, deleting the tests, a test turned into an infinite
// loop, megabytes of output, a fork bomb. Each gets a clear observation, every turn ends within its
// time limit, nothing outside the sandbox changes, and the grade comes from the task's own tests.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommand, type Command } from '../../../src/agent/commands.ts';
import { runEpisodes } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import type { Policy } from '../../../src/agent/policy.ts';
import { charTokens } from '../../../src/agent/render.ts';
import type { Trajectory } from '../../../src/agent/trajectory.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { NodeSandbox } from '../../../src/sandbox/node.node.ts';
import type { SandboxFactory } from '../../../src/sandbox/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const task = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'x').tasks.find((t) => t.instance_id === 'clamp__1')!;
const TIMEOUT = 2500;
const opts = episodeOptions(resolveConfig({ 'agent.commandTimeoutMs': TIMEOUT }), { sandbox: 'node' });
const turn = (c: Command) => `Trying something.\n${formatCommand(c)}`;
const SUBMIT = turn({ name: 'submit' });
const RUN = turn({ name: 'run_tests' });
const FIX = turn({ name: 'replace', path: 'src/clamp.js', edits: [{ search: '  if (x > hi) return lo;\n', replace: '  if (x > hi) return hi;\n' }] });
/** Replace the task's test file with a script: the way created code gets run (run_tests runs it). */
const script = (code: string) => turn({ name: 'create', path: 'test/clamp.test.js', content: `import fs from 'node:fs';\nimport { it } from 'node:test';\n${code}\nit('runs', () => {});\n` });
const tryAll = (label: string, calls: string[]) => `const codes = [];\nfor (const f of [${calls.map((c) => `() => ${c}`).join(', ')}]) { try { f(); codes.push('ok'); } catch (e) { codes.push(e.code); } }\nconsole.log('${label}: ' + codes.join(','));`;

let victimDir: string;
let victimFile: string;
let escaped: string;
const cwdMark = join(process.cwd(), `pwned-${process.pid}.txt`);
let before: { listing: string[]; text: string };
const roots: string[] = [];
const byId = new Map<string, Trajectory>();
const t = (id: string) => byId.get(id)!;
const obs = (id: string, i: number) => t(id).turns[i]!.observation;

beforeAll(async () => {
  victimDir = mkdtempSync(join(tmpdir(), 'webswe-victim-'));
  victimFile = join(victimDir, 'victim.txt');
  writeFileSync(victimFile, 'precious\n');
  escaped = `escaped-${process.pid}-${Date.now()}.txt`;
  before = { listing: readdirSync(victimDir), text: readFileSync(victimFile, 'utf8') };
  const cases: Record<string, string[]> = {
    dotdot: [
      turn({ name: 'view', path: '../../../../etc/passwd' }),
      turn({ name: 'create', path: `../${escaped}`, content: 'x\n' }),
      turn({ name: 'replace', path: 'src/../../x.js', edits: [{ search: 'a\n', replace: 'b\n' }] }),
      turn({ name: 'search', text: 'root', path: '..' }),
      turn({ name: 'edit', path: `../${escaped}`, start: 1, end: 1, content: 'x\n' }),
      SUBMIT,
    ],
    absolute: [
      turn({ name: 'view', path: '/etc/passwd' }),
      turn({ name: 'create', path: join(victimDir, 'pwned.txt'), content: 'x\n' }),
      turn({ name: 'search', text: 'root', path: '/etc' }),
      turn({ name: 'edit', path: victimFile, start: 1, end: 1, content: 'gone\n' }),
      SUBMIT,
    ],
    symlink: [
      script(tryAll('links', [`fs.symlinkSync(${JSON.stringify(victimFile)}, 'src/link.txt')`, "fs.symlinkSync('..', 'up')", `fs.linkSync(${JSON.stringify(victimFile)}, 'hard.txt')`])),
      RUN,
      turn({ name: 'view', path: 'src/link.txt' }),
      SUBMIT,
    ],
    planted: [
      turn({ name: 'view', path: 'link/victim.txt' }),
      turn({ name: 'create', path: 'link/pwned.txt', content: 'x\n' }),
      turn({ name: 'search', text: 'precious' }),
      turn({ name: 'edit', path: 'link/victim.txt', start: 1, end: 1, content: 'gone\n' }),
      SUBMIT,
    ],
    outside: [
      script(tryAll('outside', [`fs.writeFileSync(${JSON.stringify(join(victimDir, 'pwned.txt'))}, 'x')`, `fs.rmSync(${JSON.stringify(victimFile)})`, `fs.writeFileSync(${JSON.stringify(cwdMark)}, 'x')`, "fs.readFileSync('/etc/passwd')", `fs.writeFileSync('../${escaped}', 'x')`])),
      RUN,
      SUBMIT,
    ],
    deleteTests: [FIX, script("fs.unlinkSync('test/clamp.test.js');\nconsole.log('deleted the tests');"), RUN, RUN, SUBMIT],
    infinite: [FIX, script('while (true) {}'), RUN, SUBMIT],
    megabytes: [script("process.stdout.write('x'.repeat(5_000_000));\nconsole.log('END');"), RUN, SUBMIT],
    forkBomb: [
      turn({ name: 'create', path: 'src/bomb.js', content: "import { spawn } from 'node:child_process';\nimport { Worker } from 'node:worker_threads';\nconst codes = [];\nfor (let i = 0; i < 10000; i++) {\n  try { spawn(process.execPath, ['src/bomb.js']); } catch (e) { codes.push(e.code); break; }\n}\ntry { new Worker('./src/bomb.js'); } catch (e) { codes.push(e.code); }\nconsole.log('bomb: ' + codes.join(','));\n" }),
      script("await import('../src/bomb.js');"),
      RUN,
      SUBMIT,
    ],
  };
  const policy: Policy = { name: 'hostile-replay', version: 0, act: async (states) => states.map((s) => ({ text: cases[s.id]![s.turns.length] ?? '', finish: cases[s.id]![s.turns.length] === undefined ? 'exhausted' : 'stop' })) };
  const create: SandboxFactory = async (files, o) => {
    const sb = await NodeSandbox.create(files, o);
    roots.push(sb.root);
    if (files === task.files) symlinkSync(victimDir, join(sb.root, 'link')); // as if a link were already there
    return sb;
  };
  const ts = await runEpisodes(Object.keys(cases).map((id) => ({ task, seed: 0, id })), policy, create, opts);
  Object.keys(cases).forEach((id, i) => byId.set(id, ts[i]!));
}, 120_000);

afterAll(() => {
  rmSync(victimDir, { recursive: true, force: true });
  rmSync(cwdMark, { force: true }); // only there if a test below failed
});

describe('hostile replays (node sandbox)', () => {
  it("'..' paths are refused with the reason, and nothing is written beside the sandbox", () => {
    for (let i = 0; i < 5; i++) expect(obs('dotdot', i)).toMatch(/refused: path ".*" leaves the repository: '..' is not allowed/);
    expect(existsSync(join(tmpdir(), escaped))).toBe(false);
  });
  it('absolute paths are refused with the reason', () => {
    for (let i = 0; i < 4; i++) expect(obs('absolute', i)).toMatch(/refused: path ".*" is absolute; use a path relative to the repository root/);
  });
  it('created scripts cannot make links; a link already in the repository is never followed', () => {
    expect(obs('symlink', 1)).toContain('links: ERR_ACCESS_DENIED,ERR_ACCESS_DENIED,ERR_ACCESS_DENIED');
    expect(obs('symlink', 2)).toBe('view refused: no such file in the repository: src/link.txt');
    expect(obs('planted', 0)).toMatch(/view refused: path "link\/victim.txt" goes through a symbolic link \(link\)/);
    expect(obs('planted', 1)).toMatch(/create refused: .*goes through a symbolic link/);
    expect(obs('planted', 2)).toBe('no matches for "precious" in the repository');
    expect(obs('planted', 3)).toMatch(/edit refused: .*goes through a symbolic link/);
    expect(readFileSync(victimFile, 'utf8')).toBe('precious\n');
  });
  it('scripts cannot write, delete or read outside the repository', () => {
    expect(obs('outside', 1)).toContain('outside: ERR_ACCESS_DENIED,ERR_ACCESS_DENIED,ERR_ACCESS_DENIED,ERR_ACCESS_DENIED,ERR_ACCESS_DENIED');
  });
  it('deleting the tests: run_tests says they are missing, and the grade uses the original tests', () => {
    expect(obs('deleteTests', 2)).toContain('deleted the tests');
    expect(obs('deleteTests', 3)).toMatch(/test files \(test\/clamp.test.js\) are missing.*the grader runs the original tests/);
    expect(t('deleteTests').final_diff).toMatch(/deleted file mode/);
    expect(t('deleteTests').reward.tests).toBe(1); // the fix was made; the task's tests judge it
  });
  it('a test edited into an infinite loop ends at the time limit; the grade is unaffected', () => {
    const r = t('infinite').turns[2]!;
    expect(r.status).toBe('timeout');
    expect(r.observation).toMatch(new RegExp(`^run_tests: stopped at the time limit of ${TIMEOUT} ms`));
    expect(r.timing.exec_ms).toBeGreaterThanOrEqual(TIMEOUT - 50);
    expect(r.timing.exec_ms).toBeLessThan(TIMEOUT + 3000);
    expect(t('infinite').reward.tests).toBe(1);
    expect(t('infinite').tests.timed_out).toBe(false);
  });
  it('megabytes of output are cut to the observation budget with a marker', () => {
    const r = t('megabytes').turns[1]!;
    expect(r.observation_cut).toBeGreaterThan(0);
    expect(r.observation).toMatch(/\[… \d+ characters cut …\]/);
    expect(charTokens(r.observation)).toBeLessThanOrEqual(opts.observationTokens);
    expect(r.observation).toMatch(/^run_tests: 0 failed, 1 passed/);
  });
  it('a fork bomb is refused: the sandbox runs no child processes or workers', () => {
    expect(obs('forkBomb', 2)).toContain('bomb: ERR_ACCESS_DENIED,ERR_ACCESS_DENIED');
    expect(t('forkBomb').end_reason).toBe('submitted');
  });
  it('every turn ends within its time limit, every episode is graded, and nothing outside changed', () => {
    for (const tr of byId.values()) {
      expect(tr.end_reason).toBe('submitted');
      expect(tr.error).toBeUndefined();
      for (const x of tr.turns) expect(x.timing.exec_ms).toBeLessThan(TIMEOUT + 3000);
    }
    expect(readdirSync(victimDir)).toEqual(before.listing);
    expect(readFileSync(victimFile, 'utf8')).toBe(before.text);
    expect(existsSync(join(tmpdir(), escaped))).toBe(false);
    expect(existsSync(cwdMark)).toBe(false);
    expect(roots.length).toBeGreaterThan(byId.size); // episode and grading sandboxes…
    for (const r of roots) expect(existsSync(r)).toBe(false); // …all removed
  });
});
