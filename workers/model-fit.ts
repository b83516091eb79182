// Will a pretrained model train here: the memory planner (src/model/planner.ts) at the New run form's
// defaults (the run shape src/rl/fit.ts derives from a run config) against the trainer worker's WebGPU
// adapter: its per-buffer limits, the features that matter, and what to do when the adapter lacks what
// the model needs (no WebGPU at all, limits too small, a context longer than the model's).
import type { ModelConfig } from '../src/model/config.ts';
import { checkFit, formatBytes } from '../src/model/planner.ts';
import type { GpuFacts, ModelFit, PlanRow } from './models.api.ts';
import type { ModelSummary } from '../src/model/summary.ts';
import type { ConfigValue } from '../src/rl/config.ts';
import { checkRunFit } from '../src/rl/fit.ts';


export function modelFit(c: ModelConfig, summary: ModelSummary, run: { preset: string; flat: Record<string, ConfigValue> }, gpu: GpuFacts): ModelFit {
  const f = formatBytes;
  // The run's shape (batch, context, generation batch) does not depend on the model; the preset's
  // own model only makes checkRunFit's plan, which is not used here.
  const shape = checkRunFit(run.flat, { backend: 'webgpu' });
  const options = shape.options;
  const rank = (run.flat['model.loraRank'] as number) || 16;
  const budget = gpu.ok ? { maxBufferSize: gpu.limits.maxBufferSize, maxBindingSize: gpu.limits.maxStorageBufferBindingSize } : {};
  const rows: PlanRow[] = (['full', 'lora'] as const).map((training) => {
    const fit = checkFit(c, { ...options, training, loraRank: rank }, budget);
    return { training, ...(training === 'lora' ? { loraRank: rank } : {}), plan: fit.plan, ok: fit.ok, ...(fit.ok ? {} : { message: fit.message }) };
  });

  const problems: string[] = [];
  const notes: string[] = [];
  if (!gpu.ok) {
    const help = gpu.reason.includes(gpu.help) ? '' : ` ${gpu.help}`;
    problems.push(`No WebGPU in the trainer worker (${gpu.reason}). Pretrained models train only on WebGPU (the CPU backend is for the small from-scratch presets).${help}`);
  }
  const action = run.flat['agent.actionTokens'] as number;
  if (options.context > c.maxPositionEmbeddings) {
    const fitContext = c.maxPositionEmbeddings - action;
    problems.push(`context: the New run defaults (preset ${run.preset}) give episodes ${options.context} tokens (agent.contextTokens + agent.actionTokens ${action}) but this model has ${c.maxPositionEmbeddings} positions (max_position_embeddings): ` +
      (fitContext >= 64 ? `set agent.contextTokens to ${fitContext} or less` : `that is less than a context of 64 tokens plus one assistant turn: use a model with a longer context`));
  }
  if (gpu.ok) {
    const [full, lora] = rows as [PlanRow, PlanRow];
    if (!full.ok && lora.ok) problems.push(`full fine-tuning: ${full.message}; LoRA fits: set model.loraRank to ${rank} in the New run form`);
    else if (!full.ok) problems.push(full.message === lora.message ? full.message! : `full fine-tuning: ${full.message}; LoRA (rank ${rank}): ${lora.message}`);
  }

  const f16 = gpu.ok ? ` (this adapter ${gpu.features.includes('shader-f16') ? 'has' : 'lacks'} it)` : '';
  if (summary.dtypes.some((d) => d !== 'F32')) {
    notes.push(`The weights are stored as ${summary.dtypes.join(', ')} (${f(summary.storedBytes)}) and held as f32 on the GPU (${f(summary.f32Bytes)}): the kernels compute in f32, so 'shader-f16' is not needed${f16}.`);
  } else notes.push(`The weights are f32 (${f(summary.f32Bytes)}), as the kernels compute: 'shader-f16' is not needed${f16}.`);
  if (gpu.ok && gpu.fallback) {
    notes.push(`The adapter (${gpu.adapter}) is a software fallback that runs WebGPU on the CPU: far too slow for a pretrained model, and runs on the "auto" backend use the CPU backend here. Train pretrained models on a machine with a GPU.`);
  }
  const [full] = rows as [PlanRow];
  notes.push(`At its peak a full fine-tuning step needs ${f(full.plan.train)} and generation ${f(full.plan.generate)}. WebGPU does not tell a page how much memory the GPU has: a GPU without enough reports out-of-memory when the run allocates, and the run stops naming the size it asked for.`);

  return {
    verdict: !gpu.ok ? 'no-webgpu' : problems.length ? 'refused' : 'ok',
    gpu, preset: run.preset, context: options.context, trainShape: shape.trainShape, generateShape: shape.generateShape, rows, problems, notes,
  };
}
