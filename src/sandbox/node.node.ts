// The node sandbox: one fresh temporary folder per episode, every path checked by resolveRepoPath and
// then walked with lstat so no symbolic link is followed, and every process run confined by
// node-run.node.ts (permission model, time limit on the process group, output and heap caps).
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyDiffTo, makeDiff } from './patch.ts';
import { runNode } from './node-run.node.ts';
import { parseNodeCommand, runTestFiles } from './runs.ts';
import {
  isTestFile,
  PathError,
  resolveRepoPath,
  SANDBOX_DEFAULTS,
  type FileMap,
  type RunOptions,
  type RunResult,
  type Sandbox,
  type SandboxOptions,
} from './types.ts';

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;


export class NodeSandbox implements Sandbox {
  readonly kind = 'node';
  private disposed = false;
  private constructor(
    /** Real path of the repo folder. */
    readonly root: string,
    private base: FileMap,
    private readonly opts: Required<SandboxOptions>,
  ) {}

  static async create(files: FileMap, options: SandboxOptions = {}): Promise<NodeSandbox> {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'webswe-sandbox-')));
    const sb = new NodeSandbox(root, {}, { ...SANDBOX_DEFAULTS, ...options });
    try {
      await sb.reset(files);
    } catch (e) {
      await sb.dispose();
      throw e;
    }
    return sb;
  }

  /** The absolute path for a repo path, refusing escapes and any symbolic link on the way. */
  private async resolve(path: string, allowRoot = false): Promise<{ rel: string; abs: string }> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    const rel = resolveRepoPath(path, allowRoot);
    let abs = this.root;
    for (const part of rel ? rel.split('/') : []) {
      abs = join(abs, part);
      const st = await lstat(abs).catch((e: unknown) => (code(e) === 'ENOENT' ? null : Promise.reject(e)));
      if (st === null) break; // the rest does not exist yet: nothing to follow
      if (st.isSymbolicLink()) {
        const at = abs.slice(this.root.length + 1);
        throw new PathError(`path "${path}" goes through a symbolic link (${at}); the sandbox does not follow links`);
      }
    }
    return { rel, abs: rel ? join(this.root, rel) : this.root };
  }

  async readFile(path: string): Promise<string> {
    const { rel, abs } = await this.resolve(path);
    try {
      return await readFile(abs, 'utf8');
    } catch (e) {
      if (code(e) === 'ENOENT') throw new Error(`no such file in the repository: ${rel}`);
      if (code(e) === 'EISDIR') throw new Error(`${rel} is a folder, not a file`);
      throw e;
    }
  }

  private async tryRead(path: string): Promise<string | null> {
    return this.readFile(path).catch((e: Error) => (/^no such file/.test(e.message) ? null : Promise.reject(e)));
  }

  async writeFile(path: string, text: string): Promise<void> {
    const { rel, abs } = await this.resolve(path);
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    if (parent) await mkdir(join(this.root, parent), { recursive: true });
    await writeFile(abs, text);
  }

  async deleteFile(path: string): Promise<void> {
    const { rel, abs } = await this.resolve(path);
    await unlink(abs).catch((e: unknown) => Promise.reject(code(e) === 'ENOENT' ? new Error(`no such file in the repository: ${rel}`) : e));
  }

  async listFiles(dir = ''): Promise<string[]> {
    const { rel, abs } = await this.resolve(dir, true);
    const out: string[] = [];
    const walk = async (relDir: string, absDir: string) => {
      for (const ent of await readdir(absDir, { withFileTypes: true })) {
        const r = relDir ? `${relDir}/${ent.name}` : ent.name;
        if (ent.isDirectory()) await walk(r, join(absDir, ent.name));
        else if (ent.isFile()) out.push(r); // symbolic links and devices are not repo files
      }
    };
    await walk(rel, abs).catch((e: unknown) => {
      if (code(e) === 'ENOENT') throw new Error(`no such folder in the repository: ${rel}`);
      if (code(e) === 'ENOTDIR') throw new Error(`${rel} is a file, not a folder`);
      throw e;
    });
    return out.sort();
  }

  async applyPatch(diff: string): Promise<{ changed: string[] }> {
    return applyDiffTo({ tryRead: (p) => this.tryRead(p), writeFile: (p, t) => this.writeFile(p, t), deleteFile: (p) => this.deleteFile(p) }, diff);
  }

  async runTests(files: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const limitMs = options.timeoutMs ?? this.opts.timeoutMs;
    // Wall time is shared by the files; CPU time is each file's own (one process per file).
    return runTestFiles(files, options, { limitMs, outputLimit: this.opts.outputLimit, shareLimit: this.opts.clock !== 'cpu' }, async (f) => (await this.resolve(f)).rel, (rel, left, pattern) =>
      this.run([...(pattern !== undefined ? [`--test-name-pattern=${pattern}`] : []), rel], left, { file: rel, limitMs }));
  }

  async exec(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const c = parseNodeCommand(argv);
    if (c.kind === 'tests') return this.runTests(c.files ?? (await this.listFiles()).filter(isTestFile), options);
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    if (c.kind === 'eval') return this.run(c.args, timeoutMs);
    return this.run([(await this.resolve(c.script)).rel, ...c.args], timeoutMs);
  }

  private run(args: string[], timeoutMs: number, extra: { file?: string; limitMs?: number } = {}): Promise<RunResult> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    return runNode({ root: this.root, args, timeoutMs, outputLimit: this.opts.outputLimit, memoryMb: this.opts.memoryMb, clock: this.opts.clock, ...extra });
  }

  async diff(): Promise<string> {
    const now: FileMap = {};
    for (const p of await this.listFiles()) now[p] = await this.readFile(p);
    return makeDiff(this.base, now);
  }

  async reset(files?: FileMap): Promise<void> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    if (files) {
      for (const p of Object.keys(files)) resolveRepoPath(p); // refuse a bad map before touching the folder
      this.base = { ...files };
    }
    for (const ent of await readdir(this.root)) await rm(join(this.root, ent), { recursive: true, force: true });
    await Promise.all(Object.entries(this.base).map(([p, t]) => this.writeFile(p, t)));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await rm(this.root, { recursive: true, force: true });
  }
}

export const createNodeSandbox = (files: FileMap, options?: SandboxOptions): Promise<Sandbox> => NodeSandbox.create(files, options);
