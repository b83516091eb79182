// The trajectory record: one episode with everything DAPO and RFT need (token ids, action mask,
// behaviour log-probs, turn boundaries, reward parts) and everything a student reads (each turn's
// text, command, observation and timing; the end reason; the final diff). Plus its text rendering.
import type { HackFlag } from './hack-flags.ts';
import type { RewardParts } from './reward.ts';
import type { Command } from './commands.ts';
import type { TokenArrays } from './render.ts';
import type { ToolStatus } from './tools.ts';

export type EndReason =
  /** The agent ran `submit`. */
  | 'submitted'
  /** T_max turns without a submit. */
  | 'max_turns'
  /** The context budget filled up. */
  | 'context_limit'
  /** The policy had no more turns (a replay file ran out). */
  | 'policy_exhausted'
  /** The sandbox or the policy failed; `error` says how. */
  | 'error'
  /** The run was stopped mid-episode (the episode is dropped, never trained on or scored). */
  | 'stopped';

export interface TurnRecord {
  /** 0-based. */
  index: number;
  /** The assistant's text as the policy wrote it. */
  text: string;
  /** The parsed command; null on a format error. */
  command: Command | null;
  /** What was wrong with the turn's format (RFT masks these turns), else null. */
  format_error: string | null;
  /** The observation as the agent saw it (after truncation). */
  observation: string;
  status: ToolStatus | 'format_error' | 'not_run';
  /** run_tests: the test process's exit code (null when killed); other commands: 0 done, 1 refused. */
  exit_code: number | null;
  /** Characters cut from the observation (0 when it fit). */
  observation_cut: number;
  /** How the policy's generation ended. */
  finish: 'stop' | 'length';
  timing: { policy_ms: number; exec_ms: number };
  /** The file a file command acted on (its PATH, or the open file it stood for); absent otherwise. */
  file?: string;
  /** A turn not to imitate: the scripted expert's deliberate wrong edit (what follows it, the recovery,
   *  is imitated). Absent for every other turn. */
  no_train?: true;
}

/** The grading run on a fresh copy (grade.ts). It runs for every episode, but the reward's tests part
 *  is 1 only when the episode was submitted and nothing failed. */
export interface FinalTests {
  /** FAIL_TO_PASS ∪ PASS_TO_PASS tests that passed / did not (failed, skipped or not reported). */
  passed: string[];
  failed: string[];
  timed_out: boolean;
  /** False when the tests were not run: the episode ended without submitting and agent.gradeUnsubmitted was
   *  off (its reward is 0 either way); every test is then listed as failed. Absent when they were run. */
  graded?: false;
  /** Why the run's report was not trusted and the episode failed whatever it said (a test reported twice, lines on
   *  the report's channel the runner did not write: grade.ts judgeRun). Absent when there is none. */
  problems?: string[];
}

export interface Trajectory {
  format: 'webswe-trajectory';
  version: 1;
  task_id: string;
  repo: string;
  seed: number;
  /** e.g. "expert(noise=0.3)", "replay:turns.json". */
  policy: string;
  policy_version: number;
  sandbox: string;
  system: string;
  /** The first user message (issue and file list). */
  prompt: string;
  turns: TurnRecord[];
  /** Token-level arrays; present when the episode was rendered with a tokenizer. */
  tokens?: TokenArrays;
  /** What budgets were counted in: model tokens, or characters / 4 when no tokenizer was given. */
  budget_unit: 'tokens' | 'chars/4';
  /** Context used at the end, and the assistant turns' share of it, in budget_unit. */
  context_used: number;
  action_tokens: number;
  reward: RewardParts;
  tests: FinalTests;
  /** What the final files do that a fix does not need (hack-flags.ts); [] when nothing. Absent in older runs. */
  hack_flags?: HackFlag[];
  end_reason: EndReason;
  error?: string;
  /** The agent's changes against the task's files (git-style; test files included as the agent left them). */
  final_diff: string;
  timing: { total_ms: number; policy_ms: number; sandbox_ms: number; reward_ms: number };
}

/** Whether the agent saw an observation after this turn (not after submit, nor after a turn that was not run). */
export const hasObservation = (t: TurnRecord): boolean => t.status !== 'not_run' && t.command?.name !== 'submit';

/** The conversation as chat messages: system, user, then assistant / user (observation) pairs. */
export function trajectoryMessages(t: Trajectory): { role: 'system' | 'user' | 'assistant'; content: string }[] {
  const msgs: { role: 'system' | 'user' | 'assistant'; content: string }[] = [
    { role: 'system', content: t.system },
    { role: 'user', content: t.prompt },
  ];
  for (const turn of t.turns) {
    msgs.push({ role: 'assistant', content: turn.text });
    if (hasObservation(turn)) msgs.push({ role: 'user', content: turn.observation });
  }
  return msgs;
}

const indent = (s: string, pad = '  ') => s.split('\n').map((l) => (l ? pad + l : l)).join('\n');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What a turn did, in one line: "run_tests → exit 1 (0.3 s)". */
function turnLine(t: TurnRecord): string {
  if (t.format_error !== null) return `format error: ${t.format_error}`;
  const c = t.command!;
  const what = (c.name === 'view' || c.name === 'replace' || c.name === 'create' || c.name === 'edit' || c.name === 'sub') && c.path !== undefined ? `${c.name} ${c.path}` : c.name;
  const status = t.status === 'ok' ? (c.name === 'run_tests' ? `exit ${t.exit_code}` : 'ok') : t.status;
  return `${what} → ${status} (${secs(t.timing.exec_ms)})`;
}

/** The episode as a person reads it: the issue, each turn (reasoning and command, then the
 *  observation indented), the end, the reward and the final diff. */
export function renderTrajectory(t: Trajectory, opts: { system?: boolean } = {}): string {
  const out: string[] = [`═══ ${t.task_id} · policy ${t.policy} · seed ${t.seed} · sandbox ${t.sandbox} ═══`];
  if (opts.system) out.push('── system ──', t.system);
  out.push('── issue ──', t.prompt);
  for (const turn of t.turns) {
    out.push(`── turn ${turn.index + 1}: ${turnLine(turn)} ──`, turn.text.trimEnd());
    if (hasObservation(turn)) out.push('▶ observation' + (turn.observation_cut ? ` (${turn.observation_cut} characters cut)` : ''), indent(turn.observation.trimEnd(), '│ '));
  }
  const r = t.reward;
  const parts = [`tests ${r.tests}`, `length penalty ${+r.length_penalty.toFixed(4)}`];
  out.push(
    `═══ ${t.end_reason} after ${t.turns.length} turn${t.turns.length === 1 ? '' : 's'}${t.error ? ` (${t.error})` : ''} · reward ${+r.total.toFixed(4)} (${parts.join(', ')}) ═══`,
    t.tests.graded === false ? 'tests: not run (the episode did not submit)' : `tests: ${t.tests.passed.length} of ${t.tests.passed.length + t.tests.failed.length} pass${t.tests.failed.length ? `; failing: ${t.tests.failed.join('; ')}` : ''}${t.tests.timed_out ? ' (the run hit its time limit)' : ''}${t.tests.problems ? `; the report was not trusted: ${t.tests.problems.join('; ')}` : ''}`,
    `context: ${t.context_used} ${t.budget_unit === 'chars/4' ? 'tokens, estimated as characters / 4 (no tokenizer)' : 'tokens'}, of which ${t.action_tokens} in assistant turns · ${secs(t.timing.total_ms)} (policy ${secs(t.timing.policy_ms)}, sandbox ${secs(t.timing.sandbox_ms)}, grading ${secs(t.timing.reward_ms)})`,
    '── final diff ──',
    t.final_diff.trimEnd() || '(no changes)',
  );
  return out.join('\n') + '\n';
}
