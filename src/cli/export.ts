// `webswe export --run DIR --format atif|jsonl [--out FILE]`: every episode a run folder stored, as ATIF
// JSON (one array) or SFT JSONL (a line each), through the same exporter as the app's Runs view
// (src/store/export.ts); to stdout, or to FILE.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { ExportError, exportEpisodes } from '../store/export.ts';
import { FileRunStore } from '../store/fs.node.ts';
import { runCommand, UserError } from './output.ts';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description("a run's episodes as ATIF JSON or SFT JSONL (the app's export, from a run folder)")
    .requiredOption('--run <dir>', 'a run folder (webswe train --out)')
    .requiredOption('--format <f>', 'atif (ATIF JSON: one array of documents) or jsonl (SFT JSONL: a line per episode)')
    .option('--out <file>', 'write here instead of stdout')
    .action((o: { run: string; format: string; out?: string }) =>
      runCommand(async () => {
        if (!['atif', 'jsonl'].includes(o.format)) throw new UserError(`--format must be atif or jsonl, got "${o.format}"`);
        if (!existsSync(join(o.run, 'config.json'))) throw new UserError(`${o.run} is not a run folder (no config.json): give the folder webswe train wrote`);
        const store = await FileRunStore.open(o.run);
        const parts = await exportEpisodes(store, basename(o.run), o.format === 'jsonl' ? 'sft' : 'atif').catch((e: Error) => {
          throw e instanceof ExportError ? new UserError(e.message) : e;
        });
        const text = parts.join('');
        if (o.out) {
          await writeFile(o.out, text);
          process.stderr.write(`webswe: ${o.out}: ${parts.length - (o.format === 'atif' ? 1 : 0)} episodes\n`);
        } else process.stdout.write(text);
      }),
    );
}
