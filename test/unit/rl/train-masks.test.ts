// The token masks and per-turn advantages a training step uses. Format errors (and the expert's no_train
// turns) are masked out of the loss; every other turn stays trained, a refused one included. With a per-turn
// advantage each assistant turn's tokens carry its own in the packed rows; dapo.refusedTurns = blame: a refused
// turn only a negative one. A level-0 val task played in a real node sandbox: the expert's own turns with one
// blind guess put after its view.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agent/episode.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { PLAIN_CHATML } from '../../../src/agent/render.ts';
import { ReplayPolicy } from '../../../src/agent/replay.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { episodeTokens, refused, solved, turnAdvantage } from '../../../src/rl/collect.ts';
import { TAKEN_BACK } from '../../../src/agent/tools.ts';
import { packEpisodes } from '../../../src/rl/pack.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'public/tasks/level0/val.jsonl';
const task = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks[0]!;
const opts = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 12 }), { sandbox: 'node' });

describe('training masks and per-turn advantages', () => {
  it('trains every turn of a solved episode, the refused sub included, and scores each turn at its own advantage', { timeout: 60_000 }, async () => {
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
    const plain = episodeTokens(t, { maskFormatErrors: true });
    expect(t.turns.map((x) => x.command?.name)).toEqual(['view', 'sub', 'sub', 'run_tests', 'submit']);
    for (let i = 0; i < t.turns.length; i++) expect(trainedIn(plain.mask, i), `turn ${i}`).toBe(true);
    expect(plain.advantages).toBeUndefined();
    // Only the assistant segments are trained: the prompt and the observations never are.
    for (const s of t.tokens!.segments) if (s.kind !== 'assistant') expect(plain.mask.slice(s.start, s.end).every((m) => m === 0), `${s.kind} ${s.turn}`).toBe(true);
    // A format error is masked when maskFormatErrors says so.
    const bad = { ...t, turns: t.turns.map((x, i) => (i === 3 ? { ...x, format_error: 'no command block' } : x)) };
    expect(trainedIn(episodeTokens(bad, { maskFormatErrors: true }).mask, 3)).toBe(false);
    expect(trainedIn(episodeTokens(bad, { maskFormatErrors: false }).mask, 3)).toBe(true);
    // Per-turn advantages: each turn's tokens carry its own, and the packed rows score every trained token with it.
    const value: Record<string, number> = { view: 0.5, sub: -2, run_tests: 0.25, submit: 3 };
    const perTurn = episodeTokens(t, { maskFormatErrors: false, turnAdvantage: (x) => value[x.command!.name]! });
    expect(perTurn.advantages!.length).toBe(t.tokens!.ids.length);
    const rows = packEpisodes([perTurn], t.tokens!.ids.length);
    let scored = 0;
    for (let o = 0; o < rows.T; o++) {
      if (!rows.mask[o]) continue;
      const turn = t.tokens!.segments.find((s) => s.kind === 'assistant' && o + 1 >= s.start && o + 1 < s.end)!.turn;
      expect(rows.adv[o], `token ${o + 1}`).toBe(value[t.turns[turn]!.command!.name]!);
      scored++;
    }
    expect(scored).toBe(perTurn.mask.reduce((a, b) => a + b, 0)); // every trained token (the prompt's first is never one)
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
