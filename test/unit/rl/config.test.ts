// Run configuration: defaults, overrides, ranges and the messages a user sees.
import { describe, expect, it } from 'vitest';
import { FIELDS, flattenConfig, parseOverrides, resolveConfig } from '../../../src/rl/config.ts';
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
    expect(() => resolveConfig({ 'bc.daggerGuesses': true })).toThrow(/bc.daggerGuesses .* bc.expertGuesses is 0 .* set bc.expertGuesses above 0/);
    expect(() => resolveConfig({ 'bc.daggerGuesses': true, 'bc.expertGuesses': 3 })).toThrow(/bc.expertGuessOrder random/);
    expect(resolveConfig({ 'bc.daggerGuesses': true, 'bc.expertGuesses': 3, 'bc.expertGuessOrder': 'last' }).bc.daggerGuesses).toBe(true);
    expect(() => resolveConfig({ 'bc.copyDrillPick': 'last' })).toThrow(/only agent.viewHints shows: set agent.viewHints=true/);
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
  it("micro-guess is micro-v1 with E58's agent and cloning and E59's RFT (docs/learning.md), nothing else", () => {
    const micro = flattenConfig(resolveConfig(RUN_PRESETS['micro-v1']!.overrides));
    const guess = flattenConfig(resolveConfig(RUN_PRESETS['micro-guess']!.overrides));
    const changed = Object.fromEntries(Object.entries(guess).filter(([k, v]) => micro[k] !== v));
    expect(changed).toEqual({
      'agent.maxTurns': 14, 'agent.contextTokens': 1536, 'agent.viewHints': true, 'agent.triedHints': true, 'agent.triedOnRefusal': true, 'agent.subTests': true,
      'bc.expertGuesses': 3, 'bc.expertGuessOrder': 'last', 'bc.daggerGuesses': true, 'bc.copyDrills': 2000, 'bc.copyDrillPick': 'last',
      'rft.tasks': 192, 'rft.temperedLoss': true,
    });
  });
  it('micro-retry is micro-guess with agent.retryFixes (finding 35), nothing else', () => {
    const guess = flattenConfig(resolveConfig(RUN_PRESETS['micro-guess']!.overrides));
    const retry = flattenConfig(resolveConfig(RUN_PRESETS['micro-retry']!.overrides));
    expect(Object.fromEntries(Object.entries(retry).filter(([k, v]) => guess[k] !== v))).toEqual({ 'agent.retryFixes': true });
  });
  it('micro is micro-retry without DAgger, at temperature 1, on the worker sandbox with a 250 ms limit (finding 36), on two balanced rows a step, after 1,000 steps of drills alone, evaluated on every held-out task, with 20 DAPO iterations whose refused subs take only blame, nothing else', () => {
    const retry = flattenConfig(resolveConfig(RUN_PRESETS['micro-retry']!.overrides));
    const micro = flattenConfig(resolveConfig(RUN_PRESETS.micro!.overrides));
    expect(Object.fromEntries(Object.entries(micro).filter(([k, v]) => retry[k] !== v))).toEqual({
      'model.trainRows': 2, 'bc.drillSteps': 1000, 'tasks.maxTest': 0, 'agent.sandbox': 'worker', 'agent.commandTimeoutMs': 250, 'bc.daggerRounds': 0, 'rft.temperature': 1, 'dapo.temperature': 1, 'eval.temperature': 1, 'dapo.iterations': 20, 'dapo.refusedTurns': 'blame',
    });
    expect(Object.keys(RUN_PRESETS)[0]).toBe('micro'); // the New run form's and the first screen's preset
  });
});

describe('dapo.warmupSteps', () => {
  it('warms the DAPO learning rate up linearly over its first optimiser steps, then holds it', async () => {
    const { dapoLr } = await import('../../../src/rl/phases.ts');
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
