// A run on a pretrained Hugging Face folder with LoRA: only the adapters train (every base weight
// stays bit-identical), the checkpoint is the merged folder transformers loads plus PEFT's adapter
// files, the merged weights give the same log-probs as base + adapters, and a stopped run resumed
// from its checkpoint (base weights re-read from the folder, adapters from the checkpoint) ends with
// the uninterrupted run's metrics.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PROMPT } from '../../../src/agent/prompt.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { loadModelDir, saveModelDir } from '../../../src/model/load.node.ts';
import { adapterShapes, mergeAdapters } from '../../../src/model/lora.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { scratch30k } from '../../../src/model/presets.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { loraOf } from '../../../src/rl/session.ts';
import { train } from '../../../src/rl/trainer.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { FileRunStore } from '../../../src/store/fs.node.ts';
import type { MetricRecord } from '../../../src/store/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'test/fixtures/agent/mutations.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);

/** A "pretrained" model: the scratch-30k architecture with its own BPE tokenizer, saved as a Hugging Face folder. */
async function pretrainedFolder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'webswe-pretrained-'));
  const bpe = trainBpe([SYSTEM_PROMPT, ...tasks.flatMap((t) => [t.problem_statement, ...Object.values(t.files)])], { vocabSize: scratch30k.tokenizerVocab });
  const config = freezeConfig({ ...scratch30k.config, vocabSize: Math.min(scratch30k.config.vocabSize, bpe.vocabSize) });
  await saveModelDir(dir, { config, tensors: initParams(config, 11), tokenizerJson: bpe.tokenizerJson, tokenizerConfig: bpe.tokenizerConfig });
  return dir;
}

describe('a pretrained model with LoRA', () => {
  it('trains only the adapters, checkpoints merged weights + PEFT adapters, and resumes exactly', async () => {
    const folder = await pretrainedFolder();
    const cfg = resolveConfig({
      'model.preset': folder, 'model.loraRank': 4, 'model.loraAlpha': 8, 'model.loraTargets': 'q,v,up', seed: 5, 'run.phases': 'base,dapo',
      'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'agent.maxTurns': 3, 'reward.lengthThreshold': 2,
      // Expert episodes on a pretrained model (a warm start): one SFT step that surely moves the adapters.
      'bc.episodes': 2, 'bc.epochs': 1, 'rft.batchEpisodes': 2, 'dapo.iterations': 2, 'dapo.tasksPerIteration': 1, 'dapo.groupSize': 2,
      'dapo.filterGroups': false, 'dapo.optimizerSteps': 1, 'eval.samples': 1, 'run.checkpointEvery': 1,
    });
    const run = async (stopAfterDapo?: number, dir = mkdtempSync(join(tmpdir(), 'webswe-lora-'))) => {
      const store = await FileRunStore.open(dir);
      const pretrained = await loadModelDir(folder);
      let dapoRows = 0;
      const r = await train(cfg, {
        be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 2), test: tasks.slice(2, 3), pretrained,
        events: { metrics: (rows) => (dapoRows += rows.filter((x) => x.phase === 'dapo').length), shouldStop: () => stopAfterDapo !== undefined && dapoRows >= stopAfterDapo },
      });
      await pretrained.close();
      return { r, dir, metrics: (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values })) };
    };

    const a = await run();
    expect(a.r.phases.map((p) => p.phase)).toEqual(['base', 'dapo']);
    const ck = join(a.dir, 'checkpoint');
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'adapter_model.safetensors', 'adapter_config.json']) expect(existsSync(join(ck, f)), f).toBe(true);
    const peft = JSON.parse(readFileSync(join(ck, 'adapter_config.json'), 'utf8'));
    expect(peft).toMatchObject({ peft_type: 'LORA', r: 4, lora_alpha: 8, target_modules: ['q_proj', 'v_proj', 'up_proj'], base_model_name_or_path: folder });

    // Base weights untouched where no adapter sits; adapted projections moved (B left zero).
    const base = await loadModelDir(folder), merged = await loadModelDir(ck);
    const c = base.config;
    const W0 = await base.weights.readModel(c), W1 = await merged.weights.readModel(c);
    const store = await FileRunStore.open(a.dir);
    const adapters = (await store.loadCheckpoint())!.adapters!;
    expect([...adapters.keys()].sort()).toEqual(['mlp.up_proj', 'self_attn.q_proj', 'self_attn.v_proj'].flatMap((m) => [`model.layers.0.${m}.lora_A.weight`, `model.layers.0.${m}.lora_B.weight`]).sort());
    for (const [n, w] of W0) {
      const adapted = /(q_proj|v_proj|up_proj)\.weight$/.test(n);
      if (adapted) expect(W1.get(n), n).not.toEqual(w);
      else expect(W1.get(n), n).toEqual(w);
    }
    // The folder's weights are base + s·B·A exactly as mergeAdapters computes them…
    const lora = loraOf(cfg)!;
    expect(mergeAdapters(c, lora, new Map([...W0, ...adapters]))).toEqual(W1);
    // …and give the log-probs of the LoRA model (base + adapters) within float tolerance.
    const be = new FastCpuBackend();
    const ids = Int32Array.from({ length: 40 }, (_, i) => (i * 37 + 5) % c.vocabSize);
    const logp = async (m: Transformer<any>) => {
      const T = ids.length;
      const st = m.forward({ B: 1, T, ids: be.fromArray(ids, [T]), targets: be.fromArray(Int32Array.from([...ids.slice(1), 0]), [T]), positions: be.fromArray(Int32Array.from(ids, (_, i) => i), [T]), seg: be.zeros([1, T], 'i32') });
      return [...(await be.read(st.logp))];
    };
    const withAdapters = uploadParams(be, c, W0);
    for (const [n, shape] of adapterShapes(c, lora)) withAdapters.set(n, be.fromArray(adapters.get(n)!, shape, n));
    const lpLora = await logp(new Transformer(be, c, withAdapters, lora));
    const lpMerged = await logp(new Transformer(be, c, uploadParams(be, c, W1)));
    for (let i = 0; i < lpLora.length; i++) expect(lpMerged[i]).toBeCloseTo(lpLora[i]!, 4);
    await base.close();
    await merged.close();

    // Stopped after its first DAPO iteration and resumed: the uninterrupted run's metrics.
    const c1 = await run(1);
    expect(c1.r.stopped).toBe(true);
    const c2 = await run(undefined, c1.dir);
    expect(c2.r.resumedFrom).toEqual({ phase: 'dapo', step: 1 });
    expect(c2.metrics).toEqual(a.metrics);
  }, 1_200_000);

  it('refuses a model.preset that is neither a preset nor a loaded model, naming both ways', async () => {
    const cfg = resolveConfig({ 'model.preset': '/nowhere/model', 'run.phases': 'base', 'bc.episodes': 0 });
    const store = await FileRunStore.open(mkdtempSync(join(tmpdir(), 'webswe-lora-')));
    await expect(train(cfg, { be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 1), test: tasks.slice(0, 1) }))
      .rejects.toThrow(/model\.preset "\/nowhere\/model" is not a from-scratch preset \(scratch-30k, scratch-160k, scratch-400k, scratch-5m\) and no pretrained model was loaded/);
    expect(() => resolveConfig({ 'model.loraTargets': 'q,attn' })).toThrow(/model\.loraTargets: "attn" is not a projection/);
  });
});
