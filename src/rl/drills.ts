// Copy drills (bc.copyDrills, bc.drillSteps): short supervised examples that train the one skill a one-token `sub`
// needs and behaviour cloning teaches too rarely: name text that is in the file just viewed. A drill is an expert
// episode cut after its `view` (the issue and the numbered file, ending with its candidate list under
// agent.viewHints), then one assistant turn `sub X Y` where X is the file's last operator or number that occurs once
// (the list's last, when the view lists them; without the list the drill teaches reading it off the code), the first
// guess of an expert guessing from the end (a drill is skipped when X has no replacement), and Y its first fix with
// agent.retryFixes, else a same-kind replacement. Loss on that turn alone (the context is the episode's, unchanged).
import { fixesFor, nameable, onceTokens, replacementFor } from '../agent/tools.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { Task } from '../tasks/schema.ts';
import { Rng } from '../random.ts';
import type { EpisodeTokens } from './pack.ts';

interface Encoder {
  encode(text: string): number[];
}

/**
 * `count` drills from the expert episodes `ts` (cycled in a seeded order; an episode without a successful
 * whole-file `view` as its first turn, or whose file has no candidate, is skipped). Deterministic in (ts, tasks, seed).
 */
export function copyDrills(ts: readonly Trajectory[], tasks: ReadonlyMap<string, Task>, tokenizer: Encoder, count: number, seed: number, firstFix = false): EpisodeTokens[] {
  const rng = new Rng(seed);
  const usable = ts.flatMap((t) => {
    const view = t.turns[0];
    const obs = t.tokens?.segments.find((s) => s.kind === 'observation' && s.turn === 0);
    const act = t.tokens?.segments.find((s) => s.kind === 'assistant' && s.turn === 0);
    const path = view?.file;
    const text = path ? tasks.get(t.task_id)?.files[path] : undefined;
    if (view?.command?.name !== 'view' || view.status !== 'ok' || !obs || !act || text === undefined) return [];
    const once = onceTokens(text);
    const candidates = once.slice(-1).filter((x) => nameable(x) && view.observation.includes(x));
    return candidates.length ? [{ t, ids: t.tokens!.ids.slice(0, obs.end), eot: t.tokens!.ids[act.end - 1]!, candidates }] : [];
  });
  if (!usable.length) throw new Error(`copy drills: none of the ${ts.length} expert episodes opens with a view of a file that has an operator or number to name; set bc.copyDrills=0, or train on level-0/1 tasks (tasks.difficulty=token) whose views show their candidates`);
  const order = rng.shuffle(usable.map((_, i) => i));
  return Array.from({ length: count }, (_, i) => {
    const u = usable[order[i % order.length]!]!;
    const x = u.candidates[rng.int(u.candidates.length)]!;
    const turn = [...tokenizer.encode(`\`\`\`command\nsub ${x} ${firstFix ? fixesFor(x)[0] : replacementFor(x, rng)}\n\`\`\``), u.eot];
    return { ids: [...u.ids, ...turn], mask: [...u.ids.map(() => 0), ...turn.map(() => 1)] };
  });
}
