// The action format and its parser: a turn is free text ending in exactly one fenced block whose info
// string is `command`; the block's first line is the command, later lines its body (replace, create).
// Anything else is a format error whose message says what was wrong and shows the expected form.
// Three edit commands: `replace` (SEARCH/REPLACE blocks: the old lines copied, then the new), the
// compact `edit PATH START END` (the new text of a numbered line range: only the new lines are written,
// a 1-3-token line address instead of a copy of the old lines) and the smallest, `sub LINE OLD NEW`
// (on one numbered line, text that occurs there once becomes other text: sed's s/OLD/NEW/ on a line,
// for models that cannot copy a whole line yet).

/** One SEARCH/REPLACE edit: old and new lines, each line ending in '\n' ('' replaces with nothing). */
export interface Edit {
  search: string;
  replace: string;
}

const asText = (lines: string[]) => lines.map((l) => l + '\n').join('');

/** `path` may be left out of view and edit: the tool then uses the open file (the one the last command
 *  acted on) or the repository's only source file (SWE-agent's open-file editor, sized for models that
 *  cannot copy a file name yet). */
export type Command =
  | { name: 'view'; path?: string; start?: number; end?: number }
  | { name: 'search'; text: string; path?: string }
  | { name: 'replace'; path: string; edits: Edit[] }
  /** Lines start..end (1-based, inclusive) become `content` (whole lines, each ending in '\n'; '' deletes
   *  them). end = start − 1 inserts `content` before line start without replacing anything. */
  | { name: 'edit'; path?: string; start: number; end: number; content: string }
  /** The one occurrence of `old` in the file (on line `line`, when given) becomes `new` ('' deletes it). */
  | { name: 'sub'; path?: string; line?: number; old: string; new: string }
  /** Reverts the episode's last file change. */
  | { name: 'undo' }
  | { name: 'create'; path: string; content: string }
  | { name: 'run_tests'; test?: string }
  | { name: 'submit' };

export type CommandName = Command['name'];

export type ParseResult = { ok: true; command: Command; reasoning: string } | { ok: false; error: string };

/** The usage line of each command, as the prompt documents it and format errors repeat it. */
export const USAGE: Readonly<Record<CommandName, string>> = {
  view: 'view [PATH] [START [END]]',
  search: 'search TEXT [PATH]',
  replace: 'replace PATH, then edit blocks: <<<<<<< SEARCH / old lines / ======= / new lines / >>>>>>> REPLACE',
  edit: 'edit [PATH] START END, then the new text of lines START to END',
  sub: 'sub [PATH] [LINE] OLD NEW',
  undo: 'undo',
  create: "create PATH, then the whole file's text",
  run_tests: 'run_tests [TEST_FULL_NAME]',
  submit: 'submit',
};

export const SEARCH_MARK = '<<<<<<< SEARCH';
export const DIVIDER = '=======';
export const REPLACE_MARK = '>>>>>>> REPLACE';

/** The example every format error ends with. */
export const EXPECTED_FORM = [
  'Each turn is your reasoning followed by exactly one command block, which ends the turn, e.g.',
  '```command',
  'view src/lib.js 1 40',
  '```',
  `Commands: ${(['view', 'search', 'edit', 'sub', 'undo', 'replace', 'create', 'run_tests', 'submit'] as const).map((c) => USAGE[c].split(',')[0]).join(' | ')}`,
].join('\n');

class FormatError extends Error {}
const fail = (msg: string): never => {
  throw new FormatError(msg);
};

interface Fence {
  info: string;
  /** Line index of the opening fence and of the closing one (-1 when unclosed). */
  open: number;
  close: number;
  body: string[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;

/** Every fenced block in `lines` (CommonMark-style: closed by the same character, at least as long). */
function fences(lines: string[]): Fence[] {
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (!m) continue;
    const mark = m[1]!;
    const f: Fence = { info: m[2]!, open: i, close: -1, body: [] };
    for (let j = i + 1; j < lines.length; j++) {
      const c = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (c && c[1]![0] === mark[0] && c[1]!.length >= mark.length) {
        f.close = j;
        break;
      }
      f.body.push(lines[j]!);
    }
    out.push(f);
    if (f.close < 0) break;
    i = f.close;
  }
  return out;
}

/** Split a command line into words; "double" (JSON escapes) and 'single' quotes group spaces. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === '\\' && ch === '"' ? 2 : 1;
      if (j >= line.length) fail(`the quote ${ch} opened at column ${i + 1} is not closed`);
      const raw = line.slice(i, j + 1);
      if (ch === "'") words.push(raw.slice(1, -1));
      else {
        try {
          words.push(JSON.parse(raw) as string);
        } catch {
          fail(`${raw} is not a valid double-quoted string (use \\" for a quote and \\\\ for a backslash)`);
        }
      }
      i = j + 1;
      if (i < line.length && !/\s/.test(line[i]!)) fail(`put a space after the quoted text ${raw}`);
      continue;
    }
    let j = i;
    while (j < line.length && !/\s/.test(line[j]!)) j++;
    words.push(line.slice(i, j));
    i = j;
  }
  return words;
}

function lineNumber(cmd: string, what: string, word: string): number {
  if (!/^\d+$/.test(word) || Number(word) < 1) fail(`${cmd}: ${what} must be a line number (1 or more), got "${word}"`);
  return Number(word);
}

function noBody(cmd: CommandName, body: string[]): void {
  if (body.some((l) => l.trim() !== '')) fail(`${cmd} takes no lines after the command line (usage: ${USAGE[cmd]})`);
}

/** The SEARCH/REPLACE blocks of a replace command's body. */
export function parseEdits(body: string[]): Edit[] {
  const edits: Edit[] = [];
  let i = 0;
  const at = (k: number) => `line ${k + 2} of the block`;
  while (i < body.length) {
    const line = body[i]!.trimEnd();
    if (line === '') {
      i++;
      continue;
    }
    if (line !== SEARCH_MARK) fail(`replace: expected "${SEARCH_MARK}" at ${at(i)}, found "${line.slice(0, 60)}"`);
    const mid = body.findIndex((l, k) => k > i && l.trimEnd() === DIVIDER);
    if (mid < 0) fail(`replace: the edit block opened at ${at(i)} has no "${DIVIDER}" line`);
    const end = body.findIndex((l, k) => k > mid && l.trimEnd() === REPLACE_MARK);
    if (end < 0) fail(`replace: the edit block opened at ${at(i)} has no "${REPLACE_MARK}" line`);
    const old = body.slice(i + 1, mid);
    const nested = old.findIndex((l) => l.trimEnd() === SEARCH_MARK);
    if (nested >= 0) fail(`replace: the edit block opened at ${at(i)} is not closed before the next "${SEARCH_MARK}"`);
    if (old.every((l) => l.trim() === '')) fail(`replace: the SEARCH part of the edit block at ${at(i)} is empty; copy the lines to change from the file`);
    edits.push({ search: asText(old), replace: asText(body.slice(mid + 1, end)) });
    i = end + 1;
  }
  if (edits.length === 0) fail(`replace: no edit block; after "replace PATH" write\n${SEARCH_MARK}\nold lines\n${DIVIDER}\nnew lines\n${REPLACE_MARK}`);
  return edits;
}

function parseCommand(lines: string[]): Command {
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) fail('the command block is empty');
  const words = splitWords(lines[first]!);
  const [name, ...args] = words as [string, ...string[]];
  const body = lines.slice(first + 1);
  const usage = (cmd: CommandName, why: string) => fail(`${cmd}: ${why} (usage: ${USAGE[cmd]})`);
  switch (name) {
    case 'view': {
      noBody('view', body);
      // PATH may be left out (the open file): a first word of digits is START.
      const named = args.length > 0 && !/^\d+$/.test(args[0]!);
      const nums = named ? args.slice(1) : args;
      if (nums.length > 2) usage('view', `expected an optional path and up to two line numbers, got ${args.length} arguments`);
      const c: Command = named ? { name: 'view', path: args[0]! } : { name: 'view' };
      if (nums[0] !== undefined) c.start = lineNumber('view', 'START', nums[0]);
      if (nums[1] !== undefined) c.end = lineNumber('view', 'END', nums[1]);
      if (c.start !== undefined && c.end !== undefined && c.end < c.start) usage('view', `END (${c.end}) is before START (${c.start})`);
      return c;
    }
    case 'search': {
      noBody('search', body);
      if (args.length < 1 || args.length > 2) {
        usage('search', `expected TEXT and an optional PATH, got ${args.length} arguments; quote text that contains spaces, e.g. search "return lo" src`);
      }
      if (args[0] === '') usage('search', 'TEXT is empty');
      return args[1] === undefined ? { name: 'search', text: args[0]! } : { name: 'search', text: args[0]!, path: args[1] };
    }
    case 'replace':
      if (args.length !== 1) usage('replace', `expected one path on the command line, got ${args.length} words`);
      return { name: 'replace', path: args[0]!, edits: parseEdits(body) };
    case 'edit': {
      if ((args.length !== 2 && args.length !== 3) || (args.length === 2 && !/^\d+$/.test(args[0]!))) {
        usage('edit', `expected an optional path and two line numbers, got ${args.length} argument${args.length === 1 ? '' : 's'}`);
      }
      const nums = args.slice(-2);
      const start = lineNumber('edit', 'START', nums[0]!);
      const end = /^\d+$/.test(nums[1]!) ? Number(nums[1]) : lineNumber('edit', 'END', nums[1]!);
      if (end < start - 1) usage('edit', `END (${end}) is before START (${start}); END = START − 1 inserts before line START`);
      // Trailing blank lines are dropped: an empty body deletes the range.
      let last = body.length;
      while (last > 0 && body[last - 1]!.trim() === '') last--;
      const content = asText(body.slice(0, last));
      return args.length === 3 ? { name: 'edit', path: args[0]!, start, end, content } : { name: 'edit', start, end, content };
    }
    case 'sub': {
      noBody('sub', body);
      // sub OLD NEW | sub LINE OLD NEW | sub PATH OLD NEW | sub PATH LINE OLD NEW (a word of digits is LINE).
      const digits = (w: string | undefined) => w !== undefined && /^\d+$/.test(w);
      let path: string | undefined, line: string | undefined, old: string, neu: string;
      if (args.length === 2) [old, neu] = args as [string, string];
      else if (args.length === 3 && digits(args[0])) [line, old, neu] = args as [string, string, string];
      else if (args.length === 3) [path, old, neu] = args as [string, string, string];
      else if (args.length === 4 && digits(args[1])) [path, line, old, neu] = args as [string, string, string, string];
      else return usage('sub', `expected [PATH] [LINE] OLD NEW, got ${args.length} argument${args.length === 1 ? '' : 's'}; quote text with spaces and write "" for no text, e.g. sub "i <= n" "i < n"`);
      if (old === '') usage('sub', 'OLD is empty: write the text to change, as it is in the file');
      const c: Extract<Command, { name: 'sub' }> = { name: 'sub', old, new: neu };
      if (line !== undefined) c.line = lineNumber('sub', 'LINE', line);
      if (path !== undefined) c.path = path;
      return c;
    }
    case 'undo':
      noBody('undo', body);
      if (args.length) usage('undo', 'takes no arguments');
      return { name: 'undo' };
    case 'create':
      if (args.length !== 1) usage('create', `expected one path on the command line, got ${args.length} words`);
      return { name: 'create', path: args[0]!, content: asText(body) };
    case 'run_tests': {
      noBody('run_tests', body);
      // The rest of the line is the test's full name (it holds spaces and " > "); quotes are optional.
      const rest = lines[first]!.trim().slice('run_tests'.length).trim();
      if (rest === '') return { name: 'run_tests' };
      const quoted = /^(["']).*\1$/.test(rest) ? splitWords(rest) : [rest];
      if (quoted.length !== 1) usage('run_tests', 'expected one test name');
      return { name: 'run_tests', test: quoted[0]! };
    }
    case 'submit':
      noBody('submit', body);
      if (args.length) usage('submit', 'takes no arguments');
      return { name: 'submit' };
    default:
      return fail(`unknown command "${name.slice(0, 40)}"`);
  }
}

/** Parse one assistant turn. Never throws: a bad turn gives { ok: false, error }. */
export function parseTurn(text: string): ParseResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  try {
    const all = fences(lines);
    const blocks = all.filter((f) => f.info === 'command');
    if (blocks.length === 0) {
      const other = all.find((f) => f.info !== '' && f.info !== 'command');
      if (other) fail(`found a \`\`\`${other.info} block but no command block; the block's info string must be \`command\``);
      if (all.length) fail('found a fenced block without the `command` info string; open it with ```command');
      fail('no command block');
    }
    if (blocks.length > 1) fail(`found ${blocks.length} command blocks; write exactly one per turn`);
    const block = blocks[0]!;
    if (block.close < 0) fail('the command block is not closed; end it with a line of ``` (as many backticks as opened it)');
    if (lines.slice(block.close + 1).some((l) => l.trim() !== '')) fail('text after the command block; the command block must end the turn');
    const command = parseCommand(block.body);
    return { ok: true, command, reasoning: lines.slice(0, block.open).join('\n').trim() };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { ok: false, error: e.message };
  }
}

/** Write a command back as the block a turn would hold (the expert's and the tests' writer). */
export function formatCommand(c: Command): string {
  const q = (s: string) => (/^[^\s"']+$/.test(s) ? s : JSON.stringify(s));
  let body: string;
  switch (c.name) {
    case 'view':
      body = ['view', c.path === undefined ? undefined : q(c.path), c.start, c.end].filter((x) => x !== undefined).join(' ');
      break;
    case 'search':
      body = ['search', q(c.text), c.path === undefined ? undefined : q(c.path)].filter((x) => x !== undefined).join(' ');
      break;
    case 'replace':
      body = [`replace ${q(c.path)}`, ...c.edits.map((e) => `${SEARCH_MARK}\n${e.search}${DIVIDER}\n${e.replace}${REPLACE_MARK}`)].join('\n');
      break;
    case 'edit':
      body = `edit ${c.path === undefined ? '' : q(c.path) + ' '}${c.start} ${c.end}${c.content === '' ? '' : '\n' + c.content.replace(/\n$/, '')}`;
      break;
    case 'sub': {
      // Quote what has spaces or quotes, or is empty; a bare word otherwise (one of digits too, when a
      // LINE is given, or when it is NEW).
      const w = (t: string) => (t !== '' && /^[^\s"']+$/.test(t) ? t : JSON.stringify(t));
      const old = c.line === undefined && /^\d+$/.test(c.old) && c.path === undefined ? c.old : w(c.old);
      body = ['sub', c.path === undefined ? undefined : q(c.path), c.line, old, w(c.new)].filter((x) => x !== undefined).join(' ');
      break;
    }
    case 'undo':
      body = 'undo';
      break;
    case 'create':
      body = `create ${q(c.path)}${c.content === '' ? '' : '\n' + c.content.replace(/\n$/, '')}`; // the parser adds the final newline back
      break;
    case 'run_tests':
      body = c.test === undefined ? 'run_tests' : `run_tests ${c.test}`;
      break;
    case 'submit':
      body = 'submit';
  }
  // A longer fence when the body itself holds a fence line.
  const longest = Math.max(2, ...body.split('\n').map((l) => /^ {0,3}(`{3,})/.exec(l)?.[1]!.length ?? 0));
  const fence = '`'.repeat(longest + 1);
  return `${fence}command\n${body}\n${fence}`;
}
