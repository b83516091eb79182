// Starting the `webswe` command, shared by bin/webswe.js (TypeScript through tsx) and the portable
// bundle's entry (scripts/bundle-entry.ts): set up the Vulkan driver environment Dawn needs, re-running
// the same script once when the dynamic loader must see a new LD_LIBRARY_PATH, then run the CLI.
// The re-run is the command: it stays in this process group (a job control stop, a group kill or a closed
// terminal reach it as they reach this process), and every SIGINT, SIGTERM and SIGHUP this process gets is passed
// on to it; this process waits and exits with its status. A `kill` of the command therefore stops the run as
// Ctrl-C does, instead of leaving it running with no parent. A terminal's Ctrl-C reaches both processes, so the
// command gets it twice within a moment: its handlers take a repeat within a second as the same interruption
// (output.ts, onStopSignals).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { vulkanEnvironment, vulkanEnvironmentApplied } from '../gpu/vulkan.node.ts';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** `self`: the script this process runs (what a re-run starts again). */
export async function launch(self: string): Promise<void> {
  const setup = vulkanEnvironment();
  if (!vulkanEnvironmentApplied(setup) && !process.env.WEBSWE_REEXEC) {
    const env = { ...process.env, ...setup.env, WEBSWE_REEXEC: '1' };
    const child = spawn(process.execPath, [...process.execArgv, self, ...process.argv.slice(2)], { stdio: 'inherit', env });
    for (const sig of FORWARDED) process.on(sig, () => void child.kill(sig));
    const status = await new Promise<number>((resolve) => {
      child.on('error', (e) => {
        process.stderr.write(`webswe: could not start ${process.execPath}: ${e.message}\n`);
        resolve(1);
      });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
    });
    process.exit(status);
  }
  const { main } = await import('./main.ts');
  await main(process.argv);
}
