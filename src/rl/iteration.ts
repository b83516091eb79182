// One DAPO iteration of a run, measured on a device and priced before the run starts: the first screen, the
// Model view (workers/estimate.ts) and `webswe gpu --preset` say it. The rates come from the run's own model
// shape (a large one's two-block slice with random weights, offline, its rates over the arithmetic ratio:
// auto-backend.ts measurementShape), or from auto's measurement where auto made one; the work from the config
// (estimate.ts priceIteration: a pretrained model's episodes at their budgets, so an upper bound).
import type { ModelConfig } from '../model/config.ts';
import type { LoraConfig } from '../model/lora.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';
import { measurementShape, type AutoDecision } from './auto-backend.ts';
import type { RunConfig } from './config.ts';
import { duration, priceIteration, type DeviceRates, type IterationPrice } from './estimate.ts';
import { measureRates } from './throughput.ts';

/** A priced iteration with what it was priced on. */
export interface MeasuredIteration extends IterationPrice {
  preset: string;
  /** The model the run trains (model.preset). */
  model: string;
  /** The shape measured (a slice of a large model: its rates were divided by `scale`). */
  shape: string;
  scale: number;
  contextTokens: number;
  maxTurns: number;
  /** The backend measured, as a run names it. */
  backend: string;
  /** The whole model's rates at a few positions (before contextFactor). */
  rates: DeviceRates;
  measuredInS: number;
}

/**
 * Price one DAPO iteration of `cfg` on the opened backend `b`: auto's rates for the backend it picked where it
 * measured both (already the whole model's), else `b` measured at the run's shape here. `testRunS` times a test
 * run in the run's sandbox; `since`: when the caller began (performance.now()), so opening `b` counts.
 */
export async function measureIteration(o: {
  preset: string;
  cfg: RunConfig;
  config: ModelConfig;
  lora?: LoraConfig;
  b: { name: string; be: Backend<Tensor>; auto?: AutoDecision };
  testRunS: () => Promise<number>;
  since: number;
}): Promise<MeasuredIteration> {
  const { cfg, config } = o;
  const shape = measurementShape(cfg.model.preset, config, o.lora);
  const picked = o.b.auto?.measured;
  const model = picked ? picked[picked.backend] : await measureRates({ name: o.b.name, be: o.b.be }, shape, { trainRows: cfg.bc.batchEpisodes, rolloutRows: cfg.agent.rolloutBatch })
    .then((slice) => ({ trainTokensPerS: slice.trainTokensPerS / shape.scale, genTokensPerS: slice.genTokensPerS / shape.scale }));
  const rates = { trainTokensPerS: model.trainTokensPerS, genTokensPerS: model.genTokensPerS, testRunS: await o.testRunS() };
  return {
    ...priceIteration(cfg, rates, config), preset: o.preset, model: cfg.model.preset, shape: shape.name, scale: shape.scale,
    contextTokens: cfg.agent.contextTokens, maxTurns: cfg.agent.maxTurns, backend: o.b.name, rates, measuredInS: (performance.now() - o.since) / 1000,
  };
}

/** Seconds of one test run of `task` in a sandbox from `create` (timed the second time: the first loads it). */
export async function timeTestRun(create: SandboxFactory, task: Task, timeoutMs: number): Promise<number> {
  const sb = await create(task.files, { timeoutMs });
  try {
    await sb.runTests(task.test_files);
    const t = performance.now();
    await sb.runTests(task.test_files);
    return (performance.now() - t) / 1000;
  } finally {
    await sb.dispose();
  }
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const rate = (x: number) => (x >= 100 ? n(x) : x.toPrecision(3));

/** What a priced iteration says to a person, the headline first: each part, the rates it was priced at and
 *  the assumption that makes it an "at most". */
export function iterationLines(e: MeasuredIteration): string[] {
  const most = e.bound ? 'at most ' : 'about ';
  const head = `A DAPO iteration of ${e.preset} (${e.model}) takes ${most}${duration(e.roundS + e.updateS)} on this device (${e.backend})` +
    (e.rounds === 1 ? '.' : e.bound ? ` with one generation round, at most ${duration(e.seconds)} with all ${e.rounds} that dynamic sampling may take.`
      : ` with one generation round, about ${duration(e.seconds)} with the ${e.rounds} that dynamic sampling takes on average.`);
  return [
    head,
    `Generation round: ${e.episodes} episodes of ${most}${n(e.tokensPerEpisode)} tokens, ${most}${n(e.testRuns)} test runs each: ${e.bound ? '≤ ' : 'about '}${duration(e.roundS)}.`,
    `Update: ${most}${n(e.episodes * e.tokensPerEpisode)} tokens: ${e.bound ? '≤ ' : 'about '}${duration(e.updateS)}.`,
    `Rates of the whole model at a few positions: generation ${rate(e.rates.genTokensPerS)} tokens/s, training ${rate(e.rates.trainTokensPerS)} tokens/s, a test run ${e.rates.testRunS.toFixed(2)} s` +
      (e.scale !== 1 ? `, measured on ${e.shape} with random weights and divided by ${e.scale.toFixed(2)}` : '') +
      (e.contextFactor !== 1 ? `; attention over an episode that long makes a token ${e.contextFactor.toFixed(2)}× dearer to generate and ${e.trainContextFactor.toFixed(2)}× to train` : '') +
      `; measured in ${e.measuredInS.toFixed(0)} s.`,
    ...(e.bound ? [`Every episode is priced at its budgets (${e.maxTurns} turns; its ${n(e.contextTokens)}-token context full, plus one last turn; every token priced as sampled; the tests run every turn, at the measured time): one that submits sooner costs less, and a started run's time left follows its real pace.`] : []),
  ];
}
