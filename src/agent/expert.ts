// The scripted expert: knows the gold patch but works as a person would (run the tests, search for
// the function, view it, edit, run the tests, submit), reading each observation. In a repository with
// one source file (levels 0 and 1) it reads that file at once: the issue already names the failing
// call. With noise p it first makes a plausible wrong edit, sees the tests still fail, and recovers.
// With guesses N it first tries 0 to N other one-token changes (each tested and undone), as a model that
// cannot yet locate the bug must: those turns are imitated, unlike the noise edit. Under agent.subTests a
// sub tests itself and takes a failing change back, and the script reads that off the observation: a guess
// is then one turn, and no run_tests or undo follows a sub. With refusals p (sub only) it first names, with
// probability p, an operator the file does not hold once (refused, not imitated) and reads the file again: the turn
// after a refusal is shown, as a model that cannot yet copy from the view needs it to be.
// It edits with SEARCH/REPLACE (`replace`) or numbered line ranges (`edit`), as agent.editCommand says.
// Wording comes from a small phrase bank; everything is seeded, so the same task and seed give the same
// episode.
import { Rng } from '../random.ts';
import type { Task } from '../tasks/schema.ts';
import { formatCommand, type Command } from './commands.ts';
import type { EditCommandKind } from './prompt.ts';
import { splitLines } from './edits.ts';
import { applyChanges, clusterChanges, enclosingName, fixCommands, goldPlan, orderedGuesses, refusedSub, wrongEdit, type FilePlan } from './expert-plan.ts';
import type { EpisodeView, Policy, TurnOutput } from './policy.ts';
import { takenBack, testsPassed } from './tools.ts';
import type { TurnRecord } from './trajectory.ts';

const PHRASES = {
  start: [
    'Let me run the tests first to see what fails.',
    'First, I will run the test suite to reproduce the issue.',
    'I want to see the failing tests before reading any code.',
    'Start by running the tests.',
  ],
  search: [
    '{fail} The issue points at `{name}`; let me find where it is defined.',
    '{fail} Let me search for `{name}`.',
    '{fail} I will look for `{name}` in {dir}.',
  ],
  view: ['Let me read {path} around line {line}.', 'Now the code itself: {path}, near line {line}.', 'I will view the relevant part of {path}.'],
  viewNext: ['The issue also involves `{name}`; let me look at it, near line {line} of {path}.', 'There is a second problem, in `{name}`. Viewing {path} around line {line}.'],
  viewOnly: ['{fail} Let me read {path} around line {line}.', '{fail} The code is in {path}; let me look near line {line}.'],
  viewFile: ['Let me read {path}.', 'The code is in {path}; let me read it.', 'First, the code: {path}.'],
  fix: [
    'Line {line} is the bug: `{old}` should be `{new}`.',
    'Found it. On line {line}, `{old}` is wrong; it should read `{new}`.',
    'The problem is on line {line}: `{old}`. The fix is `{new}`.',
  ],
  fixMany: ['I will make the change in {path}.', 'Now the edit to {path}.', 'Let me fix {path}.'],
  wrong: [
    'I suspect the `{from}` on line {line}; it should probably be `{to}`.',
    'Maybe the bug is the `{from}` on line {line}. Let me try `{to}`.',
    'Line {line} looks suspicious: `{from}` might need to be `{to}`.',
  ],
  reread: ['That text is not in {path} once; let me read it again.', 'The sub was refused. Back to {path}.', 'Wrong text for {path}; reading it again.'],
  retest: ['Let me check whether that fixed it.', 'Run the tests again.', 'Did that work? Running the tests.'],
  recover: [
    '{fail} So my change was not the fix. Let me look at the code again.',
    'Still failing. {fail} I was wrong about line {line}; back to the code.',
    '{fail} That edit did not help; let me re-read the function.',
  ],
  create: ['{path} does not exist yet; let me create it.', 'I need a new file, {path}.'],
  rewrite: ['The edit did not apply; I will write the whole file {path} instead.', 'Rather than patching {path} piece by piece, I will rewrite it.'],
  verify: ['Now run the tests again.', 'Let me confirm with the test suite.', 'Check the fix with the tests.'],
  submit: ['All tests pass. Submitting.', 'Everything passes now; submitting the fix.', 'The tests are green. Done.'],
  giveUp: ['Some tests still fail, but I have no better idea. Submitting.', 'I could not make every test pass; submitting what I have.'],
};

type Key = keyof typeof PHRASES;

/** The terse style (ExpertOptions.style): one short sentence per step, no quoted failure messages and
 *  no old/new text (the command carries it). Meant for from-scratch models, whose capacity then goes
 *  to the commands: a micro expert episode has about half the action tokens. */
const TERSE: Record<Key, string> = {
  start: 'Run the tests.',
  search: 'Find `{name}`.',
  view: 'Read {path} near line {line}.',
  viewNext: 'Read `{name}` near line {line}.',
  viewOnly: 'Read {path} near line {line}.',
  viewFile: 'Read {path}.',
  fix: 'Fix line {line}.',
  fixMany: 'Edit {path}.',
  wrong: 'Try line {line}.',
  reread: 'Read {path} again.',
  retest: 'Run the tests.',
  recover: 'Not that; try again.',
  create: 'Create {path}.',
  rewrite: 'Rewrite {path}.',
  verify: 'Run the tests.',
  submit: 'Tests pass. Submit.',
  giveUp: 'Submit.',
};

/** full: varied sentences; terse: one short sentence a turn; bare: no reasoning at all, and no PATH on
 *  view and edit where the tool infers it (a repository with one source file): the fewest tokens, for
 *  the smallest models. */
export type ExpertStyle = 'full' | 'terse' | 'bare';

/** FNV-1a of a string: the task's part of the episode's seed. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The failing tests an observation lists ("✖ name" lines) with their message on one line. */
export function failingTests(observation: string): { name: string; message: string }[] {
  const lines = observation.split('\n');
  return lines.flatMap((l, i) => {
    if (!l.startsWith('✖ ')) return [];
    const msg: string[] = [];
    for (let k = i + 1; k < lines.length && lines[k]!.startsWith('    '); k++) msg.push(lines[k]!.trim());
    const message = msg.filter(Boolean).join(' ');
    return [{ name: l.slice(2), message: message.length > 120 ? message.slice(0, 117) + '...' : message }];
  });
}

/** Prefix of a yielded turn that is a deliberate mistake (TurnOutput.noTrain); stripped before use. */
const NO_TRAIN = '\u0000no-train\u0000';

/** Files a person would read as code: .js outside test/ folders. */
const sourceFiles = (task: Task) => Object.keys(task.files).filter((p) => /\.[cm]?js$/.test(p) && !task.test_files.includes(p) && !/(^|\/)tests?\//.test(p));

/** A file this short is read whole (`view PATH`): no line range to choose. */
const WHOLE_FILE_LINES = 60;

/** The script of one episode: yields each turn's text, receives the turn as it was recorded. */
function* script(task: Task, rng: Rng, noise: number, style: ExpertStyle, editCommand: EditCommandKind, guesses = 0, retryFixes = false, refusals = 0): Generator<string, void, TurnRecord> {
  const say = (key: Key, vars: Record<string, string | number> = {}) => {
    const bank = PHRASES[key];
    const pick = bank[rng.int(bank.length)]!; // drawn in both styles: the same seed gives the same episode
    return (style === 'full' ? pick : TERSE[key]).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
  };
  const sources = sourceFiles(task);
  const implicit = (c: Command): Command => {
    if (style !== 'bare' || sources.length !== 1 || !('path' in c) || c.path !== sources[0]) return c;
    if (c.name === 'view' || c.name === 'edit' || c.name === 'sub') {
      const { path: _path, ...rest } = c;
      return rest as Command;
    }
    return c;
  };
  const turn = (reason: string, c: Command) => (style === 'bare' ? formatCommand(implicit(c)) : `${reason}\n${formatCommand(c)}`);
  const failText = (t: TurnRecord | null) => {
    if (!t) return '';
    const f = failingTests(t.observation)[0];
    return f ? `\`${f.name}\` fails${f.message ? `: ${f.message.replace(/`/g, "'")}` : ''}.` : '';
  };
  let plan: FilePlan[];
  try {
    plan = goldPlan(task);
  } catch (e) {
    throw new Error(`the gold patch of ${task.instance_id} cannot be used: ${(e as Error).message}`);
  }
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : undefined);

  // One short source file (levels 0 and 1): the issue names the failing call, so read the whole file
  // first (no test run, no search).
  const single = sources.length === 1 && splitLines(task.files[sources[0]!]!).length <= WHOLE_FILE_LINES;
  let last: TurnRecord | null = single ? null : yield turn(say('start'), { name: 'run_tests' });
  let first = true;
  let noisy = rng.next() < noise;
  for (const fp of plan) {
    if (fp.kind === 'delete') continue; // no command deletes a file; leaving it is harmless here
    if (fp.kind === 'create') {
      last = yield turn(say('create', { path: fp.path }), { name: 'create', path: fp.path, content: fp.after });
      continue;
    }
    const A = splitLines(fp.before);
    const B = splitLines(fp.after);
    let current = fp.before;
    let shift = 0; // how far earlier groups' edits moved the lines of later ones
    const groups = clusterChanges(fp.changes);
    for (const [g, group] of groups.entries()) {
      const c0 = group[0]!;
      const line = c0.aStart + 1 + shift;
      const lo = Math.max(1, line - 5);
      const hi = Math.min(A.length + shift, Math.max(group.at(-1)!.aEnd + shift + 5, lo + 9), lo + 99);
      const whole = A.length + shift <= WHOLE_FILE_LINES;
      const view: Command = whole ? { name: 'view', path: fp.path } : { name: 'view', path: fp.path, start: lo, end: hi };
      const name = enclosingName(A, c0.aStart);
      if (first && name && !single) {
        const dir = dirOf(fp.path);
        last = yield turn(say('search', { fail: failText(last), name, dir: dir ?? 'the repository' }), dir ? { name: 'search', text: name, path: dir } : { name: 'search', text: name });
        last = yield turn(say('view', { path: fp.path, line }), view);
      } else if (first && whole) last = yield turn(say('viewFile', { path: fp.path }), view);
      else if (first) last = yield turn(say('viewOnly', { fail: failText(last), path: fp.path, line }), view);
      else last = yield turn(g > 0 && name ? say('viewNext', { name, path: fp.path, line }) : say('view', { path: fp.path, line }), view);
      first = false;
      // A refused sub first (bc.expertRefusals), then the file read again; it takes one guess's place, so the
      // episode is no longer. Drawn only when refusals > 0: without them the episodes are as they were.
      let refused = false;
      if (refusals > 0 && editCommand === 'sub' && g === 0 && rng.next() < refusals) {
        const bad = refusedSub(current, rng);
        if (bad) {
          refused = true;
          last = yield NO_TRAIN + turn(say('wrong', { from: bad.old, to: bad.new, line }), { name: 'sub', path: fp.path, old: bad.old, new: bad.new });
          if (last.status !== 'ok') last = yield turn(say('reread', { path: fp.path }), view);
        }
      }
      // Guess and check (bc.expertGuesses): other one-token changes first, each tested and taken back.
      // Drawn from their own stream: the rest of the episode does not depend on how many are made.
      if (guesses > (refused ? 1 : 0) && g === 0) {
        const grng = new Rng(rng.int(2 ** 31));
        const fixed = applyChanges(fp.before, fp.after, group);
        // Every listed candidate after the bug's, from the list's end (at most `guesses`).
        const tries = orderedGuesses(current, fixed, guesses - (refused ? 1 : 0), grng, retryFixes);
        for (const guess of tries) {
          const cmds = fixCommands(editCommand, fp.path, current, guess.text);
          // One command of the run's kind (a guess that sub cannot say is no guess a small model makes).
          if (!cmds || cmds.length !== 1 || cmds[0]!.name !== editCommand) continue;
          last = yield turn(say('wrong', { from: guess.from, to: guess.to, line: guess.line + 1 }), cmds[0]!);
          if (last.status !== 'ok') continue; // refused, or tested and taken back (agent.subTests)
          if (!testsPassed(last)) last = yield turn(say('retest'), { name: 'run_tests' });
          if (testsPassed(last) && plan.length === 1 && groups.length === 1) {
            yield turn(say('submit'), { name: 'submit' }); // the guess passes the tests too
            return;
          }
          // undo takes back the episode's last change, whatever the edit command.
          last = yield turn(say('recover', { fail: failText(last), line: guess.line + 1 }), { name: 'undo' });
          if (last.status !== 'ok') break;
        }
      }
      const wrong = noisy ? wrongEdit(fp.before, fp.after, c0, rng) : null;
      noisy = false;
      if (wrong) {
        const cmds = fixCommands(editCommand, fp.path, current, wrong.text);
        if (cmds && cmds.length === 1) {
          const cmd = cmds[0]!;
          const beforeWrong = current;
          last = yield NO_TRAIN + turn(say('wrong', { from: wrong.from, to: wrong.to, line: wrong.line + 1 }), cmd);
          const changed = last.status === 'ok';
          if (changed) current = wrong.text;
          // agent.subTests: a sub ran the tests itself, and took a failing change back.
          if (!testsPassed(last) && !takenBack(last)) last = yield turn(say('retest'), { name: 'run_tests' });
          if (testsPassed(last) && plan.length === 1 && groups.length === 1) {
            yield turn(say('submit'), { name: 'submit' }); // the "wrong" edit passes the tests too
            return;
          }
          // Take the wrong change back: with sub, undo it (the file is as last read); else read it again.
          // (agent.subTests already took a failing sub back.)
          if (!testsPassed(last) && !takenBack(last)) {
            if (editCommand === 'sub' && changed) {
              last = yield turn(say('recover', { fail: failText(last), line: wrong.line + 1 }), { name: 'undo' });
              if (last.status === 'ok') current = beforeWrong;
            } else last = yield turn(say('recover', { fail: failText(last), line: wrong.line + 1 }), view);
          }
        }
      }
      const target = applyChanges(fp.before, fp.after, groups.slice(0, g + 1).flat());
      const oneLine = group.length === 1 && c0.aEnd - c0.aStart === 1 && c0.bEnd - c0.bStart === 1;
      const why = oneLine ? say('fix', { line, old: A[c0.aStart]!.trim(), new: B[c0.bStart]!.trim() }) : say('fixMany', { path: fp.path });
      // The fix in the run's edit command, bottom to top (each command's line numbers are those viewed).
      const cmds = fixCommands(editCommand, fp.path, current, target);
      let applied = cmds !== null;
      for (const [k, cmd] of (cmds ?? []).entries()) {
        const at = cmd.name === 'sub' ? (cmd.line ?? line) : cmd.name === 'edit' ? cmd.start : line;
        last = yield turn(k === 0 ? why : say('fix', { line: at }), cmd);
        if (last.status !== 'ok') {
          applied = false;
          break;
        }
      }
      if (!applied) {
        last = yield turn(say('rewrite', { path: fp.path }), { name: 'create', path: fp.path, content: fp.after });
        break; // the whole file is written
      }
      current = target;
      for (const c of group) shift += c.bEnd - c.bStart - (c.aEnd - c.aStart);
    }
  }
  if (!last || !testsPassed(last)) last = yield turn(say('verify'), { name: 'run_tests' });
  if (!testsPassed(last!)) {
    // Last resort: write every planned file whole, then check once more.
    for (const fp of plan.filter((p): p is Extract<FilePlan, { after: string }> => p.kind !== 'delete')) {
      last = yield turn(say('rewrite', { path: fp.path }), { name: 'create', path: fp.path, content: fp.after });
    }
    last = yield turn(say('verify'), { name: 'run_tests' });
  }
  yield turn(say(testsPassed(last!) ? 'submit' : 'giveUp'), { name: 'submit' });
}

export interface ExpertOptions {
  /** Probability of a plausible wrong first edit (and the recovery after the failing test run). */
  noise?: number;
  /** Wording of the reasoning: full (varied sentences quoting the failures) or terse (default full). */
  style?: ExpertStyle;
  /** The edit command it uses (agent.editCommand; default replace). */
  editCommand?: EditCommandKind;
  /** At most this many of the listed candidates after the bug's tried (tested, undone) before the fix, from the
   *  list's end (guessQueue). */
  guesses?: number;
  /** agent.retryFixes: a guess tries each fix of a candidate in turn (orderedGuesses' retry). */
  retryFixes?: boolean;
  /** Probability of a refused sub (not imitated) after the first view, then the file read again (sub only). */
  refusals?: number;
}

export class ExpertPolicy implements Policy {
  readonly name: string;
  readonly version = 0;
  readonly noise: number;
  readonly style: ExpertStyle;
  readonly editCommand: EditCommandKind;
  readonly guesses: number;
  readonly retryFixes: boolean;
  readonly refusals: number;
  private readonly scripts = new Map<string, Generator<string, void, TurnRecord>>();

  constructor(opts: ExpertOptions = {}) {
    this.noise = opts.noise ?? 0;
    if (!(this.noise >= 0 && this.noise <= 1)) throw new Error(`expert noise must be in [0, 1], got ${opts.noise}`);
    this.style = opts.style ?? 'full';
    this.editCommand = opts.editCommand ?? 'replace';
    this.guesses = opts.guesses ?? 0;
    this.retryFixes = opts.retryFixes === true;
    this.refusals = opts.refusals ?? 0;
    if (!(this.refusals >= 0 && this.refusals <= 1)) throw new Error(`expert refusals must be in [0, 1], got ${opts.refusals}`);
    if (!(Number.isInteger(this.guesses) && this.guesses >= 0)) throw new Error(`expert guesses must be an integer ≥ 0, got ${opts.guesses}`);
    this.name = `expert(noise=${this.noise}${this.style !== 'full' ? `, ${this.style}` : ''}${this.editCommand !== 'replace' ? `, ${this.editCommand}` : ''}${this.guesses ? `, guesses ≤ ${this.guesses} from the list's end${this.retryFixes ? ', every fix' : ''}` : ''}${this.refusals ? `, refusals=${this.refusals}` : ''})`;
  }

  async act(states: readonly EpisodeView[]): Promise<TurnOutput[]> {
    return states.map((s) => {
      let gen = this.scripts.get(s.id);
      let step: IteratorResult<string, void>;
      if (!gen || s.turns.length === 0) {
        gen = script(s.task, new Rng((hash(s.task.instance_id) ^ Math.imul(s.seed + 1, 0x9e3779b1)) >>> 0), this.noise, this.style, this.editCommand, this.guesses, this.retryFixes, this.refusals);
        this.scripts.set(s.id, gen);
        step = gen.next();
      } else step = gen.next(s.turns.at(-1)!);
      // After its submit the script has nothing more; say so again (the loop ends at submit anyway).
      if (step.done) return { text: formatCommand({ name: 'submit' }), finish: 'stop' };
      return step.value.startsWith(NO_TRAIN) ? { text: step.value.slice(NO_TRAIN.length), finish: 'stop', noTrain: true } : { text: step.value, finish: 'stop' };
    });
  }

  release(id: string): void {
    this.scripts.get(id)?.return();
    this.scripts.delete(id);
  }
}
