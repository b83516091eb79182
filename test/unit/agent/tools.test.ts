// The commands' effects: view windows, search, exact-once replace with closest-line hints, create,
// run_tests on a real node sandbox (per-test results, one test, missing test files), truncation.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEdits } from '../../../src/agent/edits.ts';
import { compactFailure, runTool, truncateText, type ToolContext } from '../../../src/agent/tools.ts';
import { charTokens } from '../../../src/agent/render.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import type { Sandbox } from '../../../src/sandbox/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';

const LONG = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const CODE = 'export function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return lo;\n  return x;\n}\n\nexport function twice(x) {\n  return x;\n}\n';
const mem = () => new MemorySandbox({ 'src/a.js': CODE, 'src/long.txt': LONG, 'test/a.test.js': "import { clamp } from '../src/a.js';\n", 'empty.txt': '' });
const ctxOf = (sandbox: Sandbox): ToolContext => ({ sandbox, testFiles: ['test/a.test.js'], timeoutMs: 5000 });

describe('view', () => {
  it('shows numbered lines with the window and the file length', async () => {
    const r = await runTool(ctxOf(mem()), { name: 'view', path: 'src/a.js', start: 2, end: 3 });
    expect(r).toEqual({ status: 'ok', exitCode: 0, file: 'src/a.js', observation: 'src/a.js (lines 2-3 of 9)\n2|   if (x < lo) return lo;\n3|   if (x > hi) return lo;\n(6 more lines below: view src/a.js 4 9)' });
  });
  it('shows at most 100 lines and says how to see the rest', async () => {
    const r = await runTool(ctxOf(mem()), { name: 'view', path: 'src/long.txt', start: 10, end: 400 });
    const lines = r.observation.split('\n');
    expect(lines[0]).toBe('src/long.txt (lines 10-109 of 250)');
    expect(lines.filter((l) => /^\s*\d+\| /.test(l))).toHaveLength(100);
    expect(r.observation).toMatch(/at most 100 lines are shown at once/);
    expect(r.observation).toMatch(/141 more lines below: view src\/long.txt 110 209/);
    const dflt = await runTool(ctxOf(mem()), { name: 'view', path: 'src/long.txt' });
    expect(dflt.observation.split('\n')[0]).toBe('src/long.txt (lines 1-100 of 250)');
  });
  it('refuses what it cannot show, as an observation', async () => {
    expect(await runTool(ctxOf(mem()), { name: 'view', path: 'src/a.js', start: 50 })).toMatchObject({ status: 'error', observation: 'src/a.js has 9 lines; START (50) is past its end' });
    expect((await runTool(ctxOf(mem()), { name: 'view', path: 'nope.js' })).observation).toBe('view refused: no such file in the repository: nope.js');
    expect((await runTool(ctxOf(mem()), { name: 'view', path: '../etc/passwd' })).observation).toMatch(/view refused: path "..\/etc\/passwd" leaves the repository/);
    expect((await runTool(ctxOf(mem()), { name: 'view', path: 'empty.txt' })).observation).toBe('empty.txt is empty');
  });
});

describe('search', () => {
  it('lists matching lines with file and line number, in a folder or a file', async () => {
    const r = await runTool(ctxOf(mem()), { name: 'search', text: 'return lo' });
    expect(r.observation).toBe('2 matches for "return lo" in the repository:\nsrc/a.js:2: if (x < lo) return lo;\nsrc/a.js:3: if (x > hi) return lo;');
    expect((await runTool(ctxOf(mem()), { name: 'search', text: 'clamp', path: 'test' })).observation).toBe('1 match for "clamp" in test:\ntest/a.test.js:1: import { clamp } from \'../src/a.js\';');
    expect((await runTool(ctxOf(mem()), { name: 'search', text: 'clamp', path: 'src/a.js' })).observation).toMatch(/^1 match/);
  });
  it('says when nothing matches, caps long result lists and refuses unknown places', async () => {
    expect((await runTool(ctxOf(mem()), { name: 'search', text: 'zzz' })).observation).toBe('no matches for "zzz" in the repository');
    const many = await runTool(ctxOf(mem()), { name: 'search', text: 'line' });
    expect(many.observation).toMatch(/^250 matches/);
    expect(many.observation).toMatch(/200 more matches not shown/);
    expect(await runTool(ctxOf(mem()), { name: 'search', text: 'x', path: 'lib' })).toMatchObject({ status: 'error', observation: 'no file or folder named lib in the repository' });
    expect((await runTool(ctxOf(mem()), { name: 'search', text: 'x', path: '/etc' })).observation).toMatch(/search refused: path "\/etc" is absolute/);
  });
});

describe('replace', () => {
  it('applies an edit that matches once and shows the new lines with neighbours', async () => {
    const sb = mem();
    const r = await runTool(ctxOf(sb), { name: 'replace', path: 'src/a.js', edits: [{ search: '  if (x > hi) return lo;\n', replace: '  if (x > hi) return hi;\n' }] });
    expect(r.status).toBe('ok');
    expect(r.observation).toMatch(/^edited src\/a.js \(lines 3-3\)/);
    expect(r.observation).toMatch(/3\|   if \(x > hi\) return hi;/);
    expect(sb.files['src/a.js']).toBe(CODE.replace('x > hi) return lo', 'x > hi) return hi'));
  });
  it('"no match" shows the closest lines and says when only whitespace differs', async () => {
    const sb = mem();
    const r = await runTool(ctxOf(sb), { name: 'replace', path: 'src/a.js', edits: [{ search: 'if (x > hi) return lo;\n', replace: 'x\n' }] });
    expect(r.status).toBe('error');
    expect(r.observation).toMatch(/^src\/a.js unchanged: the edit block: no match/);
    expect(r.observation).toMatch(/match if spaces are ignored/);
    expect(r.observation).toMatch(/closest lines are 3-3:\n3\|   if \(x > hi\) return lo;/);
    expect(sb.files['src/a.js']).toBe(CODE);
    const far = await runTool(ctxOf(sb), { name: 'replace', path: 'src/a.js', edits: [{ search: 'QQQQQQQQ\n', replace: '' }] });
    expect(far.observation).toMatch(/nothing close does/);
  });
  it('"N matches" names the lines, and a later failing edit leaves the file untouched', async () => {
    const sb = mem();
    const r = await runTool(ctxOf(sb), { name: 'replace', path: 'src/a.js', edits: [{ search: '  if (x > hi) return lo;\n', replace: 'A\n' }, { search: '  return x;\n', replace: 'B\n' }] });
    expect(r.observation).toMatch(/edit block 2 of 2: 2 matches \(at lines 4, 8\)/);
    expect(sb.files['src/a.js']).toBe(CODE);
  });
  it('refuses a missing file, pointing at create', async () => {
    expect((await runTool(ctxOf(mem()), { name: 'replace', path: 'src/b.js', edits: [{ search: 'a\n', replace: 'b\n' }] })).observation).toMatch(/use create for a new one/);
  });
  it('applyEdits: deletion, several edits, spans and a file without a final newline', () => {
    expect(applyEdits('a\nb\nc\n', [{ search: 'b\n', replace: '' }])).toEqual({ ok: true, text: 'a\nc\n', spans: [{ start: 2, end: 2 }] });
    expect(applyEdits('a\nb\nc', [{ search: 'a\n', replace: 'x\ny\n' }, { search: 'c\n', replace: 'z\n' }])).toEqual({ ok: true, text: 'x\ny\nb\nz', spans: [{ start: 1, end: 2 }, { start: 4, end: 4 }] });
  });
});

describe('create', () => {
  it('creates (with folders) or overwrites, and refuses paths outside the repository', async () => {
    const sb = mem();
    expect((await runTool(ctxOf(sb), { name: 'create', path: 'src/new/b.js', content: 'x\ny\n' })).observation).toBe('created src/new/b.js (2 lines)');
    expect((await runTool(ctxOf(sb), { name: 'create', path: 'src/a.js', content: '' })).observation).toBe('overwrote src/a.js (0 lines)');
    expect(sb.files['src/new/b.js']).toBe('x\ny\n');
    expect(await runTool(ctxOf(sb), { name: 'create', path: '../x.js', content: '' })).toMatchObject({ status: 'error', observation: expect.stringMatching(/create refused: .*leaves the repository/) });
  });
});

describe('run_tests (node sandbox)', () => {
  const task = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'handwritten').tasks.find((t) => t.instance_id === 'clamp__1')!;
  let sb: Sandbox;
  beforeAll(async () => void (sb = await createNodeSandbox(task.files, { timeoutMs: 5000 })));
  afterAll(async () => sb?.dispose());
  const ctx = () => ({ sandbox: sb, testFiles: task.test_files, timeoutMs: 5000 });

  it('shows a summary, failures with their messages first, then the passing tests', async () => {
    const r = await runTool(ctx(), { name: 'run_tests' });
    expect(r.status).toBe('ok');
    expect(r.exitCode).toBe(1);
    const lines = r.observation.split('\n');
    expect(lines[0]).toBe('run_tests: 1 failed, 6 passed (exit code 1)');
    expect(lines[1]).toBe('✖ clamp > clamp > lowers values above the range to hi');
    expect(lines[2]).toBe('    got 0, expected 10');
    expect(lines.filter((l) => l.startsWith('✔ '))).toHaveLength(6);
    expect(r.observation).not.toMatch(/tests reported/); // the sandbox's own report is replaced by ours
  });
  it('runs one test by its full name, and says when no test has that name', async () => {
    const one = await runTool(ctx(), { name: 'run_tests', test: 'clamp > wrap > wraps negative values' });
    expect(one.observation).toBe('run_tests: 0 failed, 1 passed (exit code 0)\n✔ clamp > wrap > wraps negative values');
    const none = await runTool(ctx(), { name: 'run_tests', test: 'no such test' });
    expect(none).toMatchObject({ status: 'error', observation: expect.stringMatching(/no test named "no such test" was reported/) });
  });
  it('notes a deleted test file, and refuses when no test file is left', async () => {
    const some = await runTool({ ...ctx(), testFiles: [...task.test_files, 'test/gone.test.js'] }, { name: 'run_tests' });
    expect(some.observation.split('\n').slice(0, 2)).toEqual(['run_tests: 1 failed, 6 passed (exit code 1)', '(test/gone.test.js is missing from the repository; the grader runs the original)']);
    await sb.deleteFile('test/clamp.test.js');
    const r = await runTool({ ...ctx(), testFiles: [...task.test_files, 'test/gone.test.js'] }, { name: 'run_tests' });
    expect(r.observation).toMatch(/the test files \(test\/clamp.test.js, test\/gone.test.js\) are missing/);
    await sb.reset();
  });
});

describe('truncateText', () => {
  it('keeps text within budget unchanged', () => {
    expect(truncateText('short', 10, charTokens)).toEqual({ text: 'short', cut: 0 });
  });
  it('cuts the middle, keeps head and tail, and says how much was cut', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `output line ${i}`).join('\n');
    const r = truncateText(text, 256, charTokens);
    expect(charTokens(r.text)).toBeLessThanOrEqual(256);
    expect(charTokens(r.text)).toBeGreaterThan(230);
    expect(r.text.startsWith('output line 0\n')).toBe(true);
    expect(r.text.endsWith('output line 1999')).toBe(true);
    expect(r.text).toContain(`[… ${r.cut} characters cut …]`);
    const [head, tail] = r.text.split(/\[… \d+ characters cut …\]\n/) as [string, string];
    expect(head.endsWith('\n')).toBe(true); // the head ends on a line break of the text
    expect(head.length + r.cut + tail.length).toBe(text.length);
  });
});

describe('compactFailure', () => {
  it("writes node:assert's equality messages as 'got A, expected B'", () => {
    expect(compactFailure('Expected values to be strictly deep-equal:\n\n1.5 !== 90\n')).toEqual(['got 1.5, expected 90']);
    expect(compactFailure("Expected values to be strictly equal:\n\n'ab' !== 'cd'\n")).toEqual(["got 'ab', expected 'cd'"]);
    expect(compactFailure("Expected values to be strictly equal:\n+ actual - expected\n\n+ 'MMMCMXCVIII'\n- 'MMMCMXCIX'\n          ^")).toEqual(["got 'MMMCMXCVIII', expected 'MMMCMXCIX'"]);
    expect(compactFailure('Expected values to be loosely equal:\n\n1 != 2')).toEqual(['got 1, expected 2']);
  });
  it('keeps longer diffs (without their blank lines) and any other message', () => {
    expect(compactFailure('Expected values to be strictly deep-equal:\n+ actual - expected\n\n  [\n    1,\n+   2\n-   3\n  ]')).toEqual(['+ actual - expected', '  [', '    1,', '+   2', '-   3', '  ]']);
    expect(compactFailure('Missing expected exception (RangeError).')).toEqual(['Missing expected exception (RangeError).']);
    expect(compactFailure('x is not a function\n\n    at f (src/a.js:2:3)')).toEqual(['x is not a function', '    at f (src/a.js:2:3)']);
    expect(compactFailure('')).toEqual([]);
  });
});
