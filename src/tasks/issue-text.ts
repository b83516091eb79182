// Issue text as a user would write it, from what a failing test shows: the call under test and its
// input (found with acorn in the failing `it`), what came back and what was expected (parsed from
// node:assert's message). Several voices, chosen by a seeded Rng. Never line numbers, file paths or
// hints of the fix. Core code (no Node APIs).
import type { AnyNode, CallExpression, Node, Statement } from 'acorn';
import type { FileMap } from '../sandbox/types.ts';
import type { Rng } from '../random.ts';
import { parseModule, walk } from './mutate.ts';

/** A failing test as the sandbox reported it. */
export interface Failure {
  fullName: string;
  message: string;
  file?: string;
}

export type FailureKind = 'values' | 'unequal' | 'no-throw' | 'wrong-error' | 'falsy' | 'error';

/** What node:assert's message says. `actual`/`expected` are as util.inspect prints them. */
export interface ParsedMessage {
  kind: FailureKind;
  actual?: string;
  expected?: string;
  /** For 'no-throw' / 'wrong-error': the error asked for (class name or /regex/); for 'falsy': the asserting source. */
  wanted?: string;
  /** The error that was thrown ('wrong-error', 'error'). */
  thrown?: string;
}

/** The facts an issue is written from. */
export interface FailureFacts extends ParsedMessage {
  testName: string;
  /** The expression under test, e.g. "toRoman(4)" or "cache.size"; the function's name, e.g. "toRoman". */
  subject?: string;
  fn?: string;
  /** A small reproduction: setup statements and the call, imports from the package. */
  snippet?: string;
}

const diffSide = (lines: string[], side: '+' | '-') =>
  lines.filter((l) => l.startsWith(`${side} `) || l.startsWith('  ') || l === '...').map((l) => (l === '...' ? '…' : l.slice(2))).join('\n');

export function parseMessage(message: string): ParsedMessage {
  const m = message.replace(/\r/g, '');
  let r: RegExpMatchArray | null;
  if (/^Expected values to be (strictly )?(deep-)?equal/.test(m)) {
    if (/\+ actual - expected/.test(m)) {
      const lines = m.split('\n').slice(1).filter((l) => !/^\s*\^?\s*$/.test(l) && !/^\+ actual - expected/.test(l));
      return { kind: 'values', actual: diffSide(lines, '+'), expected: diffSide(lines, '-') };
    }
    const body = m.split('\n').filter((l) => l.trim() !== '').slice(1).join('\n');
    const at = body.indexOf(' !== ');
    if (at >= 0) return { kind: 'values', actual: body.slice(0, at), expected: body.slice(at + 5) };
  }
  if ((r = m.match(/^Expected "actual" to be (?:strictly )?(?:deep-)?unequal to:\s*([\s\S]*)$/))) return { kind: 'unequal', actual: r[1]!.trim() };
  if ((r = m.match(/^Missing expected exception(?: \((.+)\))?[.:]?/))) return { kind: 'no-throw', ...(r[1] ? { wanted: r[1] } : {}) };
  if ((r = m.match(/^The input did not match the regular expression (\/.*\/\w*)\. Input:\s*([\s\S]*)$/))) {
    return { kind: 'wrong-error', wanted: r[1]!, thrown: r[2]!.trim().replace(/^'(.*)'$/s, '$1') };
  }
  if ((r = m.match(/^The error is expected to be an instance of "(\w+)"\. Received "(\w+)"\s*(?:Error message:\s*([\s\S]*))?$/))) {
    return { kind: 'wrong-error', wanted: r[1]!, thrown: `${r[2]}${r[3] ? `: ${r[3].trim()}` : ''}` };
  }
  if ((r = m.match(/^The expression evaluated to a falsy value:\s*([\s\S]*)$/))) return { kind: 'falsy', wanted: r[1]!.trim() };
  return { kind: 'error', thrown: m.split('\n')[0]!.trim() };
}

// ── finding the failing assertion in the test source ─────────────────────────────────────────────

type Fn = { body: Node & { body?: Statement[] }; scope?: AnyNode[] };
interface Assertion {
  call: CallExpression;
  method: string;
  /** The top-level statement of the test body that holds it. */
  top: number;
}

const src = (text: string, n: Node) => text.slice(n.start, n.end);
const norm = (s: string) => s.replace(/\s+/g, '').replace(/['"`]/g, '').replace(/,([\]}])/g, '$1');
const nameOf = (n: AnyNode | undefined) =>
  n?.type === 'Literal' && typeof n.value === 'string' ? n.value : n?.type === 'TemplateLiteral' && n.expressions.length === 0 ? (n.quasis[0]!.value.cooked ?? undefined) : undefined;

/**
 * The function passed to the `it`/`test` call whose describe path is `fullName`, and the declarations
 * (variables, helper functions) of the module and the enclosing describe bodies, which the test can see.
 */
function findTest(text: string, fullName: string): Fn | undefined {
  let found: Fn | undefined;
  const visit = (stmts: readonly AnyNode[], path: string[], outer: AnyNode[]) => {
    const scope = [...outer, ...stmts.filter((s) => s.type === 'VariableDeclaration' || s.type === 'FunctionDeclaration')];
    for (const s of stmts) {
      if (found || s.type !== 'ExpressionStatement' || s.expression.type !== 'CallExpression') continue;
      const call = s.expression;
      const callee = call.callee.type === 'MemberExpression' ? call.callee.object : call.callee;
      const kind = callee.type === 'Identifier' ? callee.name : '';
      const name = nameOf(call.arguments[0] as AnyNode);
      const fn = call.arguments.find((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression') as (Fn & AnyNode) | undefined;
      if (name === undefined || !fn) continue;
      const here = [...path, name];
      if (kind === 'describe' || kind === 'suite') visit(fn.body.body ?? [], here, scope);
      else if ((kind === 'it' || kind === 'test') && here.join(' > ') === fullName) found = { body: fn.body, scope };
    }
  };
  visit(parseModule(text).body, [], []);
  return found;
}

function assertionsIn(fn: Fn): Assertion[] {
  const stmts = fn.body.body ?? [fn.body as Statement];
  const out: Assertion[] = [];
  stmts.forEach((s, top) =>
    walk(s, (n) => {
      if (n.type !== 'CallExpression') return;
      const c = n.callee;
      if (c.type === 'Identifier' && c.name === 'assert') out.push({ call: n, method: 'ok', top });
      else if (c.type === 'MemberExpression' && c.object.type === 'Identifier' && c.object.name === 'assert' && c.property.type === 'Identifier') {
        out.push({ call: n, method: c.property.name, top });
      }
    }),
  );
  return out;
}

const EQUALS = /^(equal|strictEqual|deepEqual|deepStrictEqual)$/;
const THROWS = /^(throws|rejects)$/;

/** The assertion the message came from; `certain` when exactly one assertion fits it. */
function pickAssertion(text: string, all: Assertion[], p: ParsedMessage): { a?: Assertion; certain: boolean } {
  const arg = (a: Assertion, i: number) => (a.call.arguments[i] ? src(text, a.call.arguments[i]!) : '');
  const of = (re: RegExp) => all.filter((a) => re.test(a.method));
  const pick = (exact: Assertion[], fallback: Assertion[]) => ({ a: exact[0] ?? fallback[0], certain: exact.length === 1 });
  if (p.kind === 'values') {
    const eq = of(EQUALS);
    const exact = p.expected?.includes('…') ? [] : eq.filter((a) => norm(arg(a, 1)) === norm(p.expected ?? ''));
    return pick(exact, [...eq.filter((a) => !/^['"`\d[{-]/.test(arg(a, 1))), ...eq]);
  }
  if (p.kind === 'unequal') return pick(of(/^not(Strict|Deep|DeepStrict)?Equal$/), []);
  if (p.kind === 'falsy') return pick(all.filter((a) => norm(src(text, a.call)) === norm(p.wanted ?? '')), of(/^ok$/));
  if (p.kind === 'no-throw' || p.kind === 'wrong-error') {
    const th = of(THROWS);
    return pick(th.filter((a) => p.wanted !== undefined && arg(a, 1) === p.wanted), th);
  }
  // The library threw: the first assertion whose literal arguments the error message quotes.
  const quoted = (a: Assertion) => {
    const lits: string[] = [];
    walk(a.call, (n) => n.type === 'Literal' && typeof n.value === 'string' && n.value.trim() !== '' && lits.push(n.value));
    return lits.some((l) => (p.thrown ?? '').includes(l));
  };
  const calls = all.filter((a) => !THROWS.test(a.method));
  return { a: calls.find(quoted) ?? calls[0] ?? all[0], certain: false };
}

// ── the probe: when the message fits several assertions, run the test once more, instrumented ──────

export const PROBE_MARK = '@@webswe-probe ';

/** Which assertion (index among the test's assertions, in source order) threw first, and what. */
export interface Probe {
  test: string;
  k: number;
  name?: string;
}

/**
 * The test file with every assertion of the named tests wrapped so that the first one to throw
 * prints PROBE_MARK and a Probe as JSON on stdout (the error is then re-thrown unchanged).
 */
export function instrumentTests(text: string, fullNames: readonly string[]): string {
  const inserts: { at: number; text: string }[] = [];
  for (const name of fullNames) {
    const fn = findTest(text, name);
    if (!fn) continue;
    assertionsIn(fn).forEach((a, k) => {
      if (a.method === 'rejects' || /\b(await|yield)\b/.test(src(text, a.call))) return;
      inserts.push({ at: a.call.start, text: `__webswe_probe(${JSON.stringify(name)}, ${k}, () => ` }, { at: a.call.end, text: ')' });
    });
  }
  if (inserts.length === 0) return text;
  let out = text;
  for (const i of inserts.sort((x, y) => y.at - x.at)) out = out.slice(0, i.at) + i.text + out.slice(i.at);
  return `${out}\nfunction __webswe_probe(test, k, f) {\n  try {\n    return f();\n  } catch (e) {\n    console.log(${JSON.stringify(PROBE_MARK)} + JSON.stringify({ test, k, name: e && e.name }));\n    throw e;\n  }\n}\n`;
}

/** The first probe line per test in a run's output. */
export function readProbes(output: string): Map<string, Probe> {
  const out = new Map<string, Probe>();
  for (const line of output.split('\n')) {
    const at = line.indexOf(PROBE_MARK);
    if (at < 0) continue;
    try {
      const p = JSON.parse(line.slice(at + PROBE_MARK.length)) as Probe;
      if (typeof p.test === 'string' && typeof p.k === 'number' && !out.has(p.test)) out.set(p.test, p);
    } catch {
      // a cut line: ignore
    }
  }
  return out;
}

/** The expression under test: the asserted value, or what the `throws` callback evaluates. */
function subjectOf(a: Assertion): Node | undefined {
  const first = a.call.arguments[0];
  if (!first || first.type === 'SpreadElement') return undefined;
  if (THROWS.test(a.method) && (first.type === 'ArrowFunctionExpression' || first.type === 'FunctionExpression')) {
    const b = first.body;
    if (b.type !== 'BlockStatement') return b;
    const s = b.body[b.body.length - 1];
    return s?.type === 'ExpressionStatement' || s?.type === 'ReturnStatement' ? (s.type === 'ReturnStatement' ? (s.argument ?? undefined) : s.expression) : undefined;
  }
  return first;
}

/** The call's function name: the outermost call with arguments, else the outermost call. */
function fnName(subject: Node): string | undefined {
  const calls: AnyNode[] = [];
  walk(subject, (n) => (n.type === 'CallExpression' || n.type === 'NewExpression') && calls.push(n));
  const c = (calls.find((n) => 'arguments' in n && n.arguments.length > 0) ?? calls[0]) as CallExpression | undefined;
  if (!c) return undefined;
  const callee = c.callee;
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : undefined;
  return name && (c as AnyNode).type === 'NewExpression' ? `new ${name}` : name;
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const pad = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^\s*/)![0].length));
  return lines.map((l) => l.slice(pad)).join('\n');
}

/**
 * A reproduction: the test's statements before the failing one (an earlier assertion on an object the
 * test made becomes its bare call, kept for its side effects; other assertions go), then the failing call.
 */
function snippetFor(text: string, fn: Fn, a: Assertion, subject: Node | undefined, pkg: string, all: Assertion[]): string {
  const stmts = fn.body.body ?? [];
  const indent = (n: Node) => text.slice(text.lastIndexOf('\n', n.start - 1) + 1, n.start);
  const locals = stmts.flatMap((s) => (s.type === 'VariableDeclaration' ? s.declarations.flatMap((d) => (d.id.type === 'Identifier' ? [d.id.name] : [])) : []));
  const stateful = (n: Node | undefined) => n !== undefined && /\(/.test(src(text, n)) && locals.some((l) => new RegExp(`(^|[^\\w$.])${l}\\b`).test(src(text, n)));
  const parts: string[] = [];
  for (let i = 0; i <= a.top && i < stmts.length; i++) {
    const s = stmts[i]!;
    const own = s.type === 'ExpressionStatement' ? all.find((x) => x.call === s.expression) : undefined;
    if (!own) parts.push(indent(s) + src(text, s)); // setup, or a loop holding the failing assertion
    else if (own === a && subject) parts.push(`${indent(s)}${THROWS.test(a.method) ? src(text, subject) : `console.log(${src(text, subject)})`};`);
    else if (own !== a && !THROWS.test(own.method) && stateful(subjectOf(own))) parts.push(`${indent(s)}${src(text, subjectOf(own)!)};`);
  }
  let code = dedent(parts.join('\n'));
  // Helpers and data the test takes from outside its body (e.g. `const messy = [...]` in a describe).
  const uses = (c: string, n: string) => new RegExp(`(^|[^\\w$.])${n.replace(/\$/g, '\\$')}\\b`).test(c) && !new RegExp(`\\b(const|let|var|function)\\s+${n.replace(/\$/g, '\\$')}\\b`).test(c);
  const declared = (d: AnyNode) => (d.type === 'FunctionDeclaration' ? (d.id ? [d.id.name] : []) : d.type === 'VariableDeclaration' ? d.declarations.flatMap((x) => (x.id.type === 'Identifier' ? [x.id.name] : [])) : []);
  const outside = new Set<AnyNode>();
  for (let grew = true; grew; ) {
    grew = false;
    const seen = [code, ...[...outside].map((d) => src(text, d))].join('\n');
    for (const d of fn.scope ?? []) {
      if (outside.has(d) || !declared(d).some((n) => uses(seen, n))) continue;
      outside.add(d);
      grew = true;
    }
  }
  if (outside.size) code = `${[...outside].sort((x, y) => x.start - y.start).map((d) => dedent(indent(d) + src(text, d))).join('\n')}\n\n${code}`;
  const names = new Set<string>();
  for (const d of parseModule(text).body) {
    if (d.type !== 'ImportDeclaration' || !String(d.source.value).startsWith('.')) continue;
    for (const s of d.specifiers) if (new RegExp(`\\b${s.local.name.replace(/\$/g, '\\$')}\\b`).test(code)) names.add(s.type === 'ImportSpecifier' && s.imported.type === 'Identifier' && s.imported.name !== s.local.name ? `${s.imported.name} as ${s.local.name}` : s.local.name);
  }
  return (names.size ? `import { ${[...names].join(', ')} } from '${pkg}';\n\n` : '') + code;
}

/**
 * Facts about one failing test, from its message and its source in `testFiles`. `certain` is false
 * when the message fits several assertions of the test and no probe said which one threw.
 */
export function failureFacts(testFiles: FileMap, pkg: string, f: Failure, probe?: Probe): FailureFacts & { certain: boolean } {
  const parsed = parseMessage(f.message);
  const testName = f.fullName.split(' > ').pop()!;
  const facts: FailureFacts & { certain: boolean } = { ...parsed, testName, certain: false };
  const order = Object.keys(testFiles).sort((x, y) => Number(y === f.file) - Number(x === f.file));
  for (const file of order) {
    const text = testFiles[file]!;
    const fn = findTest(text, f.fullName);
    if (!fn) continue;
    const all = assertionsIn(fn);
    const picked = pickAssertion(text, all, parsed);
    const a = probe && all[probe.k] ? all[probe.k] : picked.a;
    facts.certain = (probe !== undefined && all[probe.k] !== undefined) || picked.certain;
    if (parsed.kind === 'error' && probe?.name && probe.name !== 'Error') facts.thrown = `${probe.name}: ${parsed.thrown}`;
    if (!a) break;
    const subject = subjectOf(a);
    if (subject) Object.assign(facts, { subject: src(text, subject).replace(/\s+/g, ' '), fn: fnName(subject) });
    if (parsed.kind === 'no-throw' && !parsed.wanted && a.call.arguments[1]) facts.wanted = src(text, a.call.arguments[1]);
    facts.snippet = snippetFor(text, fn, a, subject, pkg, all);
    break;
  }
  return facts;
}

// ── writing ───────────────────────────────────────────────────────────────────────────────────────

const isBlock = (v: string) => v.includes('\n') || v.length > 60;
/** A value inline, or in its own block when it is long; `lead` is what goes before an inline one. */
const val = (v = '?', lead = ' ') => (isBlock(v) ? `\n\n\`\`\`\n${v}\n\`\`\`\n\n` : `${lead}\`${v}\``);
const errWord = (w?: string) => (!w ? 'an error' : w.startsWith('/') ? `an error matching \`${w}\`` : `a \`${w}\``);
const code = (s?: string) => (s ? `\`\`\`js\n${s}\n\`\`\`` : '');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A sentence's end: a period, unless it ends with a code block. */
const end = (s: string) => (s.endsWith('```\n\n') ? s.trimEnd() : `${s}.`);

/** A title, one sentence saying what goes wrong, and the expected and actual outcomes. */
function say(f: FailureFacts, repo: string): { title: string; sentence: string; expected: string; actual: string } {
  const who = f.fn ? `\`${f.fn}\`` : f.subject ? `\`${f.subject}\`` : repo;
  const what = f.subject ? `\`${f.subject}\`` : `the "${f.testName}" case`;
  switch (f.kind) {
    case 'values':
      return { title: `${who} returns the wrong result`, sentence: end(`${what} gives me${val(f.actual)}${isBlock(f.actual ?? '') ? '' : ' '}but I expected${val(f.expected)}`), expected: val(f.expected, ''), actual: val(f.actual, '') };
    case 'unequal':
      return { title: `${who} returns the wrong result`, sentence: `${what} comes back as \`${f.actual}\`, which it never should.`, expected: `anything but \`${f.actual}\``, actual: `\`${f.actual}\`` };
    case 'no-throw':
      return { title: `${who} accepts input it should reject`, sentence: `${what} does not throw; I expected ${errWord(f.wanted)} for that input.`, expected: errWord(f.wanted), actual: 'nothing is thrown' };
    case 'wrong-error':
      return { title: `${who} throws the wrong error`, sentence: `${what} throws the wrong thing: I get \`${f.thrown}\` where ${errWord(f.wanted)} was expected.`, expected: errWord(f.wanted), actual: `\`${f.thrown}\`` };
    case 'falsy':
      return { title: `${who} returns the wrong result`, sentence: `the check \`${f.wanted}\` is false, but it should hold.`, expected: `\`${f.wanted}\` holds`, actual: 'it is false' };
    case 'error':
      return { title: `${who} fails with "${(f.thrown ?? '').slice(0, 60)}"`, sentence: `${what} throws an unexpected error: "${f.thrown}".`, expected: 'no error', actual: `it throws "${f.thrown}"` };
  }
}

const field = (name: string, v: string) => `**${name}:**${v.startsWith('\n') ? `\n\n${v.trim()}` : ` ${v}`}`;

const VOICES: ((fs: FailureFacts[], repo: string) => string)[] = [
  // terse maintainer
  (fs, repo) => [cap(say(fs[0]!, repo).title), '', ...fs.flatMap((f, i) => [`${i ? 'Also: ' : ''}${cap(say(f, repo).sentence)}`, '', code(f.snippet), ''])].join('\n'),
  // friendly user
  (fs, repo) =>
    [`Hi! I've been using ${repo} and ran into something odd.`, '', ...fs.flatMap((f, i) => [`${i ? 'And a second thing I noticed: ' : ''}${(i ? (s: string) => s : cap)(say(f, repo).sentence)}`, '', code(f.snippet), '']), 'Am I missing something, or is this a bug? Thanks!'].join('\n'),
  // structured bug report
  (fs, repo) =>
    fs
      .map((f, i) => {
        const s = say(f, repo);
        return [`### ${i ? 'Second problem: ' : ''}${cap(s.title)}`, '', '**To reproduce**', '', code(f.snippet), '', field('Expected', s.expected), '', field('Actual', s.actual)].join('\n');
      })
      .join('\n\n'),
  // a CI failure, named by its test
  (fs, repo) => fs.map((f, i) => `${i ? 'A second test fails too' : 'After pulling the latest version our test run goes red'}: "${f.testName}". ${cap(say(f, repo).sentence)}\n\n${code(f.snippet)}`).join('\n\n'),
  // short question
  (fs, repo) => [`Is this expected behaviour in ${repo}? ${cap(say(fs[0]!, repo).sentence)}`, ...fs.slice(1).map((f) => `\nSame story here: ${say(f, repo).sentence}`), '', code(fs[0]!.snippet)].join('\n'),
];

/** The issue text for one or two failures (a two-bug task describes one failure per bug). */
export function writeIssue(facts: readonly FailureFacts[], repo: string, rng: Rng): string {
  const text = VOICES[rng.int(VOICES.length)]!([...facts], repo);
  // Belt and braces: never a repo file path or a line number, whatever the test source held.
  return (
    text
      .replace(/(?:\.\.?\/)*(?:src|test)\/[\w./-]+\.[cm]?js/g, repo)
      .replace(/\bline \d+/gi, 'there')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n'
  );
}
