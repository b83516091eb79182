// A contributor (`webswe contribute`, the app's Contribute view): read the run's manifest once, then take
// work items one at a time, load the weights of each item's policy version (the last two kept; a LoRA run's
// base once, then each version's adapters on it), play the
// item's episodes in this machine's sandbox (play.ts) while extending the lease, publish the result on
// this contributor's own subject and ack the item. It trusts the learner's items (they come from the
// run it chose to join) but checks their form, and its sandbox isolates the task's code as always.
import { chatFormatFor, stopIdsFor } from '../agent/render.ts';
import { utf8Encode } from '../model/dtypes.ts';
import { parseHfConfig, type ModelConfig } from '../model/config.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { Transformer } from '../model/transformer.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { resolveConfig, type ConfigValue } from '../rl/config.ts';
import { episodeOptions } from '../rl/episode-options.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { RunBus } from './bus.ts';
import { playItem } from './play.ts';
import { adaptersBase, freeModel, loraBaseOf, manifestLora, modelOfVersion, type LoraBase } from './version-weights.ts';
import { parseWorkItem, type RunManifest } from './protocol.ts';

export interface ContributeOptions<T extends Tensor> {
  bus: RunBus;
  /** This contributor's user name on the server (its results subject). */
  user: string;
  be: Backend<T>;
  sandbox: SandboxFactory;
  /** Stop after this many items (0: no limit). */
  maxItems?: number;
  /** Stop after this many ms without work (0: never). */
  idleMs?: number;
  shouldStop?(): boolean;
  onEvent?(e: ContributorEvent): void;
}

export type ContributorEvent =
  | { kind: 'joined'; run: string; model: string }
  | { kind: 'item'; item: string; version: number; episodes: number; solved: number; seconds: number }
  | { kind: 'idle'; seconds: number }
  /** The run's learner has not published its manifest yet. */
  | { kind: 'waiting'; seconds: number }
  /** The learner's verdicts on this contributor's results so far (its tallies, after each of its rounds). */
  | { kind: 'acceptance'; accepted: number; rejected: number; /** Rejections by reason (protocol.ts REJECT_REASONS). */ byReason: Record<string, number> };

export interface ContributeSummary {
  items: number;
  episodes: number;
  solved: number;
}

export async function contribute<T extends Tensor>(o: ContributeOptions<T>): Promise<ContributeSummary> {
  // The learner may not have started yet: wait for its manifest (within the idle bound).
  let manifest: RunManifest | undefined;
  const waitFrom = performance.now();
  while (!manifest) {
    try {
      manifest = await o.bus.getManifest();
    } catch (e) {
      if (!/not found|no manifest/i.test((e as Error).message)) throw e;
      const waited = performance.now() - waitFrom;
      if (o.shouldStop?.() || (o.idleMs && waited >= o.idleMs)) throw new Error(`run ${o.bus.run} has no manifest on this server (waited ${Math.round(waited / 1000)} s): is the run id right, and has its learner started?`);
      o.onEvent?.({ kind: 'waiting', seconds: waited / 1000 });
      await new Promise<void>((r) => setTimeout(() => r(), 1000));
    }
  }
  const cfg = resolveConfig(manifest.config as Record<string, ConfigValue>);
  const mc: ModelConfig = parseHfConfig(manifest.model.config, `run ${manifest.run}'s manifest`);
  const tokenizer = Tokenizer.fromJson(manifest.model.tokenizerJson, manifest.model.tokenizerConfig);
  const stopIds = stopIdsFor(tokenizer, mc.eosTokenIds);
  const episodes = episodeOptions(cfg, { tokenizer, chatFormat: chatFormatFor(tokenizer) });
  o.onEvent?.({ kind: 'joined', run: manifest.run, model: `${mc.numLayers} layers, C ${mc.hiddenSize}` });
  const lora = manifestLora(manifest.model.lora);
  // A LoRA run: its base read once (at the first item; again if a version's adapters name another base, as after
  // the learner restarted the run with another model), each version's adapters on it.
  let base: LoraBase<T> | undefined;
  const models = new Map<number, Transformer<T>>();
  const freeAll = () => {
    for (const m of models.values()) freeModel(o.be, m, base?.params);
    models.clear();
    for (const p of base?.params.values() ?? []) o.be.free(p);
    base = undefined;
  };
  const modelFor = async (version: number): Promise<Transformer<T>> => {
    const have = models.get(version);
    if (have) return have;
    let m: Transformer<T>;
    if (lora) {
      const bytes = await o.bus.getAdapters(version);
      const on = await adaptersBase(bytes, version);
      if (!base || (on !== undefined && on !== base.sha256)) {
        freeAll();
        base = await loraBaseOf(o.be, mc, await o.bus.getBaseWeights(), lora);
      }
      m = await modelOfVersion(o.be, mc, bytes, version, base);
    } else m = await modelOfVersion(o.be, mc, await o.bus.getWeights(version), version);
    models.set(version, m);
    for (const [v, old] of models) if (models.size > 2 && v !== version) {
      freeModel(o.be, old, base?.params);
      models.delete(v);
    }
    return m;
  };
  const sum: ContributeSummary = { items: 0, episodes: 0, solved: 0 };
  let idleSince = performance.now();
  // The learner's verdicts on this contributor's results (its tallies), told when they change.
  let told = '';
  const verdicts = async () => {
    const mine = (await o.bus.getTallies().catch(() => null))?.[o.user];
    if (!mine || JSON.stringify(mine) === told) return;
    told = JSON.stringify(mine);
    o.onEvent?.({ kind: 'acceptance', accepted: mine.accepted, rejected: Object.values(mine.rejected).reduce((a: number, b: number) => a + b, 0), byReason: { ...mine.rejected } });
  };
  // The versions' models and a LoRA base are freed when contributing ends (a tab's cached backend outlives it).
  try {
    while (!o.shouldStop?.() && !(o.maxItems && sum.items >= o.maxItems)) {
      const w = await o.bus.nextWork(2000);
      if (!w) {
        const idle = performance.now() - idleSince;
        o.onEvent?.({ kind: 'idle', seconds: idle / 1000 });
        await verdicts();
        if (o.idleMs && idle >= o.idleMs) break;
        continue;
      }
      const t0 = performance.now();
      let item;
      try {
        item = parseWorkItem(w.data);
        if (item.run !== manifest.run) throw new Error(`work item of run ${item.run} on run ${manifest.run}'s queue`);
      } catch (e) {
        w.ack(); // not for us to play; the learner reissues what it misses
        throw new Error(`a malformed work item: ${(e as Error).message}`);
      }
      // Extend the lease while the episodes run (the server would give the item to another after ack_wait).
      let keep: ReturnType<typeof setTimeout> | undefined;
      const tick = () => (keep = setTimeout(() => (w.working(), tick()), 5000));
      tick();
      try {
        const model = await modelFor(item.policy_version);
        const res = await playItem(item, { model, tokenizer, stopIds, sandbox: o.sandbox, episodes });
        await o.bus.publishResult(o.user, utf8Encode(JSON.stringify(res)));
        w.ack();
        const solved = (res.trajectories as { reward: { tests: number } }[]).filter((t) => t.reward.tests === 1).length;
        sum.items++, (sum.episodes += item.episodes.length), (sum.solved += solved);
        o.onEvent?.({ kind: 'item', item: item.item, version: item.policy_version, episodes: item.episodes.length, solved, seconds: (performance.now() - t0) / 1000 });
      } catch (e) {
        w.nak();
        throw e;
      } finally {
        clearTimeout(keep);
      }
      idleSince = performance.now();
      await verdicts();
    }
  } finally {
    freeAll();
  }
  return sum;
}
