// The state expert: the scripted expert's knowledge (the gold patch) applied to whatever state an
// episode is in, so it can take over from another policy mid-episode (DAgger: the student plays, the
// expert labels the states the student reaches, recovery after the student's own mistakes included).
// It replays the episode's file-changing commands on the task's files in memory (the same tools on an
// in-memory sandbox, so the state is the sandbox's), then picks the next step:
//   the repository matches the gold fix → run the tests, then submit once a run passed;
//   a file differs and was not read whole since it last changed → view it;
//   else → the bottom-most `edit` (or SEARCH/REPLACE) that takes it toward the gold file.
// With guesses (bc.daggerGuesses) it also carries on guess and check as the scripted expert plays it: while
// fewer than N changes have been undone and the fix's token is not next in the order, the next untried
// once-occurring candidate is changed (sub), tested and undone (the fix comes when it is next, or after N);
// under agent.subTests the sub tests itself and takes a failing change back, so a guess is one turn.
// Stateless: every call derives its answer from the task and the turns so far.
import { Rng } from '../random.ts';
import { MemorySandbox } from '../sandbox/memory.ts';
import { applyDiff } from '../sandbox/patch.ts';
import type { FileMap } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';
import { formatCommand, type Command } from './commands.ts';
import { splitLines } from './edits.ts';
import { fixCommands, guessQueue, lineChanges, lineEditsBetween, subBetween, type ListOrder } from './expert-plan.ts';
import type { EpisodeView, Policy, TurnOutput } from './policy.ts';
import { hash, type ExpertStyle } from './expert.ts';
import type { EditCommandKind } from './prompt.ts';
import { fixesBefore, nameable, nextFix, onceTokens, replacementFor, runTool, takenBack, testsPassed } from './tools.ts';
import type { TurnRecord } from './trajectory.ts';

const CHANGES = new Set(['edit', 'sub', 'undo', 'replace', 'create']);
/** Files up to this long are read whole (as the scripted expert does). */
const WHOLE_FILE_LINES = 60;

/** The repository after the episode's successful file-changing commands, replayed in memory. */
export async function replayState(task: Task, turns: readonly TurnRecord[]): Promise<FileMap> {
  return (await replay(task, turns)).files;
}

/** The replayed repository and its change history (what undo would take back). */
async function replay(task: Task, turns: readonly TurnRecord[]): Promise<{ files: FileMap; history: { path: string; text: string | null }[] }> {
  const sb = new MemorySandbox(task.files);
  const history: { path: string; text: string | null }[] = [];
  for (const t of turns) {
    if (t.command && CHANGES.has(t.command.name) && t.status === 'ok') {
      // The file it acted on as recorded (a command without PATH stood for the open file then).
      const c = t.file && (t.command.name === 'edit' || t.command.name === 'sub' || t.command.name === 'view') ? { ...t.command, path: t.file } : t.command;
      await runTool({ sandbox: sb, testFiles: task.test_files, timeoutMs: 1, history }, c);
    }
  }
  return { files: sb.files, history };
}

/** Changed lines between two texts (how far a file is from the gold one). */
const distance = (a: string | undefined, b: string | undefined) => (a === undefined || b === undefined ? Infinity : lineChanges(a, b).reduce((n, c) => n + Math.max(c.aEnd - c.aStart, c.bEnd - c.bStart), 0));

/** Characters between the common head and tail of two texts (how far a one-token change took a file). */
function spread(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return Infinity;
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return Math.max(a.length, b.length) - head - tail;
}

/** The turn's tests all passed (a run_tests, or a sub that ran them under agent.subTests and kept its change). */
const passed = (t: TurnRecord | undefined) => t !== undefined && testsPassed(t);

/** Was `path` shown whole (a view without a range, or one covering every line) after it last changed? */
function readSinceChange(turns: readonly TurnRecord[], path: string, lines: number): boolean {
  for (let i = turns.length - 1; i >= 0; i--) {
    const c = turns[i]!.command;
    if (!c || turns[i]!.status !== 'ok' || (turns[i]!.file ?? ('path' in c ? c.path : undefined)) !== path) continue;
    if (c.name === 'view') return (c.start ?? 1) <= 1 && (c.end === undefined || c.end >= lines);
    if (CHANGES.has(c.name)) return false;
  }
  return false;
}

/** Guess and check from any state: at most `n` guesses (changes undone), in the scripted expert's order. */
export interface StateGuesses {
  n: number;
  order: ListOrder;
  /** agent.retryFixes: a candidate is guessed with each of its fixes in turn (fixesFor), the fix's own token
   *  with those before its right one (beyond `n`), as the scripted expert's orderedGuesses. */
  retryFixes?: boolean;
}

/** The next turn's text for `task` after `turns` (terse reasoning, one command). */
export async function stateExpertTurn(task: Task, turns: readonly TurnRecord[], editCommand: EditCommandKind, style: ExpertStyle = 'terse', guesses?: StateGuesses): Promise<string> {
  const { files, history } = await replay(task, turns);
  const gold = applyDiff(task.files, task.patch).files;
  const sources = Object.keys(task.files).filter((p) => /\.[cm]?js$/.test(p) && !task.test_files.includes(p) && !/(^|\/)tests?\//.test(p));
  const bare = (c: Command): Command => {
    if ((c.name !== 'view' && c.name !== 'edit' && c.name !== 'sub') || sources.length !== 1 || c.path !== sources[0]) return c;
    const { path: _path, ...rest } = c;
    return rest as Command;
  };
  const say = (reason: string, c: Command) => (style === 'bare' ? formatCommand(bare(c)) : `${reason}\n${formatCommand(c)}`);
  const differs = Object.keys(gold).filter((p) => files[p] !== gold[p]).sort((a, b) => Number(task.test_files.includes(a)) - Number(task.test_files.includes(b)));
  // A guess that passes the tests is a fix too (another form of it): the scripted expert submits it.
  if (differs.length === 0 || (guesses && passed(turns.at(-1)))) {
    return passed(turns.at(-1)) ? say('Tests pass. Submit.', { name: 'submit' }) : say('Run the tests.', { name: 'run_tests' });
  }
  const path = differs[0]!;
  const now = files[path];
  // With sub, a last change that took a file further from the fix is taken back first.
  const lastChange = history.at(-1);
  // Guessing, a wrong guess is on the bug's own line as often as not, which the line count cannot see.
  const far = guesses ? spread : distance;
  if (editCommand === 'sub' && lastChange && lastChange.text !== null && far(lastChange.text, gold[lastChange.path]) < far(files[lastChange.path], gold[lastChange.path])) {
    // Guessing, a change is tested before it is taken back (as the scripted expert does).
    const last = turns.at(-1);
    if (guesses && last?.command?.name === 'sub' && last.status === 'ok') return say('Test it.', { name: 'run_tests' });
    return say('Not that; try again.', { name: 'undo' });
  }
  if (now === undefined) return say(`Create ${path}.`, { name: 'create', path, content: gold[path]! });
  const lines = splitLines(now).length;
  const read = editCommand === 'sub' ? turns.some((t) => t.command?.name === 'view' && t.status === 'ok' && (t.file ?? ('path' in t.command ? t.command.path : undefined)) === path) : readSinceChange(turns, path, lines);
  if (!read) {
    const failed = turns.at(-1)?.command?.name === 'run_tests' && !passed(turns.at(-1));
    if (lines <= WHOLE_FILE_LINES) return say(failed ? 'Not that; try again.' : `Read ${path}.`, { name: 'view', path });
    const first = lineEditsBetween(path, now, gold[path]!).at(-1)!;
    const lo = Math.max(1, first.start - 5);
    return say(`Read ${path} near line ${first.start}.`, { name: 'view', path, start: lo, end: Math.min(lines, lo + 29) });
  }
  const cmds = fixCommands(editCommand, path, now, gold[path]!);
  const c = cmds?.[0];
  const fix = guesses && c?.name === 'sub' ? subBetween(now, gold[path]!) : undefined;
  if (guesses && fix) {
    const guess = nextGuess(task, turns, now, fix, guesses);
    if (guess) return say(`Try ${guess.old}.`, { name: 'sub', old: guess.old, new: guess.new });
  }
  if (!c) return say(`Rewrite ${path}.`, { name: 'create', path, content: gold[path]! });
  return say(c.name === 'sub' ? `Fix line ${c.line}.` : c.name === 'edit' ? `Fix line ${c.start}.` : `Edit ${path}.`, c);
}

/** The guess to make in `now` before the fix (whose one-token sub is `fix`, subBetween's), or none: the
 *  untried once-occurring candidate that comes next in the order (the list's first or last; one without a
 *  replacement is skipped), unless it is the fix's, the fix's was tried already, or `n` changes have been
 *  undone. Seeded by the task and the turn. With retryFixes a candidate is untried while one of its fixes is
 *  (fixesFor's order names the replacement), `n` counts the candidates named (a begun one is finished), and
 *  when the fix's token is next its fixes before the right one come first, whatever `n`. */
function nextGuess(task: Task, turns: readonly TurnRecord[], now: string, fix: { old: string; new: string }, g: StateGuesses): { old: string; new: string } | undefined {
  // Named by any sub, applied or refused (a guess that would break the syntax is not made twice).
  const subs = turns.flatMap((t) => (t.command?.name === 'sub' ? [{ old: t.command.old, new: t.command.new }] : []));
  if (g.retryFixes) {
    // `n` counts candidates, as the scripted expert's queue does: one begun is tried with all its fixes.
    const begun = new Set(subs.map((s) => s.old).filter((t) => t !== fix.old));
    const left = onceTokens(now).filter((t) => t === fix.old || nextFix(t, subs) !== undefined);
    const next = guessQueue(left, fix.old, g.order)[0];
    if (next !== undefined && (begun.has(next) || begun.size < g.n)) return { old: next, new: nextFix(next, subs)! };
    const first = nextFix(fix.old, subs);
    return first !== undefined && fixesBefore(fix.old, fix.new).includes(first) ? { old: fix.old, new: first } : undefined;
  }
  // Changes taken back: by undo, or by agent.subTests after their tests failed.
  const undone = turns.filter((t) => (t.command?.name === 'undo' && t.status === 'ok') || takenBack(t)).length;
  if (undone >= g.n) return undefined;
  const tried = new Set(subs.map((s) => s.old));
  const left = onceTokens(now).filter((t) => !tried.has(t) && (t === fix.old || nameable(t)));
  const next = guessQueue(left, fix.old, g.order)[0];
  if (next === undefined) return undefined;
  const to = replacementFor(next, new Rng((hash(task.instance_id) ^ Math.imul(turns.length + 1, 0x9e3779b1)) >>> 0));
  return to === undefined ? undefined : { old: next, new: to };
}

/** The state expert as a policy (it can start from any point of an episode). */
export class StateExpertPolicy implements Policy {
  readonly name: string;
  readonly version = 0;
  constructor(
    readonly editCommand: EditCommandKind = 'edit',
    readonly style: ExpertStyle = 'terse',
    readonly guesses?: StateGuesses,
  ) {
    this.name = `state-expert(${editCommand}, ${style}${guesses ? `, guesses ≤ ${guesses.n} from the list's ${guesses.order === 'list' ? 'start' : 'end'}${guesses.retryFixes ? ', every fix' : ''}` : ''})`;
  }
  async act(states: readonly EpisodeView[]): Promise<TurnOutput[]> {
    return Promise.all(states.map(async (s) => ({ text: await stateExpertTurn(s.task, s.turns, this.editCommand, this.style, this.guesses), finish: 'stop' as const })));
  }
}

/**
 * DAgger's roll-in: the student plays an episode's first `switchAt(view)` turns, then the expert takes
 * over and finishes it from the state the student left. The student's turns are marked noTrain (its
 * mistakes are not imitated); the expert's, the labels of the states the student reached, are trained.
 */
export class TakeoverPolicy implements Policy {
  readonly name: string;
  readonly version: number;
  constructor(
    readonly student: Policy,
    readonly expert: Policy,
    readonly switchAt: (episode: EpisodeView) => number,
  ) {
    this.name = `takeover(${student.name} → ${expert.name})`;
    this.version = student.version;
  }
  async act(states: readonly EpisodeView[]): Promise<TurnOutput[]> {
    const own = states.map((s) => s.turns.length < this.switchAt(s));
    const mine = states.filter((_, i) => own[i]), theirs = states.filter((_, i) => !own[i]);
    const [a, b] = await Promise.all([mine.length ? this.student.act(mine) : [], theirs.length ? this.expert.act(theirs) : []]);
    let i = 0, j = 0;
    return own.map((mine) => (mine ? { ...a[i++]!, noTrain: true } : b[j++]!));
  }
  release(id: string): void {
    this.student.release?.(id);
    this.expert.release?.(id);
  }
}
