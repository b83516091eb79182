// Run presets: named override layers over the config defaults (config.ts), resolved as
// defaults ← preset ← --set. `micro` is the CPU-only run whose RL steps are measurable (docs/learning.md
// finding 36; with the sandbox fix of finding 37, E90-E91: held-out pass@1 rises base → RFT → DAPO, 23-25
// minutes on two cores; seed 1 clears the bar at both steps, seed 2 at RFT's only); `mini` is micro on a 0.40 M model
// that copies better, with twice the copy drills so that its copy forms on every seed (E107-E108); the
// earlier CPU recipes stay as they were measured: `micro-v1` (the first micro: six turns, no guessing),
// `micro-guess` and `micro-retry` (guess and check; a stronger base, RL steps below their bars). `tiny` is
// the in-browser default on a laptop GPU; `qwen-coder-lora` is the paper's setting in small: a pretrained
// instruct model as the base, LoRA for RFT and DAPO.
import type { ConfigValue } from './config.ts';

/** The first `micro` preset's overrides (`micro-v1`; also the start of `micro-guess`). */
const MICRO_V1: Record<string, ConfigValue> = {
  'model.preset': 'micro',
  'model.lr': 5e-3,
  // The lowest rung of the graded world (docs/learning.md): one function, one bug whose fix is one
  // token (sub OLD NEW); held out by function. On the old level-2 tasks micro scored 0 % at every
  // phase; here its cloned base solves 6 % of unseen functions' bugs (val, T 0.5).
  'tasks.train': 'public/tasks/level0/train.jsonl',
  'tasks.test': 'public/tasks/level0/test.jsonl',
  'tasks.difficulty': 'token',
  // 192 held-out tasks (two per test function): on 48 a reading moves by several points with the
  // samples drawn (docs/learning.md, finding 7); +~5 min a run.
  'tasks.maxTest': 192,
  'tasks.select': 'spread',
  'agent.maxTurns': 6,
  'agent.systemPrompt': 'brief',
  // Three action tokens carry a fix (sub <= <): a from-scratch model cannot copy long spans.
  'agent.editCommand': 'sub',
  'agent.testReport': 'brief',
  'agent.commandTimeoutMs': 1000,
  'agent.contextTokens': 1024,
  'agent.observationTokens': 160,
  'agent.actionTokens': 48,
  'reward.lengthThreshold': 5,
  // The test result is the only reward (docs/learning.md, finding 6): with the turn-length penalty a
  // failure that runs to the limit scores −1 and one that submits early 0, a difference as large as
  // failing vs passing and far easier to learn; DAPO learned to submit early rather than to fix.
  'reward.lengthPenalty': false,
  // 1000 expert episodes (view, sub, run_tests, submit: ~39 action tokens, ~470 in all) × 2 epochs in
  // steps of 4: 500 steps, ~75 s on the WASM backend here. More cloning of the expert alone lowered
  // the held-out base (E14: 4× the steps, 6.8 → 4.2 % on val).
  'bc.episodes': 1000,
  'bc.epochs': 2,
  'bc.batchEpisodes': 4,
  'bc.expertStyle': 'bare',
  'bc.expertNoise': 0,
  // DAgger (E16 on val): the cloned model ran to the turn limit after its first failed sub (no expert
  // episode shows a failed edit); two rounds in which it plays 1-3 turns at the evaluation temperature
  // and the expert takes over from where it got teach the retry: subs per episode 1.1 → 3.8, applied
  // subs 49 → 122 of 192 episodes, val base 6.8 → 10.4 %.
  'bc.daggerRounds': 2,
  'bc.daggerEpisodes': 512,
  'bc.daggerTemperature': 0.5,
  'bc.daggerMaxSwitch': 3,
  // Rollouts and evaluation at T 0.5: the cloned base solves 2 % of val at T 1 and 6 % at T 0.5
  // (the loss scores the tempered distribution, so DAPO's ratio stays exact).
  // 384 training tasks × 8 (E24 on val, 149 tasks: from the same base 13.3 → 16.6 %; 768 × 4, the same
  // rollouts: 14.8 %; 192 × 16: 15.8 %): with 8 samples a task the base solves rarely yields a success.
  'rft.tasks': 384,
  'rft.samplesPerTask': 8,
  'rft.temperature': 0.5,
  'rft.lr': 1e-3,
  'rft.epochs': 3,
  'rft.batchEpisodes': 8,
  'dapo.iterations': 10,
  'dapo.tasksPerIteration': 8,
  'dapo.groupSize': 8,
  'dapo.temperature': 0.5,
  'dapo.lr': 3e-4,
  'dapo.optimizerSteps': 2,
  'dapo.maxGenBatches': 3,
  'eval.samples': 4,
  'eval.temperature': 0.5,
  'run.checkpointEvery': 2,
};

/** micro-guess's overrides (below), which micro-retry starts from. */
const MICRO_GUESS: Record<string, ConfigValue> = {
  ...MICRO_V1,
  'agent.maxTurns': 14,
  'agent.contextTokens': 1536,
  'agent.viewHints': true,
  'agent.triedHints': true,
  'agent.triedOnRefusal': true,
  'agent.subTests': true,
  'bc.expertGuesses': 3,
  'bc.expertGuessOrder': 'last',
  'bc.daggerGuesses': true,
  'bc.copyDrills': 2000,
  'bc.copyDrillPick': 'last',
  'rft.tasks': 192,
  'rft.temperedLoss': true,
};

/** micro-retry's overrides: micro-guess where a candidate stays listed until each of its fixes was tried. */
const MICRO_RETRY: Record<string, ConfigValue> = { ...MICRO_GUESS, 'agent.retryFixes': true };

/**
 * The `micro` preset: micro-retry's world and agent, with the base, the rollouts and the evaluation changed
 * so that each RL phase has something to learn and its step can be seen (docs/learning.md, E74-E80):
 * - no DAgger: cloning and copy drills alone make a base that succeeds sometimes (val 43.6 % at T 1). With
 *   DAgger's two rounds the base reads 74.5 % and RFT then moves nothing (E75, E77, E78): its successes are
 *   the policy's usual behaviour, so fitting them adds nothing, where at 44 % they are what it should become;
 * - rollouts and evaluation at temperature 1, the policy as it is: DAPO at T 1 moved val +6.2 where at 0.5 it
 *   moved +3.2 (E77, E75), its groups varying more;
 * - the worker sandbox (the browser's, in one confined node process per episode) with a 250 ms CPU limit on
 *   a test run (a level-0 run takes 2-36 ms): ~2× less time in the sandbox than a node process per run at 1 s;
 * - a step's episodes balanced over two rows (model.trainRows, pack.ts): the same math, fewer padding tokens
 *   (cloning batches 1.21 → 1.06 row tokens per real token; a step of real lengths 204 → 183 ms on the WASM backend);
 * - 1,000 steps of copy drills alone before cloning (bc.drillSteps, ~70 s): without them the copy formed in the
 *   mix's loss drop at step ~800 or ~1,000 or, on seed 2, never (test base 8.6 %); with them it formed on three val
 *   seeds of three (base 61.6, 66.3, 50.3 %; E115), and seed 2's RFT then read 68.3 % (+6.7, bar 5.6), DAPO 72.0 % (E117);
 * - 20 DAPO iterations, not 10 (~3 min more): from each test seed's RFT weights, on val, DAPO gained +0.8, +9.4, +5.3
 *   with 20 where 10 gained −1.2 and +5.4 on the two seeds run both ways (E124–E125): its step (approx. KL ~10⁻⁴ an
 *   iteration) is small, and more iterations of it move the policy further where a larger rate did not (E85);
 * - refused subs take only blame in DAPO (dapo.refusedTurns): successes hold refused guesses (a token not on the
 *   list) before the right one, and plain DAPO pushes them up with the success's advantage; from the same RFT
 *   weights on val, 20 iterations gained +2.8, +9.7, +5.0 with blame where plain gained +0.8, +9.4, +5.3 (E130, E125).
 */
const MICRO: Record<string, ConfigValue> = {
  ...MICRO_RETRY,
  'model.trainRows': 2,
  'bc.drillSteps': 1000,
  // Every held-out token task of the test split (444 tasks of 96 functions), not two a function: the bar is
  // twice the std of K readings of pass@1, which shrinks as 1/√N (192 → 444 tasks: ×0.66); an evaluation ~3.3 min instead of ~1.2 here.
  'tasks.maxTest': 0,
  'agent.sandbox': 'worker',
  'agent.commandTimeoutMs': 250,
  'bc.daggerRounds': 0,
  'rft.temperature': 1,
  'dapo.temperature': 1,
  'eval.temperature': 1,
  'dapo.iterations': 20,
  'dapo.refusedTurns': 'blame',
};

/**
 * `mini`: micro's world, agent and RL on the 0.40 M `mini` model (3 layers, C 96), rates scaled for its width.
 * At micro's cloning rate (5e-3) it did not form the copy (val base 39.9 %, E97); at 2e-3 it did, stronger than
 * micro (76 % of guesses after a list name its last, micro 55 %; val base 54.0 %, E99), and RFT at 4e-4 read
 * 66.1 % on val (E100). With 2,000 copy drills, on the test split (E102–E104): 48.7 → 57.6 → 63.3 %, 57.7 → 64.3 →
 * 69.8 %, 6.5 → 15.4 → 28.6 % (seed 3's copy never formed), 21–30 minutes; five steps of six above their bars. With
 * 4,000 the copy forms on each of three seeds (val base 61.2, 61.6, 61.9 %; the listed candidate named after a list
 * 81, 73, 84 % of the time; E107, E108), for ~1,000 more update steps; but the base then leaves RL nothing (E109, val:
 * 70.8 → 74.2 → 73.8 %, 32 minutes).
 */
const MINI: Record<string, ConfigValue> = {
  ...MICRO,
  'model.preset': 'mini',
  'model.lr': 2e-3,
  'bc.copyDrills': 4000,
  'bc.drillSteps': 0, // mini as measured (E107–E109): its 4,000 mixed drills form the copy without the stage
  'tasks.maxTest': 192, // and its evaluations as measured (a mini run is already ~32 minutes)
  'dapo.iterations': 10, // and its DAPO
  'dapo.refusedTurns': 'train',
  'rft.lr': 4e-4,
  'dapo.lr': 1.2e-4,
};

export const RUN_PRESETS: Record<string, { description: string; overrides: Record<string, ConfigValue> }> = {
  micro: {
    description: 'from-scratch micro model (0.16 M parameters) on one-token bugs in unseen functions, with guess and check; base (copy drills alone, then cloning with drills) → RFT → DAPO at temperature 1; CPU-only machines, 21-27 minutes on two cores (WASM backend)',
    overrides: MICRO,
  },
  mini: {
    description: "micro's world, agent and RL on the 0.40 M mini model (3 layers, C 96), rates scaled for its width, 4,000 copy drills; settings chosen on val (E97-E100, E107-E108: the copy forms on three seeds of three); its RL steps below their bars on val (E109: 70.8 -> 74.2 -> 73.8 %); ~32 minutes on two cores",
    overrides: MINI,
  },
  'micro-v1': {
    description: 'the first micro preset (docs/learning.md until E73): six turns, no guessing, DAgger, rollouts and evaluation at T 0.5; ~18 minutes on two cores',
    overrides: MICRO_V1,
  },
  // micro with guess and check (docs/learning.md findings 27-33, runs E43-E59): the view lists the candidate
  // tokens, every failed or refused sub lists the ones not yet tried, a sub runs the tests itself and takes a
  // failing change back; the expert guesses from the list's end and copy drills teach the copy. Its base
  // solves 63 % of the held-out tasks (micro's: 13 %) and its RFT, scored at the rollouts' temperature, adds
  // +4.9 points against a bar of 2.0 (E58, E59, seed 1); DAPO after it does not gain. 38-46 minutes here
  // (E65, E70: seeds 2 and 3).
  'micro-guess': {
    description: "micro with guess and check: candidate lists after every view and failed sub, subs that run the tests, RFT at its rollouts' temperature; ~45 minutes on two cores",
    overrides: MICRO_GUESS,
  },
  // micro-guess where a candidate stays on the list until each of its fixes was tried (agent.retryFixes,
  // docs/learning.md finding 35): the world before it let a perfect list copier solve 78 % of the val tasks,
  // since a bug whose right fix was not its token's first was never fixed; with it, all. Base on val 74.5 ->
  // 82.6 % (E58 -> E71, seed 1).
  'micro-retry': {
    description: 'micro-guess where a candidate stays on the list until each of its fixes was tried (>= then <, n - 1 then n + 1); ~50 minutes on two cores',
    overrides: MICRO_RETRY,
  },
  tiny: {
    description: 'from-scratch tiny model (4.9 M parameters); the in-browser default on a laptop GPU',
    overrides: {
      'model.preset': 'tiny',
      'model.lr': 1e-3,
      'tasks.maxTrain': 200,
      'tasks.maxTest': 40,
      'agent.maxTurns': 16,
      'agent.systemPrompt': 'brief',
      'agent.contextTokens': 4096,
      'agent.observationTokens': 384,
      'agent.actionTokens': 256,
      // A step's 16 episodes of up to 4,352 tokens hold 7 GiB of activations in one pass; passes of 3 rows
      // (1.3 GiB) fit a laptop GPU, with the same gradients (an H200 run peaked at 19 GB without them:
      // docs/gpu-h200.md).
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
    description: 'Qwen2.5-Coder-0.5B-Instruct from the Hugging Face Hub (or --set model.preset=FOLDER), LoRA rank 16; a GPU with ~4 GB free',
    overrides: {
      'model.preset': 'Qwen/Qwen2.5-Coder-0.5B-Instruct',
      'model.loraRank': 16,
      'model.loraAlpha': 32,
      // The base phase evaluates the instruct model as it is (docs/dapo.md phase 1): no expert cloning.
      'bc.episodes': 0,
      'tasks.maxTrain': 400,
      'tasks.maxTest': 80,
      'agent.maxTurns': 20,
      'agent.contextTokens': 8192,
      'agent.observationTokens': 1024,
      'agent.actionTokens': 512,
      'reward.lengthThreshold': 12,
      // LoRA wants rates far above the paper's full fine-tuning 5e-6 / 1e-6 (docs/dapo.md).
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
