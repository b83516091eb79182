// One policy for a task file wherever it is read (webswe train, eval and solve, the app's runs and its
// import): every line is checked against the task schema, and a file with any bad line is refused
// whole, naming each bad line with its field (up to 40, then a count) and how to list them all. A file
// with no task is refused too. The host reads the text (a file, a fetch, IndexedDB); this decides.
import { formatTaskError, parseTaskFile, type Task } from './schema.ts';
import { selectTasks, type TaskSelection } from './select.ts';

/** Problems named in a refusal before "… and N more". */
const SHOWN_PROBLEMS = 40;

export class TaskFileRefused extends Error {
  override name = 'TaskFileRefused';
}

/** The tasks of a .jsonl text, or TaskFileRefused naming every bad line of `name`; `outcome` says
 *  what the refusal means for the caller (an import: nothing imported). */
export function checkTaskFile(text: string, name: string, outcome = 'nothing used; fix them'): Task[] {
  const { tasks, errors } = parseTaskFile(text, name);
  if (errors.length) {
    const lines = new Set(errors.map((e) => e.line)).size;
    const shown = errors.slice(0, SHOWN_PROBLEMS).map(formatTaskError);
    if (errors.length > shown.length) shown.push(`… and ${errors.length - shown.length} more problems`);
    throw new TaskFileRefused(`${name}: ${lines} line${lines === 1 ? '' : 's'} refused, ${outcome} (\`npx webswe tasks validate FILE\` lists them too):\n${shown.join('\n')}`);
  }
  if (!tasks.length) throw new TaskFileRefused(`${name}: no tasks in the file (one JSON task per line, SWE-bench fields; see public/tasks/README.md)`);
  return tasks;
}

/** Which tasks of a file a run uses (the config's tasks.max*, tasks.difficulty, tasks.select). */
export interface TaskChoice {
  max: number;
  difficulty: string;
  select?: TaskSelection;
}

/**
 * The one task-set loader: a file's text (the host reads it: a file, a fetch, IndexedDB) through the
 * policy above, then the run's choice of its tasks. Refuses a choice that leaves none.
 */
export function taskSet(text: string, name: string, choice?: TaskChoice): Task[] {
  const tasks = checkTaskFile(text, name);
  return choice ? chooseTasks(tasks, name, choice) : tasks;
}

/** The run's choice of a checked file's tasks (a host that keeps parsed files applies it per run). */
export function chooseTasks(tasks: readonly Task[], name: string, choice: TaskChoice): Task[] {
  const out = selectTasks(tasks, { max: choice.max, difficulty: choice.difficulty, ...(choice.select ? { select: choice.select } : {}) });
  if (!out.length) throw new TaskFileRefused(`${name}: no task matches tasks.difficulty=${choice.difficulty}`);
  return out;
}
