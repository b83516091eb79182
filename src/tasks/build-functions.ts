// Levels 0 and 1 of the graded task world, made from the function corpus (functions.ts): level 0 is one
// function alone in src/<name>.js; level 1 puts a few functions of one family in one module. Every bug
// is one level-0 mutant the function's examples kill; its tests are the examples, one test per call,
// expected values from the correct function (the oracle). The split is by function, never by bug: a
// function's hash with the seed puts it in train, val (settings are chosen there) or test, so a function
// of the test split is in no training task (nor in a level-1 module beside training functions), and
// adding functions to the corpus never moves another. Core code: no Node APIs.
import { makeDiff } from '../sandbox/patch.ts';
import type { FileMap } from '../sandbox/types.ts';
import { Rng } from '../random.ts';
import { caseTitles, moduleText, testFileText, type CheckedFunction, type KilledMutant, type OracleCase, type Outcome } from './functions.ts';
import { writeIssue, type FailureFacts } from './issue-text.ts';
import type { Task } from './schema.ts';

export type FunctionSplit = 'train' | 'val' | 'test';

export interface FunctionWorldOptions {
  seed: number;
  /** Share of the functions held out for test, and for validation (carved from the rest). */
  testFraction: number;
  valFraction: number;
  /** Functions per level-1 module. */
  moduleSize: number;
  /** The issue text: `calls`, one templated sentence per bug (what the call returns and should return); `reports`,
   *  a user's bug report in one of the voices level 2's issues are written in (issue-text.ts), with a snippet. */
  voices: IssueVoices;
}

export type IssueVoices = 'calls' | 'reports';
export const ISSUE_VOICES: readonly IssueVoices[] = ['calls', 'reports'];
/** The build command's `--voices` flag for these voices ('' for the default, calls). */
export const voicesFlag = (v: IssueVoices) => (v === 'calls' ? '' : ` --voices ${v}`);

export const FUNCTION_WORLD_DEFAULTS: Readonly<FunctionWorldOptions> = Object.freeze({ seed: 1, testFraction: 0.2, valFraction: 0.1, moduleSize: 3, voices: 'calls' });

/** FNV-1a of a string. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Where a function goes: a uniform draw from its name and the seed (stable as the corpus grows). */
export function functionSplit(name: string, o: Pick<FunctionWorldOptions, 'seed' | 'testFraction' | 'valFraction'>): FunctionSplit {
  const u = new Rng(hash32(`${o.seed}:split:${name}`)).next();
  return u < o.testFraction ? 'test' : u < o.testFraction + o.valFraction ? 'val' : 'train';
}

const cut = (s: string, n = 80) => (s.length <= n ? s : s.slice(0, n - 1) + '…');
const did = (o: Outcome) => (o.kind === 'value' ? `returns ${cut(o.source)}` : o.kind === 'throws' ? `throws ${o.name}` : 'never returns');
const should = (o: Outcome) => (o.kind === 'value' ? `return ${cut(o.source)}` : o.kind === 'throws' ? `throw ${o.name}` : 'return');
const doing = (o: Outcome) => (o.kind === 'value' ? `returning ${cut(o.source)}` : o.kind === 'throws' ? `throwing ${o.name}` : 'returning');

/** The issue: the first failing call, what it did and what it should do, in one of three voices. */
export function functionIssue(call: string, expected: Outcome, actual: Outcome, failing: number, rng: Rng): string {
  const voices = [
    `\`${call}\` ${did(actual)}, but it should ${should(expected)}.`,
    `Calling \`${call}\` ${did(actual)}; it should ${should(expected)}.`,
    `Bug: \`${call}\` ${did(actual)} instead of ${doing(expected)}.`,
  ];
  const more = failing > 1 ? ` ${failing - 1} other test${failing === 2 ? ' fails' : 's fail'} too.` : '';
  return voices[rng.int(voices.length)]! + more;
}

/** A failing call as the facts a user's report is written from (issue-text.ts); null for a call that never returns
 *  (the report voices have no sentence for it). */
export function callFacts(f: { call: string; fn: string; title: string; expected: Outcome; actual: Outcome }, repo: string): FailureFacts | null {
  const { expected: e, actual: a } = f;
  if (e.kind === 'timeout' || a.kind === 'timeout') return null;
  const thrown = a.kind === 'throws' ? (a.message ? `${a.name}: ${a.message}` : a.name) : undefined;
  const base = { testName: f.title, subject: f.call, fn: f.fn, snippet: `import { ${f.fn} } from '${repo}';\n\n${e.kind === 'throws' ? `${f.call};` : `console.log(${f.call});`}` };
  if (e.kind === 'value') return a.kind === 'value' ? { ...base, kind: 'values', actual: a.source, expected: e.source } : { ...base, kind: 'error', thrown: thrown! };
  return a.kind === 'value' ? { ...base, kind: 'no-throw', wanted: e.name } : { ...base, kind: 'wrong-error', wanted: e.name, thrown: thrown! };
}

const sameOutcome = (a: Outcome, b: Outcome) =>
  a.kind === b.kind && (a.kind === 'value' ? a.source === (b as typeof a).source : a.kind === 'throws' ? a.name === (b as typeof a).name : true);

/** 1-based line and column of an offset. */
function position(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: at - nl };
}

interface Member {
  cf: CheckedFunction;
  /** Offset of the function's `export function` in the module text. */
  offset: number;
}

/** One task: the module with its bugs applied (killed mutants, at most one per function); the tests of
 *  every function in the module. Two bugs (level 1's hard tier) get an issue sentence each. */
function makeTask(o: { id: string; repo: string; modulePath: string; members: Member[]; bugs: { member: Member; k: KilledMutant }[]; split: FunctionSplit; level: 0 | 1; world: Pick<FunctionWorldOptions, 'seed' | 'voices'> }): Task | null {
  const text = moduleText(o.members.map((m) => m.cf.fn.source));
  const name = o.modulePath.replace(/^src\/|\.js$/g, '');
  const testPath = `test/${name}.test.js`;
  const fns = o.members.map((m) => ({ name: m.cf.fn.name, cases: m.cf.cases }));
  const original: FileMap = {
    'package.json': `{"name": "${o.repo}", "version": "1.0.0", "type": "module"}\n`,
    [o.modulePath]: text,
    [testPath]: testFileText(`../${o.modulePath}`, fns),
  };
  // Applied from the end of the module back, so earlier offsets hold.
  let mutated = text;
  for (const b of [...o.bugs].sort((x, y) => y.member.offset + y.k.mutant.start - (x.member.offset + x.k.mutant.start))) {
    const m = b.k.mutant;
    const at = b.member.offset + m.start;
    if (text.slice(at, at + (m.end - m.start)) !== m.original) throw new Error(`mutant ${m.id} does not match ${o.modulePath}`);
    mutated = mutated.slice(0, at) + m.mutated + mutated.slice(at + (m.end - m.start));
  }
  const files = { ...original, [o.modulePath]: mutated };
  const titles = caseTitles(fns);
  const fail: string[] = [], pass: string[] = [];
  const firsts: { call: string; fn: string; title: string; expected: Outcome; actual: Outcome; failing: number }[] = [];
  let t = 0;
  for (const mem of o.members) {
    const bug = o.bugs.find((b) => b.member === mem);
    let first: (typeof firsts)[number] | null = null;
    mem.cf.cases.forEach((c: OracleCase, i) => {
      const title = titles[t++]!;
      const actual = bug ? bug.k.cases[i]!.outcome : c.outcome;
      if (sameOutcome(actual, c.outcome)) pass.push(title);
      else {
        fail.push(title);
        if (first) first.failing++;
        else first = { call: `${mem.cf.fn.name}(${c.args.join(', ')})`, fn: mem.cf.fn.name, title, expected: c.outcome, actual, failing: 1 };
      }
    });
    if (first) firsts.push(first);
  }
  // A bug that breaks every test says nothing about where it is; the library build drops those too;
  // every bug must break some test of its own.
  if (firsts.length !== o.bugs.length || pass.length === 0) return null;
  const rng = new Rng(hash32(`${o.world.seed}:issue:${o.id}`));
  const facts = o.world.voices === 'reports' ? firsts.map((f) => callFacts(f, o.repo)) : [];
  const issue = facts.length && facts.every((x) => x !== null)
    ? writeIssue(facts as FailureFacts[], o.repo, rng).trimEnd()
    : firsts.map((f) => functionIssue(f.call, f.expected, f.actual, f.failing, rng)).join('\n\n');
  const parts = o.bugs.map((b) => {
    const m = b.k.mutant;
    return { operator: m.operator, location: { file: o.modulePath, ...position(mutated, b.member.offset + m.start) }, function: b.member.cf.fn.name, original: m.original, mutated: m.mutated };
  });
  const mutation = parts.length === 1 ? parts[0]! : { operator: parts.map((p) => p.operator).join('+'), location: parts[0]!.location, function: parts.map((p) => p.function).join('+'), parts };
  return {
    instance_id: o.id,
    repo: o.repo,
    files,
    problem_statement: issue,
    patch: makeDiff(files, original),
    test_files: [testPath],
    FAIL_TO_PASS: fail,
    PASS_TO_PASS: pass,
    split: o.split,
    difficulty: o.bugs.length === 1 ? 'easy' : 'hard',
    level: o.level,
    mutation: mutation as unknown as Task['mutation'],
    created_by: `webswe tasks build --level ${o.level} --seed ${o.world.seed}${voicesFlag(o.world.voices)}`,
    test_command: `node --test ${testPath}`,
  };
}

/** Level 0: every killed mutant of every function, the function alone in src/<name>.js. */
export function level0Tasks(fns: readonly CheckedFunction[], o: FunctionWorldOptions): Task[] {
  const out: Task[] = [];
  for (const cf of [...fns].sort((a, b) => (a.fn.name < b.fn.name ? -1 : 1))) {
    const member: Member = { cf, offset: 0 };
    const split = functionSplit(cf.fn.name, o);
    let n = 0;
    for (const k of cf.killed) {
      const task = makeTask({ id: `${cf.fn.name}__${n + 1}`, repo: cf.fn.name, modulePath: `src/${cf.fn.name}.js`, members: [member], bugs: [{ member, k }], split, level: 0, world: o });
      if (task) (out.push(task), n++);
    }
  }
  return out;
}

/** Level 1: per family and split, the functions in a seeded order, cut into modules of moduleSize
 *  (src/<family>.js, repo "<family>-<k>"); every killed mutant of every member is a task. */
export function level1Tasks(fns: readonly CheckedFunction[], o: FunctionWorldOptions): Task[] {
  const groups = new Map<string, CheckedFunction[]>();
  for (const cf of fns) {
    const key = `${cf.fn.family}\u0000${functionSplit(cf.fn.name, o)}`;
    groups.set(key, [...(groups.get(key) ?? []), cf]);
  }
  const out: Task[] = [];
  const moduleNo = new Map<string, number>();
  for (const key of [...groups.keys()].sort()) {
    const [family, split] = key.split('\u0000') as [string, FunctionSplit];
    const members = new Rng(hash32(`${o.seed}:modules:${key}`)).shuffle([...groups.get(key)!].sort((a, b) => (a.fn.name < b.fn.name ? -1 : 1)));
    for (let i = 0; i + 1 < members.length; i += o.moduleSize) {
      // The last module takes a lone leftover function rather than leave it a module of one.
      const size = members.length - i - o.moduleSize === 1 ? o.moduleSize + 1 : o.moduleSize;
      const chunk = members.slice(i, i + size);
      if (size > o.moduleSize) i++;
      const k = (moduleNo.get(family) ?? 0) + 1;
      moduleNo.set(family, k);
      const repo = `${family.replace(/_/g, '-')}-${k}`;
      let offset = 0;
      const mem: Member[] = chunk.map((cf) => {
        const m = { cf, offset };
        offset += `export ${cf.fn.source.trimEnd()}\n`.length + 1;
        return m;
      });
      let n = 0;
      for (const member of mem) {
        for (const kk of member.cf.killed) {
          const task = makeTask({ id: `${repo}__${n + 1}`, repo, modulePath: `src/${family}.js`, members: mem, bugs: [{ member, k: kk }], split, level: 1, world: o });
          if (task) (out.push(task), n++);
        }
      }
      // The hard tier: two bugs in two different functions of the module, a third as many as the easy
      // ones, pairs drawn with the seed (both must be fixed; each breaks a test of its own).
      const rng = new Rng(hash32(`${o.seed}:pairs:${repo}`));
      const easy = n;
      const used = new Set<string>();
      for (let tries = 0; n < easy + Math.floor(easy / 3) && tries < easy * 4 && mem.length > 1; tries++) {
        const [a, b] = rng.shuffle([...mem.keys()]).slice(0, 2) as [number, number];
        const ka = mem[a]!.cf.killed[rng.int(mem[a]!.cf.killed.length)], kb = mem[b]!.cf.killed[rng.int(mem[b]!.cf.killed.length)];
        if (!ka || !kb) continue;
        const id = `${repo}__${n + 1}`;
        const key = [ka.mutant.id, kb.mutant.id].sort().join('|');
        if (used.has(key)) continue;
        used.add(key);
        const task = makeTask({ id, repo, modulePath: `src/${family}.js`, members: mem, bugs: [{ member: mem[a]!, k: ka }, { member: mem[b]!, k: kb }], split, level: 1, world: o });
        if (task) (out.push(task), n++);
      }
    }
  }
  return out;
}

/** Counts per split, operator (each bug of a two-bug task counted) and function of a built level. */
export function worldSummary(tasks: readonly Task[]): { tasks: number; functions: number; hard: number; splits: Record<FunctionSplit, { tasks: number; functions: number }>; operators: Record<string, number> } {
  const splits = { train: { tasks: 0, functions: 0 }, val: { tasks: 0, functions: 0 }, test: { tasks: 0, functions: 0 } } as Record<FunctionSplit, { tasks: number; functions: number }>;
  const seen = new Map<string, FunctionSplit>();
  const operators: Record<string, number> = {};
  let hard = 0;
  for (const t of tasks) {
    const s = t.split as FunctionSplit;
    splits[s].tasks++;
    const m = t.mutation as unknown as { operator: string; function: string; parts?: { operator: string; function: string }[] };
    const parts = m.parts ?? [m];
    if (parts.length > 1) hard++;
    for (const p of parts) {
      if (!seen.has(p.function)) (seen.set(p.function, s), splits[s].functions++);
      operators[p.operator] = (operators[p.operator] ?? 0) + 1;
    }
  }
  return { tasks: tasks.length, functions: seen.size, hard, splits, operators };
}
