// The `webswe` command as a user runs it, for tests: a real node process through bin/webswe.js,
// resolved with its exit status, stdout and stderr (a failing command resolves too, with its status).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const BIN = fileURLToPath(new URL('../../bin/webswe.js', import.meta.url));
const run = promisify(execFile);

export function webswe(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 }).then(
    (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout: string; stderr: string }) => ({ status: e.code ?? 1, stdout: e.stdout, stderr: e.stderr }),
  );
}
