// `webswe tasks validate` as a user runs it (node bin/webswe.js): the exact verdict for each
// hand-written task, broken ones included (a looping test ends at the time limit and the run goes
// on), the JSON document's shape, exit codes, and one-line errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../fixtures/tasks/', import.meta.url));
const webswe = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 90_000 });
const tmp = mkdtempSync(join(tmpdir(), 'webswe-tasks-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Doc {
  tasks: { instance_id: string; valid: boolean; reason: string; code: string; line: number }[];
  valid: number;
  invalid: number;
}

describe('webswe tasks validate', () => {
  it('gives the right verdict for every hand-written task and exits 1', () => {
    const r = webswe('tasks', 'validate', join(FIXTURES, 'handwritten.jsonl'), '--json');
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.tasks.map((t) => [t.instance_id, t.valid, t.code])).toEqual([
      ['clamp__1', true, 'ok'],
      ['clamp__2', false, 'patch_does_not_apply'],
      ['clamp__3', false, 'fail_to_pass_passes_before'],
      ['clamp__4', false, 'pass_to_pass_fails_before'],
      ['clamp__5', false, 'timeout'],
      ['clamp__6', true, 'ok'],
      ['clamp__7', false, 'test_not_found'],
      ['clamp__8', false, 'fails_after_fix'],
      ['clamp__9', true, 'ok'],
      ['clamp__10', false, 'test_not_found'],
    ]);
    expect(doc.valid).toBe(3);
    expect(doc.invalid).toBe(7);
    const reason = Object.fromEntries(doc.tasks.map((t) => [t.instance_id, t.reason]));
    expect(reason.clamp__1).toBe('ok');
    expect(reason.clamp__2).toMatch(/^patch does not apply to src\/clamp\.js: hunk 1 expected '  if \(lo > hi\) throw new Error\('bad range'\);' at line 2/);
    expect(reason.clamp__3).toBe("FAIL_TO_PASS test 'clamp > clamp > lowers values above the range to hi' passes before the fix");
    expect(reason.clamp__4).toBe("PASS_TO_PASS test 'clamp > lerp > interpolates between the ends' fails before the fix: Expected values to be strictly equal: 7.5 !== 2.5");
    expect(reason.clamp__5).toMatch(/^timeout: test 'clamp > wrap > wraps negative values' was still running at the 5000 ms limit before the fix/);
    expect(reason.clamp__7).toMatch(/'clamp > clamp > clamps infinity' was not reported before the fix$/);
    expect(reason.clamp__8).toBe("FAIL_TO_PASS test 'clamp > clamp > lowers values above the range to hi' fails after the fix: Expected values to be strictly equal: 0 !== 10");
    expect(reason.clamp__10).toMatch(/no test ran; the run ended with code 1: SyntaxError/);
    expect(r.stderr).toMatch(/validated 10\/10 tasks \(3 valid, 7 invalid\)/); // progress on stderr, not stdout
  });

  it('gives the same verdicts with --sandbox worker (the emulated node:test in a confined process)', () => {
    const node = JSON.parse(webswe('tasks', 'validate', join(FIXTURES, 'handwritten.jsonl'), '--json').stdout) as Doc;
    const r = webswe('tasks', 'validate', join(FIXTURES, 'handwritten.jsonl'), '--json', '--sandbox', 'worker');
    expect(r.status).toBe(1);
    const worker = JSON.parse(r.stdout) as Doc;
    expect(worker.tasks.map((t) => [t.instance_id, t.valid, t.code])).toEqual(node.tasks.map((t) => [t.instance_id, t.valid, t.code]));
  }, 60_000);

  it('exits 0 on a file of valid tasks and prints a summary', () => {
    const lines = readFileSync(join(FIXTURES, 'handwritten.jsonl'), 'utf8').split('\n');
    const file = join(tmp, 'valid.jsonl');
    writeFileSync(file, [lines[0], lines[5], lines[8]].join('\n') + '\n'); // clamp__1, __6, __9
    const r = webswe('tasks', 'validate', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/✓ clamp__1 /);
    expect(r.stdout).toMatch(/^3 valid, 0 invalid \(of 3\) in [\d.]+ s$/m);
  });

  it('finds a flaky task when asked to repeat the runs', () => {
    const flaky = join(FIXTURES, 'flaky.jsonl');
    const once = webswe('tasks', 'validate', flaky, '--json');
    expect(JSON.parse(once.stdout).valid).toBe(1);
    const twice = webswe('tasks', 'validate', flaky, '--repeats', '2', '--json');
    expect(twice.status).toBe(1);
    expect((JSON.parse(twice.stdout) as Doc).tasks[0]).toMatchObject({
      valid: false,
      code: 'flaky',
      reason: "flaky: test 'clamp > runs only once' was pass in run 1 and fail in run 2 before the fix",
    });
  });

  it('reports malformed lines as invalid with their line and field, and still validates the rest', () => {
    const r = webswe('tasks', 'validate', join(FIXTURES, 'malformed.jsonl'), '--json', '--timeout', '3000');
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.tasks.map((t) => t.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]);
    const byLine = new Map(doc.tasks.map((t) => [t.line, t]));
    expect(byLine.get(3)).toMatchObject({ instance_id: 'mini__3', code: 'malformed', reason: expect.stringMatching(/malformed\.jsonl:3: field problem_statement: is missing$/) });
    expect(byLine.get(2)).toMatchObject({ instance_id: 'line 2', code: 'malformed' });
    expect(byLine.get(14)!.reason).toMatch(/field repo: .*; .*field patch: is empty/);
    expect(byLine.get(1)).toMatchObject({ instance_id: 'mini__1', code: 'test_not_found' }); // parsed, then run: its test file is empty
  });

  it('refuses --sandbox webcontainer with a one-line message, and a missing file', () => {
    const w = webswe('tasks', 'validate', join(FIXTURES, 'handwritten.jsonl'), '--sandbox', 'webcontainer');
    expect(w.status).toBe(1);
    expect(w.stderr).toMatch(/^webswe: --sandbox webcontainer is not available here: WebContainers run only in a cross-origin-isolated browser page/);
    expect(w.stderr).not.toMatch(/at .*\.ts:\d+/);
    const m = webswe('tasks', 'validate', join(tmp, 'nope.jsonl'));
    expect(m.status).toBe(1);
    expect(m.stderr).toMatch(/cannot read the task file .*nope\.jsonl: no such file/);
  });
});
