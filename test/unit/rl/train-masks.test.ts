// The token masks a supervised step trains on. rft.maskRefused: in a kept episode, a turn the
// environment refused (a sub whose text is not in the file) is masked out of the loss, as format errors
// always are; the successful edit after it, the view and the run_tests that failed stay trained.
// bc.contextLoss: the environment's tokens (prompt, observations) are marked for the language-model
// loss, no assistant token is. dapo.editTurnsOnly: only the edit turns are trained. dapo.baseline =
// command: each turn's tokens carry the advantage of its command; dapo.refusedTurns = blame: a refused turn only a
// negative one. A level-0 val task played in a real node sandbox: the expert's own turns
// with one blind guess put after its view.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agent/episode.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { PLAIN_CHATML } from '../../../src/agent/render.ts';
import { ReplayPolicy } from '../../../src/agent/replay.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { commandOf, episodeTokens, refused, solved, tokensByKey, turnAdvantage } from '../../../src/rl/collect.ts';
import { TAKEN_BACK } from '../../../src/agent/tools.ts';
import { packEpisodes } from '../../../src/rl/pack.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'public/tasks/level0/val.jsonl';
const task = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks[0]!;
const opts = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 12 }), { sandbox: 'node' });

describe('training masks: rft.maskRefused, bc.contextLoss, dapo.editTurnsOnly', () => {
  it('is off by default and a bool field', () => {
    expect(resolveConfig({}).rft.maskRefused).toBe(false);
    expect(resolveConfig({ 'rft.maskRefused': true }).rft.maskRefused).toBe(true);
    expect(() => resolveConfig({ 'rft.maskRefused': 'yes' as unknown as boolean })).toThrow(/rft\.maskRefused/);
    expect(resolveConfig({}).dapo.editTurnsOnly).toBe(false);
    expect(resolveConfig({}).bc.contextLoss).toBe(0);
    expect(resolveConfig({}).bc.copyDrills).toBe(0);
    expect(() => resolveConfig({ 'bc.contextLoss': 2 })).toThrow(/bc\.contextLoss/);
  });

  it('masks what each option names in a solved episode (the refused sub; the non-edit turns) and marks its context', { timeout: 60_000 }, async () => {
    const expert = await runEpisode(task, new ExpertPolicy({ noise: 0, editCommand: 'sub', style: 'bare' }), createNodeSandbox, opts, 1);
    const texts = expert.turns.map((x) => x.text);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    const guess = '```command\nsub @@@ +\n```'; // "@@@" is in no level-0 file
    const trained = trainBpe([task.problem_statement, ...Object.values(task.files), ...texts, guess], { vocabSize: 400 });
    const tokenizer = Tokenizer.fromJson(trained.tokenizerJson, trained.tokenizerConfig);
    const t = await runEpisode(task, new ReplayPolicy([texts[0]!, guess, ...texts.slice(1)]), createNodeSandbox, { ...opts, tokenizer, chatFormat: PLAIN_CHATML }, 1);
    expect(solved(t)).toBe(true);
    expect(t.turns.map((x) => refused(x))).toEqual(t.turns.map((_, i) => i === 1));
    expect(t.turns[1]!.observation).toMatch(/is not in the file/);
    const seg = (turn: number) => t.tokens!.segments.find((s) => s.kind === 'assistant' && s.turn === turn)!;
    const trainedIn = (mask: readonly number[], turn: number) => mask.slice(seg(turn).start, seg(turn).end).some((m) => m === 1);
    const masked = episodeTokens(t, { maskFormatErrors: true, maskRefused: true }).mask;
    const plain = episodeTokens(t, { maskFormatErrors: true }).mask;
    expect(trainedIn(plain, 1)).toBe(true);
    expect(trainedIn(masked, 1)).toBe(false);
    for (let i = 0; i < t.turns.length; i++) if (i !== 1) expect(trainedIn(masked, i), `turn ${i}`).toBe(true);
    // Only the refused turn's tokens differ between the two masks.
    const diff = masked.flatMap((m, i) => (m !== plain[i] ? [i] : []));
    expect(diff.length).toBeGreaterThan(0);
    expect(diff.every((i) => i >= seg(1).start && i < seg(1).end)).toBe(true);
    // bc.contextLoss: the action mask as without it; context marks exactly the non-assistant segments.
    const withContext = episodeTokens(t, { maskFormatErrors: true, contextLoss: true });
    expect(withContext.mask).toEqual(plain);
    expect(episodeTokens(t, { maskFormatErrors: true }).context).toBeUndefined();
    const kinds = new Set(t.tokens!.segments.map((s) => s.kind));
    expect([...kinds].sort()).toEqual(['assistant', 'observation', 'prompt']);
    for (const s of t.tokens!.segments) expect(withContext.context!.slice(s.start, s.end).every((c) => c === (s.kind === 'assistant' ? 0 : 1)), `${s.kind} ${s.turn}`).toBe(true);
    expect(withContext.context!.length).toBe(t.tokens!.ids.length);
    // dapo.editTurnsOnly: only the sub turns (the refused guess and the fix) keep their tokens.
    const edits = episodeTokens(t, { maskFormatErrors: false, editTurnsOnly: true, advantage: 1 });
    expect(t.turns.map((x) => x.command?.name)).toEqual(['view', 'sub', 'sub', 'run_tests', 'submit']);
    expect(t.turns.map((_, i) => trainedIn(edits.mask, i))).toEqual([false, true, true, false, false]);
    expect(edits.advantage).toBe(1);
    // dapo.baseline = command: each turn's tokens carry its command's advantage, and the packed rows score
    // every trained token with it; tokensByKey counts the trained tokens per command.
    const byCommand = tokensByKey(t, episodeTokens(t, { maskFormatErrors: false }), commandOf);
    expect(Object.keys(byCommand).sort()).toEqual(['run_tests', 'sub', 'submit', 'view']);
    for (const [k, n] of Object.entries(byCommand)) {
      const turns = t.turns.flatMap((x, i) => (x.command?.name === k ? [i] : []));
      expect(n, k).toBe(turns.reduce((a, i) => a + plain.slice(seg(i).start, seg(i).end).reduce((x, y) => x + y, 0), 0));
    }
    const value: Record<string, number> = { view: 0.5, sub: -2, run_tests: 0.25, submit: 3 };
    const perTurn = episodeTokens(t, { maskFormatErrors: false, turnAdvantage: (x) => value[commandOf(x)]! });
    expect(perTurn.advantages!.length).toBe(t.tokens!.ids.length);
    const rows = packEpisodes([perTurn], t.tokens!.ids.length);
    let scored = 0;
    for (let o = 0; o < rows.T; o++) {
      if (!rows.mask[o]) continue;
      const turn = t.tokens!.segments.find((s) => s.kind === 'assistant' && o + 1 >= s.start && o + 1 < s.end)!.turn;
      expect(rows.adv[o], `token ${o + 1}`).toBe(value[t.turns[turn]!.command!.name]!);
      scored++;
    }
    expect(scored).toBe(Object.values(byCommand).reduce((a, b) => a + b, 0));
    // dapo.refusedTurns = blame: the refused guess (turn 1) keeps only a negative advantage; a sub whose tests
    // failed and were taken back (agent.subTests) is a tried guess, not a refusal, and keeps its advantage.
    expect([2, -2].map((a) => turnAdvantage(t.turns[1]!, a, true))).toEqual([0, -2]);
    expect([2, -2].map((a) => turnAdvantage(t.turns[1]!, a, false))).toEqual([2, -2]);
    expect([2, -2].map((a) => turnAdvantage(t.turns[2]!, a, true))).toEqual([2, -2]);
    const tested = { ...t.turns[2]!, status: 'error' as const, exit_code: 1, observation: `edited src/x.js (line 3) and ran the tests; ${TAKEN_BACK}:\nrun_tests: 1 failed, 2 passed (exit code 1)` };
    expect(refused(tested)).toBe(true);
    expect(turnAdvantage(tested, 2, true)).toBe(2);
  });
});
