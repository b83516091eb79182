// The run configuration: one typed object, every field declared once in FIELDS with its default,
// allowed range and meaning (docs/dapo.md's names; verl's in brackets). Resolved once:
// defaults ← preset ← overrides (`--set a.b=v`), validated, frozen. The app renders its form from
// FIELDS too, so the CLI and the page can never disagree about a default or a range.

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
  f('model.preset', 'string', 'micro', 'model: a from-scratch preset or a pretrained folder/Hub id', {}),
  f('model.lr', 'number', 3e-3, 'learning rate of behaviour cloning (from-scratch presets)', { min: 0, max: 1 }),
  f('model.loraRank', 'int', 0, 'LoRA rank for pretrained models (0: full fine-tuning; from-scratch presets always train in full)', { min: 0, max: 256 }),
  f('model.loraAlpha', 'number', 16, 'LoRA alpha (scale = alpha / rank)', { min: 0, max: 1024 }),
  f('model.recompute', 'bool', false, "activation recomputation: keep only each layer's input and rebuild its activations in the backward (less memory for long contexts, about a third more compute; same gradients)"),
  f('model.passTokens', 'int', 0, "tokens one forward and backward pass may hold (0: a step's whole batch at once): a step is run in passes of whole rows whose gradients add up before its one update (the same gradient; peak activation memory of one pass, for GPUs with little memory)", { min: 0, max: 1e7 }),
  f('model.trainRows', 'int', 0, "rows a training step's episodes are packed into (0: as many as first-fit needs at the longest episode's length; R: balanced over R rows up to the context's length, fewer padding tokens; for the WASM backend, whose attention skips other segments) (src/rl/pack.ts trainRowLength)", { min: 0, max: 1024 }),
  f('model.loraTargets', 'string', 'q,k,v,o,gate,up,down', 'LoRA target projections, comma-separated (of q, k, v, o, gate, up, down)'),

  f('tasks.train', 'string', 'public/tasks/train.jsonl', 'training task file (.jsonl, SWE-bench fields)'),
  f('tasks.test', 'string', 'public/tasks/test.jsonl', 'held-out task file (shares no library with train)'),
  f('tasks.maxTrain', 'int', 0, 'use only the N shortest training tasks (0: all); shortest = fewest characters of source', { min: 0, max: 1e6 }),
  f('tasks.maxTest', 'int', 0, 'evaluate on the N shortest test tasks (0: all)', { min: 0, max: 1e6 }),
  f('tasks.cloneShare', 'number', 1, "share of the training repositories (functions) behaviour cloning sees; RFT and DAPO draw from the others, code the base never cloned (1: every phase uses every training task)", { min: 0.05, max: 1 }),
  f('tasks.select', 'string', 'shortest', 'which N tasks tasks.maxTrain/maxTest keep: shortest (fewest characters) or spread (seeded; one task of every repository before a second of any, so N tasks cover as many functions as they can)', { choices: ['shortest', 'spread'] }),
  f('tasks.difficulty', 'string', 'any', 'difficulty tiers used: any, easy (one bug), hard (two), or token (levels 0 and 1: the one-bug tasks whose fix is one token that occurs once in its file, `sub OLD NEW`; the lowest rung)', { choices: ['any', 'easy', 'hard', 'token'] }),

  f('agent.maxTurns', 'int', 40, 'T_max: turn limit of an episode (paper: 40 stage 1, 80 stage 2)', { min: 1, max: 400 }),
  f('agent.contextTokens', 'int', 4096, 'context budget of an episode in tokens; an episode that fills it ends', { min: 64, max: 131072 }),
  f('agent.observationTokens', 'int', 512, 'observations are truncated to this many tokens, with a marker', { min: 16, max: 32768 }),
  f('agent.actionTokens', 'int', 256, 'token budget of one assistant turn', { min: 8, max: 32768 }),
  f('agent.systemPrompt', 'string', 'full', 'system prompt: full (documents the action format; pretrained models) or brief (one line; from-scratch models learn the format from expert episodes, and save its ~775 tokens per episode)', { choices: ['full', 'brief'] }),
  f('agent.editCommand', 'string', 'replace', 'the edit command the prompt documents and the scripted expert uses: replace (SEARCH/REPLACE blocks: old lines copied, then new), edit (edit PATH START END and the new lines: no copy of the old lines) or sub (sub LINE OLD NEW: text on one line becomes other text, edit for larger changes; the fewest tokens, for the smallest models)', { choices: ['replace', 'edit', 'sub'] }),
  f('agent.subHints', 'bool', false, "when sub's text is not in the file (or not once), the refusal lists the operators and numbers that occur once in it: what a one-token sub can name, to copy from the last observation instead of the file viewed turns before", {}),
  f('agent.viewHints', 'bool', false, "a view that shows a whole file ends with the operators and numbers that occur once in it (what a one-token sub can name), so the text to copy is a few tokens before the action rather than the whole file back", {}),
  f('agent.triedHints', 'bool', false, "an undo and (agent.subTests) a taken-back sub end with the file's once-occurring operators and numbers that no sub has named yet in the episode (file order): in guess and check (bc.expertGuessOrder = list or last) the next guess is then the first or the last of the latest list, one answer a few tokens before the action", {}),
  f('agent.triedOnRefusal', 'bool', false, "with agent.triedHints, a refused sub (its text not in the file, or not once) ends with the candidates not yet tried too, in place of agent.subHints' list: the guess after a refusal then has its answer a few tokens before it, as after an undo (E56: 2,409 of 4,598 subs came straight after a refusal, with nothing to copy)", {}),
  f('agent.retryFixes', 'bool', false, "with agent.triedHints, a candidate stays on the not-yet-tried list until each of its fixes has been tried (the replacements that undo a mutation leaving it, in a fixed order: `>=` → `>` then `<`, `*` → `/` then `%`, a number n → n − 1 then n + 1), not only until a sub named it; the scripted expert, DAgger's and the copy drills name the first untried fix, and the expert tries a fix's token in that order too. E59's RFT named the bug's token with the other replacement in 64 of its 122 val failures and never again", {}),
  f('agent.subTests', 'bool', false, "sub runs the tests after its change: the change stays when every test passes and is taken back at once when any fails (the observation: the test counts, then with agent.triedHints the candidates no sub has named). Guess and check costs one turn a guess instead of three (sub, run_tests, undo); the scripted and the state expert play it so. For one-token fixes (tasks.difficulty token): a fix of several subs cannot pass after its first", {}),
  f('agent.testReport', 'string', 'full', 'how run_tests reports: full (every test, failure messages up to 12 lines) or brief (the counts and the first 3 failures, two lines each: fewer tokens for small models)', { choices: ['full', 'brief'] }),
  f('agent.sandbox', 'string', 'node', 'where episodes run', { choices: ['node', 'worker', 'webcontainer'] }),
  f('agent.commandTimeoutMs', 'int', 5000, 'time limit of one command (run_tests) in the sandbox', { min: 100, max: 600000 }),
  f('agent.rolloutBatch', 'int', 32, "episodes a model generates together (one KV cache, one batched forward per turn) in DAgger, RFT, DAPO and evaluation, rounded down to whole groups (at least one): small batches leave a micro model's generation to per-call overhead", { min: 1, max: 4096 }),
  f('agent.cacheTests', 'bool', true, "test runs of a repository state already run (the same files, tests and limits) are answered from a content-addressed cache instead of run again: the gold fix reached by many episodes, grading an unchanged repo. Tasks are validated deterministic; a run that hit its time limit is never cached"),
  f('agent.gradeUnsubmitted', 'bool', false, "grade episodes that ended without submitting too (a turn limit, the context budget, an error). Their reward is 0 whatever the tests say, so by default they are not graded and their record says so (tests.graded false): a grading is a fresh sandbox process (~50 ms of CPU under Node, E138), and a third of a micro run's episodes end unsubmitted. Set it to see whether such an episode had fixed the bug"),
  f('agent.overlap', 'bool', true, "rollout batches take turns at the policy in pairs (a lone batch in two halves), so one's sandbox commands run while the other generates; same trajectories either way"),

  f('reward.lengthThreshold', 'int', 10, 'L_thr: episodes of at least this many turns are penalised (paper Eq. 4)', { min: 1, max: 400 }),
  f('reward.lengthPenalty', 'bool', true, 'apply the turn-length penalty (L_thr − |τ|) / (T_max − L_thr)'),
  f('reward.overlongBuffer', 'bool', false, "DAPO's token overlong shaping [overlong_buffer.enable]"),
  f('reward.overlongBufferLen', 'int', 512, 'L_cache: the buffer before the token limit [overlong_buffer.len]', { min: 1, max: 131072 }),
  f('reward.overlongPenaltyFactor', 'number', 1, 'scale of the overlong penalty [overlong_buffer.penalty_factor]', { min: 0, max: 10 }),

  f('bc.episodes', 'int', 400, 'scripted-expert episodes for behaviour cloning (from-scratch presets)', { min: 0, max: 1e6 }),
  f('bc.epochs', 'int', 4, 'epochs over the expert episodes', { min: 0, max: 1000 }),
  f('bc.batchEpisodes', 'int', 16, 'expert episodes per behaviour-cloning step (small batches take more steps for the same compute, which a from-scratch model needs early)', { min: 1, max: 4096 }),
  f('bc.expertStyle', 'string', 'full', "the expert's reasoning: full (varied sentences quoting the failing tests), terse (one short sentence a turn) or bare (no reasoning, and no PATH on view/edit where the repository has one source file); the commands are the same", { choices: ['full', 'terse', 'bare'] }),
  f('bc.expertGuesses', 'int', 0, "guess and check: before the fix the expert tries 0 to N other one-token changes (uniform), each tested and undone, and these turns are imitated: a model that cannot yet locate the bug learns a search with a real chance of success, whose order RFT and DAPO then sharpen", { min: 0, max: 20 }),
  f('bc.expertGuessOrder', 'string', 'random', "which guesses bc.expertGuesses makes: random (0 to N one-token changes of any kind) or list (every once-occurring operator and number before the bug's, in file order, as agent.viewHints lists them: each guess names the first candidate not yet tried, one answer a small model can copy) or last (every one after the bug's, from the list's end: each guess names the last candidate not yet tried, the token just before the action when the list ends the observation, a copy at a fixed distance)", { choices: ['random', 'list', 'last'] }),
  f('bc.contextLoss', 'number', 0, "weight of a language-model loss on the environment's text (the issue, every observation: the files viewed, the test reports) beside the action tokens' in behaviour cloning and DAgger; a from-scratch model that is trained on its ~40 action tokens alone sees ~10× fewer targets an episode and never models the code it must copy from (0: action tokens only)", { min: 0, max: 1 }),
  f('bc.copyDrills', 'int', 0, "copy drills mixed into behaviour cloning: an expert episode cut after its view, then `sub X Y` with X drawn uniformly from the operators and numbers that occur once in the viewed file, so that only reading the file predicts it (src/rl/drills.ts; agent.editCommand sub)", { min: 0, max: 1e6 }),
  f('bc.copyDrillPick', 'string', 'uniform', "which candidate a copy drill names: uniform (any once-occurring operator or number of the viewed file), or the first or last of them as agent.viewHints lists them (the one answer a guess in bc.expertGuessOrder list or last copies)", { choices: ['uniform', 'first', 'last'] }),
  f('bc.drillSteps', 'int', 0, "a drills-only stage before behaviour cloning: at most N steps of bc.batchEpisodes copy drills (bc.copyDrillPick) at model.lr, constant after warm-up, so that the copy a `sub` needs forms before cloning (0: no stage)", { min: 0, max: 1e6 }),
  f('bc.drillUntil', 'number', 0, "the drills-only stage ends once the copy probe (held-out views: is the list's last candidate named?) reads at least this share, checked every 100 steps (0: it runs all bc.drillSteps)", { min: 0, max: 1 }),
  f('bc.expertNoise', 'number', 0.3, 'probability the expert makes a plausible wrong first edit and recovers', { min: 0, max: 1 }),

  f('bc.daggerRounds', 'int', 0, 'DAgger rounds after cloning: the model plays the first turns of training episodes, the state expert takes over from wherever it got (its recovery is trained, the model turns are not), and cloning continues on the aggregate', { min: 0, max: 100 }),
  f('bc.daggerEpisodes', 'int', 128, 'episodes per DAgger round', { min: 1, max: 1e6 }),
  f('bc.daggerMaxSwitch', 'int', 4, 'the model plays 1 to this many turns of a DAgger episode before the expert takes over (uniform)', { min: 1, max: 400 }),
  f('bc.daggerGuesses', 'bool', false, "DAgger's expert carries on guess and check from the state the model left (bc.expertGuesses in bc.expertGuessOrder, list or last: the next untried candidate, tested and undone, until the fix's is next), instead of fixing at once, which teaches a choice among candidates the guessing demonstrations avoid", {}),
  f('bc.daggerTemperature', 'number', 1, 'sampling temperature of the model in DAgger roll-ins', { min: 0, max: 10 }),
  f('bc.daggerEpochs', 'int', 1, 'epochs over the aggregate (expert + DAgger episodes) after each DAgger round', { min: 1, max: 100 }),
  f('rft.tasks', 'int', 0, 'training tasks RFT samples (a seeded draw; 0: every training task)', { min: 0, max: 1e6 }),
  f('rft.samplesPerTask', 'int', 4, 'K: episodes per training task for rejection sampling (paper: 10)', { min: 1, max: 100 }),
  f('rft.temperature', 'number', 1, 'sampling temperature τ of the RFT rollouts', { min: 0.05, max: 10 }),
  f('rft.lr', 'number', 1e-3, 'RFT learning rate (paper: 5e-6 for 72B; small models want more)', { min: 0, max: 1 }),
  f('rft.warmupSteps', 'int', 10, 'warm-up steps before the cosine decay to 0', { min: 0, max: 1e6 }),
  f('rft.maskRefused', 'bool', false, "turns of a kept episode whose command the environment refused (a sub whose text is not in the file, a view of a missing file) are masked out of the loss, as format errors are: the successful edit is imitated, the blind guesses before it are not", {}),
  f('rft.temperedLoss', 'bool', false, "RFT's loss scores softmax(logits/τ) at rft.temperature, the distribution its rollouts were sampled from: the policy at τ moves towards its own successes. At 1 (off) the policy at 1 is fitted to samples of the sharper τ-distribution, and evaluation at τ sharpens it again", {}),
  f('rft.keep', 'string', 'solved', "which successful rollouts RFT trains on: solved (every one, the paper's rejection sampling), mixed (only those of tasks the K samples did not all solve: where the policy is unsure) or shortest (one a task, the success with the fewest turns: with guess and check, the earliest right guess)", { choices: ['solved', 'mixed', 'shortest'] }),
  f('rft.epochs', 'int', 1, 'epochs over the kept episodes', { min: 0, max: 100 }),
  f('rft.batchEpisodes', 'int', 16, 'episodes per optimiser step', { min: 1, max: 4096 }),

  f('dapo.iterations', 'int', 20, 'DAPO stage-1 iterations', { min: 0, max: 1e6 }),
  f('dapo.tasksPerIteration', 'int', 8, 'tasks sampled per iteration (the training batch, in groups)', { min: 1, max: 4096 }),
  f('dapo.groupSize', 'int', 8, 'G: episodes per task [rollout.n] (paper: 10, DAPO: 16)', { min: 2, max: 256 }),
  f('dapo.temperature', 'number', 1, 'sampling temperature τ of the DAPO rollouts; the loss scores the policy as softmax(logits/τ), the distribution sampled, so the ratio stays exact', { min: 0.05, max: 10 }),
  f('dapo.clipRatioLow', 'number', 0.2, 'ε_low [clip_ratio_low]', { min: 0, max: 1 }),
  f('dapo.clipRatioHigh', 'number', 0.28, 'ε_high, clip-higher [clip_ratio_high] (paper stage 1: 0.3)', { min: 0, max: 10 }),
  f('dapo.lr', 'number', 5e-4, 'DAPO learning rate (paper: 1e-6 for 72B full fine-tuning)', { min: 0, max: 1 }),
  f('dapo.refusedTurns', 'string', 'train', "DAPO on the turns whose command the environment refused (a sub naming text not in the file, or in it twice; not a sub whose tests failed): train, with their episode's advantage; blame, only a negative one (min(Â, 0)): a refusal changed nothing, so a success's refusals are not pushed up while a failure's wasted turns are pushed down (E66: the refused `sub -=` in successes grew to 1,040 of 4,110 eval subs)", { choices: ['train', 'blame'] }),
  f('dapo.editTurnsOnly', 'bool', false, "DAPO's loss on the edit turns alone (sub, edit, replace, create, undo): view, run_tests, submit and format errors carry no advantage, so a step moves which edits the policy tries and not when it submits", {}),
  f('dapo.warmupSteps', 'int', 0, "linear warm-up of the DAPO learning rate over its first N optimiser steps [lr_warmup_steps]: a fresh AdamW's first steps move every weight by about lr whatever its gradient", { min: 0, max: 1e6 }),
  f('dapo.epochs', 'int', 1, "passes over each iteration's batch [ppo_epochs]: every pass is split into dapo.optimizerSteps mini-batches, reshuffled; the ratio is always to the behaviour policy's log-probs, so the clip bounds how far later passes move a token. Reuses each rollout, which costs far more than a step here", { min: 1, max: 64 }),
  f('dapo.optimizerSteps', 'int', 2, 'optimiser steps per iteration: the batch is split into this many mini-batches (paper: 2-8)', { min: 1, max: 64 }),
  f('dapo.pool', 'string', 'all', 'which training tasks DAPO draws from: all, or solved (tasks some rollout has solved so far, RFT included, and not every time: the ones whose groups have reward variance; all until there are tasksPerIteration of them). In a run of DAPO alone the tally starts empty, so the pool is the few tasks its first iterations saw (E67: 36 in ten iterations) and DAPO fits them; use it after RFT, whose rollouts fill the tally', { choices: ['all', 'solved'] }),
  f('dapo.filterGroups', 'bool', true, 'dynamic sampling: drop groups whose rewards are all equal [filter_groups.enable]'),
  f('dapo.filterMode', 'string', 'refill', 'refill: sample more groups until the batch is full; shrink: train on what is left', { choices: ['refill', 'shrink'] }),
  f('dapo.maxGenBatches', 'int', 3, 'refill bound: generation rounds per iteration [filter_groups.max_num_gen_batches]', { min: 1, max: 100 }),
  f('dapo.baseline', 'string', 'group', "the baseline in Â = (R − baseline) / (std + δ): group, the group's mean reward (the paper's); tokens, the mean weighted by each episode's trained tokens, so the token-level loss pushes as many tokens up as down when failures run longer than successes; command, one such baseline per command (view, sub, submit), so no command as a whole is pushed up or down, only what its tokens say (src/rl/advantages.ts)", { choices: ['group', 'tokens', 'command'] }),
  f('dapo.advantageEps', 'number', 1e-6, 'δ in Â = (R − mean) / (std + δ)', { min: 0, max: 1 }),
  f('dapo.stage2Iterations', 'int', 0, 'DAPO stage-2 iterations (longer context, curriculum)', { min: 0, max: 1e6 }),
  f('dapo.stage2MaxTurns', 'int', 80, 'T_max in stage 2', { min: 1, max: 400 }),
  f('dapo.stage2ContextTokens', 'int', 8192, 'context budget in stage 2', { min: 64, max: 131072 }),
  f('dapo.stage2ClipRatioHigh', 'number', 0.26, 'ε_high in stage 2 (paper: 0.26)', { min: 0, max: 10 }),
  f('dapo.curriculumSolvedFraction', 'number', 2 / 3, 'stage-2 curriculum: drop tasks solved in at least this fraction of attempts so far', { min: 0, max: 1 }),

  f('optim.beta1', 'number', 0.9, 'AdamW β1 (first-moment decay)', { min: 0, max: 1 }),
  f('optim.beta2', 'number', 0.999, 'AdamW β2 (second-moment decay)', { min: 0, max: 1 }),
  f('optim.eps', 'number', 1e-8, 'AdamW ε (denominator floor)', { min: 0, max: 1 }),
  f('optim.weightDecay', 'number', 0.1, 'decoupled weight decay', { min: 0, max: 10 }),
  f('optim.maxGradNorm', 'number', 1.0, 'clip the global gradient norm to this', { min: 0, max: 1e6 }),

  f('eval.samples', 'int', 4, 'K: samples per held-out task; pass@1 = mean ± std over them, pass@K', { min: 1, max: 100 }),
  f('eval.temperature', 'number', 1.0, 'sampling temperature for evaluation', { min: 0, max: 10 }),

  f('run.checkpointEvery', 'int', 5, 'checkpoint every N DAPO iterations (and at each phase end)', { min: 1, max: 1e6 }),
  f('run.checkpointSteps', 'int', 100, "checkpoint every N optimiser steps of base's cloning and of RFT (and when stopped)", { min: 1, max: 1e6 }),
  f('run.phases', 'string', 'base,rft,dapo', 'phases to run, in order (subset of base,rft,dapo)'),

  // A shared run (`webswe train --share`, docs/sharing.md): contributors play DAPO's rounds.
  f('dist.maxOffPolicy', 'int', 0, "results played with a policy version older than the current one by more than this are dropped as stale (prime-rl's async_level is 2; DAPO here waits for each round, so 0)", { min: 0, max: 16 }),
  f('dist.logprobTolerance', 'number', 2e-3, "largest |claimed − recomputed| behaviour log-prob the learner accepts per action token", { min: 0, max: 1 }),
  f('dist.maxResultBytes', 'int', 4 * 1024 * 1024, 'a result message larger than this is refused unread', { min: 1024, max: 64 * 1024 * 1024 }),
  f('dist.leaseSeconds', 'int', 120, 'seconds a contributor holds a work item before it goes to another (JetStream ack_wait; contributors extend it while they play)', { min: 5, max: 3600 }),
  f('dist.maxAttempts', 'int', 3, 'issues of one work item (after rejected results) before the learner plays it itself', { min: 1, max: 100 }),
  f('dist.roundSeconds', 'number', 600, 'seconds a generation round waits for contributors before the learner plays what is missing', { min: 0, max: 86400 }),
] as const satisfies readonly FieldSpec[];

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
  if (c.get('bc.daggerGuesses') === true && (n('bc.expertGuesses') <= 0 || c.get('bc.expertGuessOrder') === 'random')) {
    throw new ConfigError(`bc.daggerGuesses carries on the expert's guesses in their order, but bc.expertGuesses is ${n('bc.expertGuesses')} and bc.expertGuessOrder ${String(c.get('bc.expertGuessOrder'))}: set bc.expertGuesses above 0 and bc.expertGuessOrder to list or last, or bc.daggerGuesses=false`);
  }
  if (c.get('bc.copyDrillPick') !== 'uniform' && c.get('agent.viewHints') !== true) {
    throw new ConfigError(`bc.copyDrillPick ${String(c.get('bc.copyDrillPick'))} drills a copy from the view's candidate list, which only agent.viewHints shows: set agent.viewHints=true or bc.copyDrillPick=uniform`);
  }
  if (n('bc.drillSteps') > 0 && c.get('agent.editCommand') !== 'sub') {
    throw new ConfigError(`bc.drillSteps drills the one-token \`sub\` command, but agent.editCommand is ${String(c.get('agent.editCommand'))}: set agent.editCommand=sub or bc.drillSteps=0`);
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
