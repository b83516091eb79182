// The first screen's duration: a few seconds of measurement on this device (the backend a run would
// open, the worker sandbox it would play episodes in), priced by src/rl/estimate.ts over the config.
// Rates: two training steps at the cloning batch (the first compiles, the second is timed), a batched
// prefill and a few decode steps at the rollout batch, and a test run of a bundled task (timed the
// second time: the first loads the sandbox).
// Also the price of one DAPO iteration of a run on a pretrained model (iterationOnDevice): the rates measured
// at its Hub model's shape (a two-block slice with random weights, offline: src/rl/auto-backend.ts), its
// episodes priced at their budgets (src/rl/estimate.ts priceIteration): an upper bound.
import { createWorkerSandbox } from '../src/sandbox/worker.browser.ts';
import { measureRates } from '../src/rl/throughput.ts';
import { modelPreset } from '../src/model/presets.ts';
import { resolveConfig, type ConfigValue } from '../src/rl/config.ts';
import { estimateRun } from '../src/rl/estimate.ts';
import { knownRunShape } from '../src/rl/auto-backend.ts';
import { measureIteration, timeTestRun } from '../src/rl/iteration.ts';
import { RUN_PRESETS } from '../src/rl/presets.ts';
import type { AutoRun, OpenedBackend } from './backend.ts';
import type { TaskSelection } from '../src/tasks/select.ts';
import { loadTasks } from './tasks.ts';
import { BROWSER_DEFAULTS, type BackendChoice, type DeviceEstimate, type IterationEstimate } from './trainer.api.ts';
import type { RunConfig } from '../src/rl/config.ts';

export async function estimateOnDevice(preset: string, choice: BackendChoice, open: (c: BackendChoice, run?: AutoRun) => Promise<OpenedBackend>, overrides: Record<string, ConfigValue> = {}): Promise<DeviceEstimate> {
  const t0 = performance.now();
  const run = RUN_PRESETS[preset];
  if (!run) throw new Error(`no run preset "${preset}" (${Object.keys(RUN_PRESETS).join(', ')})`);
  const cfg = resolveConfig(run.overrides, { ...BROWSER_DEFAULTS, ...overrides });
  const model = modelPreset(cfg.model.preset);
  if (!model) throw new Error(`the run preset "${preset}" starts from a pretrained model; only from-scratch presets are estimated`);
  // auto on a hardware adapter measures this run on both backends and prices it on the faster one.
  const be = await open(choice, { cfg, config: model.config });
  const b = { name: be.name, be: be.be };
  const modelRates = await measureRates(b, model, { trainRows: cfg.bc.batchEpisodes, rolloutRows: cfg.agent.rolloutBatch });
  const { tests, testRunS } = await timeTestRuns(cfg);
  const rates = { ...modelRates, testRunS };
  return { ...estimateRun(cfg, rates, tests.length), preset, backend: be.name, rates, measuredInS: (performance.now() - t0) / 1000 };
}

/** The run's held-out tasks and the seconds of a test run of the first in a worker sandbox. */
async function timeTestRuns(cfg: RunConfig) {
  const tests = await loadTasks(cfg.tasks.test, cfg.tasks.maxTest, cfg.tasks.difficulty, cfg.tasks.select as TaskSelection);
  return { tests, testRunS: await timeTestRun(createWorkerSandbox, tests[0]!, cfg.agent.commandTimeoutMs) };
}

/** One DAPO iteration of `preset` (a run on a pretrained model whose shape is known) priced on this device. */
export async function iterationOnDevice(preset: string, choice: BackendChoice, open: (c: BackendChoice, run?: AutoRun) => Promise<OpenedBackend>): Promise<IterationEstimate> {
  const t0 = performance.now();
  const run = RUN_PRESETS[preset];
  if (!run) throw new Error(`no run preset "${preset}" (${Object.keys(RUN_PRESETS).join(', ')})`);
  const cfg = resolveConfig(run.overrides, BROWSER_DEFAULTS);
  const { config, lora } = knownRunShape(cfg);
  // auto on a hardware adapter measures both backends at this shape; anywhere else the opened backend is measured.
  const be = await open(choice, { cfg, config, ...(lora ? { lora } : {}) });
  return measureIteration({ preset, cfg, config, ...(lora ? { lora } : {}), b: be, testRunS: async () => (await timeTestRuns(cfg)).testRunS, since: t0 });
}
