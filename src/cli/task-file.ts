// Task files under the CLI: read from disk, then the one loader (src/tasks/load.ts): a file with a bad
// line is refused naming each, and the run's choice of its tasks applied. train, eval, solve and the
// benches read their tasks here.
import { existsSync, readFileSync } from 'node:fs';
import { taskSet, type TaskChoice } from '../tasks/load.ts';
import type { Task } from '../tasks/schema.ts';
import { refusalAsUserError, UserError } from './output.ts';

export function readTaskFile(path: string, choice?: TaskChoice): Task[] {
  if (!existsSync(path)) throw new UserError(`task file ${path} does not exist (build the bundled sets with \`webswe tasks build\`, or give another file)`);
  return refusalAsUserError(() => taskSet(readFileSync(path, 'utf8'), path, choice));
}
