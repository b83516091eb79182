// A from-scratch model of any size as a Hugging Face folder (seeded init, the tokenizer of an existing
// folder), for `webswe train --set model.preset=FOLDER`: how docs/learning.md's larger micro models (E97, E99)
// were made. The tokenizer must be the one the run's tasks train (a micro run's weights/<phase>/ has it).
//   npx tsx lab/init-model-folder.ts --tokenizer runs/fix-seed1b/weights/base --layers 3 --hidden 96 \
//     --heads 6 --kv-heads 3 --intermediate 256 --seed 1 --out runs/big-init
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freezeConfig } from '../src/model/config.ts';
import { initParams } from '../src/model/init.ts';
import { MODEL_PRESETS } from '../src/model/presets.ts';
import { hfFolderFiles } from '../src/model/weights.ts';

const { values: a } = parseArgs({
  options: {
    tokenizer: { type: 'string' }, out: { type: 'string' }, layers: { type: 'string', default: '2' }, hidden: { type: 'string', default: '64' },
    heads: { type: 'string', default: '4' }, 'kv-heads': { type: 'string', default: '2' }, 'head-dim': { type: 'string', default: '16' },
    intermediate: { type: 'string', default: '172' }, seed: { type: 'string', default: '1' },
  },
});
if (!a.tokenizer || !a.out) throw new Error('usage: npx tsx lab/init-model-folder.ts --tokenizer FOLDER --out FOLDER [--layers N --hidden C --heads H --kv-heads K --head-dim D --intermediate F --seed S]');
const int = (k: keyof typeof a) => {
  const v = Number(a[k]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} must be a positive whole number, got "${a[k]}"`);
  return v;
};
const tokenizerJson = JSON.parse(readFileSync(join(a.tokenizer, 'tokenizer.json'), 'utf8')) as object;
const tokenizerConfig = JSON.parse(readFileSync(join(a.tokenizer, 'tokenizer_config.json'), 'utf8')) as object;
const from = JSON.parse(readFileSync(join(a.tokenizer, 'config.json'), 'utf8')) as { vocab_size: number; eos_token_id?: number | number[]; bos_token_id?: number };
const eos = from.eos_token_id === undefined ? undefined : Array.isArray(from.eos_token_id) ? from.eos_token_id : [from.eos_token_id];
const config = freezeConfig({
  ...MODEL_PRESETS['scratch-160k'].config, vocabSize: from.vocab_size,
  numLayers: int('layers'), hiddenSize: int('hidden'), numHeads: int('heads'), numKvHeads: int('kv-heads'), headDim: int('head-dim'), intermediateSize: int('intermediate'),
  ...(eos ? { eosTokenIds: eos } : {}), ...(from.bos_token_id !== undefined ? { bosTokenId: from.bos_token_id } : {}),
});
const tensors = initParams(config, int('seed'));
mkdirSync(a.out, { recursive: true });
for (const [name, bytes] of hfFolderFiles({ config, tensors, tokenizerJson, tokenizerConfig })) writeFileSync(join(a.out, name), bytes);
let n = 0;
for (const v of tensors.values()) n += v.length;
console.log(`${a.out}: ${n.toLocaleString('en')} parameters (${config.numLayers} layers, C ${config.hiddenSize}, ${config.numHeads} heads, ${config.numKvHeads} KV)`);
