// Choosing the tasks a run uses: the config's rule "the N shortest tasks" (fewest characters of
// repository text, ties by instance_id, so the choice is deterministic) or "spread" (a seeded order
// that takes one task of every repository before a second of any: N held-out tasks then cover as many
// functions or libraries as they can), and the difficulty tier: easy, hard, or token (the lowest rung:
// a one-token fix, `sub OLD NEW`, where OLD occurs once in its file).
import { Rng } from '../random.ts';
import type { Task } from './schema.ts';

export const taskSize = (t: Task): number => Object.values(t.files).reduce((a, f) => a + f.length, 0);

export type TaskSelection = 'shortest' | 'spread';

/** A task whose one bug is fixed by one token that occurs once in its file: `sub OLD NEW` with no line
 *  and no quotes (e.g. `sub <= <`, `sub 1 0`, `sub -= +=`). From the mutation record of levels 0 and 1. */
export function isTokenFix(t: Task): boolean {
  const m = t.mutation as { original?: unknown; mutated?: unknown; location?: { file?: unknown }; parts?: unknown } | undefined;
  if (!m || m.parts || typeof m.original !== 'string' || typeof m.mutated !== 'string' || typeof m.location?.file !== 'string') return false;
  const src = t.files[m.location.file];
  const plain = (s: string) => s.length > 0 && !/[\s'"`]/.test(s);
  return src !== undefined && plain(m.mutated) && plain(m.original) && src.indexOf(m.mutated) === src.lastIndexOf(m.mutated);
}

const inTier = (t: Task, difficulty: string) => difficulty === 'any' || (difficulty === 'token' ? isTokenFix(t) : t.difficulty === difficulty);

export function selectTasks(tasks: readonly Task[], opts: { max: number; difficulty: string; select?: TaskSelection; seed?: number }): Task[] {
  let out = tasks.filter((t) => inTier(t, opts.difficulty));
  out = [...out].sort((a, b) => taskSize(a) - taskSize(b) || a.instance_id.localeCompare(b.instance_id));
  if (opts.select === 'spread') {
    const rng = new Rng(opts.seed ?? 1);
    const byRepo = new Map<string, Task[]>();
    for (const t of rng.shuffle([...out].sort((a, b) => a.instance_id.localeCompare(b.instance_id)))) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
    const repos = [...byRepo.values()];
    const dealt: Task[] = [];
    for (let i = 0; dealt.length < out.length; i++) for (const r of repos) if (i < r.length) dealt.push(r[i]!);
    out = dealt;
  }
  return opts.max > 0 ? out.slice(0, opts.max) : out;
}
