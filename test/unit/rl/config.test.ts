// Run configuration: defaults, overrides, ranges and the messages a user sees.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, FIELDS, flattenConfig, fromSavedConfig, parseOverrides, resolveConfig, RETIRED_TAG, type ConfigValue } from '../../../src/rl/config.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

describe('run config', () => {
  it('resolves defaults into a frozen nested object', () => {
    const c = resolveConfig();
    expect(c.dapo.clipRatioLow).toBe(0.2);
    expect(c.dapo.clipRatioHigh).toBe(0.28);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.dapo)).toBe(true);
    expect(Object.keys(flattenConfig(c))).toHaveLength(FIELDS.length);
  });
  it('applies --set overrides with types', () => {
    const c = resolveConfig(parseOverrides(['dapo.iterations=3', 'dapo.filterGroups=false', 'tasks.train=x.jsonl']));
    expect(c.dapo.iterations).toBe(3);
    expect(c.dapo.filterGroups).toBe(false);
    expect(c.tasks.train).toBe('x.jsonl');
  });
  it('refuses bad values with the field and the allowed range', () => {
    expect(() => resolveConfig(parseOverrides(['dapo.groupSize=1']))).toThrow(/dapo.groupSize: 1 is out of range \(allowed: 2 to 256\)/);
    expect(() => resolveConfig(parseOverrides(['dapo.groupSize=2.5']))).toThrow(/dapo.groupSize: expected an integer/);
    expect(() => parseOverrides(['dapo.lr=fast'])).toThrow(/dapo.lr: expected a number, got "fast"/);
    expect(() => parseOverrides(['dapo.nope=1'])).toThrow(/unknown config field "dapo.nope"/);
    expect(() => parseOverrides(['dapo.lr'])).toThrow(/--set expects key=value/);
    expect(() => resolveConfig(parseOverrides(['dapo.filterMode=sometimes']))).toThrow(/not one of refill, shrink/);
  });
  it('checks fields against each other', () => {
    expect(() => resolveConfig({ 'agent.maxTurns': 8 })).toThrow(/lengthThreshold \(10\) must be below agent.maxTurns \(8\)/);
    expect(() => resolveConfig({ 'run.phases': 'base,ppo' })).toThrow(/unknown phase "ppo"/);
    expect(() => resolveConfig({ 'bc.drillSteps': 8, 'agent.viewHints': true })).toThrow(/agent.editCommand is replace: set agent.editCommand=sub/);
    expect(resolveConfig({ 'bc.copyDrills': 8, 'agent.viewHints': true, 'agent.editCommand': 'sub' }).bc.copyDrills).toBe(8);
    // Without the list a drill names the file's last once-occurring token read off the code (drills.ts).
    expect(resolveConfig({ 'bc.copyDrills': 8, 'agent.editCommand': 'sub' }).bc.copyDrills).toBe(8);
    expect(() => resolveConfig({ 'agent.retryFixes': true })).toThrow(/only agent.triedHints shows/);
  });
  it('documents every field with a default inside its own range', () => {
    for (const f of FIELDS) {
      expect(f.doc.length).toBeGreaterThan(10);
      expect(() => resolveConfig({ [f.path]: f.default })).not.toThrow();
    }
  });
});

describe('run presets', () => {
  it('each resolves (its fields agree with each other)', () => {
    for (const [name, p] of Object.entries(RUN_PRESETS)) expect(() => resolveConfig(p.overrides), name).not.toThrow();
  });
  it("micro is the learning run's values written out flat: each field it sets away from the defaults, and the model and DAPO's iterations", () => {
    const defaults = flattenConfig(resolveConfig());
    const micro = flattenConfig(resolveConfig(RUN_PRESETS.micro!.overrides));
    const changed = {
      'model.trainRows': 2,
      'tasks.train': 'public/tasks/level0/train.jsonl', 'tasks.test': 'public/tasks/level0/test.jsonl', 'tasks.select': 'spread', 'tasks.difficulty': 'token',
      'agent.maxTurns': 14, 'agent.contextTokens': 1536, 'agent.observationTokens': 160, 'agent.actionTokens': 48, 'agent.systemPrompt': 'brief', 'agent.editCommand': 'sub',
      'agent.viewHints': true, 'agent.triedHints': true, 'agent.triedOnRefusal': true, 'agent.retryFixes': true, 'agent.subTests': true, 'agent.testReport': 'brief',
      'agent.sandbox': 'worker', 'agent.commandTimeoutMs': 250,
      'reward.lengthThreshold': 5, 'reward.lengthPenalty': false,
      'bc.episodes': 1000, 'bc.epochs': 1, 'bc.batchEpisodes': 4, 'bc.lr': 5e-3, 'bc.expertStyle': 'bare', 'bc.expertNoise': 0, 'bc.expertGuesses': 3, 'bc.copyDrills': 2000, 'bc.drillSteps': 4000, 'bc.drillUntil': 0.8,
      'rft.tasks': 192, 'rft.samplesPerTask': 8, 'rft.epochs': 3, 'rft.batchEpisodes': 8,
      'dapo.lr': 3e-4, 'dapo.refusedTurns': 'blame',
      'run.checkpointEvery': 2,
    };
    expect(Object.fromEntries(Object.entries(micro).filter(([k, v]) => defaults[k] !== v))).toEqual(changed);
    // The preset names just these, plus two equal to the defaults that define the run.
    expect(Object.keys(RUN_PRESETS.micro!.overrides).sort()).toEqual([...Object.keys(changed), 'model.preset', 'dapo.iterations'].sort());
    expect(RUN_PRESETS.micro!.overrides).toMatchObject({ 'model.preset': 'scratch-160k', 'dapo.iterations': 20 });
    expect(Object.keys(RUN_PRESETS)).toEqual(['micro', 'micro-find', 'tiny', 'qwen-coder-lora']); // micro first: the New run form's and the first screen's preset
  });
});

describe('the micro-find preset', () => {
  it("is micro without the candidate lists, the self-testing sub or the copy drills, with the expert's refusals, on every level-0 task with its issue a user's report", () => {
    const micro = flattenConfig(resolveConfig(RUN_PRESETS.micro!.overrides));
    const find = flattenConfig(resolveConfig(RUN_PRESETS['micro-find']!.overrides));
    expect(Object.fromEntries(Object.entries(find).filter(([k, v]) => micro[k] !== v))).toEqual({
      'tasks.train': 'public/tasks/level0-reports/train.jsonl', 'tasks.test': 'public/tasks/level0-reports/test.jsonl', 'tasks.difficulty': 'any',
      'agent.viewHints': false, 'agent.triedHints': false, 'agent.triedOnRefusal': false, 'agent.retryFixes': false, 'agent.subTests': false,
      'bc.copyDrills': 0, 'bc.drillSteps': 0, 'bc.drillUntil': 0, 'bc.epochs': 4, 'bc.expertRefusals': 0.5, 'dapo.iterations': 40, 'dapo.lr': 1e-4, 'dapo.refusedTurns': 'train',
    });
    // Its task files are bundled: the same tasks as level 0's, the issue text a report.
    for (const split of ['train', 'val', 'test']) {
      const reports = readFileSync(`public/tasks/level0-reports/${split}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { instance_id: string; patch: string; problem_statement: string });
      const calls = readFileSync(`public/tasks/level0/${split}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as (typeof reports)[number]);
      expect(reports.map((t) => [t.instance_id, t.patch])).toEqual(calls.map((t) => [t.instance_id, t.patch]));
      expect(reports.filter((t, i) => t.problem_statement === calls[i]!.problem_statement)).toEqual([]);
      expect(reports.filter((t) => /(^|[\s`'"(])(\.\.?\/)?(src|test)\/|\bline \d+|\.js:\d+/i.test(t.problem_statement)).map((t) => t.instance_id)).toEqual([]);
    }
  });
});

describe('fromSavedConfig: a run config saved before the clean-up', () => {
  // The keys the micro run's config.json held then that this version no longer has, with micro's values.
  const RETIRED_MICRO: Record<string, ConfigValue> = {
    'model.lr': 5e-3, 'tasks.cloneShare': 1, 'agent.subHints': false, 'reward.overlongBuffer': false, 'reward.overlongBufferLen': 512, 'reward.overlongPenaltyFactor': 1,
    'bc.expertGuessOrder': 'last', 'bc.contextLoss': 0, 'bc.copyDrillPick': 'last', 'bc.daggerRounds': 0, 'bc.daggerEpisodes': 512, 'bc.daggerMaxSwitch': 3,
    'bc.daggerGuesses': true, 'bc.daggerTemperature': 0.5, 'bc.daggerEpochs': 1, 'rft.maskRefused': false, 'rft.temperedLoss': true, 'rft.keep': 'solved',
    'dapo.editTurnsOnly': false, 'dapo.epochs': 1, 'dapo.pool': 'all', 'dapo.baseline': 'group', 'dapo.advantageEps': 1e-6, 'dapo.stage2Iterations': 0,
    'dapo.stage2MaxTurns': 80, 'dapo.stage2ContextTokens': 8192, 'dapo.stage2ClipRatioHigh': 0.26, 'dapo.curriculumSolvedFraction': 2 / 3, 'dist.maxOffPolicy': 0,
  };
  const today = flattenConfig(resolveConfig(RUN_PRESETS.micro!.overrides));
  it('renames model.lr to bc.lr, takes the warm-up from rft.warmupSteps, and drops retired keys that hold the kept behaviour', () => {
    const { 'bc.lr': _lr, 'bc.warmupSteps': _warmup, ...kept } = today;
    // The model shape had the run preset's name then: micro.
    expect(flattenConfig(resolveConfig(fromSavedConfig({ ...kept, ...RETIRED_MICRO, 'model.preset': 'micro' })))).toEqual(today);
    expect(fromSavedConfig({ 'model.lr': 2e-3, 'rft.warmupSteps': 4 })).toEqual({ 'bc.lr': 2e-3, 'rft.warmupSteps': 4, 'bc.warmupSteps': 4 });
    expect(fromSavedConfig(today)).toEqual(today); // a config saved by this version passes unchanged
    // A retired choice that nothing on the run's path read (no guesses, no drills, RFT at temperature 1) is dropped too.
    expect(fromSavedConfig({ 'bc.expertGuesses': 0, 'bc.expertGuessOrder': 'random', 'bc.copyDrillPick': 'uniform', 'rft.temperedLoss': false })).toEqual({ 'bc.expertGuesses': 0 });
  });
  it('refuses a retired key that ran another behaviour, naming it and the git tag whose code ran it', () => {
    expect(RETIRED_TAG).toBe('before-config-cleanup');
    const refused: [string, ConfigValue, Record<string, ConfigValue>][] = [
      ['bc.daggerRounds', 2, {}], ['bc.expertGuessOrder', 'random', { 'bc.expertGuesses': 3 }], ['rft.temperedLoss', false, { 'rft.temperature': 0.5 }],
      ['reward.overlongBuffer', true, {}], ['dapo.epochs', 4, {}], ['dapo.baseline', 'command', {}], ['tasks.cloneShare', 0.5, {}],
    ];
    for (const [path, v, with_] of refused) {
      const saved = { ...today, ...with_, [path]: v };
      expect(() => fromSavedConfig(saved), path).toThrow(ConfigError);
      expect(() => fromSavedConfig(saved), path).toThrow(`this run was made with ${path}=${JSON.stringify(v)}, which this version no longer has: continue it at the git tag before-config-cleanup`);
    }
  });
});

describe('model.preset', () => {
  it('names the from-scratch shapes apart from the run presets, and refuses an old name naming the new one', () => {
    expect(RUN_PRESETS.micro!.overrides['model.preset']).toBe('scratch-160k');
    expect(() => resolveConfig({ 'model.preset': 'micro' })).toThrow('model.preset: "micro" is now called scratch-160k (the from-scratch shapes are named by their size; run presets such as --preset micro keep their names)');
    expect(() => resolveConfig(parseOverrides(['model.preset=tiny']))).toThrow(/"tiny" is now called scratch-5m/);
    expect(fromSavedConfig({ 'model.preset': 'nano' })).toEqual({ 'model.preset': 'scratch-30k' });
    expect(fromSavedConfig({ 'model.preset': 'Qwen/Qwen2.5-0.5B' })).toEqual({ 'model.preset': 'Qwen/Qwen2.5-0.5B' });
    expect(resolveConfig({ 'model.preset': 'constructor' }).model.preset).toBe('constructor'); // not a shape: a folder or Hub id
  });
});

describe('dapo.warmupSteps', () => {
  it('warms the DAPO learning rate up linearly over its first optimiser steps, then holds it', async () => {
    const { dapoLr } = await import('../../../src/rl/dapo.ts');
    const cfg = resolveConfig({ 'dapo.lr': 1e-3, 'dapo.warmupSteps': 4 });
    expect([0, 1, 2, 3, 4, 50].map((s) => dapoLr(cfg, s))).toEqual([2.5e-4, 5e-4, 7.5e-4, 1e-3, 1e-3, 1e-3]);
    expect(dapoLr(resolveConfig({ 'dapo.lr': 1e-3 }), 0)).toBe(1e-3); // 0: no warm-up (the default)
  });
});

describe('RunConfig', () => {
  it('is typed from FIELDS: sections and fields known to the compiler, choices as unions', () => {
    const cfg = resolveConfig();
    // @ts-expect-error a misspelt field does not compile (`npm test` typechecks the tests first)
    void cfg.dapo.grupSize;
    const mode: 'refill' | 'shrink' = cfg.dapo.filterMode;
    const g: number = cfg.dapo.groupSize;
    const penalty: boolean = cfg.reward.lengthPenalty;
    expect([mode, g, penalty]).toEqual(['refill', 8, true]);
  });
});
