// A content-addressed cache of test runs over any sandbox: a run's result is a function of the
// repository's files, the test files and names asked for, and the limits, so the same state twice
// (the gold fix reached by many episodes of one task, the grading of an unchanged repo) is run once.
// The key is the whole content (no hash to collide); a run that hit its time limit is never kept (load
// decides it, not the files). The bundled tasks are validated deterministic (repeated runs agree), which
// is what makes a cached result the result a fresh run would give. A sandbox whose runs share a process
// (Sandbox.sharedProcess) adds only its first run: a later one may report what an earlier run's code made
// it report, and a cached result is trusted by every other sandbox, the graders' included. Core code.
import type { FileMap, RunOptions, RunResult, Sandbox, SandboxFactory, SandboxOptions } from './types.ts';

export class RunCache {
  private readonly map = new Map<string, RunResult>();
  hits = 0;
  misses = 0;
  constructor(readonly maxEntries = 4096) {}

  get(key: string): RunResult | undefined {
    const r = this.map.get(key);
    if (r) {
      // Refresh its place: the map's order is the eviction order.
      this.map.delete(key);
      this.map.set(key, r);
    }
    return r;
  }

  set(key: string, r: RunResult): void {
    if (r.timedOut) return;
    this.map.set(key, r);
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value!);
  }

  get size(): number {
    return this.map.size;
  }
}

const copy = (r: RunResult): RunResult => ({ ...r, tests: r.tests.map((t) => ({ ...t })) });

/** The key of a test run: limits, what is run, then every file (path and text), in order. */
async function runKey(sb: Sandbox, files: readonly string[], options: RunOptions | undefined, limits: SandboxOptions): Promise<string> {
  const paths = await sb.listFiles();
  const texts = await Promise.all(paths.map((p) => sb.readFile(p)));
  const head = JSON.stringify([sb.kind, limits.timeoutMs, limits.memoryMb, limits.clock, options?.timeoutMs, options?.names ?? null, files]);
  return [head, ...paths.flatMap((p, i) => [p, texts[i]!])].join('\u0000');
}

/** `create` whose sandboxes answer runTests from `cache` when the same files were run before. */
export function cachedFactory(create: SandboxFactory, cache: RunCache): SandboxFactory {
  return async (files: FileMap, options: SandboxOptions = {}) => {
    const sb = await create(files, options);
    let runs = 0;
    const wrapped: Sandbox = {
      kind: sb.kind,
      ...(sb.sharedProcess !== undefined ? { sharedProcess: sb.sharedProcess } : {}),
      readFile: (p) => sb.readFile(p),
      writeFile: (p, t) => sb.writeFile(p, t),
      deleteFile: (p) => sb.deleteFile(p),
      listFiles: (d) => sb.listFiles(d),
      applyPatch: (d) => sb.applyPatch(d),
      exec: (argv, o) => (runs++, sb.exec(argv, o)),
      diff: () => sb.diff(),
      reset: (f) => sb.reset(f),
      dispose: () => sb.dispose(),
      async runTests(testFiles, runOptions) {
        const key = await runKey(sb, testFiles, runOptions, options);
        const hit = cache.get(key);
        if (hit) {
          cache.hits++;
          return copy(hit);
        }
        cache.misses++;
        const fresh = !sb.sharedProcess || runs === 0;
        runs++;
        const r = await sb.runTests(testFiles, runOptions);
        if (fresh) cache.set(key, copy(r));
        return r;
      },
    };
    return wrapped;
  };
}
