// config.json ↔ ModelConfig: the fixtures' configs, defaults, the round trip, presets, and each
// refusal naming its field in one line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freezeConfig, paramCount, parseHfConfig, toHfConfig, type ModelConfig } from '../../../src/model/config.ts';
import { ModelFileError } from '../../../src/model/errors.ts';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';
import { expectedTensors } from '../../../src/model/weights.ts';

const MODELS = new URL('../../fixtures/models/', import.meta.url);
const fixtureConfig = (name: string) => JSON.parse(readFileSync(new URL(`${name}/config.json`, MODELS), 'utf8')) as Record<string, unknown>;

const refusal = (json: unknown): string => {
  try {
    parseHfConfig(json);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFileError);
    const msg = (e as Error).message;
    expect(msg).not.toMatch(/\n/);
    return msg;
  }
  throw new Error('expected a refusal');
};

describe('parseHfConfig', () => {
  it('reads the three fixture families', () => {
    const llama = parseHfConfig(fixtureConfig('llama'));
    expect(llama).toMatchObject({ modelType: 'llama', vocabSize: 96, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2, headDim: 8 });
    expect(llama).toMatchObject({ qkvBias: false, qkNorm: false, tieWordEmbeddings: false, ropeTheta: 10000, rmsNormEps: 1e-6, bosTokenId: 0, eosTokenIds: [1] });
    expect(parseHfConfig(fixtureConfig('qwen2'))).toMatchObject({ modelType: 'qwen2', qkvBias: true, qkNorm: false, tieWordEmbeddings: true, ropeTheta: 1e6 });
    const qwen3 = parseHfConfig(fixtureConfig('qwen3'));
    expect(qwen3).toMatchObject({ modelType: 'qwen3', qkvBias: false, qkNorm: true, headDim: 16 });
    expect(qwen3.numHeads * qwen3.headDim).not.toBe(qwen3.hiddenSize);
    expect(Object.isFrozen(qwen3)).toBe(true);
  });

  it('fills transformers defaults for fields config.json leaves out', () => {
    const c = parseHfConfig({ model_type: 'llama', vocab_size: 10, hidden_size: 64, intermediate_size: 8, num_hidden_layers: 1, num_attention_heads: 4 });
    expect(c).toMatchObject({ numKvHeads: 4, headDim: 16, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: false, maxPositionEmbeddings: 2048 });
    expect(c.bosTokenId).toBeUndefined();
    const q3 = parseHfConfig({ model_type: 'qwen3', vocab_size: 10, hidden_size: 64, intermediate_size: 8, num_hidden_layers: 1, num_attention_heads: 4 });
    expect(q3.headDim).toBe(128); // Qwen3Config's default, not C/NH
  });

  it('reads transformers 5 rope_parameters and eos lists', () => {
    const c = parseHfConfig({ ...fixtureConfig('llama'), rope_theta: undefined, rope_parameters: { rope_type: 'default', rope_theta: 500000 }, eos_token_id: [1, 2] });
    expect(c.ropeTheta).toBe(500000);
    expect(c.eosTokenIds).toEqual([1, 2]);
  });

  it('round-trips through toHfConfig for fixtures and presets', () => {
    const configs: ModelConfig[] = [...['llama', 'qwen2', 'qwen3'].map((n) => parseHfConfig(fixtureConfig(n))), MODEL_PRESETS['scratch-160k'].config, MODEL_PRESETS['scratch-5m'].config];
    for (const c of configs) {
      const hf = toHfConfig(c);
      expect(parseHfConfig(JSON.stringify(hf))).toEqual(c);
      expect(hf.architectures).toEqual([{ llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM' }[c.modelType]]);
    }
  });

  it('refuses what it cannot run, naming the field, in one line', () => {
    const ok = fixtureConfig('llama');
    const cases: [Record<string, unknown> | string, RegExp][] = [
      ['{"model_type": ', /config\.json: not valid JSON/],
      [{ ...ok, model_type: 'gpt2' }, /model_type "gpt2" is not supported \(supported: llama, qwen2, qwen3\)/],
      [{ ...ok, model_type: undefined }, /model_type is missing/],
      [{ ...ok, hidden_size: 32.5 }, /hidden_size must be a positive integer, got 32\.5/],
      [{ ...ok, vocab_size: undefined }, /vocab_size is missing/],
      [{ ...ok, num_key_value_heads: 3 }, /num_key_value_heads 3 does not divide num_attention_heads 4/],
      [{ ...ok, head_dim: undefined, num_attention_heads: 5, num_key_value_heads: 5 }, /num_attention_heads 5 does not divide hidden_size 32 and head_dim is not given/],
      [{ ...ok, head_dim: 7 }, /head_dim 7 is odd/],
      [{ ...ok, rope_scaling: { rope_type: 'yarn', factor: 4 } }, /rope_scaling\.rope_type "yarn" is not supported/],
      [{ ...ok, rope_scaling: { type: 'linear', factor: 2 } }, /rope_scaling\.rope_type "linear" is not supported/],
      [{ ...ok, rope_parameters: { rope_type: 'llama3', rope_theta: 5e5 } }, /rope_parameters\.rope_type "llama3" is not supported/],
      [{ ...ok, rope_theta: -1 }, /rope_theta must be a positive number/],
      [{ ...ok, hidden_act: 'gelu' }, /hidden_act "gelu" is not supported/],
      [{ ...ok, attention_bias: true }, /attention_bias true .* is not supported/],
      [{ ...ok, mlp_bias: true }, /mlp_bias true is not supported/],
      [{ ...fixtureConfig('qwen2'), use_sliding_window: true }, /use_sliding_window true is not supported/],
      [{ ...ok, layer_types: ['full_attention', 'sliding_attention'] }, /layer_types/],
      [{ ...ok, attention_dropout: 0.1 }, /attention_dropout 0\.1 is not supported/],
      [{ ...ok, eos_token_id: 96 }, /eos_token_id 96 is outside the vocabulary \(vocab_size 96\)/],
      [{ ...ok, tie_word_embeddings: 'yes' }, /tie_word_embeddings must be true or false/],
    ];
    for (const [json, re] of cases) expect(refusal(json)).toMatch(re);
    expect(refusal([1, 2])).toMatch(/expected a JSON object/);
  });
});

describe('presets and counts', () => {
  it('scratch-160k and scratch-5m are Qwen2-style, valid and of the documented size', () => {
    const { 'scratch-160k': micro, 'scratch-5m': tiny } = MODEL_PRESETS;
    expect(micro.config).toMatchObject({ modelType: 'qwen2', numLayers: 2, hiddenSize: 64, numHeads: 4, numKvHeads: 2, headDim: 16, intermediateSize: 172 });
    expect(tiny.config).toMatchObject({ modelType: 'qwen2', numLayers: 6, hiddenSize: 256, numHeads: 4, numKvHeads: 2, headDim: 64 });
    for (const p of [micro, tiny]) {
      expect(p.tokenizerVocab).toBeLessThanOrEqual(p.config.vocabSize);
      expect(p.config.eosTokenIds).toEqual([2, 0]); // <|im_end|>, <|endoftext|>
    }
    expect(paramCount(micro.config)).toBeGreaterThan(1e5);
    expect(paramCount(micro.config)).toBeLessThan(2.5e5);
    expect(paramCount(tiny.config)).toBeGreaterThan(4e6);
    expect(paramCount(tiny.config)).toBeLessThan(6e6);
  });

  it('paramCount is the sum of the expected tensors', () => {
    for (const c of [parseHfConfig(fixtureConfig('llama')), parseHfConfig(fixtureConfig('qwen2')), parseHfConfig(fixtureConfig('qwen3')), MODEL_PRESETS['scratch-5m'].config]) {
      const sum = expectedTensors(c).reduce((a, s) => a + s.shape.reduce((x, y) => x * y, 1), 0);
      expect(paramCount(c)).toBe(sum);
    }
  });

  it('freezeConfig refuses a config whose flags contradict its family', () => {
    expect(() => freezeConfig({ ...MODEL_PRESETS['scratch-160k'].config, qkvBias: false })).toThrow(/qkvBias must be true for qwen2/);
    expect(() => freezeConfig({ ...MODEL_PRESETS['scratch-160k'].config, numKvHeads: 3 })).toThrow(/numKvHeads 3 does not divide numHeads 4/);
  });
});
