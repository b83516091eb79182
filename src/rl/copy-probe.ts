// The copy probe: does the model name the file's last candidate (the last operator or number that occurs once,
// the one the view lists last under agent.viewHints), on views it was not trained on?
// The one skill a from-scratch `micro` base needs (docs/learning.md: "the copy") forms in a sudden drop of
// the cloning loss whose step varies with the seed, and on some seeds never; the probe reads it directly.
// An item is an expert episode on a task cloning does not use, cut after its whole-file view (the issue and
// the numbered file, ending with its candidate list under agent.viewHints), then the turn `sub X Y` with X that token:
// the item passes when the model's argmax (teacher-forced, no sampling) is right at every token up to and
// including X. One batched forward over the items, no gradient; no random draw, so a run's numbers do not
// depend on whether or how often it probes.
import { fixesFor, nameable, onceTokens } from '../agent/tools.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { Task } from '../tasks/schema.ts';
import { packEpisodes, type EpisodeTokens } from './pack.ts';
import { scoreActions } from './steps.ts';

interface Encoder {
  encode(text: string): number[];
}

/** One probe item: the episode's tokens through the answer, mask 1 on the answer's tokens up to X. */
export type ProbeItem = EpisodeTokens;

/** Items from expert episodes whose first turn viewed a file with a nameable last candidate (others are skipped). */
export function copyProbeItems(ts: readonly Trajectory[], tasks: ReadonlyMap<string, Task>, tokenizer: Encoder): ProbeItem[] {
  return ts.flatMap((t) => {
    const view = t.turns[0];
    const obs = t.tokens?.segments.find((s) => s.kind === 'observation' && s.turn === 0);
    const text = view?.file ? tasks.get(t.task_id)?.files[view.file] : undefined;
    if (view?.command?.name !== 'view' || view.status !== 'ok' || !obs || text === undefined) return [];
    const x = onceTokens(text).at(-1);
    if (x === undefined || !nameable(x) || !view.observation.includes(x)) return [];
    const ctx = t.tokens!.ids.slice(0, obs.end);
    const upToX = tokenizer.encode(`\`\`\`command\nsub ${x}`);
    const turn = tokenizer.encode(`\`\`\`command\nsub ${x} ${fixesFor(x)[0] ?? x}\n\`\`\``);
    return [{ ids: [...ctx, ...turn], mask: [...ctx.map(() => 0), ...turn.map((_, i) => (i < upToX.length ? 1 : 0))] }];
  });
}

/** The share of items the model gets right (every scored token its argmax); 0 when there are none. */
export async function copyProbe<T extends Tensor>(model: Transformer<T>, items: readonly ProbeItem[]): Promise<number> {
  if (!items.length) return 0;
  const rows = packEpisodes(items, Math.max(...items.map((e) => e.ids.length)));
  const { at, logits, V } = await scoreActions(model, rows);
  const wrong = new Set<number>();
  at.forEach((pos, j) => {
    let best = 0;
    for (let v = 1; v < V; v++) if (logits[j * V + v]! > logits[j * V + best]!) best = v;
    if (best !== rows.targets[pos]) wrong.add(rows.episode[pos]!);
  });
  return 1 - wrong.size / items.length;
}
