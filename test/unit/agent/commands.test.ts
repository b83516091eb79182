// The action format: one fenced `command` block ending the turn; each command's arguments; format
// errors that say what was wrong; formatCommand writes blocks parseTurn reads back.
import { describe, expect, it } from 'vitest';
import { formatCommand, parseTurn, splitWords, type Command } from '../../../src/agent/commands.ts';

const block = (body: string, reasoning = 'Some reasoning.') => `${reasoning}\n\`\`\`command\n${body}\n\`\`\``;
const parse = (body: string) => parseTurn(block(body));
const cmd = (body: string) => {
  const r = parse(body);
  if (!r.ok) throw new Error(r.error);
  return r.command;
};
const err = (text: string) => {
  const r = parseTurn(text);
  if (r.ok) throw new Error(`expected a format error for ${JSON.stringify(text)}`);
  return r.error;
};

describe('parseTurn: the block', () => {
  it('takes the reasoning before the block and the command in it', () => {
    const r = parseTurn(block('view src/roman.js 1 40', 'The test says toRoman(4) returns "IIII".'));
    expect(r).toEqual({ ok: true, reasoning: 'The test says toRoman(4) returns "IIII".', command: { name: 'view', path: 'src/roman.js', start: 1, end: 40 } });
  });
  it('accepts a turn that is only the block, trailing blank lines and CRLF line ends', () => {
    expect(parseTurn('```command\nsubmit\n```\n\n').ok).toBe(true);
    expect(parseTurn('ok\r\n```command\r\nrun_tests\r\n```').ok).toBe(true);
  });
  it('lets other fenced blocks appear in the reasoning', () => {
    expect(cmd('submit')).toEqual({ name: 'submit' });
    const r = parseTurn('Here is the line:\n```js\nif (x > hi) return lo;\n```\n```command\nsubmit\n```');
    expect(r.ok).toBe(true);
  });
  it('refuses a turn without a command block, naming what it found', () => {
    expect(err('I will look at the file.')).toMatch(/no command block/);
    expect(err('```bash\nls\n```')).toMatch(/```bash block.*info string must be `command`/);
    expect(err('```\nview a.js\n```')).toMatch(/without the `command` info string/);
  });
  it('refuses two command blocks, an unclosed block and text after the block', () => {
    expect(err(`${block('view a.js')}\n${block('submit')}`)).toMatch(/found 2 command blocks/);
    expect(err('```command\nview a.js')).toMatch(/not closed/);
    expect(err(`${block('view a.js')}\nAnd then I will submit.`)).toMatch(/must end the turn/);
  });
  it('refuses an empty block and an unknown command', () => {
    expect(err('```command\n\n```')).toMatch(/empty/);
    expect(err(block('cat src/a.js'))).toMatch(/unknown command "cat"/);
    expect(err(block('rm -rf /'))).toMatch(/unknown command "rm"/);
  });
  it('a longer fence lets the body hold a ``` line', () => {
    const r = parseTurn('Write the readme.\n````command\ncreate README.md\n# Title\n```js\nx()\n```\n````');
    expect(r.ok && r.command).toEqual({ name: 'create', path: 'README.md', content: '# Title\n```js\nx()\n```\n' });
  });
});

describe('parseTurn: arguments', () => {
  it('view: an optional path and up to two line numbers', () => {
    expect(cmd('view src/a.js')).toEqual({ name: 'view', path: 'src/a.js' });
    expect(cmd('view src/a.js 5')).toEqual({ name: 'view', path: 'src/a.js', start: 5 });
    expect(cmd('view')).toEqual({ name: 'view' });
    expect(err(block('view 1 2 3'))).toMatch(/view: expected an optional path and up to two line numbers, got 3 arguments \(usage: view \[PATH\] \[START \[END\]\]\)/);
    expect(err(block('view a.js x'))).toMatch(/START must be a line number/);
    expect(err(block('view a.js 0'))).toMatch(/START must be a line number/);
    expect(err(block('view a.js 9 3'))).toMatch(/END \(3\) is before START \(9\)/);
    expect(err(block('view a.js 1 2 3'))).toMatch(/up to two line numbers/);
    expect(err(block('view a.js\nmore'))).toMatch(/takes no lines after the command line/);
  });
  it('search: TEXT (quoted when it has spaces) and an optional PATH', () => {
    expect(cmd('search clamp')).toEqual({ name: 'search', text: 'clamp' });
    expect(cmd('search "return lo" src')).toEqual({ name: 'search', text: 'return lo', path: 'src' });
    expect(cmd("search 'a \"b\"'")).toEqual({ name: 'search', text: 'a "b"' });
    expect(cmd('search "tab\\there"')).toEqual({ name: 'search', text: 'tab\there' });
    expect(err(block('search return lo src'))).toMatch(/quote text that contains spaces/);
    expect(err(block('search "open'))).toMatch(/not closed/);
    expect(err(block('search ""'))).toMatch(/TEXT is empty/);
  });
  it('replace: one or more SEARCH/REPLACE blocks', () => {
    const c = cmd('replace src/a.js\n<<<<<<< SEARCH\n  if (x > hi) return lo;\n=======\n  if (x > hi) return hi;\n>>>>>>> REPLACE');
    expect(c).toEqual({ name: 'replace', path: 'src/a.js', edits: [{ search: '  if (x > hi) return lo;\n', replace: '  if (x > hi) return hi;\n' }] });
    const two = cmd('replace a.js\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nb\nc\n=======\n\n>>>>>>> REPLACE');
    expect(two).toEqual({ name: 'replace', path: 'a.js', edits: [{ search: 'a\n', replace: '' }, { search: 'b\nc\n', replace: '\n' }] });
  });
  it('replace: malformed edit blocks are format errors', () => {
    expect(err(block('replace a.js'))).toMatch(/no edit block/);
    expect(err(block('replace a.js\nold\n=======\nnew'))).toMatch(/expected "<<<<<<< SEARCH"/);
    expect(err(block('replace a.js\n<<<<<<< SEARCH\nold\nnew\n>>>>>>> REPLACE'))).toMatch(/has no "=======" line/);
    expect(err(block('replace a.js\n<<<<<<< SEARCH\nold\n=======\nnew'))).toMatch(/has no ">>>>>>> REPLACE" line/);
    expect(err(block('replace a.js\n<<<<<<< SEARCH\n\n=======\nnew\n>>>>>>> REPLACE'))).toMatch(/SEARCH part .* is empty/);
    expect(err(block('replace a.js b.js\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE'))).toMatch(/expected one path/);
  });
  it('create: the path, then the whole text (with a final newline)', () => {
    expect(cmd('create src/b.js\nexport const b = 1;')).toEqual({ name: 'create', path: 'src/b.js', content: 'export const b = 1;\n' });
    expect(cmd('create empty.txt')).toEqual({ name: 'create', path: 'empty.txt', content: '' });
    expect(err(block('create'))).toMatch(/create: expected one path/);
  });
  it('run_tests: the rest of the line is a test full name; submit takes nothing', () => {
    expect(cmd('run_tests')).toEqual({ name: 'run_tests' });
    expect(cmd('run_tests clamp > clamp > lowers values above the range to hi')).toEqual({ name: 'run_tests', test: 'clamp > clamp > lowers values above the range to hi' });
    expect(cmd('run_tests "a > b c"')).toEqual({ name: 'run_tests', test: 'a > b c' });
    expect(err(block('submit now'))).toMatch(/submit: takes no arguments/);
  });
});

describe('formatCommand', () => {
  const cases: Command[] = [
    { name: 'view', path: 'src/a.js', start: 3, end: 9 },
    { name: 'view', path: 'dir with space/a.js' },
    { name: 'search', text: 'return lo', path: 'src' },
    { name: 'search', text: 'say "hi"' },
    { name: 'replace', path: 'a.js', edits: [{ search: 'x\n', replace: '' }, { search: 'a\nb\n', replace: '\n' }] },
    { name: 'create', path: 'README.md', content: '# T\n```\ncode\n```\n' },
    { name: 'create', path: 'blank.txt', content: '\n' },
    { name: 'run_tests', test: 'a > b' },
    { name: 'run_tests' },
    { name: 'submit' },
  ];
  it.each(cases.map((c) => [JSON.stringify(c), c] as const))('round-trips %s', (_, c) => {
    expect(parseTurn(`reason\n${formatCommand(c)}`)).toEqual({ ok: true, command: c, reasoning: 'reason' });
  });
  it('splitWords groups quoted text', () => {
    expect(splitWords(`a "b c" 'd e' f`)).toEqual(['a', 'b c', 'd e', 'f']);
  });
});
