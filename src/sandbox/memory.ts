// A Sandbox over an in-memory file map: the shared path policy (resolveRepoPath), real diffs and
// patches; runTests answers from a callback (default: no tests). For agent tests that need no process,
// and for replaying an episode's edits to know its repository's state (the state expert). Core code.
import { applyDiff, makeDiff } from './patch.ts';
import { resolveRepoPath, type FileMap, type RunResult, type Sandbox } from './types.ts';

export type FakeRun = (files: FileMap, testFiles: readonly string[], names?: readonly string[]) => RunResult;

export class MemorySandbox implements Sandbox {
  readonly kind = 'memory';
  files: FileMap;
  constructor(
    private base: FileMap,
    private readonly run: FakeRun = () => ({ tests: [], output: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 0 }),
  ) {
    this.files = { ...base };
  }
  async readFile(path: string): Promise<string> {
    const p = resolveRepoPath(path);
    if (!Object.hasOwn(this.files, p)) throw new Error(`no such file in the repository: ${p}`);
    return this.files[p]!;
  }
  async writeFile(path: string, text: string): Promise<void> {
    this.files[resolveRepoPath(path)] = text;
  }
  async deleteFile(path: string): Promise<void> {
    const p = resolveRepoPath(path);
    if (!Object.hasOwn(this.files, p)) throw new Error(`no such file in the repository: ${p}`);
    delete this.files[p];
  }
  async listFiles(dir = ''): Promise<string[]> {
    const d = resolveRepoPath(dir, true);
    return Object.keys(this.files).filter((p) => d === '' || p.startsWith(d + '/')).sort();
  }
  async applyPatch(diff: string): Promise<{ changed: string[] }> {
    const r = applyDiff(this.files, diff);
    this.files = r.files;
    return { changed: r.changed };
  }
  async runTests(files: readonly string[], options: { names?: readonly string[] } = {}): Promise<RunResult> {
    return this.run(this.files, files, options.names);
  }
  async exec(): Promise<RunResult> {
    throw new Error('exec is not available in the memory sandbox');
  }
  async diff(): Promise<string> {
    return makeDiff(this.base, this.files);
  }
  async reset(files?: FileMap): Promise<void> {
    if (files) this.base = { ...files };
    this.files = { ...this.base };
  }
  async dispose(): Promise<void> {}
}
