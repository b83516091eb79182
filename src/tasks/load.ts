// One policy for a task file wherever it is read (webswe train, eval and solve, the app's runs and its
// import): every line is checked against the task schema, and a file with any bad line is refused
// whole, naming each bad line with its field (up to 40, then a count) and how to list them all. A file
// with no task is refused too. The host reads the text (a file, a fetch, IndexedDB); this decides.
import { formatTaskError, parseTaskFile, type Task } from './schema.ts';

/** Problems named in a refusal before "… and N more". */
const SHOWN_PROBLEMS = 40;

export class TaskFileRefused extends Error {
  override name = 'TaskFileRefused';
}

/** The tasks of a .jsonl text, or TaskFileRefused naming every bad line of `name`. */
export function checkTaskFile(text: string, name: string): Task[] {
  const { tasks, errors } = parseTaskFile(text, name);
  if (errors.length) {
    const lines = new Set(errors.map((e) => e.line)).size;
    const shown = errors.slice(0, SHOWN_PROBLEMS).map(formatTaskError);
    if (errors.length > shown.length) shown.push(`… and ${errors.length - shown.length} more problems`);
    throw new TaskFileRefused(`${name}: ${lines} line${lines === 1 ? '' : 's'} refused, nothing used; fix them (\`npx webswe tasks validate FILE\` lists them too):\n${shown.join('\n')}`);
  }
  if (!tasks.length) throw new TaskFileRefused(`${name}: no tasks in the file (one JSON task per line, SWE-bench fields; see public/tasks/README.md)`);
  return tasks;
}
