// Imported task sets in the trainer worker: a .jsonl task file is checked line by line with the task
// schema (src/tasks/schema.ts) and kept in IndexedDB (`tasksets`) only when every line is good, so a
// run always sees the file its user checked. Runs name a set `idb:tasks/<name>` in tasks.train or
// tasks.test; workers/tasks.ts reads it from here.
import { openWebsweDb, type TaskSetRecord, type WebsweDatabase } from '../src/store/idb.browser.ts';
import { checkTaskFile, TaskFileRefused, taskSet } from '../src/tasks/load.ts';
import type { Task } from '../src/tasks/schema.ts';
import type { TaskSetInfo } from './trainer.api.ts';

/** The config path prefix of an imported set: `idb:tasks/mine.jsonl`. */
export const IMPORTED_TASKS = 'idb:tasks/';
/** Bad lines listed in a refusal; the rest are counted. */

let dbp: Promise<WebsweDatabase> | null = null;
const database = () => (dbp ??= openWebsweDb());

export class TaskSetError extends Error {
  override name = 'TaskSetError';
}

/** A set's name as it appears in a config path and a URL. */
function checkName(name: string): string {
  const n = name.trim();
  if (!/^[\w.-]{1,100}$/.test(n)) throw new TaskSetError(`task set name "${name}": use 1 to 100 letters, digits, '.', '_' or '-' (it becomes part of the path ${IMPORTED_TASKS}<name>)`);
  return n;
}

const info = ({ text: _text, ...r }: TaskSetRecord): TaskSetInfo => ({ ...r, path: IMPORTED_TASKS + r.name });

/** Check a task file and keep it; refuses the whole file, naming every bad line, if any line is bad. */
export async function importTaskSet(name: string, text: string): Promise<TaskSetInfo> {
  const setName = checkName(name);
  let tasks: Task[];
  try {
    tasks = checkTaskFile(text, setName, 'nothing imported; fix them and import the file again');
  } catch (e) {
    throw e instanceof TaskFileRefused ? new TaskSetError(e.message) : e;
  }
  const rec: TaskSetRecord = { name: setName, created: Date.now(), count: tasks.length, repos: [...new Set(tasks.map((t) => t.repo))].sort(), text };
  const tx = (await database()).transaction('tasksets', 'readwrite');
  try {
    // add (not put): an existing name fails the transaction rather than replacing the set.
    await Promise.all([tx.store.add(rec), tx.done]);
  } catch (e) {
    if ((e as DOMException).name !== 'ConstraintError') throw e;
    throw new TaskSetError(`a task set named "${setName}" is already imported; delete it first or import the file under another name (runs that name ${IMPORTED_TASKS}${setName} would otherwise see other tasks)`);
  }
  return info(rec);
}

export async function listTaskSets(): Promise<TaskSetInfo[]> {
  return (await (await database()).getAll('tasksets')).map(info).sort((a, b) => a.name.localeCompare(b.name));
}

export async function readTaskSet(name: string): Promise<string | null> {
  return (await (await database()).get('tasksets', name))?.text ?? null;
}

export async function deleteTaskSet(name: string): Promise<void> {
  await (await database()).delete('tasksets', name);
}

/** The tasks of `idb:tasks/<name>` (checked again: a store written by another version may differ). */
export async function readImportedTasks(path: string): Promise<Task[]> {
  const name = path.slice(IMPORTED_TASKS.length);
  const text = await readTaskSet(name);
  if (text === null) {
    const have = (await listTaskSets()).map((s) => s.path);
    throw new TaskSetError(`${path}: no imported task set named "${name}" in this browser (${have.length ? `imported: ${have.join(', ')}` : 'none imported yet; import one in the Runs view'})`);
  }
  const tasks = taskSet(text, path);
  return tasks;
}
