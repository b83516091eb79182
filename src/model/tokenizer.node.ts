// Loads a tokenizer from a folder on disk: tokenizer.json, tokenizer_config.json (optional) and
// chat_template.jinja (optional; newer Hugging Face repos keep the template there). Writes the
// files of a trained BPE (bpe.ts) into a folder.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelFileError } from './errors.ts';
import { Tokenizer } from './tokenizer.ts';

export async function loadTokenizerDir(dir: string): Promise<Tokenizer> {
  const tj = join(dir, 'tokenizer.json');
  if (!existsSync(tj)) throw new ModelFileError(dir, 'has no tokenizer.json');
  const tc = join(dir, 'tokenizer_config.json');
  const jinja = join(dir, 'chat_template.jinja');
  return Tokenizer.fromJson(
    await readFile(tj, 'utf8'),
    existsSync(tc) ? await readFile(tc, 'utf8') : {},
    existsSync(jinja) ? await readFile(jinja, 'utf8') : undefined,
  );
}

/** Writes tokenizer.json and tokenizer_config.json (e.g. trainBpe's result) into `dir`. */
export async function saveTokenizerDir(dir: string, files: { tokenizerJson: object; tokenizerConfig: object }): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(files.tokenizerJson) + '\n');
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(files.tokenizerConfig, null, 2) + '\n');
}
