// Run presets: named override layers over the config defaults (config.ts), resolved as defaults ← preset ← --set,
// one per run a user would pick. How each was chosen, with every run behind it: docs/learning.md; the recipes it
// measured and set aside are at the git tag `before-config-cleanup` (micro-v1, micro-guess, micro-retry, mini).
import type { ConfigValue } from './config.ts';

/**
 * `micro`: the learning run on a CPU. A from-scratch 0.16 M-parameter model on the lowest rung of the task world
 * (one function, one bug fixed by one token: `sub OLD NEW`), held out by function; the agent sees the candidate
 * tokens after each view and failed guess and a sub tests itself. The base is copy drills, then cloning of an expert
 * that guesses from the list's end (one epoch; the drills until a probe of the copy passes); RFT and DAPO at temperature 1 with the test result as the only reward. Runs in
 * the worker sandbox (the browser's emulated node:test, one confined node process an episode).
 */
const MICRO: Record<string, ConfigValue> = {
  'model.preset': 'scratch-160k',
  'model.trainRows': 2,
  'tasks.train': 'public/tasks/level0/train.jsonl',
  'tasks.test': 'public/tasks/level0/test.jsonl',
  'tasks.difficulty': 'token',
  'tasks.select': 'spread',
  'agent.maxTurns': 14,
  'agent.contextTokens': 1536,
  'agent.observationTokens': 160,
  'agent.actionTokens': 48,
  'agent.systemPrompt': 'brief',
  'agent.editCommand': 'sub',
  'agent.testReport': 'brief',
  'agent.viewHints': true,
  'agent.triedHints': true,
  'agent.triedOnRefusal': true,
  'agent.retryFixes': true,
  'agent.subTests': true,
  'agent.sandbox': 'worker',
  'agent.commandTimeoutMs': 250,
  'reward.lengthThreshold': 5,
  'reward.lengthPenalty': false,
  'bc.episodes': 1000,
  // One epoch: with the copy formed before cloning, more left RFT little to add (docs/learning.md).
  'bc.epochs': 1,
  'bc.batchEpisodes': 4,
  'bc.lr': 5e-3,
  'bc.expertStyle': 'bare',
  'bc.expertNoise': 0,
  'bc.expertGuesses': 3,
  'bc.copyDrills': 2000,
  // Copy drills alone until the copy probe reads 0.8 (at most 4,000 steps): the step the copy forms varies with the seed.
  'bc.drillSteps': 4000,
  'bc.drillUntil': 0.8,
  'rft.tasks': 192,
  'rft.samplesPerTask': 8,
  'rft.epochs': 3,
  'rft.batchEpisodes': 8,
  'dapo.iterations': 20,
  'dapo.lr': 3e-4,
  'dapo.refusedTurns': 'blame',
  'run.checkpointEvery': 2,
};

/**
 * `micro-find`: the rung above `micro`, where the fix is not picked from a list. The same model on every level-0 bug,
 * not only the token rung: the view lists no candidates, a failed sub lists none either and a sub does not test
 * itself: the agent views the file, writes `sub OLD NEW` (`sub LINE OLD NEW` when OLD occurs on several lines, quoted
 * when it holds spaces), runs the tests and undoes its own wrong edit. The issue is a user's report in one of
 * five voices (public/tasks/level0-reports, `webswe tasks build --level 0 --voices reports`). No copy drills (they
 * copy the list): four epochs of cloning form the base instead, on an expert that shows what follows a refused sub,
 * and DAPO at a third of micro's rate, its refused turns trained rather than blamed (docs/learning.md).
 */
const MICRO_FIND: Record<string, ConfigValue> = {
  ...MICRO,
  'tasks.train': 'public/tasks/level0-reports/train.jsonl',
  'tasks.test': 'public/tasks/level0-reports/test.jsonl',
  // Every level-0 task (905 held out): the token rung, a token on several lines (the sub names the line) and the
  // fixes with spaces.
  'tasks.difficulty': 'any',
  'agent.viewHints': false,
  'agent.triedHints': false,
  'agent.triedOnRefusal': false,
  'agent.retryFixes': false,
  'agent.subTests': false,
  'bc.copyDrills': 0,
  'bc.drillSteps': 0,
  'bc.drillUntil': 0,
  'bc.epochs': 4,
  // Half the expert's episodes start with a refused sub (not imitated) and a second view: a clone that never saw the
  // turn after a refusal answers one with `undo` ("nothing to undo") until the turn limit.
  'bc.expertRefusals': 0.5,
  // A third of micro's rate, twice its iterations: at micro's the policy's entropy rose and DAPO lost on one seed of two.
  'dapo.iterations': 40,
  'dapo.lr': 1e-4,
  // Refused turns train with their episode's advantage, as every other turn: with the copy this weak most subs are
  // refused, and blaming them alone taught the policy to substitute less and spend its turns on views and repeated
  // run_tests instead, which are not refused (docs/learning.md).
  'dapo.refusedTurns': 'train',
};

export const RUN_PRESETS: Record<string, { description: string; overrides: Record<string, ConfigValue> }> = {
  micro: {
    description: 'the learning run on a CPU: a 0.16 M-parameter model from scratch fixes one-token bugs in functions it never saw; base (copy drills, cloning) → RFT → DAPO',
    overrides: MICRO,
  },
  'micro-find': {
    description: "the rung above micro, on a CPU: every level-0 bug, no candidate lists and no self-testing sub, a user's bug report; the agent views, substitutes, runs the tests and undoes its own wrong edits",
    overrides: MICRO_FIND,
  },
  tiny: {
    description: 'a 4.9 M-parameter model from scratch on the library tasks, for a laptop GPU',
    overrides: {
      'model.preset': 'scratch-5m',
      'bc.lr': 1e-3,
      'tasks.maxTrain': 200,
      'tasks.maxTest': 40,
      'agent.maxTurns': 16,
      'agent.systemPrompt': 'brief',
      'agent.contextTokens': 4096,
      'agent.observationTokens': 384,
      'agent.actionTokens': 256,
      // A step's 16 episodes of up to 4,352 tokens hold 7 GiB of activations in one pass; passes of 3 rows (1.3 GiB)
      // fit a laptop GPU, with the same gradients.
      'model.passTokens': 16384,
      'reward.lengthThreshold': 10,
      'bc.episodes': 800,
      'bc.epochs': 4,
      'rft.samplesPerTask': 4,
      'rft.lr': 5e-4,
      'dapo.iterations': 30,
      'dapo.tasksPerIteration': 8,
      'dapo.groupSize': 8,
      'dapo.lr': 1e-4,
      'dapo.optimizerSteps': 4,
      'eval.samples': 8,
    },
  },
  'qwen-coder-lora': {
    description: 'the paper in small: Qwen2.5-Coder-0.5B-Instruct from the Hugging Face Hub (or --set model.preset=FOLDER) with LoRA rank 16, RFT and DAPO on the library tasks; a GPU with ~4 GB free',
    overrides: {
      'model.preset': 'Qwen/Qwen2.5-Coder-0.5B-Instruct',
      'model.loraRank': 16,
      'model.loraAlpha': 32,
      // The base phase evaluates the instruct model as it is: no cloning.
      'bc.episodes': 0,
      'tasks.maxTrain': 400,
      'tasks.maxTest': 80,
      'agent.maxTurns': 20,
      'agent.contextTokens': 8192,
      'agent.observationTokens': 1024,
      'agent.actionTokens': 512,
      'reward.lengthThreshold': 12,
      // LoRA wants rates far above the paper's full fine-tuning 5e-6 / 1e-6.
      'rft.samplesPerTask': 4,
      'rft.lr': 1e-4,
      'rft.batchEpisodes': 16,
      'dapo.iterations': 40,
      'dapo.tasksPerIteration': 8,
      'dapo.groupSize': 8,
      'dapo.lr': 2e-5,
      'dapo.optimizerSteps': 4,
      'eval.samples': 4,
    },
  },
};
