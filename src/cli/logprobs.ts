// `webswe logprobs --model DIR --ids 1,2,3`: log p(id_t | ids_<t) for each position (the first has
// none), for parity checks against any other implementation.
import type { Command } from 'commander';
import { loadModelDir } from '../model/load.node.ts';
import { uploadParams } from '../model/params.ts';
import { Transformer } from '../model/transformer.ts';
import { BACKEND_CHOICES, openBackend } from './backend.ts';
import { UserError, printJson, runCommand } from './output.ts';

export function parseIds(s: string, vocab: number): number[] {
  const parts = s.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) throw new UserError('--ids needs at least one token id, e.g. --ids 1,2,3');
  return parts.map((p) => {
    const v = Number(p);
    if (!Number.isInteger(v) || v < 0 || v >= vocab) throw new UserError(`--ids: "${p}" is not a token id in 0..${vocab - 1}`);
    return v;
  });
}

export function registerLogprobs(program: Command): void {
  program
    .command('logprobs')
    .description('log-probability of each given token id after its prefix (the first position has none)')
    .requiredOption('--model <dir>', 'a Hugging Face model folder (config.json, model.safetensors)')
    .requiredOption('--ids <list>', 'comma-separated token ids, e.g. 1,2,3')
    .option('--backend <name>', BACKEND_CHOICES, 'auto')
    .option('--json', 'print one JSON document on stdout')
    .action((opts: { model: string; ids: string; backend: string; json?: boolean }) =>
      runCommand(async () => {
        const loaded = await loadModelDir(opts.model);
        const ids = parseIds(opts.ids, loaded.config.vocabSize);
        const values = await loaded.weights.readModel(loaded.config);
        await loaded.close();
        const { be, name } = await openBackend(opts.backend);
        const model = new Transformer(be, loaded.config, uploadParams(be, loaded.config, values));
        const T = ids.length;
        const targets = Int32Array.from(ids.slice(1).concat([0]));
        const st = model.forward({
          B: 1, T,
          ids: be.fromArray(Int32Array.from(ids), [T]),
          targets: be.fromArray(targets, [T]),
          positions: be.fromArray(Int32Array.from(ids, (_, i) => i), [T]),
          seg: be.zeros([1, T], 'i32'),
        });
        const lp = await be.read(st.logp);
        const logprobs: (number | null)[] = [null, ...[...lp.slice(0, T - 1)]];
        if (opts.json) return printJson({ ids, logprobs, backend: name, model: opts.model });
        console.log(`backend: ${name}`);
        ids.forEach((id, i) => console.log(`${String(i).padStart(4)}  ${String(id).padStart(7)}  ${logprobs[i] === null ? '—' : logprobs[i]!.toFixed(6)}`));
      }),
    );
}
