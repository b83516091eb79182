// The run estimate against a measured run: `webswe train --preset micro --seed 1` on a 2-core CPU
// (fast CPU backend, node sandbox) took 1,688 s to its last evaluation. Its own metrics give the
// three device rates (cloning rows: 2,066 training tokens/s; the RFT rollout row: 193 action tokens/s
// of generation and 325 s of sandbox work for 1,024 episodes of ~4 test runs, 0.079 s a run). Priced
// at those rates, the estimate of the same config must land within 25 % of the measured time, and
// scale with the work a config asks for.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/rl/config.ts';
import { estimateRun } from '../../../src/rl/estimate.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

const micro = resolveConfig(RUN_PRESETS.micro!.overrides);
const RATES = { trainTokensPerS: 2066, genTokensPerS: 193, testRunS: 0.079 };

describe('estimateRun', () => {
  it('prices micro within 25 % of a measured CLI run', () => {
    const e = estimateRun(micro, RATES);
    expect(e.parts.map((p) => p.name)).toEqual(['cloning', 'evaluation of base', 'RFT', 'evaluation of RFT', 'DAPO', 'evaluation of DAPO']);
    expect(e.totalS).toBeGreaterThan(1688 * 0.75);
    expect(e.totalS).toBeLessThan(1688 * 1.25);
  });
  it('follows the config: fewer phases, more DAPO iterations, a slower device', () => {
    const base = estimateRun(micro, RATES).totalS;
    expect(estimateRun(resolveConfig(RUN_PRESETS.micro!.overrides, { 'run.phases': 'base' }), RATES).totalS).toBeLessThan(base / 2);
    expect(estimateRun(resolveConfig(RUN_PRESETS.micro!.overrides, { 'dapo.iterations': 20 }), RATES).totalS).toBeGreaterThan(base * 1.2);
    expect(estimateRun(micro, { ...RATES, trainTokensPerS: RATES.trainTokensPerS / 2, genTokensPerS: RATES.genTokensPerS / 2 }).totalS).toBeGreaterThan(base * 1.7);
  });
});
