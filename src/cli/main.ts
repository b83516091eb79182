// The `webswe` command: one subcommand per file in this folder, registered here.
import { Command } from 'commander';
import { registerBench } from './bench.ts';
import { registerExport } from './export.ts';
import { registerGpu } from './gpu.ts';
import { registerLogprobs } from './logprobs.ts';
import { registerPlot } from './plot.ts';
import { registerServe } from './serve.ts';
import { registerShare } from './share.ts';
import { registerSolve } from './solve.ts';
import { registerTasks } from './tasks.ts';
import { registerTrain } from './train.ts';

export function buildProgram(): Command {
  const program = new Command('webswe')
    .description('Train software-engineering agents with RFT and DAPO on WebGPU, in the browser or under Node.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true });
  registerGpu(program);
  registerBench(program);
  registerLogprobs(program);
  registerServe(program);
  registerTasks(program);
  registerTrain(program);
  registerSolve(program);
  registerPlot(program);
  registerExport(program);
  registerShare(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // `webswe … | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? process.exit(0) : undefined));
  await buildProgram().parseAsync(argv);
}
