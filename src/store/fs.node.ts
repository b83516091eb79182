// The run store on the file system (the CLI's run folders):
//   run.json, config.json             what was asked and how it resolved
//   metrics.jsonl                     one MetricRecord per line
//   trajectories/<phase>-<step>.jsonl the episodes of each step
//   checkpoint/                       model.safetensors + config.json (a Hugging Face folder when
//                                     the tokenizer files are added), optimizer.safetensors, state.json,
//                                     and under LoRA adapter_model.safetensors + adapter_config.json (PEFT)
//   weights/<phase>/                  each finished phase's weights (a Hugging Face folder), for
//                                     `webswe eval --model <run>/weights/<phase>`
//   results.json, results.md          the paper-style table
// Checkpoints are written to checkpoint.tmp/ and swapped in by rename, so a crash mid-write leaves
// the previous one intact.
import { appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bufferSource, SafetensorsFile, writeSafetensors } from '../model/safetensors.ts';
import { hfFolderFiles } from '../model/weights.ts';
import { ADAPTER_FILE, adapterFiles, adaptersFromPeft } from './adapters.ts';
import type { Checkpoint, MetricRecord, PhaseWeights, RunStore, TrainerState } from './types.ts';

const mapTensors = (m: Map<string, Float32Array>, prefix = '') => [...m].map(([name, data]) => ({ name: prefix + name, shape: [data.length], data }));

async function readTensors(bytes: Uint8Array, file: string): Promise<Map<string, Float32Array>> {
  const f = await SafetensorsFile.open(bufferSource(bytes, file));
  const out = new Map<string, Float32Array>();
  for (const name of f.header.tensors.keys()) out.set(name, await f.read(name));
  return out;
}

export class FileRunStore implements RunStore {
  constructor(readonly location: string) {}

  static async open(dir: string): Promise<FileRunStore> {
    await mkdir(join(dir, 'trajectories'), { recursive: true });
    return new FileRunStore(dir);
  }

  private p(name: string): string {
    return join(this.location, name);
  }
  async writeJson(name: string, value: unknown): Promise<void> {
    await writeFile(this.p(`${name}.tmp`), JSON.stringify(value, null, 2) + '\n');
    await rename(this.p(`${name}.tmp`), this.p(name));
  }
  async readJson<T>(name: string): Promise<T | null> {
    if (!existsSync(this.p(name))) return null;
    return JSON.parse(await readFile(this.p(name), 'utf8')) as T;
  }
  async appendMetrics(rows: readonly MetricRecord[]): Promise<void> {
    if (rows.length) await appendFile(this.p('metrics.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  async readMetrics(): Promise<MetricRecord[]> {
    if (!existsSync(this.p('metrics.jsonl'))) return [];
    return (await readFile(this.p('metrics.jsonl'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as MetricRecord);
  }
  async truncateMetrics(count: number): Promise<void> {
    const rows = (await this.readMetrics()).slice(0, count);
    await writeFile(this.p('metrics.jsonl.tmp'), rows.map((r) => JSON.stringify(r) + '\n').join(''));
    await rename(this.p('metrics.jsonl.tmp'), this.p('metrics.jsonl'));
  }
  async writeTrajectories(phase: string, step: number, records: readonly unknown[]): Promise<void> {
    const name = `trajectories/${phase}-${String(step).padStart(4, '0')}.jsonl`;
    await writeFile(this.p(`${name}.tmp`), records.map((r) => JSON.stringify(r) + '\n').join(''));
    await rename(this.p(`${name}.tmp`), this.p(name));
  }
  async readTrajectories(phase: string, step: number): Promise<unknown[]> {
    const name = this.p(`trajectories/${phase}-${String(step).padStart(4, '0')}.jsonl`);
    if (!existsSync(name)) return [];
    return (await readFile(name, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  }
  async listTrajectorySteps(): Promise<{ phase: string; step: number }[]> {
    const files = existsSync(this.p('trajectories')) ? await readdir(this.p('trajectories')) : [];
    return files
      .map((f) => /^(.+)-(\d+)\.jsonl$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ phase: m[1]!, step: Number(m[2]) }))
      .sort((a, b) => a.phase.localeCompare(b.phase) || a.step - b.step);
  }

  /** A checkpoint's model files (a Hugging Face folder when it has the model config) into `dir`. */
  private async writeModel(dir: string, ck: PhaseWeights): Promise<void> {
    if (ck.model) {
      const files = hfFolderFiles({ config: ck.model.config, tensors: ck.params, tokenizerJson: ck.model.tokenizerJson, tokenizerConfig: ck.model.tokenizerConfig });
      for (const [name, bytes] of files) await writeFile(join(dir, name), bytes);
    } else await writeFile(join(dir, 'model.safetensors'), writeSafetensors(mapTensors(ck.params)));
    if (ck.adapters && ck.lora && ck.model) for (const [name, bytes] of adapterFiles(ck.model.config, ck.lora, ck.adapters)) await writeFile(join(dir, name), bytes);
  }

  async savePhaseWeights(phase: string, w: PhaseWeights): Promise<void> {
    if (!/^[\w-]+$/.test(phase)) throw new Error(`savePhaseWeights: "${phase}" is not a phase name`);
    const tmp = this.p(`weights/${phase}.tmp`), dst = this.p(`weights/${phase}`);
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    await this.writeModel(tmp, w);
    await rm(dst, { recursive: true, force: true });
    await rename(tmp, dst);
  }

  async listPhaseWeights(): Promise<string[]> {
    const dir = this.p('weights');
    if (!existsSync(dir)) return [];
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.endsWith('.tmp')).map((e) => e.name).sort();
  }

  async saveCheckpoint(ck: Checkpoint): Promise<void> {
    const tmp = this.p('checkpoint.tmp'), dst = this.p('checkpoint'), old = this.p('checkpoint.old');
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    await this.writeModel(tmp, ck);
    if (ck.adamM && ck.adamV) {
      await writeFile(join(tmp, 'optimizer.safetensors'), writeSafetensors([...mapTensors(ck.adamM, 'm.'), ...mapTensors(ck.adamV, 'v.')]));
    }
    await writeFile(join(tmp, 'state.json'), JSON.stringify(ck.state, null, 2) + '\n');
    // Swap: dst → old, tmp → dst, drop old. A crash between the renames leaves old or dst whole.
    await rm(old, { recursive: true, force: true });
    if (existsSync(dst)) await rename(dst, old);
    await rename(tmp, dst);
    await rm(old, { recursive: true, force: true });
  }

  async loadCheckpoint(): Promise<Checkpoint | null> {
    let dir = this.p('checkpoint');
    if (!existsSync(join(dir, 'state.json'))) {
      // A crash after the first rename: the previous checkpoint is whole in checkpoint.old.
      dir = this.p('checkpoint.old');
      if (!existsSync(join(dir, 'state.json'))) return null;
    }
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as TrainerState;
    const params = await readTensors(await readFile(join(dir, 'model.safetensors')), 'checkpoint/model.safetensors');
    const ck: Checkpoint = { state, params };
    if (existsSync(join(dir, ADAPTER_FILE))) ck.adapters = adaptersFromPeft(await readTensors(await readFile(join(dir, ADAPTER_FILE)), `checkpoint/${ADAPTER_FILE}`));
    if (existsSync(join(dir, 'optimizer.safetensors'))) {
      const all = await readTensors(await readFile(join(dir, 'optimizer.safetensors')), 'checkpoint/optimizer.safetensors');
      ck.adamM = new Map([...all].filter(([k]) => k.startsWith('m.')).map(([k, v]) => [k.slice(2), v]));
      ck.adamV = new Map([...all].filter(([k]) => k.startsWith('v.')).map(([k, v]) => [k.slice(2), v]));
    }
    return ck;
  }
}
