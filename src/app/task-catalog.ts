// The Tasks view's catalogue: the bundled sets (public/tasks/{train,test}.jsonl, fetched and parsed
// here in slices so the page stays responsive while 24 MB of JSON is read) and the sets imported into
// this browser (their text read through the trainer worker), each checked with the task schema and
// kept for the page's life. Filtering (src/tasks/filter.ts) is a plain scan: 2,240 tasks.
import { checkTask, type Task } from '../tasks/schema.ts';
import { trainer } from './client.ts';

export const BUNDLED_SETS = ['train', 'test'] as const;
const IMPORTED = 'idb:tasks/';

export interface TaskSet {
  /** 'train', 'test' or 'idb:tasks/<name>' (the config path of an imported set). */
  key: string;
  tasks: Task[];
  byId: Map<string, Task>;
  repos: string[];
  /** Lines the schema refused (bundled and imported sets are checked before they are kept, so none are expected). */
  refused: { line: number; message: string }[];
}

const loaded = new Map<string, Promise<TaskSet>>();

export const setLabel = (key: string) => (key.startsWith(IMPORTED) ? `${key.slice(IMPORTED.length)} (imported)` : key);

/** Lines parsed per slice before the page gets the thread back (~0.5 MB of the bundled sets). */
const SLICE = 40;

async function parse(key: string, text: string): Promise<TaskSet> {
  const lines = text.split('\n');
  const set: TaskSet = { key, tasks: [], byId: new Map(), repos: [], refused: [] };
  for (let i = 0; i < lines.length; i++) {
    if (i % SLICE === SLICE - 1) await new Promise((r) => setTimeout(r, 0));
    const raw = lines[i]!;
    if (!raw.trim()) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch (e) {
      set.refused.push({ line: i + 1, message: `not valid JSON: ${(e as Error).message}` });
      continue;
    }
    const { task, problems } = checkTask(rec);
    if (!task) set.refused.push({ line: i + 1, message: problems.map((p) => `${p.field ? `field ${p.field}: ` : ''}${p.message}`).join('; ') });
    else if (!set.byId.has(task.instance_id)) {
      set.tasks.push(task);
      set.byId.set(task.instance_id, task);
    }
  }
  set.repos = [...new Set(set.tasks.map((t) => t.repo))].sort();
  return set;
}

async function fetchText(key: string): Promise<string> {
  if (key.startsWith(IMPORTED)) {
    const text = await trainer.readTaskSet(key.slice(IMPORTED.length));
    if (text === null) throw new Error(`no imported task set named "${key.slice(IMPORTED.length)}" in this browser (import one in the Runs view)`);
    return text;
  }
  if (!(BUNDLED_SETS as readonly string[]).includes(key)) throw new Error(`no task set "${key}": the bundled sets are ${BUNDLED_SETS.join(' and ')}, imported ones are named ${IMPORTED}<name>`);
  const url = `${import.meta.env.BASE_URL}tasks/${key}.jsonl`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not fetch ${url}: HTTP ${res.status} (the bundled sets are public/tasks/train.jsonl and test.jsonl)`);
  return res.text();
}

/** A task set, loaded once (a failed load is tried again next time). */
export function loadTaskSet(key: string): Promise<TaskSet> {
  let p = loaded.get(key);
  if (!p) {
    loaded.set(key, (p = fetchText(key).then((text) => parse(key, text))));
    p.catch(() => loaded.delete(key));
  }
  return p;
}

/** Forget a set (an imported one was deleted or imported again). */
export const forgetTaskSet = (key: string) => loaded.delete(key);
