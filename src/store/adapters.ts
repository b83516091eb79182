// LoRA adapters in a checkpoint, as PEFT writes them beside a model: adapter_model.safetensors (tensors
// named base_model.model.<module>.lora_A.weight (r, in) / lora_B.weight (out, r)) and adapter_config.json,
// so `PeftModel.from_pretrained(base, folder)` reads them too. The folder's model.safetensors holds the
// merged weights (W + s·B·A), which transformers loads alone; the adapters are what a resume continues.
import type { ModelConfig } from '../model/config.ts';
import { adapterShapes, TARGET_MODULE, type LoraConfig } from '../model/lora.ts';
import { utf8Encode } from '../model/dtypes.ts';
import { writeSafetensors } from '../model/safetensors.ts';

export const ADAPTER_FILE = 'adapter_model.safetensors';
export const ADAPTER_CONFIG = 'adapter_config.json';
const PEFT_PREFIX = 'base_model.model.';

export interface CheckpointLora extends LoraConfig {
  /** The model the adapters sit on (model.preset: a folder, Hub id or cached model). */
  base: string;
}

/** The two PEFT files for `adapters` (our names: <module>.lora_A.weight …) of a model `c`. */
export function adapterFiles(c: ModelConfig, lora: CheckpointLora, adapters: ReadonlyMap<string, Float32Array>): Map<string, Uint8Array> {
  const tensors = [...adapterShapes(c, lora)].map(([name, shape]) => {
    const data = adapters.get(name);
    if (!data) throw new Error(`cannot write the checkpoint: the adapter ${name} is missing`);
    return { name: PEFT_PREFIX + name, shape, data };
  });
  const config = {
    peft_type: 'LORA', task_type: 'CAUSAL_LM', base_model_name_or_path: lora.base, r: lora.rank, lora_alpha: lora.alpha, lora_dropout: 0,
    target_modules: lora.targets.map((t) => TARGET_MODULE[t].split('.').pop()!), bias: 'none', fan_in_fan_out: false, inference_mode: true,
    // Ours, for a resume: the target names as the run config spells them.
    webswe_targets: lora.targets,
  };
  return new Map([
    [ADAPTER_FILE, writeSafetensors(tensors)],
    [ADAPTER_CONFIG, utf8Encode(JSON.stringify(config, null, 2) + '\n')],
  ]);
}

/** Adapters read from adapter_model.safetensors back under our names. */
export function adaptersFromPeft(tensors: ReadonlyMap<string, Float32Array>): Map<string, Float32Array> {
  return new Map([...tensors].map(([n, v]) => [n.startsWith(PEFT_PREFIX) ? n.slice(PEFT_PREFIX.length) : n, v]));
}
