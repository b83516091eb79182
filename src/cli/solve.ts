// `webswe solve`: one episode of one task (--index N or --id ID) with a policy (the scripted expert, a
// replayed file of turns, later a model), printing the turns, the reward and the final diff; with
// --all, every task of the file, printing the success rate and mean turns (how the expert is measured).
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { runEpisode, type EpisodeOptions } from '../agent/episode.ts';
import { episodeOptions } from '../rl/episode-options.ts';
import { ExpertPolicy, type ExpertStyle } from '../agent/expert.ts';
import { toAtif, toSftLine } from '../agent/export.ts';
import { parsePolicySpec, type Policy } from '../agent/policy.ts';
import { chatFormatFor } from '../agent/render.ts';
import { openPolicyModel } from '../rl/session.ts';
import { readTaskFile } from './task-file.ts';
import { ReplayPolicy } from '../agent/replay.ts';
import { renderTrajectory, type Trajectory } from '../agent/trajectory.ts';
import { loadTokenizerDir } from '../model/tokenizer.node.ts';
import { loadModelDir } from '../model/load.node.ts';
import { ModelPolicy } from '../rl/model-policy.ts';
import { openBackend } from './backend.ts';
import { parseOverrides, resolveConfig, type ConfigValue } from '../rl/config.ts';
import { evalBase } from './train.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';
import { printJson, runCommand, UserError } from './output.ts';

interface SolveFlags {
  task: string;
  index?: string;
  id?: string;
  all?: boolean;
  policy: string;
  guesses?: string;
  style?: string;
  sandbox: string;
  maxTurns?: string;
  lengthThreshold?: string;
  timeout?: string;
  noise?: string;
  seed: string;
  jobs: string;
  tokenizer?: string;
  atif?: string;
  sft?: string;
  json?: boolean;
  set?: string[];
  /** Set for --policy model:DIR: the settings the model was trained with (evalBase). */
  base?: Record<string, ConfigValue>;
}

function int(flag: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${flag} must be an integer ≥ ${min}, got "${v}"`);
  return n;
}


function pickTasks(tasks: Task[], flags: SolveFlags, path: string): Task[] {
  const given = [flags.index !== undefined, flags.id !== undefined, flags.all === true].filter(Boolean).length;
  if (given > 1) throw new UserError('give at most one of --index, --id and --all');
  if (flags.all) return tasks;
  if (flags.id !== undefined) {
    const t = tasks.find((x) => x.instance_id === flags.id);
    if (!t) throw new UserError(`no task "${flags.id}" in ${path}; it has ${tasks.slice(0, 5).map((x) => x.instance_id).join(', ')}${tasks.length > 5 ? ', …' : ''}`);
    return [t];
  }
  const i = int('--index', flags.index ?? '0', 0);
  if (i >= tasks.length) throw new UserError(`--index ${i} is out of range: ${path} has ${tasks.length} valid task${tasks.length === 1 ? '' : 's'} (0-${tasks.length - 1})`);
  return [tasks[i]!];
}

/** A model folder (config.json, model.safetensors, tokenizer files, e.g. a run's checkpoint/) as
 *  the policy; its tokenizer also renders the episode (token arrays, budgets in tokens). */
async function modelPolicy(dir: string, flags: SolveFlags): Promise<Policy> {
  const loaded = await loadModelDir(dir);
  const { be } = await openBackend('auto');
  const { model, tokenizer: tok, stopIds } = await openPolicyModel(be, loaded, `--policy model:${dir}: the folder`).catch((e: Error) => {
    throw new UserError(e.message);
  });
  flags.tokenizer ??= dir;
  flags.base = await evalBase(dir);
  let cfg;
  try {
    cfg = resolveConfig({ 'agent.sandbox': flags.sandbox, ...flags.base, ...overrides(flags) });
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  return new ModelPolicy(model, tok, {
    contextTokens: cfg.agent.contextTokens + cfg.agent.actionTokens,
    stopIds,
    sampling: { temperature: cfg.eval.temperature },
    seed: int('--seed', flags.seed, 0),
    name: `model:${dir}`,
  });
}

/** The --policy spec, with the expert-only flags refused for any other policy. */
function policySpec(flags: SolveFlags): ReturnType<typeof parsePolicySpec> {
  let spec;
  try {
    spec = parsePolicySpec(flags.policy);
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  for (const [flag, v] of [['--noise', flags.noise], ['--guesses', flags.guesses], ['--style', flags.style]] as const) {
    if (v !== undefined && spec.kind !== 'expert') throw new UserError(`${flag} applies to --policy expert only`);
  }
  if (flags.style !== undefined && !['full', 'terse', 'bare'].includes(flags.style)) throw new UserError(`--style must be full, terse or bare, got "${flags.style}"`);
  return spec;
}

/** The expert or a replay file; a model policy is opened by modelPolicy before the episode options,
 *  since it sets the tokenizer and the settings the model was trained with (flags.tokenizer, flags.base). */
async function makePolicy(spec: ReturnType<typeof parsePolicySpec>, flags: SolveFlags, opts: EpisodeOptions): Promise<Policy> {
  if (spec.kind === 'expert') {
    const noise = Number(flags.noise ?? 0);
    if (!(noise >= 0 && noise <= 1)) throw new UserError(`--noise must be a probability in [0, 1], got "${flags.noise}"`);
    const guesses = flags.guesses === undefined ? 0 : int('--guesses', flags.guesses, 0);
    // Guesses from the list's end, as training plays them, each candidate with each of its fixes with
    // --set agent.retryFixes=true; a refused sub first with --set bc.expertRefusals=P.
    const cfg = resolveConfig(overrides(flags));
    return new ExpertPolicy({ noise, guesses, retryFixes: cfg.agent.retryFixes, refusals: cfg.bc.expertRefusals, style: (flags.style ?? 'full') as ExpertStyle, ...(opts.editCommand ? { editCommand: opts.editCommand } : {}) });
  }
  if (spec.kind === 'model') throw new Error('a model policy is opened by modelPolicy before the episode options');
  let text: string;
  try {
    text = await readFile(spec.file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the replay file ${spec.file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return ReplayPolicy.fromJson(text, spec.file);
  } catch (e) {
    throw new UserError((e as Error).message);
  }
}

/** --set overrides (agent.*, reward.*), e.g. agent.systemPrompt=brief for a model trained with it. */
function overrides(flags: SolveFlags): Record<string, ConfigValue> {
  try {
    return parseOverrides(flags.set ?? []);
  } catch (e) {
    throw new UserError((e as Error).message);
  }
}

async function makeOptions(flags: SolveFlags): Promise<EpisodeOptions> {
  const layer: Record<string, ConfigValue> = { 'agent.sandbox': flags.sandbox, ...(flags.base ?? {}), ...overrides(flags) };
  if (flags.maxTurns !== undefined) layer['agent.maxTurns'] = int('--max-turns', flags.maxTurns, 1);
  if (flags.lengthThreshold !== undefined) layer['reward.lengthThreshold'] = int('--length-threshold', flags.lengthThreshold, 1);
  if (flags.timeout !== undefined) layer['agent.commandTimeoutMs'] = int('--timeout', flags.timeout, 100);
  let config;
  try {
    config = resolveConfig(layer);
  } catch (e) {
    const hint = /lengthThreshold/.test((e as Error).message) ? ' (lower it with --length-threshold N)' : '';
    throw new UserError(`${(e as Error).message}${hint}`);
  }
  const extra: Partial<EpisodeOptions> = {};
  if (flags.tokenizer) {
    const tok = await loadTokenizerDir(flags.tokenizer).catch((e: Error) => Promise.reject(new UserError(e.message)));
    extra.tokenizer = tok;
    try {
      extra.chatFormat = chatFormatFor(tok);
    } catch (e) {
      throw new UserError(`--tokenizer ${flags.tokenizer}: ${(e as Error).message}`);
    }
  }
  return episodeOptions(config, extra);
}

/** Run `tasks` with `jobs` at a time; results in task order. */
async function runAll(tasks: Task[], policy: Policy, create: SandboxFactory, opts: EpisodeOptions, seed: number, jobs: number, onDone: (t: Trajectory) => void) {
  const out: Trajectory[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await runEpisode(tasks[i]!, policy, create, opts, seed);
      onDone(out[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, worker));
  return out;
}

export interface SolveSummary {
  policy: string;
  task_file: string;
  total: number;
  solved: number;
  success_rate: number;
  mean_turns: number;
  mean_turns_solved: number | null;
  mean_reward: number;
  end_reasons: Record<string, number>;
  wall_s: number;
  tasks: { instance_id: string; reward: number; tests: number; turns: number; end_reason: string; wall_s: number; error?: string }[];
}

export function summarize(policy: string, file: string, ts: Trajectory[], wallMs: number): SolveSummary {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const solved = ts.filter((t) => t.reward.tests === 1);
  const end_reasons: Record<string, number> = {};
  for (const t of ts) end_reasons[t.end_reason] = (end_reasons[t.end_reason] ?? 0) + 1;
  return {
    policy,
    task_file: file,
    total: ts.length,
    solved: solved.length,
    success_rate: ts.length ? solved.length / ts.length : 0,
    mean_turns: mean(ts.map((t) => t.turns.length)),
    mean_turns_solved: solved.length ? mean(solved.map((t) => t.turns.length)) : null,
    mean_reward: mean(ts.map((t) => t.reward.total)),
    end_reasons,
    wall_s: wallMs / 1000,
    tasks: ts.map((t) => ({ instance_id: t.task_id, reward: t.reward.total, tests: t.reward.tests, turns: t.turns.length, end_reason: t.end_reason, wall_s: t.timing.total_ms / 1000, ...(t.error ? { error: t.error } : {}) })),
  };
}

export function registerSolve(program: Command): Command {
  return program
    .command('solve')
    .description('run one episode on a task with a policy and print the turns, the reward and the final diff (--all: every task, with the success rate and mean turns)')
    .requiredOption('--task <file>', 'a .jsonl task file')
    .option('--index <n>', 'which task of the file (0-based; default 0)')
    .option('--id <id>', 'the task with this instance_id')
    .option('--all', 'every task of the file; prints the success rate and mean turns')
    .option('--policy <policy>', 'expert (edits with agent.editCommand: --set agent.editCommand=edit) | replay:FILE (a JSON array of assistant turn texts) | model:DIR', 'expert')
    .option('--guesses <n>', 'expert only: try 0 to N other one-token changes (tested, undone) before the fix, as bc.expertGuesses (default 0)')
    .option('--style <style>', 'expert only: full, terse or bare reasoning, as bc.expertStyle (default full)')
    .option('--noise <p>', 'expert only: probability of a plausible wrong first edit and the recovery after it (default 0)')
    .option('--sandbox <name>', "where commands run: node (a confined process per run) or worker (the browser's emulated node:test, one confined process per episode)", 'node')
    .option('--max-turns <n>', 'T_max, the turn limit (default: agent.maxTurns, 40)')
    .option('--length-threshold <n>', 'L_thr of the turn-length penalty (default: reward.lengthThreshold, 10)')
    .option('--timeout <ms>', 'time limit of one command (default: agent.commandTimeoutMs, 5000)')
    .option('--seed <n>', 'episode seed (the expert\'s wording and noise)', '0')
    .option('--jobs <n>', 'with --all: episodes at once', String(Math.min(4, availableParallelism())))
    .option('--tokenizer <dir>', 'render token arrays (ids, action mask, turn boundaries) with this tokenizer folder; budgets then count its tokens, else characters / 4')
    .option('--atif <file>', 'also write the trajectories as ATIF JSON (an array with --all)')
    .option('--sft <file>', 'also write the trajectories as SFT JSONL (chat messages)')
    .option('--set <key=value...>', "agent/reward/eval config overrides, e.g. --set eval.temperature=0 (greedy); a model:DIR policy starts from the settings it was trained with (a run's config.json beside checkpoint/, else the defaults)")
    .option('--json', 'print one JSON document on stdout: the trajectory (with --all: the summary)')
    .action((flags: SolveFlags) =>
      runCommand(async () => {
        const tasks = pickTasks(readTaskFile(flags.task), flags, flags.task);
        const spec = policySpec(flags);
        const model = spec.kind === 'model' ? await modelPolicy(spec.dir, flags) : undefined;
        const opts = await makeOptions(flags);
        const policy = model ?? (await makePolicy(spec, flags, opts));
        let create: SandboxFactory;
        try {
          create = sandboxFactory(flags.sandbox);
        } catch (e) {
          throw new UserError((e as Error).message);
        }
        const seed = int('--seed', flags.seed, 0);
        const started = performance.now();
        const bar = flags.all && process.stderr.isTTY ? new SingleBar({ format: 'solving {bar} {value}/{total} | {solved} solved', stream: process.stderr, hideCursor: true, clearOnComplete: true }) : null;
        let done = 0, solved = 0;
        bar?.start(tasks.length, 0, { solved });
        const ts = await runAll(tasks, policy, create, opts, seed, int('--jobs', flags.jobs, 1), (t) => {
          done++;
          solved += t.reward.tests;
          if (bar) bar.update(done, { solved });
          else if (flags.all && (done % 10 === 0 || done === tasks.length)) process.stderr.write(`solved ${solved}/${done} of ${tasks.length} tasks\n`);
        }).finally(() => bar?.stop());
        if (flags.atif) await writeFile(flags.atif, JSON.stringify(flags.all ? ts.map(toAtif) : toAtif(ts[0]!), null, 2) + '\n');
        if (flags.sft) await writeFile(flags.sft, ts.map(toSftLine).join('\n') + '\n');
        if (!flags.all) {
          if (flags.json) printJson(ts[0]);
          else process.stdout.write(renderTrajectory(ts[0]!));
          return 0;
        }
        const s = summarize(policy.name, flags.task, ts, performance.now() - started);
        if (flags.json) return printJson(s);
        const width = Math.min(40, Math.max(...s.tasks.map((t) => t.instance_id.length)));
        for (const t of s.tasks) console.log(`${t.tests ? '✓' : '✗'} ${t.instance_id.padEnd(width)}  ${t.end_reason.padEnd(16)} ${String(t.turns).padStart(3)} turns  reward ${+t.reward.toFixed(3)}${t.error ? `  (${t.error})` : ''}`);
        const turnsSolved = s.mean_turns_solved === null ? '' : ` (${s.mean_turns_solved.toFixed(2)} when solved)`;
        console.log(`${s.policy}: solved ${s.solved}/${s.total} (${(100 * s.success_rate).toFixed(1)} %), mean turns ${s.mean_turns.toFixed(2)}${turnsSolved}, mean reward ${s.mean_reward.toFixed(3)}, ${s.wall_s.toFixed(1)} s`);
        return 0;
      }),
    );
}
