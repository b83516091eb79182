// `--backend auto` by measurement: which backend a run trains on is the one that would finish it sooner on
// this device, measured at the run's own model shape. Both candidates (WebGPU on the adapter, the WASM SIMD
// backend on every core) are timed for a few seconds — a training step and a batched generation, as the
// first screen's estimate times them — and the run's config is priced at each pair of rates
// (estimate.ts: rollouts weigh by their tokens, updates by theirs). The rates are cached per adapter, shape,
// batch and thread count, so a seeded run on the same machine opens the same backend every time (the
// determinism of its numbers depends on it) and the measurement is paid once.
//
// Without an adapter there is nothing to measure: WASM. A software fallback adapter (SwiftShader) is not
// measured either: WGSL emulated on the CPU cores WASM would use is many times slower at every shape
// `webswe bench train --backend webgpu,wasm` has measured, so measuring it would only spend seconds.
// Ties go to WASM (the CPU path is the same on every machine).
import { paramCount, tokenWeights, type ModelConfig } from '../model/config.ts';
import type { LoraConfig } from '../model/lora.ts';
import { modelPreset } from '../model/presets.ts';
import { shapeOfModel, type ModelShape } from '../model/shapes.ts';
import type { RunConfig } from './config.ts';
import { CALIBRATION_RATES, estimateRun, ratesAtContext } from './estimate.ts';
import { loraOf } from './session.ts';

export type AutoBackend = 'webgpu' | 'wasm';

/** What the adapter probe found: none (and why), a software fallback, or a hardware adapter. */
export type AutoAdapter =
  | { kind: 'none'; reason: string }
  | { kind: 'fallback' | 'hardware'; name: string };

/** Model throughput on one backend (training tokens/s, sampled tokens/s with prefill). */
export interface ModelRates {
  trainTokensPerS: number;
  genTokensPerS: number;
}

/** Both backends' rates at one shape and batch: what the cache keeps. */
export interface AutoRates {
  webgpu: ModelRates;
  wasm: ModelRates;
}

/** A measured pick, as shown: the rates and the run's price at each. */
export interface AutoMeasured {
  backend: AutoBackend;
  webgpu: ModelRates & { runS: number };
  wasm: ModelRates & { runS: number };
}

export interface AutoDecision {
  backend: AutoBackend;
  /** One line for a person: what was decided and the figures it was decided on. */
  why: string;
  /** Both backends' figures, where they were measured (now or before: `cached`). */
  measured?: AutoMeasured;
  cached?: boolean;
}

/** Where picks are kept between runs: a file under the CLI, IndexedDB in the app. */
export interface AutoCache {
  get(key: string): Promise<AutoRates | undefined>;
  set(key: string, value: AutoRates): Promise<void>;
}

/** Above this many parameters the measurement runs on a slice of the model (its embedding, head and two
 *  blocks): both backends see the same slice, so the comparison holds, and a 0.5 B model's measurement
 *  takes seconds and a few hundred MB rather than its whole weights twice. */
export const SLICE_ABOVE_PARAMS = 50e6;

/**
 * The model a measurement runs: the shape itself, or its two-block slice when it is large, with `scale`: the
 * full model's arithmetic per token over the measured one's (tokenWeights), so the measured rates over `scale`
 * are the whole model's, to within attention's context-length share (1 for an unsliced shape).
 */
export function measurementShape(name: string, config: ModelConfig, lora?: LoraConfig): ModelShape & { scale: number } {
  const sliced = paramCount(config) > SLICE_ABOVE_PARAMS && config.numLayers > 2;
  const measured = sliced ? { ...config, numLayers: 2 } : config;
  return {
    name: sliced ? `${name} (2 of ${config.numLayers} blocks)` : name,
    description: 'the run\'s model as auto measures it',
    config: measured,
    ...(lora ? { lora } : {}),
    scale: tokenWeights(config) / tokenWeights(measured),
  };
}

/** A shape as the cache knows it: every dimension the arithmetic depends on, and the LoRA rank. */
export function shapeKey(c: ModelConfig, lora?: LoraConfig): string {
  return `${c.modelType} L${c.numLayers} C${c.hiddenSize} F${c.intermediateSize} H${c.numHeads}/${c.numKvHeads}×${c.headDim} V${c.vocabSize}${lora ? ` LoRA r${lora.rank}` : ''}`;
}

/** The batch a measurement runs at (measureRates in throughput.ts). */
export interface MeasureBatch {
  trainRows: number;
  rolloutRows: number;
}

/** The cache key: the adapter, the shape and batch measured, and the WASM thread count. */
export const autoKey = (adapter: string, shape: string, batch: MeasureBatch, threads: number) =>
  `${adapter} · ${shape} · train ${batch.trainRows} rows, rollout ${batch.rolloutRows} rows · ${threads} threads`;

/** The run's seconds at these rates, measured at `model`'s shape over a few positions (ratesAtContext; sandbox
 *  time is the same on both backends: the calibration's). */
export function priceRun(cfg: RunConfig, r: ModelRates, model: ModelConfig): number {
  return estimateRun(cfg, { ...ratesAtContext(cfg, r, model).rates, testRunS: CALIBRATION_RATES.testRunS }).totalS;
}

const fmtS = (s: number) => (s >= 120 ? `${(s / 60).toFixed(0)} min` : `${s.toFixed(0)} s`);
const fmtRate = (x: number) => Math.round(x).toLocaleString('en-US');

/** The one line that says what was picked and on which figures. */
export function measuredWhy(m: AutoMeasured, shape: string, cached: boolean): string {
  const [win, lose] = m.backend === 'webgpu' ? [m.webgpu, m.wasm] : [m.wasm, m.webgpu];
  const other = m.backend === 'webgpu' ? 'wasm' : 'webgpu';
  return `${cached ? 'measured before' : 'measured'} at ${shape}: the run priced at ${fmtS(win.runS)} on ${m.backend} against ${fmtS(lose.runS)} on ${other} ` +
    `(generation ${fmtRate(m.webgpu.genTokensPerS)} vs ${fmtRate(m.wasm.genTokensPerS)} tokens/s, training ${fmtRate(m.webgpu.trainTokensPerS)} vs ${fmtRate(m.wasm.trainTokensPerS)} tokens/s, webgpu vs wasm)`;
}

/** The choice that needs no measurement: WASM without an adapter or on a software fallback; null on a hardware adapter. */
export function ruleChoice(a: AutoAdapter): AutoDecision | null {
  if (a.kind === 'none') return { backend: 'wasm', why: `no WebGPU adapter (${a.reason})` };
  if (a.kind === 'fallback') {
    return { backend: 'wasm', why: `the only WebGPU adapter is a software fallback (${a.name}); the WASM CPU backend is faster there (--backend webgpu to force it)` };
  }
  return null;
}

/**
 * Decide what `auto` opens. `measure(kind)` times the run's shape on that backend (called only for a
 * hardware adapter, and only when the cache has no pick for this key).
 */
export async function chooseAuto(o: {
  adapter: AutoAdapter;
  cfg: RunConfig;
  /** The run's whole model (its arithmetic at the run's context: priceRun). */
  model: ModelConfig;
  /** The measured shape's name (measurementShape), for the line a person reads. */
  shape: string;
  /** The cache key (autoKey). */
  key: string;
  measure: (kind: AutoBackend) => Promise<ModelRates>;
  cache: AutoCache;
  /** measurementShape's scale: the measured rates (cached as measured) over this are the run's. */
  scale?: number;
}): Promise<AutoDecision> {
  const rule = ruleChoice(o.adapter);
  if (rule) return rule;
  const hit = await o.cache.get(o.key).catch(() => undefined);
  const rates = hit ?? { webgpu: await o.measure('webgpu'), wasm: await o.measure('wasm') };
  if (!hit) await o.cache.set(o.key, rates).catch(() => {});
  const s = o.scale ?? 1;
  const whole = (r: ModelRates): ModelRates => ({ trainTokensPerS: r.trainTokensPerS / s, genTokensPerS: r.genTokensPerS / s });
  const webgpu = { ...whole(rates.webgpu), runS: priceRun(o.cfg, whole(rates.webgpu), o.model) };
  const wasm = { ...whole(rates.wasm), runS: priceRun(o.cfg, whole(rates.wasm), o.model) };
  const m: AutoMeasured = { backend: webgpu.runS < wasm.runS ? 'webgpu' : 'wasm', webgpu, wasm };
  const shape = s === 1 ? o.shape : `${o.shape}, its rates over ${s.toFixed(1)} for the whole model's arithmetic`;
  return { backend: m.backend, why: measuredWhy(m, shape, Boolean(hit)), measured: m, ...(hit ? { cached: true } : {}) };
}

/** Cached rates read back from storage, when they are some (a hand-edited or truncated entry is measured again). */
export function autoRatesOf(x: unknown): AutoRates | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const m = x as Record<string, unknown>;
  const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  const rates = (r: unknown): r is ModelRates => typeof r === 'object' && r !== null && ok((r as ModelRates).trainTokensPerS) && ok((r as ModelRates).genTokensPerS);
  if (!rates(m.webgpu) || !rates(m.wasm)) return undefined;
  const pick = (r: ModelRates) => ({ trainTokensPerS: r.trainTokensPerS, genTokensPerS: r.genTokensPerS });
  return { webgpu: pick(m.webgpu), wasm: pick(m.wasm) };
}

/** The shape a run trains, and how it trains (LoRA or every weight), from its config and, for a pretrained
 *  model, the model's own config. */
export function runShape(cfg: RunConfig, pretrained?: ModelConfig): { config: ModelConfig; lora?: LoraConfig } {
  const preset = modelPreset(cfg.model.preset);
  if (preset) return { config: preset.config };
  if (!pretrained) throw new Error(`model.preset "${cfg.model.preset}" is not a from-scratch shape: its config is needed to measure it`);
  const lora = loraOf(cfg);
  return { config: pretrained, ...(lora ? { lora } : {}) };
}

/** runShape for a run named by its preset alone: a from-scratch shape, or the known shape of its Hub model
 *  (model/shapes.ts), measured with random weights; a model known only from its files is refused. */
export function knownRunShape(cfg: RunConfig): { config: ModelConfig; lora?: LoraConfig } {
  const preset = modelPreset(cfg.model.preset);
  if (preset) return { config: preset.config };
  const known = shapeOfModel(cfg.model.preset);
  if (!known) throw new Error(`${cfg.model.preset} has its shape only in its files: it is measured when a run loads it`);
  return runShape(cfg, known.config);
}
