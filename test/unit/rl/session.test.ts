// Opening a policy (src/rl/session.ts): a folder's chat template is the one it ships, whether it sits in
// tokenizer_config.json or in chat_template.jinja, for a run and for `webswe eval`/`solve` alike; a folder
// without tokenizer.json is refused with the file it lacks; model.preset names only real presets.
import { describe, expect, it } from 'vitest';
import { SYSTEM_PROMPT } from '../../../src/agent/prompt.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import type { LoadedModel } from '../../../src/model/load.ts';
import { modelPreset, scratch30k } from '../../../src/model/presets.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { openPolicyModel, openRunPolicy, policyText } from '../../../src/rl/session.ts';

// ChatML with a comment of its own: it renders as the default does and tells which file it came from.
const TEMPLATE = "{#- from chat_template.jinja -#}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

function folder(o: { jinja?: string; tokenizer?: boolean } = {}): LoadedModel {
  const bpe = trainBpe([SYSTEM_PROMPT, 'def f(x):\n    return x + 1\n'], { vocabSize: scratch30k.tokenizerVocab });
  const config = freezeConfig({ ...scratch30k.config, vocabSize: Math.min(scratch30k.config.vocabSize, bpe.vocabSize) });
  const params = initParams(config, 3);
  return {
    config,
    weights: { readModel: async () => params } as unknown as LoadedModel['weights'],
    ...(o.tokenizer === false ? {} : { tokenizerJson: bpe.tokenizerJson, tokenizerConfig: bpe.tokenizerConfig }),
    ...(o.jinja ? { chatTemplate: o.jinja } : {}),
  };
}

describe('opening a policy', () => {
  it('uses the chat template a folder keeps in chat_template.jinja, in a run and in eval', async () => {
    expect(policyText(folder({ jinja: TEMPLATE }), 'the folder').tokenizer.chatTemplate).toBe(TEMPLATE);
    expect(policyText(folder(), 'the folder').tokenizer.chatTemplate).not.toBe(TEMPLATE);
    const be = new FastCpuBackend();
    expect((await openPolicyModel(be, folder({ jinja: TEMPLATE }), 'the folder')).tokenizer.chatTemplate).toBe(TEMPLATE);
    const store = { readJson: async () => null, writeJson: async () => {} };
    const run = await openRunPolicy(resolveConfig({ 'model.preset': 'some/model' }), be, { store, train: [], pretrained: folder({ jinja: TEMPLATE }) });
    expect(run.tokenizer.chatTemplate).toBe(TEMPLATE);
    // The run keeps the template with its weights, where transformers reads it.
    expect(run.tokenizerFiles.config).toMatchObject({ chat_template: TEMPLATE });
  });

  it('refuses a folder without tokenizer.json, naming the file', async () => {
    expect(() => policyText(folder({ tokenizer: false }), 'models/x')).toThrow(/^models\/x has no tokenizer\.json/);
    const store = { readJson: async () => null, writeJson: async () => {} };
    await expect(openRunPolicy(resolveConfig({ 'model.preset': 'some/model' }), new FastCpuBackend(), { store, train: [], pretrained: folder({ tokenizer: false }) }))
      .rejects.toThrow(/the pretrained model "some\/model" has no tokenizer\.json/);
  });

  it('takes only real presets for presets', () => {
    expect(modelPreset('scratch-30k')).toBe(scratch30k);
    for (const name of ['constructor', 'toString', '__proto__', 'Qwen/Qwen2.5-0.5B', 'micro']) expect(modelPreset(name)).toBeUndefined();
  });
});
