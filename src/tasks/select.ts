// Choosing the tasks a run uses: the config's rule "the N shortest tasks" (fewest characters of
// repository text, ties by instance_id, so the choice is deterministic) or "spread" (a seeded order
// that takes one task of every repository before a second of any: N held-out tasks then cover as many
// functions or libraries as they can), and the difficulty tier.
import { Rng } from '../random.ts';
import type { Task } from './schema.ts';

export const taskSize = (t: Task): number => Object.values(t.files).reduce((a, f) => a + f.length, 0);

export type TaskSelection = 'shortest' | 'spread';

export function selectTasks(tasks: readonly Task[], opts: { max: number; difficulty: string; select?: TaskSelection; seed?: number }): Task[] {
  let out = tasks.filter((t) => opts.difficulty === 'any' || t.difficulty === opts.difficulty);
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
