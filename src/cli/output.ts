// Shared CLI conventions: `--json` prints exactly one JSON document on stdout; human output and
// progress go elsewhere (tables on stdout, progress on stderr); expected failures print one line
// naming the problem and the fix, and exit non-zero, never a stack trace.

import { TaskFileRefused } from '../tasks/load.ts';

export class UserError extends Error {
  override name = 'UserError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A task file refused by the one loader policy (src/tasks/load.ts) as a one-paragraph CLI error. */
export function refusalAsUserError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof TaskFileRefused) throw new UserError(e.message);
    throw e;
  }
}

export function printJson(doc: unknown): void {
  process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
}

/** Ctrl-C (SIGINT) or a `kill` (SIGTERM): the first calls `stop` (finish the current step and keep what is done), one
 *  more a second or later after it quits at once (exit 130). A repeat within the second is the same interruption
 *  arriving twice (a terminal signals the whole process group, and the launcher passes its own on: launch.node.ts). */
export function onStopSignals(stop: () => void): void {
  let first: number | undefined;
  const onSignal = () => {
    const now = performance.now();
    if (first === undefined) {
      first = now;
      stop();
    } else if (now - first >= 1000) process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Run a command body; map known errors to one line on stderr and an exit code. */
export async function runCommand(body: () => Promise<number | void>): Promise<void> {
  try {
    const code = await body();
    process.exitCode = code ?? 0;
  } catch (e) {
    const err = e as Error;
    const known = ['UserError', 'NoAdapterError', 'GpuOutOfMemoryError', 'GpuDeviceLostError', 'KernelCompileError', 'ModelFileError', 'ConfigError', 'PathError', 'PatchError', 'CommandError'];
    if (known.includes(err.name) || process.env.WEBSWE_DEBUG === undefined) {
      process.stderr.write(`webswe: ${err.message}\n`);
      if (!known.includes(err.name)) process.stderr.write('(set WEBSWE_DEBUG=1 for the stack trace)\n');
    } else {
      process.stderr.write(`${err.stack}\n`);
    }
    process.exitCode = err instanceof UserError ? err.exitCode : 1;
  }
}

export function fmtBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(n % 2 ** 30 ? 2 : 0)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(n % 2 ** 20 ? 1 : 0)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(n % 2 ** 10 ? 1 : 0)} KiB`;
  return `${n} B`;
}
