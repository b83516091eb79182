// The Tasks view's filter: by library, difficulty tier, and words that must all appear in the task's
// id, issue text or bug operator (case-insensitive). Core code, so tests run the same rule under Node.
import type { Task } from './schema.ts';

export interface TaskFilter {
  /** A library name, or '' for all. */
  repo: string;
  /** 'easy', 'hard', or '' for any. */
  difficulty: string;
  text: string;
}

export function filterTasks(tasks: readonly Task[], f: TaskFilter): Task[] {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  return tasks.filter((t) => {
    if (f.repo && t.repo !== f.repo) return false;
    if (f.difficulty && String(t.difficulty ?? '') !== f.difficulty) return false;
    if (!words.length) return true;
    const hay = `${t.instance_id}\n${t.problem_statement}\n${t.mutation?.operator ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
