// Will a run fit: the memory planner (src/model/planner.ts) applied to a run config, against the
// budget of the backend it would train on (the adapter's per-buffer limits on WebGPU, a memory bound
// on the CPU backend), with a refusal that gives the numbers and which config field to lower to what.
// Shared by the New run form (live estimate) and the trainer worker (the refusal before a run starts).
import { paramCount, type ModelConfig } from '../model/config.ts';
import { MODEL_PRESETS, modelPreset } from '../model/presets.ts';
import { formatBytes, planMemory, type MemoryPlan, type PlanOptions } from '../model/planner.ts';
import { ConfigError, FIELDS, type ConfigValue } from './config.ts';

export interface MemoryBudget {
  /** The backend the run would train on. */
  backend: 'webgpu' | 'cpu';
  /** No single tensor may be larger (WebGPU: min of maxBufferSize and maxStorageBufferBindingSize). */
  bufferBytes?: number;
  /** What `bufferBytes` is, for messages, e.g. "maxBufferSize and maxStorageBufferBindingSize". */
  bufferLimit?: string;
  /** All tensors together may not be larger. */
  memoryBytes?: number;
  /** What `memoryBytes` is, for messages. */
  memoryLimit?: string;
}

/** What the run's shape means for the planner, each number with the config fields it comes from. */
export interface RunMemory {
  options: PlanOptions;
  plan: MemoryPlan;
  /** "2 rows × 1584 tokens" etc., for the estimate's table. */
  trainShape: string;
  generateShape: string;
}

export type RunFit = (RunMemory & { ok: true }) | (RunMemory & { ok: false; message: string; field: string });

type Flat = Record<string, ConfigValue>;

/** Fields whose lowering shrinks the plan, in the order a refusal suggests them. */
const LOWERABLE = ['agent.contextTokens', 'agent.actionTokens', 'rft.batchEpisodes', 'bc.batchEpisodes', 'dapo.tasksPerIteration', 'agent.rolloutBatch', 'dapo.groupSize', 'rft.samplesPerTask', 'eval.samples'] as const;

/**
 * The planner's options for a run (upper bounds: every episode may fill its context):
 *  - context T: the KV cache per episode, agent.contextTokens + agent.actionTokens (ModelPolicy's
 *    capacity); a training row holds at most one such episode;
 *  - training batch B: rows of one optimiser step, at most one per episode: bc.batchEpisodes for
 *    behaviour cloning (from-scratch presets), rft.batchEpisodes for RFT, ceil(tasksPerIteration · groupSize / optimizerSteps) for DAPO;
 *  - generation batch: episodes generated together (one KV-cache cohort): agent.rolloutBatch rounded
 *    down to whole groups (groupSize in DAPO, samplesPerTask in RFT, eval.samples in evaluation).
 */
function planOptions(f: Flat, pretrained: boolean): { options: PlanOptions; trainShape: string; generateShape: string } {
  const n = (k: string) => f[k] as number;
  const phases = String(f['run.phases']).split(',').map((s) => s.trim());
  const context = n('agent.contextTokens') + n('agent.actionTokens');
  const batches: number[] = [];
  if (phases.includes('base') && n('bc.epochs') > 0 && n('bc.episodes') > 0) batches.push(n('bc.batchEpisodes'));
  if (phases.includes('rft') && n('rft.epochs') > 0) batches.push(n('rft.batchEpisodes'));
  if (phases.includes('dapo')) batches.push(Math.ceil((n('dapo.tasksPerIteration') * n('dapo.groupSize')) / n('dapo.optimizerSteps')));
  const whole = (g: number) => g * Math.max(1, Math.floor(n('agent.rolloutBatch') / g));
  const gens = [whole(n('eval.samples'))];
  if (phases.includes('dapo')) gens.push(whole(n('dapo.groupSize')));
  if (phases.includes('rft')) gens.push(whole(n('rft.samplesPerTask')));
  // model.passTokens runs a step in passes of whole rows: a pass, not the step, holds activations.
  const stepRows = Math.max(1, ...batches);
  const rowsPerPass = n('model.passTokens') > 0 ? Math.max(1, Math.floor(n('model.passTokens') / context)) : Infinity;
  const batch = Math.min(stepRows, rowsPerPass), generateBatch = Math.max(...gens);
  return {
    // model.loraRank applies to pretrained models only (from-scratch presets train in full).
    options: { batch, context, generateBatch, training: !batches.length ? 'none' : pretrained && n('model.loraRank') > 0 ? 'lora' : 'full', ...(pretrained && n('model.loraRank') > 0 ? { loraRank: n('model.loraRank') } : {}), ...(f['model.recompute'] === true ? { recompute: true } : {}) },
    trainShape: batches.length ? `${batch} rows × ${context} tokens${rowsPerPass < stepRows ? ' a pass' : ''}` : 'no gradient steps',
    generateShape: `${generateBatch} episodes × ${context} positions`,
  };
}

const presetOf = (f: Flat) => modelPreset(String(f['model.preset']));

function modelOf(f: Flat, pretrained?: ModelConfig): ModelConfig {
  if (pretrained) return pretrained;
  const preset = presetOf(f);
  if (!preset) throw new ConfigError(`model.preset: "${f['model.preset']}" is not a from-scratch preset (${Object.keys(MODEL_PRESETS).join(', ')}), so its size is not known here: a pretrained model's plan needs its config.json`);
  return preset.config;
}

function measure(f: Flat, pretrained?: ModelConfig): RunMemory {
  const { options, trainShape, generateShape } = planOptions(f, pretrained !== undefined);
  return { options, plan: planMemory(modelOf(f, pretrained), options), trainShape, generateShape };
}

/** Which limit the plan breaks, or null when it fits. */
function breach(m: RunMemory, b: MemoryBudget): string | null {
  const f = formatBytes, p = m.plan;
  const allows = `the ${b.backend === 'webgpu' ? 'adapter' : 'CPU backend'} allows ${f(b.bufferBytes ?? 0)} per buffer (${b.bufferLimit ?? 'per-buffer limit'})`;
  // Weights, gradients, AdamW state and logits are split into row chunks on WebGPU: one row must fit.
  if (b.bufferBytes !== undefined && p.largestRow.bytes > b.bufferBytes) return `one row of ${p.largestRow.name} needs ${f(p.largestRow.bytes)} but ${allows}`;
  if (b.bufferBytes !== undefined && p.largestBuffer.bytes > b.bufferBytes) return `its largest buffer bound whole, ${p.largestBuffer.name}, needs ${f(p.largestBuffer.bytes)} but ${allows}`;
  if (b.memoryBytes !== undefined && p.total > b.memoryBytes) {
    return `it needs ${f(p.total)} at its peak (${p.train >= p.generate && m.options.training !== 'none' ? 'a training step' : 'generation'}) but the ${b.backend === 'cpu' ? 'CPU' : 'WebGPU'} backend's bound is ${f(b.memoryBytes)} (${b.memoryLimit ?? 'memory bound'})`;
  }
  return null;
}

/** The largest value of `field` at or below its current one that fits (null: none does). */
function largestFitting(f: Flat, field: string, b: MemoryBudget, pretrained?: ModelConfig): number | null {
  const spec = FIELDS.find((s) => s.path === field)!;
  let lo = spec.min ?? 1, hi = f[field] as number;
  const fits = (v: number) => {
    try {
      return breach(measure({ ...f, [field]: v }, pretrained), b) === null;
    } catch {
      return false;
    }
  };
  if (hi <= lo || !fits(lo)) return null;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The parts of the plan (weights, gradients, AdamW, activations, logits, KV cache): a key, words, bytes. */
export function planParts(m: RunMemory): { part: string; label: string; bytes: number }[] {
  const b = m.plan.bytes;
  return [
    { part: 'weights', label: 'weights', bytes: b.weights },
    { part: 'grads', label: 'gradients', bytes: b.grads },
    { part: 'adam', label: 'AdamW m + v', bytes: b.adam },
    { part: 'activations', label: `activations (${m.trainShape})`, bytes: b.activations + b.scratch },
    { part: 'logits', label: 'logits', bytes: b.logits },
    { part: 'kv', label: `KV cache (${m.generateShape})`, bytes: b.kvCache },
  ];
}

/**
 * Plan a resolved run config (flat: flattenConfig's paths) and check it against the budget. A refusal
 * names the limit, the parts and, for each field that would make it fit on its own, the value to lower
 * it to; `field` is the first of them (the form focuses it), or model.preset when no field alone is
 * enough. The model is model.preset's from-scratch preset, or `pretrained` (a loaded model's config;
 * model.loraRank > 0 then plans LoRA). Throws ConfigError for a model.preset it cannot size.
 */
export function checkRunFit(f: Flat, budget: MemoryBudget, pretrained?: ModelConfig): RunFit {
  const m = measure(f, pretrained);
  const why = breach(m, budget);
  if (why === null) return { ...m, ok: true };
  const fixes: string[] = [];
  let field = '';
  // First the fix that changes nothing learned: the step's batch in passes of fewer rows.
  if (m.options.training !== 'none') {
    for (let rows = m.options.batch - 1; rows >= 1; rows--) {
      const tokens = rows * m.options.context;
      if (breach(measure({ ...f, 'model.passTokens': tokens }, pretrained), budget) !== null) continue;
      fixes.push(`set model.passTokens to ${tokens} (${rows} row${rows > 1 ? 's' : ''} a pass; the same gradients)`);
      field = 'model.passTokens';
      break;
    }
  }
  for (const k of LOWERABLE) {
    const v = largestFitting(f, k, budget, pretrained);
    if (v === null) continue;
    fixes.push(`lower ${k} to ${v}`);
    field ||= k;
  }
  const size = paramCount(modelOf(f, pretrained));
  const smaller = Object.keys(MODEL_PRESETS).filter((p) => paramCount(modelOf({ ...f, 'model.preset': p })) < size && breach(measure({ ...f, 'model.preset': p }), budget) === null);
  if (smaller.length) fixes.push(`use model.preset ${smaller.join(' or ')}`);
  field ||= 'model.preset';
  const parts = planParts(m).filter((p) => p.bytes > 0).map((p) => `${p.label} ${formatBytes(p.bytes)}`).join(', ');
  const advice = fixes.length ? fixes.join(', or ') : 'no single field is enough: lower the context and the batch fields together, or choose a smaller model';
  return { ...m, ok: false, field, message: `${field}: this run will not fit: ${why}. Planned: ${parts}. To fit: ${advice}.` };
}

/**
 * The CPU backend's bound. Its tensors are Float32Arrays in the trainer worker's one V8 isolate;
 * Chrome gives a renderer's isolate a 4 GiB heap on 64-bit (performance.memory.jsHeapSizeLimit reads
 * 4 GiB), and typed arrays beyond that compete with the page, the browser and the OS for the same RAM.
 * So: 4 GiB, or half the device's memory where navigator.deviceMemory says less (it is rounded down to
 * a power of two). At 4 GiB the CPU backend would already take hours per step; use WebGPU above it.
 */
export function cpuMemoryBudget(deviceMemoryGiB?: number): MemoryBudget {
  const GiB = 2 ** 30;
  const half = deviceMemoryGiB ? (deviceMemoryGiB / 2) * GiB : Infinity;
  const memoryBytes = Math.min(4 * GiB, half);
  return {
    backend: 'cpu', memoryBytes,
    memoryLimit: memoryBytes < 4 * GiB ? `half of navigator.deviceMemory, ${deviceMemoryGiB} GiB` : "the renderer's 4 GiB JS heap limit",
  };
}

/** A WebGPU adapter's bound: activations and the KV cache are storage buffers bound whole, and the
 *  tensors split into row chunks (weights, gradients, AdamW state, logits) need one row per chunk, so
 *  the smaller of maxBufferSize and maxStorageBufferBindingSize applies to both.
 *  WebGPU does not tell a page how much memory the GPU has, so there is no total bound: a device that
 *  runs out reports it at allocation (GpuOutOfMemoryError, with the size asked). */
export function webgpuMemoryBudget(limits: Record<string, number>): MemoryBudget {
  const buf = limits.maxBufferSize ?? Infinity, bind = limits.maxStorageBufferBindingSize ?? Infinity;
  return {
    backend: 'webgpu', bufferBytes: Math.min(buf, bind),
    bufferLimit: buf === bind ? 'maxBufferSize = maxStorageBufferBindingSize' : buf < bind ? 'maxBufferSize' : 'maxStorageBufferBindingSize',
  };
}
