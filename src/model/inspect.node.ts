// Checks a Hugging Face model folder the way every loader does (config, headers, names, shapes,
// dtypes) and reads every tensor, counting non-finite values. Run as a script it prints a summary,
// or one line naming the problem and exits 1:  node --import tsx src/model/inspect.node.ts DIR
import { fileURLToPath } from 'node:url';
import { paramCount, type ModelConfig } from './config.ts';
import { ModelFileError } from './errors.ts';
import { loadModelDir } from './load.node.ts';
import { expectedTensors } from './weights.ts';

export interface ModelSummary {
  config: ModelConfig;
  params: number;
  tensors: number;
  dtypes: string[];
  files: string[];
  tokenizer: boolean;
}

export async function inspectModelDir(dir: string): Promise<ModelSummary> {
  const m = await loadModelDir(dir);
  try {
    for (const s of expectedTensors(m.config)) {
      const data = await m.weights.read(s.name);
      let bad = 0;
      for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]!)) bad++;
      if (bad) throw new ModelFileError(m.weights.files.length === 1 ? m.weights.files[0]!.source.name : s.name, `tensor ${s.name} has ${bad} NaN or infinite values: the checkpoint is corrupt (a diverged run?)`);
    }
    return {
      config: m.config,
      params: paramCount(m.config),
      tensors: m.weights.tensors.size,
      dtypes: [...new Set([...m.weights.tensors.values()].map((t) => t.dtype))],
      files: m.weights.files.map((f) => f.source.name),
      tokenizer: m.tokenizerJson !== undefined,
    };
  } finally {
    await m.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: inspect.node.ts DIR');
    process.exit(2);
  }
  try {
    const s = await inspectModelDir(dir);
    const c = s.config;
    console.log(`${c.modelType}: ${(s.params / 1e6).toFixed(2)} M parameters, L ${c.numLayers}, C ${c.hiddenSize}, NH ${c.numHeads}, NKV ${c.numKvHeads}, HS ${c.headDim}, V ${c.vocabSize}; ${s.tensors} tensors (${s.dtypes.join(', ')}) in ${s.files.join(', ')}; tokenizer ${s.tokenizer ? 'yes' : 'no'}`);
  } catch (e) {
    console.error(`error: ${String((e as Error).message ?? e).split('\n')[0]}`);
    process.exit(1);
  }
}
