// The Tasks view's catalogue: the bundled sets (public/tasks/level0/{train,val,test}.jsonl, the one-function
// world the learning run trains and is evaluated on, first; the same tasks with users' reports as issues, level0-reports/; then the library world's public/tasks/{train,test}.jsonl;
// fetched and parsed here in slices so the page stays responsive while tens of MB of JSON are read) and the sets imported into
// this browser (their text read through the trainer worker), each checked with the task schema and
// kept for the page's life. Filtering (src/tasks/filter.ts) is a plain scan: 2,240 tasks.
import { checkTask, type Task } from '../tasks/schema.ts';
import { trainer } from './client.ts';

/** The bundled sets, the default run's training set first (the view opens on it). */
export const BUNDLED_SETS = ['level0/train', 'level0/val', 'level0/test', 'level0-reports/train', 'level0-reports/val', 'level0-reports/test', 'train', 'test'] as const;
const BUNDLED_LABELS: Record<string, string> = {
  'level0/train': 'level 0 train (the learning run trains here)', 'level0/val': 'level 0 val', 'level0/test': 'level 0 test (its held-out table)',
  'level0-reports/train': "level 0 train, users' reports (micro-find)", 'level0-reports/val': "level 0 val, users' reports", 'level0-reports/test': "level 0 test, users' reports",
  train: 'library train', test: 'library test',
};
const IMPORTED = 'idb:tasks/';

export interface TaskSet {
  /** A bundled set ('level0/train', …, 'train', 'test') or 'idb:tasks/<name>' (the config path of an imported set). */
  key: string;
  tasks: Task[];
  byId: Map<string, Task>;
  repos: string[];
  /** Lines the schema refused (bundled and imported sets are checked before they are kept, so none are expected). */
  refused: { line: number; message: string }[];
}

const loaded = new Map<string, Promise<TaskSet>>();

export const setLabel = (key: string) => (key.startsWith(IMPORTED) ? `${key.slice(IMPORTED.length)} (imported)` : (BUNDLED_LABELS[key] ?? key));

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
  if (!(BUNDLED_SETS as readonly string[]).includes(key)) throw new Error(`no task set "${key}": the bundled sets are ${BUNDLED_SETS.join(', ')}; imported ones are named ${IMPORTED}<name>`);
  const url = `${import.meta.env.BASE_URL}tasks/${key}.jsonl`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not fetch ${url}: HTTP ${res.status} (the bundled sets are served from public/tasks/)`);
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
