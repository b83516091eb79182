// Copy drills (bc.copyDrills): each is an expert episode cut after its view plus one `sub X Y` turn whose
// X is the last once-occurring operator or number of the viewed file (the end of the view's candidate list under
// agent.viewHints; here no list: the token read off the code), trained alone; seeded and deterministic. Real expert episodes on level-0 val tasks in a node sandbox,
// rendered with a BPE tokenizer trained on them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agent/episode.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { PLAIN_CHATML } from '../../../src/agent/render.ts';
import { fixesFor, onceTokens, replacementFor } from '../../../src/agent/tools.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { copyDrills } from '../../../src/rl/drills.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { Rng } from '../../../src/random.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'public/tasks/level0/val.jsonl';
const tasks = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks.slice(0, 3);
const opts = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 12 }), { sandbox: 'node' });

describe('copy drills', () => {
  it('replaces an operator by its kind and a number by a neighbour', () => {
    const rng = new Rng(1);
    expect(replacementFor('<=', rng)).toBe('<');
    expect(replacementFor('!==', rng)).toBe('===');
    expect(replacementFor('0', rng)).toBe('1');
    expect(['2', '4']).toContain(replacementFor('3', rng));
    expect(replacementFor('!', rng)).toBeUndefined();
  });

  it("cuts expert episodes after the view and names the last once-occurring candidate of the viewed file", { timeout: 60_000 }, async () => {
    const expert = new ExpertPolicy({ noise: 0, editCommand: 'sub', style: 'bare' });
    const plain = await Promise.all(tasks.map((t, i) => runEpisode(t, expert, createNodeSandbox, opts, i)));
    const trained = trainBpe(tasks.flatMap((t, i) => [t.problem_statement, ...Object.values(t.files), ...plain[i]!.turns.map((x) => x.text)]), { vocabSize: 400 });
    const tokenizer = Tokenizer.fromJson(trained.tokenizerJson, trained.tokenizerConfig);
    const ts = await Promise.all(tasks.map((t, i) => runEpisode(t, expert, createNodeSandbox, { ...opts, tokenizer, chatFormat: PLAIN_CHATML }, i)));
    const byId = new Map(tasks.map((t) => [t.instance_id, t]));
    const drills = copyDrills(ts, byId, tokenizer, 60, 7);
    expect(drills).toHaveLength(60);
    expect(copyDrills(ts, byId, tokenizer, 60, 7)).toEqual(drills);
    expect(copyDrills(ts, byId, tokenizer, 60, 8)).not.toEqual(drills);
    for (const d of drills) {
      const t = ts.find((x) => d.ids.length > x.tokens!.segments.find((s) => s.kind === 'observation' && s.turn === 0)!.end && x.tokens!.ids.slice(0, d.mask.indexOf(1)).every((id, i) => d.ids[i] === id))!;
      expect(t, 'a drill starts with an expert episode up to its view').toBeDefined();
      const cut = t.tokens!.segments.find((s) => s.kind === 'observation' && s.turn === 0)!.end;
      expect(d.mask.indexOf(1)).toBe(cut); // nothing before the drill's turn is trained
      expect(d.mask.slice(cut).every((m) => m === 1)).toBe(true);
      const text = tokenizer.decode(d.ids.slice(cut, -1));
      const m = /^```command\nsub (\S+) (\S+)\n```$/.exec(text);
      expect(m, text).not.toBeNull();
      const once = onceTokens(byId.get(t.task_id)!.files[t.turns[0]!.file!]!);
      expect(m![1], t.task_id).toBe(once.at(-1)); // always the list's last candidate: the one a guess from the list's end copies
      expect(t.turns[0]!.observation).toContain(m![1]);
      // Without agent.viewHints (these episodes) the view lists nothing: X is read off the code itself.
      expect(t.turns[0]!.observation).not.toMatch(/occur once/);
    }
    // agent.retryFixes: the replacement is the token's first fix (fixesFor), never a coin.
    const fixed = copyDrills(ts, byId, tokenizer, 60, 7, true);
    for (const d of fixed) {
      const [, x, y] = /^```command\nsub (\S+) (\S+)\n```$/.exec(tokenizer.decode(d.ids.slice(d.mask.indexOf(1), -1)))!;
      expect(y, x).toBe(fixesFor(x!)[0]);
    }
    expect(fixed.some((d) => /sub \d+ /.test(tokenizer.decode(d.ids.slice(d.mask.indexOf(1), -1))))).toBe(true); // numbers too
    // Episodes whose first turn is no view (here: the view's turn cut off) give no drill: the error names the fix.
    const noView = ts.map((t) => ({ ...t, turns: t.turns.slice(1) }));
    expect(() => copyDrills(noView, byId, tokenizer, 4, 7)).toThrow(/none of the 3 expert episodes opens with a view.*set bc\.copyDrills=0/);
  });
});
