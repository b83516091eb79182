// What a priced DAPO iteration says to a person (the first screen's and the Model view's section,
// views/iteration-price.ts): the headline, then the generation round, the update, the rates it was priced at
// and the assumption that makes it an "at most". Kept apart from the view so that it can be tested without a page.
import type { IterationEstimate } from '../../workers/trainer.api.ts';
import { duration } from './dom.ts';

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const rate = (x: number) => (x >= 100 ? n(x) : x.toPrecision(3));

/** The lines of a priced iteration, the headline first. */
export function iterationLines(e: IterationEstimate): string[] {
  const most = e.bound ? 'at most ' : 'about ';
  const head = `A DAPO iteration of ${e.preset} (${e.model}) takes ${most}${duration(e.roundS + e.updateS)} on this device (${e.backend})` +
    (e.rounds > 1 ? ` with one generation round, ${most}${duration(e.seconds)} with all ${e.rounds} that dynamic sampling may take.` : '.');
  return [
    head,
    `Generation round: ${e.episodes} episodes of ${e.bound ? 'at most ' : ''}${n(e.tokensPerEpisode)} tokens, ${e.bound ? `${e.maxTurns} test runs each: ≤ ` : ''}${duration(e.roundS)}.`,
    `Update: ${e.bound ? 'at most ' : ''}${n(e.episodes * e.tokensPerEpisode)} tokens: ${e.bound ? '≤ ' : ''}${duration(e.updateS)}.`,
    `Rates of the whole model at a few positions: generation ${rate(e.rates.genTokensPerS)} tokens/s, training ${rate(e.rates.trainTokensPerS)} tokens/s, a test run ${e.rates.testRunS.toFixed(2)} s` +
      (e.scale !== 1 ? `, measured on ${e.shape} with random weights and divided by ${e.scale.toFixed(2)}` : '') +
      (e.contextFactor !== 1 ? `; at a context of ${n(e.contextTokens)} tokens attention makes each token ${e.contextFactor.toFixed(2)}× dearer` : '') +
      `; measured in ${e.measuredInS.toFixed(0)} s.`,
    ...(e.bound ? [`Every episode is priced at its budgets (${e.maxTurns} turns, ${n(e.contextTokens)} tokens): one that submits sooner costs less, and a started run's time left follows its real pace.`] : []),
  ];
}

