// The run configuration: one typed object, every field declared once in FIELDS with its default,
// allowed range and meaning (docs/dapo.md's names; verl's in brackets). Resolved once:
// defaults ← preset ← overrides (`--set a.b=v`), validated, frozen. The app renders its form from
// FIELDS too, so the CLI and the page can never disagree about a default or a range.
import { MODEL_PRESETS, RENAMED_PRESETS } from '../model/presets.ts';

export type FieldType = 'int' | 'number' | 'bool' | 'string';
export interface FieldSpec {
  path: string;
  type: FieldType;
  default: number | boolean | string;
  doc: string;
  min?: number;
  max?: number;
  choices?: readonly string[];
}

/** A field as declared: its path, type and choices kept as literal types, so RunConfig is derived
 *  from FIELDS (a misspelt `cfg.dapo.grupSize` does not compile, `cfg.dapo.filterMode` is 'refill' | 'shrink'). */
interface Field<P extends string, T extends FieldType, C extends readonly string[] | undefined> extends FieldSpec {
  readonly path: P;
  readonly type: T;
  readonly choices?: C;
}
type Extra<C> = { min?: number; max?: number; choices?: C };
const f = <const P extends string, const T extends FieldType, const C extends readonly string[] | undefined = undefined>(path: P, type: T, def: number | boolean | string, doc: string, extra: Extra<C> = {}) =>
  ({ path, type, default: def, doc, ...extra }) as Field<P, T, C>;

export const FIELDS = [
  f('seed', 'int', 1, 'seed of every random choice in the run (task order, sampling, initialisation)', { min: 0, max: 2 ** 31 - 1 }),
  f('model.preset', 'string', 'scratch-160k', `the model: a from-scratch shape (${Object.keys(MODEL_PRESETS).join(', ')}) or a pretrained Hugging Face folder, Hub id or cached model`, {}),
  f('model.loraRank', 'int', 0, 'LoRA rank for a pretrained model (0: full fine-tuning; from-scratch models always train in full)', { min: 0, max: 256 }),
  f('model.loraAlpha', 'number', 16, 'LoRA alpha (scale = alpha / rank)', { min: 0, max: 1024 }),
  f('model.loraTargets', 'string', 'q,k,v,o,gate,up,down', 'LoRA target projections, comma-separated (of q, k, v, o, gate, up, down)'),
  f('model.recompute', 'bool', false, "activation recomputation: keep each layer's input and rebuild its activations in the backward (less memory, about a third more compute, the same gradients)"),
  f('model.passTokens', 'int', 0, 'tokens one forward and backward pass may hold (0: the whole batch): a step runs in passes of whole rows, the same gradient with the memory of one pass', { min: 0, max: 1e7 }),
  f('model.trainRows', 'int', 0, "rows a training step's episodes are packed into (0: first-fit at the longest episode's length; R: balanced over R rows, less padding for the WASM backend)", { min: 0, max: 1024 }),

  f('tasks.train', 'string', 'public/tasks/train.jsonl', 'training task file (.jsonl, SWE-bench fields)'),
  f('tasks.test', 'string', 'public/tasks/test.jsonl', 'held-out task file (shares no repository with the training file)'),
  f('tasks.maxTrain', 'int', 0, 'use only N training tasks (0: all), chosen by tasks.select', { min: 0, max: 1e6 }),
  f('tasks.maxTest', 'int', 0, 'evaluate on N held-out tasks (0: all), chosen by tasks.select', { min: 0, max: 1e6 }),
  f('tasks.select', 'string', 'shortest', 'which N tasks tasks.maxTrain and tasks.maxTest keep: the shortest, or spread (seeded, one task of every repository before a second of any)', { choices: ['shortest', 'spread'] }),
  f('tasks.difficulty', 'string', 'any', 'tiers used: any, easy (one bug), hard (two), or token (one bug fixed by one token that occurs once in its file: the lowest rung)', { choices: ['any', 'easy', 'hard', 'token'] }),

  f('agent.maxTurns', 'int', 40, 'T_max: turn limit of an episode (paper: 40)', { min: 1, max: 400 }),
  f('agent.contextTokens', 'int', 4096, 'context budget of an episode in tokens; an episode that fills it ends', { min: 64, max: 131072 }),
  f('agent.observationTokens', 'int', 512, 'observations are cut to this many tokens, with a marker', { min: 16, max: 32768 }),
  f('agent.actionTokens', 'int', 256, 'token budget of one assistant turn', { min: 8, max: 32768 }),
  f('agent.systemPrompt', 'string', 'full', 'full (documents the action format; pretrained models) or brief (one line; from-scratch models learn the format from the expert)', { choices: ['full', 'brief'] }),
  f('agent.editCommand', 'string', 'replace', 'the edit command the prompt documents and the expert uses: replace (SEARCH/REPLACE blocks), edit (a line range) or sub (text on one line, the fewest tokens)', { choices: ['replace', 'edit', 'sub'] }),
  f('agent.viewHints', 'bool', false, 'a whole-file view ends with the operators and numbers that occur once in the file: what a one-token sub can name', {}),
  f('agent.triedHints', 'bool', false, 'an undo or a taken-back sub ends with the candidates no sub has named yet', {}),
  f('agent.triedOnRefusal', 'bool', false, 'a refused sub (its text not in the file once) ends with the candidates not yet tried too (needs agent.triedHints)', {}),
  f('agent.retryFixes', 'bool', false, 'a candidate stays on the not-yet-tried list until each of its fixes was tried (`>=` → `>` then `<`; n → n − 1 then n + 1; needs agent.triedHints)', {}),
  f('agent.subTests', 'bool', false, 'a sub runs the tests and takes its change back at once when any fails: one turn a guess instead of three', {}),
  f('agent.testReport', 'string', 'full', 'run_tests reports every test (full) or the counts and the first three failures (brief)', { choices: ['full', 'brief'] }),
  f('agent.sandbox', 'string', 'node', 'where episodes run', { choices: ['node', 'worker', 'webcontainer'] }),
  f('agent.commandTimeoutMs', 'int', 5000, 'time limit of one command (a test run) in the sandbox, ms', { min: 100, max: 600000 }),
  f('agent.rolloutBatch', 'int', 32, 'episodes generated together (one batched forward a turn), rounded down to whole groups', { min: 1, max: 4096 }),
  f('agent.cacheTests', 'bool', true, 'answer a test run of files already run (same tests and limits) from a cache; never a run that hit its time limit'),
  f('agent.gradeUnsubmitted', 'bool', false, 'also grade episodes that ended without submitting (their reward is 0 either way): to see whether one had fixed the bug'),
  f('agent.overlap', 'bool', true, "rollout batches take turns at the policy in pairs, so one's sandbox commands run while the other generates; the same trajectories"),

  f('reward.lengthThreshold', 'int', 10, 'L_thr: episodes of at least this many turns are penalised (paper Eq. 4)', { min: 1, max: 400 }),
  f('reward.lengthPenalty', 'bool', true, 'apply the turn-length penalty (L_thr − |τ|) / (T_max − L_thr)'),

  f('bc.episodes', 'int', 400, 'scripted-expert episodes behaviour cloning imitates (from-scratch models)', { min: 0, max: 1e6 }),
  f('bc.epochs', 'int', 4, 'epochs over the expert episodes', { min: 0, max: 1000 }),
  f('bc.batchEpisodes', 'int', 16, 'episodes per cloning step', { min: 1, max: 4096 }),
  f('bc.lr', 'number', 3e-3, 'learning rate of behaviour cloning and the copy drills', { min: 0, max: 1 }),
  f('bc.warmupSteps', 'int', 10, "warm-up steps of cloning's rate (cosine decay to 0 after)", { min: 0, max: 1e6 }),
  f('bc.expertStyle', 'string', 'full', "the expert's reasoning: full sentences, one terse sentence a turn, or bare commands", { choices: ['full', 'terse', 'bare'] }),
  f('bc.expertNoise', 'number', 0.3, 'probability the expert makes a plausible wrong first edit and recovers', { min: 0, max: 1 }),
  f('bc.expertGuesses', 'int', 0, "guess and check: before the fix the expert tries up to N of the listed candidates from the list's end, each tested and undone", { min: 0, max: 20 }),
  f('bc.expertRefusals', 'number', 0, 'probability the expert first names an operator the file does not hold once (a refused sub, not imitated) and reads the file again (agent.editCommand sub)', { min: 0, max: 1 }),
  f('bc.copyDrills', 'int', 0, "copy drills mixed into cloning: a view, then `sub X Y` naming the file's last operator or number that occurs once (the candidate list's last with agent.viewHints)", { min: 0, max: 1e6 }),
  f('bc.drillSteps', 'int', 0, 'at most N steps of copy drills alone before cloning (0: none)', { min: 0, max: 1e6 }),
  f('bc.drillUntil', 'number', 0, "the drills-only stage ends once the copy probe (held-out views: is the last candidate named?) reads at least this, checked every 100 steps (0: all bc.drillSteps)", { min: 0, max: 1 }),

  f('rft.tasks', 'int', 0, 'training tasks RFT samples (a seeded draw; 0: every training task)', { min: 0, max: 1e6 }),
  f('rft.samplesPerTask', 'int', 4, 'K: episodes per task for rejection sampling (paper: 10)', { min: 1, max: 100 }),
  f('rft.temperature', 'number', 1, "sampling temperature τ of RFT's rollouts; its loss scores softmax(logits/τ), the distribution they came from", { min: 0.05, max: 10 }),
  f('rft.lr', 'number', 1e-3, 'RFT learning rate (paper: 5e-6 for 72B; small models want more)', { min: 0, max: 1 }),
  f('rft.warmupSteps', 'int', 10, "warm-up steps of RFT's rate (cosine decay to 0 after)", { min: 0, max: 1e6 }),
  f('rft.epochs', 'int', 1, 'epochs over the kept episodes', { min: 0, max: 100 }),
  f('rft.batchEpisodes', 'int', 16, 'episodes per optimiser step', { min: 1, max: 4096 }),

  f('dapo.iterations', 'int', 20, 'DAPO iterations', { min: 0, max: 1e6 }),
  f('dapo.tasksPerIteration', 'int', 8, 'tasks an iteration samples, one group each [train_batch_size]', { min: 1, max: 4096 }),
  f('dapo.groupSize', 'int', 8, 'G: episodes per task [rollout.n] (paper: 10, DAPO: 16)', { min: 2, max: 256 }),
  f('dapo.temperature', 'number', 1, "sampling temperature τ of DAPO's rollouts; the loss scores softmax(logits/τ), so the ratio stays exact", { min: 0.05, max: 10 }),
  f('dapo.clipRatioLow', 'number', 0.2, 'ε_low [clip_ratio_low]', { min: 0, max: 1 }),
  f('dapo.clipRatioHigh', 'number', 0.28, 'ε_high, clip-higher [clip_ratio_high] (paper: 0.3)', { min: 0, max: 10 }),
  f('dapo.lr', 'number', 5e-4, 'DAPO learning rate (paper: 1e-6 for 72B full fine-tuning)', { min: 0, max: 1 }),
  f('dapo.warmupSteps', 'int', 0, 'linear warm-up of the rate over the first N optimiser steps [lr_warmup_steps]', { min: 0, max: 1e6 }),
  f('dapo.optimizerSteps', 'int', 2, "optimiser steps an iteration: its batch in this many mini-batches [ppo_mini_batch]", { min: 1, max: 64 }),
  f('dapo.refusedTurns', 'string', 'train', "turns whose command the environment refused: train with their episode's advantage, or blame (only a negative one: a refusal changed nothing)", { choices: ['train', 'blame'] }),
  f('dapo.filterGroups', 'bool', true, 'dynamic sampling: drop groups whose rewards are all equal [filter_groups.enable]'),
  f('dapo.filterMode', 'string', 'refill', 'refill: sample more groups until the batch is full; shrink: train on what is left', { choices: ['refill', 'shrink'] }),
  f('dapo.maxGenBatches', 'int', 3, 'generation rounds an iteration may take to refill [filter_groups.max_num_gen_batches]', { min: 1, max: 100 }),

  f('optim.beta1', 'number', 0.9, 'AdamW β1 (first-moment decay)', { min: 0, max: 1 }),
  f('optim.beta2', 'number', 0.999, 'AdamW β2 (second-moment decay)', { min: 0, max: 1 }),
  f('optim.eps', 'number', 1e-8, 'AdamW ε (denominator floor)', { min: 0, max: 1 }),
  f('optim.weightDecay', 'number', 0.1, 'decoupled weight decay [weight_decay]', { min: 0, max: 10 }),
  f('optim.maxGradNorm', 'number', 1.0, 'clip the global gradient norm to this [grad_clip]', { min: 0, max: 1e6 }),

  f('eval.samples', 'int', 4, 'K: samples a held-out task; pass@1 is their mean ± std, pass@K', { min: 1, max: 100 }),
  f('eval.temperature', 'number', 1.0, 'sampling temperature of evaluation (0: greedy)', { min: 0, max: 10 }),
  f('eval.probeEvery', 'int', 0, 'every N steps of the base phase, the pass rate of one episode on each of 8 held-out tasks (probe_pass_rate); 0: none. It reads the model and changes nothing in the run', { min: 0, max: 1e6 }),

  f('run.phases', 'string', 'base,rft,dapo', 'phases to run, in order (of base, rft, dapo)'),
  f('run.checkpointEvery', 'int', 5, 'checkpoint every N DAPO iterations (and at each phase end)', { min: 1, max: 1e6 }),
  f('run.checkpointSteps', 'int', 100, 'checkpoint every N optimiser steps of cloning and of RFT (and when stopped)', { min: 1, max: 1e6 }),

  // A shared run (`webswe train --share`, docs/sharing.md): contributors play DAPO's rounds.
  f('dist.logprobTolerance', 'number', 2e-3, 'largest |claimed − recomputed| behaviour log-prob the learner accepts per action token', { min: 0, max: 1 }),
  f('dist.maxResultBytes', 'int', 4 * 1024 * 1024, 'a result message larger than this is refused unread', { min: 1024, max: 64 * 1024 * 1024 }),
  f('dist.leaseSeconds', 'int', 120, 'seconds a contributor holds a work item before it goes to another', { min: 5, max: 3600 }),
  f('dist.maxAttempts', 'int', 3, 'issues of one work item (after rejected results) before the learner plays it itself', { min: 1, max: 100 }),
  f('dist.roundSeconds', 'number', 600, 'seconds a round waits for contributors before the learner plays what is missing', { min: 0, max: 86400 }),
  f('dist.auditShare', 'number', 1, 'share of results whose sampled tokens and log-probs the learner checks with its forward pass, drawn in secret after receipt (docs/sharing.md); replay and grading run on every result', { min: 0.01, max: 1 }),
  f('dist.maxOffPolicy', 'int', 0, "DAPO iterations a shared round may be played behind the weights that train on it: 1 lets contributors play the next round during each update", { min: 0, max: 1 }),
] as const satisfies readonly FieldSpec[];

/** The config's sections, in FIELDS' order, with the title the CLI's --print-config and the app's form give them
 *  (`seed` has no section of its own: it opens Run). */
export const CONFIG_SECTIONS: Readonly<Record<string, string>> = Object.freeze({
  seed: 'Run', model: 'Model', tasks: 'Tasks', agent: 'Agent and sandbox', reward: 'Reward', bc: 'Behaviour cloning (base)',
  rft: 'Rejection fine-tuning (RFT)', dapo: 'DAPO', optim: 'Optimiser (AdamW)', eval: 'Evaluation', run: 'Run', dist: 'Share the run (contributors play its DAPO rounds)',
});

/** The section a field path belongs to (a key of CONFIG_SECTIONS). */
export const sectionOf = (path: string): string => (path.includes('.') ? path.slice(0, path.indexOf('.')) : 'seed');

export type ConfigValue = number | boolean | string;

type AnyField = (typeof FIELDS)[number];
/** A field's value type: its choices as a union where it has them, else from its type. */
type ByType<T> = T extends 'bool' ? boolean : T extends 'string' ? string : number;
type ValueOf<F extends AnyField> = string extends NonNullable<F['choices']>[number] ? ByType<F['type']> : NonNullable<F['choices']>[number];
type SectionOf<P> = P extends `${infer S}.${string}` ? S : never;
type Section = SectionOf<AnyField['path']>;
/**
 * Nested, frozen configuration object (config.dapo.groupSize etc.), its type derived from FIELDS: every
 * section and field typed, `seed` at the top.
 */
export type RunConfig = { readonly seed: number } & {
  readonly [S in Section]: { readonly [F in AnyField as F['path'] extends `${S}.${infer K}` ? K : never]: ValueOf<F> };
};

const BY_PATH = new Map<string, FieldSpec>(FIELDS.map((s) => [s.path, s]));

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse a `--set` string value into the field's type, refusing what does not fit. */
export function parseValue(spec: FieldSpec, raw: string): ConfigValue {
  if (spec.type === 'bool') {
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    throw new ConfigError(`${spec.path}: expected true or false, got "${raw}"`);
  }
  if (spec.type === 'string') return raw;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v)) throw new ConfigError(`${spec.path}: expected a number, got "${raw}"`);
  return v;
}

export function validateField(spec: FieldSpec, v: unknown): void {
  const range = spec.min !== undefined ? ` (allowed: ${spec.min} to ${spec.max})` : '';
  if (spec.type === 'bool' && typeof v !== 'boolean') throw new ConfigError(`${spec.path}: expected true or false, got ${JSON.stringify(v)}`);
  if (spec.type === 'string') {
    if (typeof v !== 'string') throw new ConfigError(`${spec.path}: expected a string, got ${JSON.stringify(v)}`);
    if (spec.choices && !spec.choices.includes(v)) throw new ConfigError(`${spec.path}: "${v}" is not one of ${spec.choices.join(', ')}`);
  }
  if (spec.type === 'int' || spec.type === 'number') {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConfigError(`${spec.path}: expected a number${range}, got ${JSON.stringify(v)}`);
    if (spec.type === 'int' && !Number.isInteger(v)) throw new ConfigError(`${spec.path}: expected an integer${range}, got ${v}`);
    if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) throw new ConfigError(`${spec.path}: ${v} is out of range${range}`);
  }
}

/** Flat overrides (path → value) into a frozen nested config; unknown paths are refused. */
export function resolveConfig(...layers: Record<string, ConfigValue>[]): RunConfig {
  const flat = new Map<string, ConfigValue>(FIELDS.map((s) => [s.path, s.default]));
  for (const layer of layers) {
    for (const [path, v] of Object.entries(layer)) {
      const spec = BY_PATH.get(path);
      if (!spec) throw new ConfigError(`unknown config field "${path}" (see --print-config for the fields)`);
      validateField(spec, v);
      flat.set(path, v);
    }
  }
  for (const spec of FIELDS) validateField(spec, flat.get(spec.path));
  crossCheck(flat);
  const preset = String(flat.get('model.preset'));
  const renamed = Object.hasOwn(RENAMED_PRESETS, preset) ? RENAMED_PRESETS[preset] : undefined;
  if (renamed) throw new ConfigError(`model.preset: "${preset}" is now called ${renamed} (the from-scratch shapes are named by their size; run presets such as --preset micro keep their names)`);
  // Paths are `field` or `section.field`: one level of sections.
  const out: Record<string, ConfigValue | Record<string, ConfigValue>> = {};
  for (const [path, v] of flat) {
    const dot = path.indexOf('.');
    if (dot < 0) out[path] = v;
    else ((out[path.slice(0, dot)] ??= {}) as Record<string, ConfigValue>)[path.slice(dot + 1)] = v;
  }
  for (const v of Object.values(out)) if (typeof v === 'object') Object.freeze(v);
  return Object.freeze(out) as unknown as RunConfig;
}

function crossCheck(c: Map<string, ConfigValue>): void {
  const n = (p: string) => c.get(p) as number;
  if (n('reward.lengthThreshold') >= n('agent.maxTurns')) {
    throw new ConfigError(`reward.lengthThreshold (${n('reward.lengthThreshold')}) must be below agent.maxTurns (${n('agent.maxTurns')})`);
  }
  if (n('bc.expertRefusals') > 0 && c.get('agent.editCommand') !== 'sub') {
    throw new ConfigError(`bc.expertRefusals makes the expert's refused edit a \`sub\`, but agent.editCommand is ${String(c.get('agent.editCommand'))}: set agent.editCommand=sub or bc.expertRefusals=0`);
  }
  if ((n('bc.copyDrills') > 0 || n('bc.drillSteps') > 0) && c.get('agent.editCommand') !== 'sub') {
    throw new ConfigError(`copy drills (bc.copyDrills, bc.drillSteps) drill the one-token \`sub\` command, but agent.editCommand is ${String(c.get('agent.editCommand'))}: set agent.editCommand=sub or the drills to 0`);
  }
  if (c.get('agent.retryFixes') === true && c.get('agent.triedHints') !== true) {
    throw new ConfigError('agent.retryFixes keeps a candidate on the not-yet-tried list, which only agent.triedHints shows: set agent.triedHints=true or agent.retryFixes=false');
  }
  if (c.get('agent.triedOnRefusal') === true && c.get('agent.triedHints') !== true) {
    throw new ConfigError('agent.triedOnRefusal lists the candidates not yet tried, which only agent.triedHints keeps: set agent.triedHints=true or agent.triedOnRefusal=false');
  }
  const phases = String(c.get('run.phases')).split(',').map((s) => s.trim());
  for (const p of phases) if (!['base', 'rft', 'dapo'].includes(p)) throw new ConfigError(`run.phases: unknown phase "${p}" (allowed: base, rft, dapo)`);
  const targets = String(c.get('model.loraTargets')).split(',').map((s) => s.trim());
  const known = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];
  for (const t of targets) if (!known.includes(t)) throw new ConfigError(`model.loraTargets: "${t}" is not a projection (allowed: ${known.join(', ')}, comma-separated)`);
  if (n('dapo.optimizerSteps') > n('dapo.tasksPerIteration') * n('dapo.groupSize')) {
    throw new ConfigError('dapo.optimizerSteps cannot exceed the episodes per iteration (tasksPerIteration × groupSize)');
  }
}

/** The git tag that holds the code of the fields removed when the config was cleaned up (docs/learning.md). */
export const RETIRED_TAG = 'before-config-cleanup';

/** Removed fields a saved run config (config.json of a run made before the clean-up) may still name: when each
 *  holds the behaviour that stayed (`kept`, given the saved config), the key is dropped; else the run cannot be
 *  continued by this code. */
const RETIRED: Record<string, (v: ConfigValue, saved: Record<string, ConfigValue>) => boolean> = {
  'tasks.cloneShare': (v) => v === 1,
  'agent.subHints': (v) => v === false,
  'reward.overlongBuffer': (v) => v === false,
  'reward.overlongBufferLen': (_, c) => c['reward.overlongBuffer'] !== true,
  'reward.overlongPenaltyFactor': (_, c) => c['reward.overlongBuffer'] !== true,
  'bc.contextLoss': (v) => v === 0,
  'bc.expertGuessOrder': (v, c) => v === 'last' || !(Number(c['bc.expertGuesses']) > 0),
  'bc.copyDrillPick': (v, c) => v === 'last' || !(Number(c['bc.copyDrills']) > 0 || Number(c['bc.drillSteps']) > 0),
  'bc.daggerRounds': (v) => v === 0,
  'bc.daggerEpisodes': (_, c) => !(Number(c['bc.daggerRounds']) > 0),
  'bc.daggerMaxSwitch': (_, c) => !(Number(c['bc.daggerRounds']) > 0),
  'bc.daggerGuesses': (_, c) => !(Number(c['bc.daggerRounds']) > 0),
  'bc.daggerTemperature': (_, c) => !(Number(c['bc.daggerRounds']) > 0),
  'bc.daggerEpochs': (_, c) => !(Number(c['bc.daggerRounds']) > 0),
  'rft.maskRefused': (v) => v === false,
  'rft.keep': (v) => v === 'solved',
  'rft.temperedLoss': (v, c) => v === true || c['rft.temperature'] === undefined || c['rft.temperature'] === 1,
  'dapo.editTurnsOnly': (v) => v === false,
  'dapo.epochs': (v) => v === 1,
  'dapo.pool': (v) => v === 'all',
  'dapo.baseline': (v) => v === 'group',
  'dapo.advantageEps': (v) => v === 1e-6,
  'dapo.stage2Iterations': (v) => v === 0,
  'dapo.stage2MaxTurns': (_, c) => !(Number(c['dapo.stage2Iterations']) > 0),
  'dapo.stage2ContextTokens': (_, c) => !(Number(c['dapo.stage2Iterations']) > 0),
  'dapo.stage2ClipRatioHigh': (_, c) => !(Number(c['dapo.stage2Iterations']) > 0),
  'dapo.curriculumSolvedFraction': () => true, // read only by the stage-2 curriculum and dapo.pool=solved
};

/**
 * A run's saved config (its config.json) as this code's fields: cloning's rate and warm-up, which the base phase
 * read from model.lr and rft.warmupSteps, move to bc.lr and bc.warmupSteps; a from-scratch shape's old name
 * (model.preset micro) becomes its new one (scratch-160k); removed fields that hold the behaviour that stayed are dropped. A removed field set otherwise is refused, naming the tag whose code ran it.
 */
export function fromSavedConfig(saved: Record<string, ConfigValue>): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const [path, v] of Object.entries(saved)) {
    if (path === 'model.lr') out['bc.lr'] = v;
    else if (path === 'model.preset' && typeof v === 'string' && Object.hasOwn(RENAMED_PRESETS, v)) out[path] = RENAMED_PRESETS[v]!;
    else if (path in RETIRED) {
      if (!RETIRED[path]!(v, saved)) throw new ConfigError(`this run was made with ${path}=${JSON.stringify(v)}, which this version no longer has: continue it at the git tag ${RETIRED_TAG} (git checkout ${RETIRED_TAG})`);
    } else out[path] = v;
  }
  if ('rft.warmupSteps' in saved && !('bc.warmupSteps' in saved)) out['bc.warmupSteps'] = saved['rft.warmupSteps']!;
  return out;
}

/** `key=value` strings (from --set) into a flat override layer. */
export function parseOverrides(items: string[]): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new ConfigError(`--set expects key=value, got "${item}"`);
    const path = item.slice(0, eq).trim();
    const spec = BY_PATH.get(path);
    if (!spec) throw new ConfigError(`unknown config field "${path}" (see --print-config for the fields)`);
    out[path] = parseValue(spec, item.slice(eq + 1).trim());
  }
  return out;
}

export function flattenConfig(c: RunConfig): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  const sections = c as unknown as Record<string, ConfigValue | Record<string, ConfigValue>>;
  for (const s of FIELDS) {
    const dot = s.path.indexOf('.');
    out[s.path] = dot < 0 ? (sections[s.path] as ConfigValue) : (sections[s.path.slice(0, dot)] as Record<string, ConfigValue>)[s.path.slice(dot + 1)]!;
  }
  return out;
}
