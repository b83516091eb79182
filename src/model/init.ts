// Seeded initialisation of a from-scratch model (GPT-2 / Llama style): weights ~ N(0, 0.02),
// output projections (o_proj, down_proj) scaled by 1/√(2L) as in GPT-2, norms 1, biases 0.
import { Rng } from '../random.ts';
import type { ModelConfig } from './config.ts';
import { parameterSpecs } from './params.ts';

export function initParams(c: ModelConfig, seed: number, std = 0.02): Map<string, Float32Array> {
  const rng = new Rng(seed);
  const out = new Map<string, Float32Array>();
  for (const s of parameterSpecs(c)) {
    const n = s.shape.reduce((a, b) => a * b, 1);
    const v = new Float32Array(n);
    if (/norm\.weight$/.test(s.name)) v.fill(1);
    else if (!/\.bias$/.test(s.name)) {
      const scale = /o_proj|down_proj/.test(s.name) ? std / Math.sqrt(2 * c.numLayers) : std;
      for (let i = 0; i < n; i++) v[i] = rng.normal() * scale;
    }
    out.set(s.name, v);
  }
  return out;
}
