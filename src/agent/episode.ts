// The episode loop: the G episodes of a group advance together, one batched policy call per turn;
// each turn's command runs in its episode's sandbox under a time limit; an episode ends at submit, at
// T_max turns or when the context budget is spent. Then each is graded on a fresh copy (grade.ts) and
// rewarded (reward.ts). Budgets count model tokens with a tokenizer, else characters / 4.
// Policy calls may go through a gate (opts.gate) shared with other runEpisodes calls, so that
// batches take turns at the policy while each one's sandbox work overlaps the others' generation
// (rl/collect.ts, where that scheme is described). Each episode carries its index in its batch
// (EpisodeView.index), which keys the model policy's random stream for it.
import { episodeReward, type RewardConfig } from './reward.ts';
import type { ChatMessage } from '../model/tokenizer.ts';
import type { Sandbox, SandboxFactory } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';
import { parseTurn } from './commands.ts';
import { gradeFiles, readRepo } from './grade.ts';
import { hackFlags, type HackFlag } from './hack-flags.ts';
import type { EpisodeView, Policy, TurnOutput } from './policy.ts';
import { formatErrorMessage, issueMessage, systemPrompt, type EditCommandKind, type SystemPromptKind } from './prompt.ts';
import { charTokens, EpisodeTokens, PLAIN_CHATML, type ChatFormat, type TokenizerLike } from './render.ts';
import type { Timeline } from './timeline.ts';
import { runTool, truncateText, type TestReport, type ToolResult } from './tools.ts';
import type { EndReason, FinalTests, Trajectory, TurnRecord } from './trajectory.ts';
import { deadline } from '../deadline.ts';

export interface EpisodeOptions {
  /** T_max. */
  maxTurns: number;
  /** Context budget of an episode (prompt, turns and observations). */
  contextTokens: number;
  /** Observations are cut to this many tokens, with a marker. */
  observationTokens: number;
  /** Budget of one assistant turn (passed to the policy as maxTokens). */
  actionTokens: number;
  /** Time limit of one test run; any other command gets the same limit. */
  commandTimeoutMs: number;
  reward: Omit<RewardConfig, 'maxTurns'>;
  /** With a tokenizer, budgets are model tokens and trajectories carry token arrays. */
  tokenizer?: TokenizerLike;
  /** How turns are wrapped for the tokenizer (default: plain ChatML). */
  chatFormat?: ChatFormat;
  /** The sandbox's name, for the record. */
  sandbox: string;
  /** Which system prompt opens the episode (prompt.ts; default full). */
  systemPrompt?: SystemPromptKind;
  /** The edit command the full prompt documents (default replace; every command is accepted either way). */
  editCommand?: EditCommandKind;
  /** How run_tests reports (tools.ts; default full). */
  testReport?: TestReport;
  /** agent.viewHints: a view of a whole file ends with its once-occurring operators and numbers. */
  viewHints?: boolean;
  /** agent.triedHints: an undo and a taken-back sub list the once-occurring operators and numbers no sub has named yet. */
  triedHints?: boolean;
  /** agent.triedOnRefusal: so does a refused sub (with triedHints). */
  triedOnRefusal?: boolean;
  /** agent.retryFixes: a candidate stays on that list until each of its fixes has been tried (tools.ts fixesFor). */
  retryFixes?: boolean;
  /** agent.subTests: a sub runs the tests, keeps its change when they pass and takes it back when not. */
  subTests?: boolean;
  /** Progress: called after each turn. */
  onTurn?: (episode: { id: string; task_id: string }, turn: TurnRecord) => void;
  /** Progress: called when an episode has ended and been graded. */
  onEnd?: (episode: { id: string; task_id: string }, t: Trajectory) => void;
  /** For rl/collect.ts: run batches two at a time (a lone one in two halves), taking turns at the
   *  policy, so that sandbox work overlaps generation (same trajectories either way). runEpisodes
   *  itself ignores it. */
  overlap?: boolean;
  /** Policy calls go through this gate: concurrent runEpisodes calls sharing one take turns. */
  gate?: Gate;
  /** Grade episodes that ended without submitting too (their reward is 0 whatever the tests say); when not,
   *  their record's tests say graded: false. Default true here; the run config's agent.gradeUnsubmitted is false. */
  gradeUnsubmitted?: boolean;
  /** Where generation and sandbox work are recorded as busy intervals (timing reports). */
  timeline?: Timeline;
  /** Asked before every turn: a truthy answer ends the live episodes as 'stopped' at once (no
   *  grading), so that a Stop takes seconds, not the rest of a batch. */
  shouldStop?: () => boolean;
}

export interface EpisodeSpec {
  task: Task;
  seed: number;
  /** The id policies see (EpisodeView.id); default "<instance_id>#<seed>@<n>", unique in the process. */
  id?: string;
  /** Its position in the batch it belongs to (EpisodeView.index); default its position in `specs`
   *  (set it when a batch is run in parts). */
  index?: number;
}

/** Makes default episode ids unique across concurrent runEpisodes calls sharing one stateful policy. */
let episodeCounter = 0;

/**
 * When a command is abandoned: a last resort for a sandbox that never answers. The sandboxes enforce a
 * command's own limit (the node sandbox counts CPU time and stops a process at 10× it in wall time; the
 * worker sandbox terminates its Worker), so this guard must sit far above them. It is wall time on this
 * process's event loop, which generation for other episodes holds for seconds at a time on a loaded
 * machine: at the old 3 s of grace, 1-22 % of a loaded run's turns read "abandoned" for commands that had
 * finished, and load changed what the agent observed (docs/learning.md, finding 10).
 */
export const abandonAfterMs = (commandTimeoutMs: number) => 10 * commandTimeoutMs + 30_000;

interface Live {
  id: string;
  /** Position in its batch (EpisodeSpec.index, EpisodeView.index). */
  index: number;
  spec: EpisodeSpec;
  sb?: Sandbox;
  messages: ChatMessage[];
  turns: TurnRecord[];
  tokens?: EpisodeTokens;
  used: number;
  action: number;
  end?: EndReason;
  error?: string;
  started: number;
  policyMs: number;
  sandboxMs: number;
  /** The open file of view/edit without a PATH (ToolContext.open), and what each change replaced (undo). */
  open: { path?: string };
  history: { path: string; text: string | null }[];
  /** Each sub that changed a file, its OLD and NEW (ToolContext.tried, agent.triedHints). */
  tried: { old: string; new: string }[];
}

/** `p`, or `fallback()` once `ms` have passed without it (p keeps running; its result is then ignored).
 *  A result whose I/O completed while the loop was busy still wins (../deadline.ts). */
function withTimeout<T>(p: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const cancel = deadline(ms, () => settled || resolve(fallback()));
    p.then(
      (v) => ((settled = true), cancel(), resolve(v)),
      (e: unknown) => ((settled = true), cancel(), reject(e)),
    );
  });
}

export async function runEpisode(task: Task, policy: Policy, create: SandboxFactory, opts: EpisodeOptions, seed = 0): Promise<Trajectory> {
  return (await runEpisodes([{ task, seed }], policy, create, opts))[0]!;
}

/** Run the episodes together (one policy call per turn for all live ones) and grade each. */
export async function runEpisodes(specs: readonly EpisodeSpec[], policy: Policy, create: SandboxFactory, opts: EpisodeOptions): Promise<Trajectory[]> {
  const ids = new Set<string>();
  const eps: Live[] = specs.map((spec, i) => {
    let id = spec.id ?? `${spec.task.instance_id}#${spec.seed}@${++episodeCounter}`;
    for (let k = 2; ids.has(id); k++) id = `${spec.id}/${k}`;
    ids.add(id);
    return { id, index: spec.index ?? i, spec, messages: [], turns: [], used: 0, action: 0, started: performance.now(), policyMs: 0, sandboxMs: 0, open: {}, history: [], tried: [] };
  });
  const gate = opts.gate ?? ((fn) => fn());
  const count = opts.tokenizer ? (s: string) => opts.tokenizer!.encode(s).length : charTokens;
  await Promise.all(eps.map((ep) => start(ep, create, opts)));

  for (let live = eps.filter((e) => !e.end); live.length; live = live.filter((e) => !e.end)) {
    if (opts.shouldStop?.()) {
      for (const ep of live) ep.end = 'stopped';
      break;
    }
    const views: EpisodeView[] = live.map((ep) => ({
      id: ep.id,
      index: ep.index,
      task: ep.spec.task,
      seed: ep.spec.seed,
      messages: ep.messages,
      turns: ep.turns,
      ...(ep.tokens ? { tokenIds: ep.tokens.ids } : {}),
      maxTokens: Math.max(1, Math.min(opts.actionTokens, opts.contextTokens - ep.used)),
    }));
    let outs: TurnOutput[];
    let policyMs = 0;
    try {
      // Timed inside the gate: waiting for another batch's generation is not this batch's policy time.
      outs = await gate(async () => {
        const t0 = performance.now();
        try {
          return await policy.act(views);
        } finally {
          policyMs = performance.now() - t0;
          opts.timeline?.add('generation', t0, t0 + policyMs);
        }
      });
      if (outs.length !== live.length) throw new Error(`the policy returned ${outs.length} turns for ${live.length} episodes`);
    } catch (e) {
      for (const ep of live) (ep.end = 'error'), (ep.error = `policy ${policy.name} failed: ${(e as Error).message}`);
      break;
    }
    await Promise.all(
      live.map((ep, i) =>
        step(ep, outs[i]!, policyMs, opts, count).catch((e: unknown) => {
          ep.end = 'error'; // e.g. sampled ids and log-probs that disagree in length
          ep.error = `turn ${ep.turns.length} failed: ${(e as Error).message}`;
        }),
      ),
    );
  }
  for (const ep of eps) policy.release?.(ep.id);
  return Promise.all(eps.map((ep) => finish(ep, policy, create, opts)));
}

/** Runs async calls one at a time. */
export type Gate = <R>(fn: () => Promise<R>) => Promise<R>;

/** A gate: calls run one at a time, in the order they were asked for. */
export function oneAtATime(): Gate {
  let tail: Promise<unknown> = Promise.resolve();
  return <R>(fn: () => Promise<R>) => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

async function start(ep: Live, create: SandboxFactory, opts: EpisodeOptions): Promise<void> {
  const { task } = ep.spec;
  const t0 = performance.now();
  try {
    ep.sb = await create(task.files, { timeoutMs: opts.commandTimeoutMs, prestart: true });
    const user = issueMessage(task.repo, task.problem_statement, await ep.sb.listFiles());
    const system = systemPrompt(opts.systemPrompt, opts.editCommand, opts.subTests);
    ep.messages.push({ role: 'system', content: system }, { role: 'user', content: user });
    if (opts.tokenizer) {
      ep.tokens = new EpisodeTokens(opts.tokenizer, opts.chatFormat ?? PLAIN_CHATML);
      ep.used = ep.tokens.addPrompt(system, user);
    } else ep.used = charTokens(system) + charTokens(user);
    if (ep.used >= opts.contextTokens) ep.end = 'context_limit';
  } catch (e) {
    ep.end = 'error';
    ep.error = `could not start the episode: ${(e as Error).message}`;
  }
  const t1 = performance.now();
  ep.sandboxMs += t1 - t0;
  opts.timeline?.add('sandbox', t0, t1);
}

async function step(ep: Live, out: TurnOutput, policyMs: number, opts: EpisodeOptions, count: (s: string) => number): Promise<void> {
  if (out.finish === 'exhausted') {
    ep.end = 'policy_exhausted';
    return;
  }
  ep.policyMs += policyMs;
  const index = ep.turns.length;
  const cost = ep.tokens ? ep.tokens.addAssistant(index, out.text, out) : charTokens(out.text);
  ep.used += cost;
  ep.action += cost;
  ep.messages.push({ role: 'assistant', content: out.text });
  const parsed = parseTurn(out.text);
  const turn: TurnRecord = {
    index,
    text: out.text,
    command: parsed.ok ? parsed.command : null,
    format_error: parsed.ok ? null : parsed.error,
    observation: '',
    status: 'not_run',
    exit_code: null,
    observation_cut: 0,
    finish: out.finish === 'length' ? 'length' : 'stop',
    timing: { policy_ms: Math.round(policyMs), exec_ms: 0 },
    ...(out.noTrain ? { no_train: true as const } : {}),
  };
  ep.turns.push(turn);
  if (ep.used > opts.contextTokens) ep.end = 'context_limit'; // the turn itself overflowed: not run
  else if (!parsed.ok) observe(ep, turn, formatErrorMessage(parsed.error), 'format_error', null, opts, count);
  else if (parsed.command.name === 'submit') (turn.status = 'ok'), (turn.exit_code = 0), (ep.end = 'submitted');
  else {
    const t0 = performance.now();
    const limit = abandonAfterMs(opts.commandTimeoutMs);
    const abandoned = (): ToolResult => ({ observation: `[the command did not finish within ${limit} ms and was abandoned]`, status: 'timeout', exitCode: null });
    const ctx = { sandbox: ep.sb!, testFiles: ep.spec.task.test_files, timeoutMs: opts.commandTimeoutMs, open: ep.open, history: ep.history, ...(opts.testReport ? { report: opts.testReport } : {}), ...(opts.viewHints ? { viewHints: true } : {}), ...(opts.triedHints ? { triedHints: true, tried: ep.tried } : {}), ...(opts.triedOnRefusal ? { triedOnRefusal: true } : {}), ...(opts.retryFixes ? { retryFixes: true } : {}), ...(opts.subTests ? { subTests: true } : {}) };
    const r = await withTimeout(runTool(ctx, parsed.command), limit, abandoned);
    opts.timeline?.add('sandbox', t0, performance.now());
    turn.timing.exec_ms = Math.round(performance.now() - t0);
    ep.sandboxMs += turn.timing.exec_ms;
    if (r.file) turn.file = r.file;
    observe(ep, turn, r.observation, r.status, r.exitCode, opts, count);
  }
  opts.onTurn?.({ id: ep.id, task_id: ep.spec.task.instance_id }, turn);
  if (ep.end) return;
  if (ep.turns.length >= opts.maxTurns) ep.end = 'max_turns';
  else if (ep.used >= opts.contextTokens) ep.end = 'context_limit';
}

function observe(ep: Live, turn: TurnRecord, text: string, status: TurnRecord['status'], exit: number | null, opts: EpisodeOptions, count: (s: string) => number): void {
  const { text: shown, cut } = truncateText(text, opts.observationTokens, count);
  Object.assign(turn, { observation: shown, observation_cut: cut, status, exit_code: exit });
  ep.messages.push({ role: 'user', content: shown });
  ep.used += ep.tokens ? ep.tokens.addObservation(turn.index, shown) : charTokens(shown);
}

async function finish(ep: Live, policy: Policy, create: SandboxFactory, opts: EpisodeOptions): Promise<Trajectory> {
  const { task, seed } = ep.spec;
  const t0 = performance.now();
  let tests: FinalTests = { passed: [], failed: [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS], timed_out: false };
  let diff = '';
  let flags: HackFlag[] | undefined;
  if (ep.sb && ep.end !== 'stopped') {
    try {
      diff = await ep.sb.diff();
      const final = await readRepo(ep.sb);
      flags = hackFlags(task.files, final, task.test_files);
      // Only a submitted episode can earn R = 1: the others are graded when asked (a fresh sandbox each).
      if (ep.end === 'submitted' || opts.gradeUnsubmitted !== false) tests = await gradeFiles(task, final, create, opts.commandTimeoutMs);
      else tests.graded = false;
    } catch (e) {
      ep.error ??= `grading failed: ${(e as Error).message}`;
    }
  }
  await ep.sb?.dispose().catch(() => undefined);
  const rewardMs = performance.now() - t0;
  opts.timeline?.add('sandbox', t0, t0 + rewardMs);
  // R = 1 only for a submitted episode whose tests all pass: one ended by a limit (or an error, or a replay
  // that ran out) gets R = 0 plus the penalty (docs/dapo.md), though its tests are still run and recorded.
  const reward = episodeReward(ep.end === 'submitted' && tests.failed.length === 0, ep.turns.length, { maxTurns: opts.maxTurns, ...opts.reward });
  const t: Trajectory = {
    format: 'webswe-trajectory',
    version: 1,
    task_id: task.instance_id,
    repo: task.repo,
    seed,
    policy: policy.name,
    policy_version: policy.version,
    sandbox: opts.sandbox,
    system: ep.messages[0]?.content ?? systemPrompt(opts.systemPrompt, opts.editCommand, opts.subTests),
    prompt: ep.messages[1]?.content ?? '',
    turns: ep.turns,
    budget_unit: ep.tokens ? 'tokens' : 'chars/4',
    context_used: ep.used,
    action_tokens: ep.action,
    reward,
    tests,
    ...(flags && { hack_flags: flags }),
    end_reason: ep.end ?? 'error',
    final_diff: diff,
    timing: { total_ms: Math.round(performance.now() - ep.started), policy_ms: Math.round(ep.policyMs), sandbox_ms: Math.round(ep.sandboxMs), reward_ms: Math.round(rewardMs) },
  };
  if (ep.tokens) t.tokens = ep.tokens.toArrays();
  if (ep.error) t.error = ep.error;
  opts.onEnd?.({ id: ep.id, task_id: task.instance_id }, t);
  return t;
}
