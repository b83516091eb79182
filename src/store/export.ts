// A run's episodes as one export, the same in the app (Runs view) and the CLI (`webswe export`): every
// stored step in order, each episode as an ATIF document or an SFT JSONL line, tagged with where it came
// from (run, phase, step, index) so a reader can keep, say, only the DAPO episodes. Produced as parts
// (one episode each), so a long run's export is never one huge string.
import { toAtif, toSftLine, type SftRecord } from '../agent/export.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { RunStore } from './types.ts';

export type ExportFormat = 'atif' | 'sft';

export class ExportError extends Error {
  override name = 'ExportError';
}

/** The export's text parts (concatenate them); refuses a run with no episodes or an unknown format. */
export async function exportEpisodes(store: Pick<RunStore, 'listTrajectorySteps' | 'readTrajectories'>, run: string, format: string): Promise<string[]> {
  if (format !== 'atif' && format !== 'sft') throw new ExportError(`format "${format}": use "atif" (ATIF JSON) or "sft" (SFT JSONL)`);
  const steps = await store.listTrajectorySteps();
  if (!steps.length) throw new ExportError(`run "${run}" has no episodes stored yet: each phase stores its episodes when it has run them`);
  const parts: string[] = [];
  for (const { phase, step } of steps) {
    const ts = (await store.readTrajectories(phase, step)) as Trajectory[];
    ts.forEach((t, index) => {
      const from = { run, phase, step, index };
      if (format === 'atif') {
        const doc = toAtif(t);
        doc.extra = { ...doc.extra, run: from };
        parts.push(`${parts.length ? ',\n' : '[\n'}${JSON.stringify(doc)}`);
      } else {
        const rec = JSON.parse(toSftLine(t)) as SftRecord;
        parts.push(JSON.stringify({ ...rec, metadata: { ...rec.metadata, ...from } }) + '\n');
      }
    });
  }
  if (format === 'atif') parts.push(parts.length ? '\n]\n' : '[]\n');
  return parts;
}
