// Task sets for browser runs: the config's tasks.train / tasks.test paths fetched from the app's own
// origin (Vite serves public/ at the root, so "public/tasks/train.jsonl" is /tasks/train.jsonl),
// parsed once per worker, then narrowed by the config's rule (the N shortest tasks, difficulty).
// `idb:tasks/<name>` names a set imported in the Runs view (workers/task-sets.ts).
import { chooseTasks, taskSet } from '../src/tasks/load.ts';
import type { Task } from '../src/tasks/schema.ts';
import type { TaskSelection } from '../src/tasks/select.ts';
import { IMPORTED_TASKS, readImportedTasks } from './task-sets.ts';

const parsed = new Map<string, Promise<Task[]>>();

/** The URL a config path names: absolute URLs as they are, paths under public/ from the app's root. */
export function taskUrl(path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  const rel = path.replace(/^\.?\/+/, '').replace(/^public\//, '');
  return new URL(import.meta.env.BASE_URL + rel, self.location.origin).href;
}

async function fetchTasks(url: string): Promise<Task[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not fetch the task file ${url}: HTTP ${res.status} (the bundled sets are public/tasks/train.jsonl and test.jsonl)`);
  return taskSet(await res.text(), url);
}

export async function loadTasks(path: string, max: number, difficulty: string, select: TaskSelection = 'shortest'): Promise<Task[]> {
  const imported = path.startsWith(IMPORTED_TASKS);
  const url = imported ? path : taskUrl(path);
  let p = parsed.get(url);
  // Imported sets (`idb:tasks/<name>`) are read afresh: one may be deleted and imported again under its name.
  if (imported) p = readImportedTasks(path);
  else if (!p) {
    parsed.set(url, (p = fetchTasks(url)));
    p.catch(() => parsed.delete(url));
  }
  return chooseTasks(await p, url, { max, difficulty, select });
}
