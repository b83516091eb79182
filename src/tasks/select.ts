// Choosing the tasks a run uses: the config's rule "the N shortest tasks" (fewest characters of
// repository text, ties by instance_id, so the choice is deterministic) and the difficulty tier.
import type { Task } from './schema.ts';

export const taskSize = (t: Task): number => Object.values(t.files).reduce((a, f) => a + f.length, 0);

export function selectTasks(tasks: readonly Task[], opts: { max: number; difficulty: string }): Task[] {
  let out = tasks.filter((t) => opts.difficulty === 'any' || t.difficulty === opts.difficulty);
  out = [...out].sort((a, b) => taskSize(a) - taskSize(b) || a.instance_id.localeCompare(b.instance_id));
  return opts.max > 0 ? out.slice(0, opts.max) : out;
}
