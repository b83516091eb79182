// The smallest edit command, sub [PATH] [LINE] OLD NEW (text that occurs once in the file, or once on the
// named line, becomes other text), and undo: parsing and round trips, the tool's refusals (absent,
// ambiguous with the lines named, past the end, breaking the syntax), undo of every kind of change,
// the candidate hints (agent.viewHints after a whole-file view, agent.triedHints after an undo, agent.triedOnRefusal
// after a refusal), and the experts' choice of the shortest unique OLD.
import { describe, expect, it } from 'vitest';
import { formatCommand, parseTurn, type Command } from '../../../src/agent/commands.ts';
import { fixCommands, subBetween } from '../../../src/agent/expert-plan.ts';
import { fixesBefore, fixesFor, nextFix, onceTokens, runTool, type ToolContext } from '../../../src/agent/tools.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';
import { resolveConfig } from '../../../src/rl/config.ts';

const parsed = (body: string) => {
  const r = parseTurn('```command\n' + body + '\n```');
  if (!r.ok) throw new Error(r.error);
  return r.command;
};
const error = (body: string) => {
  const r = parseTurn('```command\n' + body + '\n```');
  if (r.ok) throw new Error(`expected a format error for ${body}`);
  return r.error;
};

describe('sub and undo: parsing', () => {
  it('reads OLD NEW, with an optional LINE and PATH (a word of digits is the LINE)', () => {
    expect(parsed('sub <= <')).toEqual({ name: 'sub', old: '<=', new: '<' });
    expect(parsed('sub 1 0')).toEqual({ name: 'sub', old: '1', new: '0' });
    expect(parsed('sub 7 1 0')).toEqual({ name: 'sub', line: 7, old: '1', new: '0' });
    expect(parsed('sub src/a.js "i <= n" "i < n"')).toEqual({ name: 'sub', path: 'src/a.js', old: 'i <= n', new: 'i < n' });
    expect(parsed('sub src/a.js 3 ! ""')).toEqual({ name: 'sub', path: 'src/a.js', line: 3, old: '!', new: '' });
    expect(parsed('undo')).toEqual({ name: 'undo' });
  });
  it('refuses the wrong number of words, an empty OLD, a bad LINE, arguments to undo', () => {
    expect(error('sub x')).toMatch(/^sub: expected \[PATH\] \[LINE\] OLD NEW, got 1 argument;/);
    expect(error('sub a b c d e')).toMatch(/got 5 arguments/);
    expect(error('sub "" x')).toMatch(/OLD is empty/);
    expect(error('sub 0 a b')).toMatch(/LINE must be a line number/);
    expect(error('undo now')).toMatch(/undo: takes no arguments/);
  });
  it('formatCommand writes what parseTurn reads back', () => {
    const cases: Command[] = [
      { name: 'sub', old: '<=', new: '<' },
      { name: 'sub', old: '1', new: '0' },
      { name: 'sub', line: 4, old: '1', new: '0' },
      { name: 'sub', old: 'i <= n', new: 'i < n' },
      { name: 'sub', old: '!', new: '' },
      { name: 'sub', old: "'a'", new: '"b"' },
      { name: 'sub', path: 'src/a.js', line: 2, old: '+', new: '-' },
      { name: 'sub', path: 'src/a.js', old: '7', new: '8' },
      { name: 'undo' },
    ];
    for (const c of cases) expect(parseTurn(formatCommand(c))).toEqual({ ok: true, reasoning: '', command: c });
  });
});

const CODE = 'export function f(xs) {\n  let total = 1;\n  for (let i = 1; i <= xs.length; i++) {\n    total += xs[i];\n  }\n  return total;\n}\n';
const ctx = (files: Record<string, string> = { 'src/f.js': CODE }) => ({ sandbox: new MemorySandbox(files), testFiles: [], timeoutMs: 1, open: {}, history: [] }) as ToolContext & { sandbox: MemorySandbox };

describe('sub and undo: the tool', () => {
  it('changes the one occurrence in the file and shows the line with its neighbours', async () => {
    const c = ctx();
    const r = await runTool(c, { name: 'sub', old: '<=', new: '<' });
    expect(r).toEqual({ status: 'ok', exitCode: 0, file: 'src/f.js', observation: 'edited src/f.js (line 3); the new text with its neighbours:\n1| export function f(xs) {\n2|   let total = 1;\n3|   for (let i = 1; i < xs.length; i++) {\n4|     total += xs[i];' });
    expect(c.sandbox.files['src/f.js']).toBe(CODE.replace('<=', '<'));
  });
  it('names the lines of an ambiguous OLD, and takes it on a named line', async () => {
    const c = ctx();
    expect(await runTool(c, { name: 'sub', old: '1', new: '0' })).toMatchObject({ status: 'error', observation: 'src/f.js unchanged: "1" occurs 2 times, on lines 2, 3; name the line, e.g. sub 2 1 "0"' });
    expect((await runTool(c, { name: 'sub', line: 3, old: '1', new: '0' })).status).toBe('ok');
    expect(c.sandbox.files['src/f.js']).toContain('for (let i = 0;');
    expect(await runTool(c, { name: 'sub', line: 3, old: 'i', new: 'j' })).toMatchObject({ status: 'error', observation: expect.stringMatching(/^src\/f.js unchanged: "i" occurs more than once on line 3; give more of the text around it:\n3\| /) });
  });
  it('refuses what is not there, lines past the end, and a change that breaks the syntax', async () => {
    const c = ctx();
    expect((await runTool(c, { name: 'sub', old: '===', new: '!==' })).observation).toBe('src/f.js unchanged: "===" is not in the file');
    expect((await runTool(c, { name: 'sub', line: 9, old: 'x', new: 'y' })).observation).toBe('src/f.js unchanged: it has 7 lines; line 9 is past its end');
    expect((await runTool(c, { name: 'sub', line: 2, old: 'xs', new: 'ys' })).observation).toBe('src/f.js unchanged: "xs" is not on line 2:\n2|   let total = 1;');
    expect((await runTool(c, { name: 'sub', old: '++) {', new: '++ {' })).observation).toMatch(/^src\/f.js unchanged: after this change it would not parse/);
    expect(c.sandbox.files['src/f.js']).toBe(CODE);
    expect(c.history).toEqual([]);
  });
  it('lists the operators and numbers that occur once (what a one-token sub can name); a refusal names none by default', async () => {
    expect(onceTokens(CODE)).toEqual(['<=', '++', '+=']); // "1" occurs twice, "+" inside "++" and "+="
    expect(onceTokens('a === b && c !== 10 || d >= 2.5')).toEqual(['===', '&&', '!==', '10', '||', '>=', '2.5']);
    expect((await runTool(ctx(), { name: 'sub', old: '===', new: '!==' })).observation).toBe('src/f.js unchanged: "===" is not in the file');
    expect((await runTool(ctx(), { name: 'sub', old: '1', new: '0' })).observation).toMatch(/^src\/f.js unchanged: "1" occurs 2 times, [^\n]*$/);
  });
  it('with agent.viewHints, a view of the whole file ends with those candidates; a partial view does not', async () => {
    const c = { ...ctx(), viewHints: true };
    const whole = (await runTool(c, { name: 'view', path: 'src/f.js' })).observation.split('\n');
    expect(whole.at(-1)).toBe('operators and numbers that occur once: <= ++ +=');
    expect(whole.slice(1, -1)).toEqual((await runTool(ctx(), { name: 'view', path: 'src/f.js' })).observation.split('\n').slice(1)); // the lines as without it
    expect((await runTool(c, { name: 'view', path: 'src/f.js', start: 2, end: 4 })).observation).not.toMatch(/occur once/);
    expect((await runTool(ctx(), { name: 'view', path: 'src/f.js' })).observation).not.toMatch(/occur once/); // off by default
  });
  it('with agent.triedHints, an undo lists the once-occurring candidates no sub has named yet, in file order', async () => {
    const c = { ...ctx(), triedHints: true, tried: [] as { old: string; new: string }[] };
    await runTool(c, { name: 'sub', old: '++', new: '--' });
    expect(c.tried).toEqual([{ old: '++', new: '--' }]);
    expect((await runTool(c, { name: 'undo' })).observation).toBe('undone: src/f.js is back as it was (7 lines)\nnot yet tried: <= +=');
    await runTool(c, { name: 'sub', old: '===', new: '!==' }); // refused: not in the file, so not tried
    await runTool(c, { name: 'sub', old: '<=', new: '<' });
    expect((await runTool(c, { name: 'undo' })).observation).toBe('undone: src/f.js is back as it was (7 lines)\nnot yet tried: +=');
    await runTool(c, { name: 'sub', old: '+=', new: '-=' });
    expect((await runTool(c, { name: 'undo' })).observation).toBe('undone: src/f.js is back as it was (7 lines)'); // none left: no list
    expect(c.tried.map((t) => t.old)).toEqual(['++', '<=', '+=']);
    const off = ctx();
    await runTool(off, { name: 'sub', old: '++', new: '--' });
    expect((await runTool(off, { name: 'undo' })).observation).toBe('undone: src/f.js is back as it was (7 lines)'); // off by default
  });
  it('with agent.triedOnRefusal, every refused sub ends with the candidates not yet tried', async () => {
    expect(() => resolveConfig({ 'agent.triedOnRefusal': true })).toThrow(/agent\.triedOnRefusal.*agent\.triedHints=true/);
    const c = { ...ctx(), triedHints: true, triedOnRefusal: true, tried: [] as { old: string; new: string }[] };
    const untried = (list: string) => new RegExp(`\\nnot yet tried: ${list.replace(/[+*]/g, '\\$&')}$`);
    expect((await runTool(c, { name: 'sub', old: '===', new: '!==' })).observation).toBe('src/f.js unchanged: "===" is not in the file\nnot yet tried: <= ++ +=');
    await runTool(c, { name: 'sub', old: '++', new: '--' });
    await runTool(c, { name: 'undo' });
    // Each refusal: not in the file, more than once, more than once on a line, not on a line, past the end, breaks the syntax.
    for (const cmd of [
      { name: 'sub', old: '===', new: '!==' }, { name: 'sub', old: '1', new: '0' }, { name: 'sub', line: 3, old: 'i', new: 'j' },
      { name: 'sub', line: 2, old: 'xs', new: 'ys' }, { name: 'sub', line: 9, old: 'x', new: 'y' }, { name: 'sub', old: '++) {', new: '++ {' },
    ] as const) {
      const r = await runTool(c, cmd);
      expect(r.status, JSON.stringify(cmd)).toBe('error');
      expect(r.observation, JSON.stringify(cmd)).toMatch(untried('<= +='));
      expect(r.observation).not.toMatch(/occur once/);
    }
    expect(c.tried).toEqual([{ old: '++', new: '--' }]); // refusals are not tried
    expect(c.sandbox.files['src/f.js']).toBe(CODE);
    for (const t of ['<=', '+=']) {
      await runTool(c, { name: 'sub', old: t, new: t === '<=' ? '<' : '-=' });
      await runTool(c, { name: 'undo' });
    }
    expect((await runTool(c, { name: 'sub', old: '===', new: '!==' })).observation).toBe('src/f.js unchanged: "===" is not in the file'); // all tried: no list
  });
  it('fixesFor: the replacements that undo a level-0 mutation leaving a token, the same-kind swap first', () => {
    expect(fixesFor('>=')).toEqual(['>', '<']); // boundary from >, negation from <
    expect(fixesFor('<')).toEqual(['<=', '>=']);
    expect(fixesFor('*')).toEqual(['/', '%']);
    expect(fixesFor('&&')).toEqual(['||', '??']);
    expect(fixesFor('===')).toEqual(['!==']);
    expect(fixesFor('-=')).toEqual(['+=']);
    expect(fixesFor('++')).toEqual(['--']);
    expect(fixesFor('7')).toEqual(['6', '8']); // off-by-one either way
    expect(fixesFor('0')).toEqual(['1']); // 0 only from 1
    expect(fixesFor('!')).toEqual([]); // nothing a sub of it names
    expect(nextFix('>=', [{ old: '>=', new: '>' }, { old: '<', new: '<=' }])).toBe('<');
    expect(nextFix('>=', [{ old: '>=', new: '<' }, { old: '>=', new: '>' }])).toBeUndefined();
    expect(fixesBefore('>=', '<')).toEqual(['>']); // what the search tries before the right fix
    expect(fixesBefore('>=', '>')).toEqual([]);
    expect(fixesBefore('>=', '<=')).toEqual([]); // not a fix of >=
  });
  it('with agent.retryFixes, a candidate stays on the not-yet-tried list until each of its fixes was tried', async () => {
    expect(() => resolveConfig({ 'agent.retryFixes': true })).toThrow(/agent\.retryFixes.*agent\.triedHints=true/);
    const c = { ...ctx(), triedHints: true, retryFixes: true, tried: [] as { old: string; new: string }[] };
    const undone = 'undone: src/f.js is back as it was (7 lines)';
    await runTool(c, { name: 'sub', old: '<=', new: '<' });
    expect((await runTool(c, { name: 'undo' })).observation).toBe(`${undone}\nnot yet tried: <= ++ +=`); // <= → > not yet
    await runTool(c, { name: 'sub', old: '<=', new: '<' }); // the same fix again counts once
    expect((await runTool(c, { name: 'undo' })).observation).toBe(`${undone}\nnot yet tried: <= ++ +=`);
    await runTool(c, { name: 'sub', old: '<=', new: '>=' }); // no fix of <= (a mutation never makes <= from >=)
    expect((await runTool(c, { name: 'undo' })).observation).toBe(`${undone}\nnot yet tried: <= ++ +=`);
    await runTool(c, { name: 'sub', old: '<=', new: '>' });
    expect((await runTool(c, { name: 'undo' })).observation).toBe(`${undone}\nnot yet tried: ++ +=`);
    await runTool(c, { name: 'sub', old: '++', new: '--' }); // one fix: gone after it, as without the option
    expect((await runTool(c, { name: 'undo' })).observation).toBe(`${undone}\nnot yet tried: +=`);
    const off = { ...ctx(), triedHints: true, tried: [] as { old: string; new: string }[] };
    await runTool(off, { name: 'sub', old: '<=', new: '<' });
    expect((await runTool(off, { name: 'undo' })).observation).toBe(`${undone}\nnot yet tried: ++ +=`); // without it: named once is tried
  });
  it('undo takes back the latest change of any kind, in order, and says when there is none', async () => {
    const c = ctx();
    await runTool(c, { name: 'sub', old: '<=', new: '<' });
    await runTool(c, { name: 'edit', start: 2, end: 2, content: '  let total = 0;\n' });
    await runTool(c, { name: 'create', path: 'src/new.js', content: 'x\n' });
    expect(await runTool(c, { name: 'undo' })).toMatchObject({ status: 'ok', observation: 'undone: src/new.js removed again' });
    expect(c.sandbox.files['src/new.js']).toBeUndefined();
    expect((await runTool(c, { name: 'undo' })).observation).toBe('undone: src/f.js is back as it was (7 lines)');
    expect(c.sandbox.files['src/f.js']).toBe(CODE.replace('<=', '<'));
    await runTool(c, { name: 'undo' });
    expect(c.sandbox.files['src/f.js']).toBe(CODE);
    expect(await runTool(c, { name: 'undo' })).toMatchObject({ status: 'error', observation: 'nothing to undo: no file was changed in this episode' });
  });
});

describe('sub with agent.subTests: one turn for sub, run_tests and undo', () => {
  // A fake test run: the test passes when the loop starts at 0 and stops before xs.length.
  const fixed = CODE.replace('i = 1', 'i = 0').replace('<=', '<');
  const run = (files: Record<string, string>) => {
    const pass = files['src/f.js'] === CODE.replace('<=', '<') || files['src/f.js'] === fixed;
    return { tests: [{ fullName: 'sums', status: pass ? ('pass' as const) : ('fail' as const), ...(pass ? {} : { message: 'Expected values to be strictly equal:\n\n5 !== 6\n' }) }], output: '', exitCode: pass ? 0 : 1, timedOut: false, truncated: false, durationMs: 1 };
  };
  const tctx = () => ({ sandbox: new MemorySandbox({ 'src/f.js': CODE, 'test/f.test.js': 'x' }, run), testFiles: ['test/f.test.js'], timeoutMs: 1000, open: {}, history: [], subTests: true, triedHints: true, tried: [], report: 'brief' }) as ToolContext & { sandbox: MemorySandbox; history: unknown[]; tried: { old: string; new: string }[] };
  it('takes a change whose tests fail back at once, says so with the report and the candidates not yet tried', async () => {
    const c = tctx();
    const r = await runTool(c, { name: 'sub', old: '++', new: '--' });
    expect(r).toEqual({ status: 'error', exitCode: 1, observation: 'edited src/f.js (line 3) and ran the tests; the tests fail, so the change was taken back:\nrun_tests: 1 failed, 0 passed (exit code 1)\nnot yet tried: <= +=' }); // the counts alone
    expect(c.sandbox.files['src/f.js']).toBe(CODE);
    expect(c.history).toEqual([]); // nothing left to undo
    expect(c.tried).toEqual([{ old: '++', new: '--' }]);
    expect((await runTool(c, { name: 'undo' })).status).toBe('error');
  });
  it('keeps a change whose tests all pass (undo can still take it back)', async () => {
    const c = tctx();
    const r = await runTool(c, { name: 'sub', old: '<=', new: '<' });
    expect(r).toEqual({ status: 'ok', exitCode: 0, file: 'src/f.js', observation: 'edited src/f.js (line 3) and ran the tests:\nrun_tests: 0 failed, 1 passed (exit code 0)' });
    expect(c.sandbox.files['src/f.js']).toBe(CODE.replace('<=', '<'));
    expect((await runTool(c, { name: 'undo' })).status).toBe('ok');
    expect(c.sandbox.files['src/f.js']).toBe(CODE);
  });
  it('a sandbox that cannot run the tests leaves the file as it was (the failure is the observation)', async () => {
    const c = tctx();
    c.sandbox.runTests = async () => Promise.reject(new Error('could not start node for the sandbox: EAGAIN'));
    const r = await runTool(c, { name: 'sub', old: '<=', new: '<' });
    expect(r).toMatchObject({ status: 'error', observation: 'sub failed: Error: could not start node for the sandbox: EAGAIN' });
    expect(c.sandbox.files['src/f.js']).toBe(CODE);
    expect(c.history).toEqual([]);
  });
  it('refusals run no tests and read as without it (with agent.triedOnRefusal, the candidates not yet tried)', async () => {
    const c = tctx();
    expect((await runTool(c, { name: 'sub', old: '===', new: '!==' })).observation).toBe('src/f.js unchanged: "===" is not in the file');
    expect((await runTool({ ...c, triedOnRefusal: true }, { name: 'sub', old: '===', new: '!==' })).observation).toBe('src/f.js unchanged: "===" is not in the file\nnot yet tried: <= ++ +=');
    expect(c.tried).toEqual([]);
  });
});

describe('the experts: the shortest unique sub', () => {
  it('subBetween widens the change to whole tokens and until OLD is unique on the line', () => {
    const r = (a: string, b: string) => subBetween(a, b);
    expect(r('  for (let i = 0; i <= n; i++) {', '  for (let i = 0; i < n; i++) {')).toEqual({ old: '<=', new: '<' });
    expect(r('  if (x < lo) {', '  if (x <= lo) {')).toEqual({ old: '<', new: '<=' });
    expect(r('  return a + b + c;', '  return a + b - c;')).toEqual({ old: '+ c', new: '- c' });
    expect(r('  if (found) {', '  if (!found) {')).toEqual({ old: 'found', new: '!found' });
    expect(r('  x--;', '  x++;')).toEqual({ old: '--', new: '++' });
    expect(r('same', 'same')).toBeNull();
  });
  it('fixCommands names the line only when OLD occurs elsewhere in the file', () => {
    const before = 'let a = 1;\nlet b = 1;\nif (a < b) {}\n';
    expect(fixCommands('sub', 'f.js', before, before.replace('a < b', 'a <= b'))).toEqual([{ name: 'sub', path: 'f.js', old: '<', new: '<=' }]);
    expect(fixCommands('sub', 'f.js', before, 'let a = 1;\nlet b = 2;\nif (a < b) {}\n')).toEqual([{ name: 'sub', path: 'f.js', line: 2, old: '1', new: '2' }]);
    // Lines added or removed are not one sub: an edit then.
    expect(fixCommands('sub', 'f.js', before, before + 'x;\n')).toEqual([{ name: 'edit', path: 'f.js', start: 4, end: 3, content: 'x;\n' }]);
  });
});
