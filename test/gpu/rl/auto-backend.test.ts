// auto by measurement on two real backends: the adapter here is SwiftShader, which the rule never measures,
// so the decision is asked as if it were a hardware adapter. Both backends really run the smallest shape's
// training step and batched generation; WGSL emulated on the CPU loses to the WASM kernels on the same
// cores, and the measurement says so: the rule for a fallback adapter agrees with what it would measure.
import { describe, expect } from 'vitest';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';
import { wasmBackendNode } from '../../../src/ops/wasm/threads.node.ts';
import type { Backend } from '../../../src/ops/backend.ts';
import type { Tensor } from '../../../src/ops/tensor.ts';
import { chooseAuto, type AutoRates } from '../../../src/rl/auto-backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';
import { measureRates } from '../../../src/rl/throughput.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

describe('auto by measurement on WebGPU (SwiftShader) and WASM', () => {
  gpuIt('measures both at the smallest shape and picks WASM on an emulated GPU', async () => {
    const cfg = resolveConfig(RUN_PRESETS.micro!.overrides);
    const gpu = (await sharedBackend()) as unknown as Backend<Tensor>;
    const wasm = (await wasmBackendNode(2)) as unknown as Backend<Tensor>;
    const batch = { trainRows: 1, rolloutRows: 2 };
    const kept = new Map<string, AutoRates>();
    const d = await chooseAuto({
      adapter: { kind: 'hardware', name: 'swiftshader (asked as hardware)' }, cfg, model: MODEL_PRESETS['scratch-30k'].config, shape: 'scratch-30k', key: 'k',
      cache: { get: async (k) => kept.get(k), set: async (k, v) => void kept.set(k, v) },
      measure: (kind) => measureRates({ name: kind, be: kind === 'webgpu' ? gpu : wasm }, MODEL_PRESETS['scratch-30k'], batch),
    });
    expect(d.backend).toBe('wasm');
    const m = d.measured!;
    for (const k of ['webgpu', 'wasm'] as const) {
      expect(m[k].trainTokensPerS).toBeGreaterThan(0);
      expect(m[k].genTokensPerS).toBeGreaterThan(0);
    }
    expect(m.wasm.runS).toBeLessThan(m.webgpu.runS);
    expect(kept.get('k')).toEqual({ webgpu: { trainTokensPerS: m.webgpu.trainTokensPerS, genTokensPerS: m.webgpu.genTokensPerS }, wasm: { trainTokensPerS: m.wasm.trainTokensPerS, genTokensPerS: m.wasm.genTokensPerS } });
  }, 120_000);
});
