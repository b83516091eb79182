// `webswe plot RUN`: the run's plot (report/plot.ts) from its metrics, written as SVG beside them
// (RUN/plot.svg) or where --out says.
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { plotRun } from '../report/plot.ts';
import { FileRunStore } from '../store/fs.node.ts';
import { runCommand, UserError } from './output.ts';

export function registerPlot(program: Command): void {
  program
    .command('plot')
    .description("draw a run's metrics against wall time (held-out and rollout pass rates, reward, format errors, loss; phases shaded) as an SVG")
    .argument('<run>', 'a run folder (webswe train --out)')
    .option('--out <file>', 'where the SVG goes (default: RUN/plot.svg)')
    .option('--title <text>', 'the plot title (default: the run folder name)')
    .action((run: string, o: { out?: string; title?: string }) =>
      runCommand(async () => {
        if (!existsSync(join(run, 'metrics.jsonl'))) throw new UserError(`${run} has no metrics.jsonl: not a webswe run folder (or nothing was logged yet)`);
        const rows = await (await FileRunStore.open(run)).readMetrics();
        if (!rows.some((r) => r.timing?.elapsed_s !== undefined)) throw new UserError(`${run}: its metrics carry no wall time (timing.elapsed_s); it was made by an older webswe`);
        const out = o.out ?? join(run, 'plot.svg');
        await writeFile(out, plotRun(rows, o.title ?? basename(run.replace(/\/+$/, ''))));
        console.log(`wrote ${out}`);
      }),
    );
}
