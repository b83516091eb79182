// The compact edit command (`edit PATH START END` + the new lines): parsing and its format errors, the
// tool on a file (replace, insert, delete, refusals, the lint gate), formatCommand round trips, and the
// scripted expert solving tasks with it (and marking its deliberate wrong edits as not to imitate).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatCommand, parseTurn, type Command } from '../../../src/agent/commands.ts';
import { runEpisode } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { lineEditsBetween } from '../../../src/agent/expert-plan.ts';
import { fullSystemPrompt } from '../../../src/agent/prompt.ts';
import { PLAIN_CHATML } from '../../../src/agent/render.ts';
import { runTool, type ToolContext } from '../../../src/agent/tools.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { episodeTokens } from '../../../src/rl/collect.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import type { Sandbox } from '../../../src/sandbox/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';

const block = (body: string) => `Fix line 3.\n\`\`\`command\n${body}\n\`\`\``;
const parsed = (body: string) => {
  const r = parseTurn(block(body));
  if (!r.ok) throw new Error(r.error);
  return r.command;
};
const error = (body: string) => {
  const r = parseTurn(block(body));
  if (r.ok) throw new Error(`expected a format error for ${body}`);
  return r.error;
};

describe('edit: parsing', () => {
  it('reads the path, the range and the new lines verbatim (indentation kept)', () => {
    expect(parsed('edit src/a.js 3 3\n  if (x > hi) return hi;')).toEqual({ name: 'edit', path: 'src/a.js', start: 3, end: 3, content: '  if (x > hi) return hi;\n' });
    expect(parsed('edit src/a.js 2 4\na\n\nb')).toEqual({ name: 'edit', path: 'src/a.js', start: 2, end: 4, content: 'a\n\nb\n' });
  });
  it('an empty body deletes, END = START − 1 inserts, trailing blank lines are dropped', () => {
    expect(parsed('edit src/a.js 2 3')).toMatchObject({ start: 2, end: 3, content: '' });
    expect(parsed('edit src/a.js 1 0\nimport x from "y";')).toMatchObject({ start: 1, end: 0, content: 'import x from "y";\n' });
    expect(parsed('edit src/a.js 5 5\nreturn 1;\n\n   \n')).toMatchObject({ content: 'return 1;\n' });
  });
  it('refuses a wrong number of arguments, bad numbers and a backwards range, with the usage', () => {
    expect(error('edit src/a.js 3')).toMatch(/^edit: expected an optional path and two line numbers, got 2 arguments \(usage: edit \[PATH\] START END/);
    expect(error('edit src/a.js')).toMatch(/got 1 argument \(/);
    expect(error('edit 1 2 3 4')).toMatch(/got 4 arguments/);
    expect(error('edit src/a.js x 3')).toMatch(/edit: START must be a line number \(1 or more\), got "x"/);
    expect(error('edit src/a.js 0 0')).toMatch(/START must be a line number/);
    expect(error('edit src/a.js 3 -1')).toMatch(/END must be a line number/);
    expect(error('edit src/a.js 5 2\nx')).toMatch(/END \(2\) is before START \(5\); END = START − 1 inserts before line START/);
  });
  it('formatCommand writes what parseTurn reads back, fences included', () => {
    const cases: Command[] = [
      { name: 'edit', path: 'src/a.js', start: 3, end: 3, content: '  return hi;\n' },
      { name: 'edit', path: 'src/a.js', start: 2, end: 5, content: '' },
      { name: 'edit', path: 'src/my file.js', start: 1, end: 0, content: 'a\nb\n' },
      { name: 'edit', path: 'README.md', start: 1, end: 1, content: '```js\ncode\n```\n' },
    ];
    for (const c of cases) expect(parseTurn(`ok\n${formatCommand(c)}`)).toEqual({ ok: true, reasoning: 'ok', command: c });
  });
});

const CODE = 'export function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return lo;\n  return x;\n}\n';
const ctxOf = (sandbox: Sandbox): ToolContext => ({ sandbox, testFiles: ['test/a.test.js'], timeoutMs: 5000 });
const edit = (start: number, end: number, content: string, path = 'src/a.js'): Command => ({ name: 'edit', path, start, end, content });

describe('view and edit without PATH: the open file', () => {
  it('parses view and edit without a path (a first word of digits is a line number)', () => {
    expect(parsed('view')).toEqual({ name: 'view' });
    expect(parsed('view 3 9')).toEqual({ name: 'view', start: 3, end: 9 });
    expect(parsed('edit 3 3\n  x;')).toEqual({ name: 'edit', start: 3, end: 3, content: '  x;\n' });
    for (const c of [{ name: 'view' }, { name: 'view', start: 2 }, { name: 'edit', start: 1, end: 1, content: 'y\n' }] as Command[]) expect(parseTurn(formatCommand(c))).toMatchObject({ ok: true, command: c });
  });
  it("uses the repository's only source file, then the file the last command acted on", async () => {
    const open = {};
    const one = { sandbox: new MemorySandbox({ 'src/a.js': CODE, 'test/a.test.js': 'x\n', 'package.json': '{}\n' }), testFiles: ['test/a.test.js'], timeoutMs: 5000, open };
    expect(await runTool(one, { name: 'view' })).toMatchObject({ status: 'ok', file: 'src/a.js', observation: expect.stringMatching(/^src\/a.js \(lines 1-5 of 5\)/) });
    expect(await runTool(one, { name: 'edit', start: 3, end: 3, content: '  if (x > hi) return hi;\n' })).toMatchObject({ status: 'ok', file: 'src/a.js' });
    const two = { sandbox: new MemorySandbox({ 'src/a.js': CODE, 'src/b.js': 'b\n' }), testFiles: [], timeoutMs: 5000, open: {} as { path?: string } };
    expect(await runTool(two, { name: 'view' })).toMatchObject({ status: 'error', observation: 'view refused: no file is open and the repository has 2 source files: name one, e.g. view src/a.js' });
    expect((await runTool(two, { name: 'view', path: 'src/b.js' })).status).toBe('ok');
    expect(two.open.path).toBe('src/b.js');
    expect(await runTool(two, { name: 'edit', start: 1, end: 1, content: 'B\n' })).toMatchObject({ status: 'ok', file: 'src/b.js' });
    // A refused command does not move the open file.
    expect((await runTool(two, { name: 'view', path: 'src/none.js' })).status).toBe('error');
    expect(two.open.path).toBe('src/b.js');
  });
});

describe('edit: the tool', () => {
  it('replaces the range and shows the new lines with their neighbours, numbered', async () => {
    const sb = new MemorySandbox({ 'src/a.js': CODE });
    const r = await runTool(ctxOf(sb), edit(3, 3, '  if (x > hi) return hi;\n'));
    expect(r).toEqual({
      status: 'ok',
      exitCode: 0,
      observation: 'edited src/a.js (lines 3-3 are now 1 line); the new text with its neighbours:\n1| export function clamp(x, lo, hi) {\n2|   if (x < lo) return lo;\n3|   if (x > hi) return hi;\n4|   return x;',
      file: 'src/a.js',
    });
    expect(sb.files['src/a.js']).toBe(CODE.replace('return lo;\n  return x', 'return hi;\n  return x'));
  });
  it('inserts before a line, deletes a range, and grows or shrinks the file', async () => {
    const sb = new MemorySandbox({ 'src/a.js': CODE });
    expect((await runTool(ctxOf(sb), edit(4, 3, '  x = +x;\n'))).observation).toMatch(/^edited src\/a.js \(inserted 1 line at line 4\)/);
    expect(sb.files['src/a.js']!.split('\n')[3]).toBe('  x = +x;');
    expect((await runTool(ctxOf(sb), edit(2, 4, ''))).observation).toMatch(/^edited src\/a.js \(deleted lines 2-4\)/);
    expect(sb.files['src/a.js']).toBe('export function clamp(x, lo, hi) {\n  return x;\n}\n');
    expect((await runTool(ctxOf(sb), edit(3, 3, '}\n// end\n'))).status).toBe('ok');
    expect(sb.files['src/a.js']).toBe('export function clamp(x, lo, hi) {\n  return x;\n}\n// end\n');
  });
  it('refuses ranges past the end and missing files, changing nothing', async () => {
    const sb = new MemorySandbox({ 'src/a.js': CODE });
    expect(await runTool(ctxOf(sb), edit(7, 7, 'x\n'))).toMatchObject({ status: 'error', observation: 'src/a.js unchanged: it has 5 lines; lines 7-7 are past its end (view src/a.js to see the numbers)' });
    expect((await runTool(ctxOf(sb), edit(5, 6, 'x\n'))).status).toBe('error');
    expect((await runTool(ctxOf(sb), edit(6, 5, '// tail\n'))).status).toBe('ok'); // appending after the last line
    expect((await runTool(ctxOf(sb), edit(1, 1, 'x\n', 'src/nope.js'))).observation).toBe('no such file in the repository: src/nope.js; edit changes an existing file (use create for a new one)');
  });
  it('the lint gate refuses an edit that breaks a JavaScript file, and shows the lines it would replace', async () => {
    const sb = new MemorySandbox({ 'src/a.js': CODE, 'notes.txt': 'a\nb\n' });
    const r = await runTool(ctxOf(sb), edit(3, 3, '  if (x > hi return hi;\n'));
    expect(r.status).toBe('error');
    expect(r.observation).toMatch(/^src\/a.js unchanged: after this edit it would not parse \(Unexpected token \(3:\d+\)\); lines 3-3 were:\n3\|   if \(x > hi\) return lo;$/);
    expect(sb.files['src/a.js']).toBe(CODE);
    // Not JavaScript: no gate. A file that was already broken may be edited (the edit may be the repair).
    expect((await runTool(ctxOf(sb), edit(1, 1, '(((\n', 'notes.txt'))).status).toBe('ok');
    await sb.writeFile('src/b.js', 'export const a = (;\n');
    expect((await runTool(ctxOf(sb), edit(1, 1, 'export const a = (1;\n', 'src/b.js'))).status).toBe('ok');
  });
});

describe('edit: the prompt and the expert', () => {
  it('the full system prompt documents the chosen edit command only', () => {
    expect(fullSystemPrompt('edit')).toMatch(/edit \[PATH\] START END\n {2}Edit a file: lines START to END/);
    expect(fullSystemPrompt('edit')).not.toMatch(/<<<<<<< SEARCH/);
    expect(fullSystemPrompt('replace')).toMatch(/<<<<<<< SEARCH/);
    expect(fullSystemPrompt('replace')).not.toMatch(/edit \[PATH\] START END/);
  });
  it('lineEditsBetween gives one edit per changed run, bottom to top, in the old numbering', () => {
    const before = 'a\nb\nc\nd\ne\n', after = 'a\nB\nc\nd\nE\nF\n';
    expect(lineEditsBetween('f.txt', before, after)).toEqual([
      { name: 'edit', path: 'f.txt', start: 5, end: 5, content: 'E\nF\n' },
      { name: 'edit', path: 'f.txt', start: 2, end: 2, content: 'B\n' },
    ]);
    expect(lineEditsBetween('f.txt', 'a\nc\n', 'a\nb\nc\n')).toEqual([{ name: 'edit', path: 'f.txt', start: 2, end: 1, content: 'b\n' }]);
  });

  const load = (f: string) => parseTaskFile(readFileSync(f, 'utf8'), f).tasks;
  const VALID = ['clamp__1', 'clamp__6', 'clamp__9']; // the fixture's valid tasks (the others are invalid on purpose)
  const tasks = [...load('test/fixtures/tasks/handwritten.jsonl').filter((t) => VALID.includes(t.instance_id)), ...load('test/fixtures/agent/mutations.jsonl')];
  const opts = episodeOptions(resolveConfig({ 'agent.editCommand': 'edit', 'agent.commandTimeoutMs': 5000 }), { sandbox: 'node' });
  it('solves every fixture task with edit commands, and none of its turns is a replace', async () => {
    for (const task of tasks) {
      for (const noise of [0, 1]) {
        const t = await runEpisode(task, new ExpertPolicy({ noise, editCommand: 'edit', style: 'terse' }), createNodeSandbox, opts, 3);
        expect(t.reward.tests, `${task.instance_id} noise ${noise}: ${t.end_reason}`).toBe(1);
        expect(t.turns.some((x) => x.command?.name === 'edit')).toBe(true);
        expect(t.turns.some((x) => x.command?.name === 'replace')).toBe(false);
        expect(t.system).toBe(fullSystemPrompt('edit'));
      }
    }
  }, 120_000);
  it("marks the deliberate wrong edit no_train, and training masks that turn's tokens only", async () => {
    const task = tasks.find((t) => t.instance_id === 'clamp__1')!;
    const trained = trainBpe([task.problem_statement, ...Object.values(task.files)], { vocabSize: 400 });
    const tokenizer = Tokenizer.fromJson(trained.tokenizerJson, trained.tokenizerConfig);
    const t = await runEpisode(task, new ExpertPolicy({ noise: 1, editCommand: 'edit' }), createNodeSandbox, { ...opts, tokenizer, chatFormat: PLAIN_CHATML }, 0);
    const wrong = t.turns.filter((x) => x.no_train);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]!.command?.name).toBe('edit');
    expect(t.turns.filter((x) => !x.no_train).every((x) => !('no_train' in x))).toBe(true);
    const e = episodeTokens(t, { maskFormatErrors: true });
    const seg = t.tokens!.segments.find((s) => s.kind === 'assistant' && s.turn === wrong[0]!.index)!;
    expect(e.mask.slice(seg.start, seg.end).every((m) => m === 0)).toBe(true);
    const other = t.tokens!.segments.find((s) => s.kind === 'assistant' && s.turn === wrong[0]!.index + 1)!;
    expect(e.mask.slice(other.start, other.end).some((m) => m === 1)).toBe(true);
  }, 60_000);
});
