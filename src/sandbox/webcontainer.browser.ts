// The WebContainer sandbox (browser, online): StackBlitz's in-browser Node (@webcontainer/api). One
// container per page, booted once; each episode mounts its repository in its own folder and runs
// `node --test-reporter=<ours> FILE`, whose JSON lines are picked out of the combined terminal output
// (ANSI stripped). A process that ignores kill() at the time limit gets the container torn down and
// booted again (said in the output; every episode re-mounts its files). Needs stackblitz.com and a
// cross-origin-isolated page; boot errors become messages that say which (offline, cookies, COOP/COEP).
// The container is injected (BootFn), so test/unit/sandbox/webcontainer.test.ts drives it with a stand-in.
// Training runs use the page's container too: the trainer worker creates these sandboxes through a comlink
// proxy of the page (workers/page-sandboxes.ts, src/app/client.ts); the browser tier boots a stand-in
// through useWebContainerApi (test/browser/webcontainer-run.test.ts).
import { applyDiffTo, makeDiff } from './patch.ts';
import {
  formatTestReport,
  isTestFile,
  resolveRepoPath,
  SANDBOX_DEFAULTS,
  type FileMap,
  type RunOptions,
  type RunResult,
  type Sandbox,
  type SandboxOptions,
} from './types.ts';
import { parseNodeCommand, runTestFiles } from './runs.ts';
import { OutputParser, REPORTER_MARK } from './webcontainer-output.ts';
import REPORTER from './node-reporter.mjs?raw';
import HARDEN from './harden.mjs?raw';

/** The part of @webcontainer/api's WebContainer this adapter uses. */
export interface WcProcess {
  output: ReadableStream<string>;
  exit: Promise<number>;
  kill(): void;
}
export interface WcDirent {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}
export interface WcContainer {
  fs: {
    readFile(path: string, encoding: 'utf-8'): Promise<string>;
    writeFile(path: string, data: string): Promise<void>;
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
    rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
    readdir(path: string, options: { withFileTypes: true }): Promise<WcDirent[]>;
  };
  mount(tree: WcTree, options?: { mountPoint?: string }): Promise<void>;
  spawn(command: string, args: string[], options?: { cwd?: string; env?: Record<string, string>; terminal?: { cols: number; rows: number } }): Promise<WcProcess>;
  teardown(): void;
  on?(event: 'error', listener: (e: { message: string }) => void): unknown;
}
export type WcTree = { [name: string]: { file: { contents: string } } | { directory: WcTree } };
export type BootFn = () => Promise<WcContainer>;

export interface WebContainerDeps {
  boot: BootFn;
  /** The page's state, checked before booting (defaults: the real globals). */
  environment?: () => { crossOriginIsolated?: boolean; onLine?: boolean };
  /** How long a boot may take before it is reported as stuck (ms). */
  bootTimeoutMs?: number;
  /** How long a killed process may take to exit before the container is torn down (ms). */
  killGraceMs?: number;
}

/** Boot failures in words that say what to do. */
export function bootErrorMessage(e: unknown, env: { crossOriginIsolated?: boolean; onLine?: boolean } = {}): string {
  const msg = (e as Error)?.message ?? String(e);
  const fallback = 'or use the worker sandbox, which runs offline';
  if (env.crossOriginIsolated === false) {
    return `WebContainers need a cross-origin-isolated page (Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp); serve the app with \`webswe serve\` or \`npm start\`, which send them, ${fallback}`;
  }
  if (env.onLine === false) return `WebContainers load their runtime from stackblitz.com and this browser is offline; connect to the network, ${fallback}`;
  if (/single WebContainer instance|more instances/i.test(msg)) {
    return `the WebContainer could not start: another one is running (${msg}); a page holds one at a time, so close the other tabs or pages that use WebContainers and reload this one, ${fallback}`;
  }
  if (/cookie|storage|third.?party|partition/i.test(msg)) {
    return `the WebContainer could not start: the browser blocks third-party cookies or storage for stackblitz.com (${msg}); allow them for this site, ${fallback}`;
  }
  if (/network|fetch|load|timed? ?out|did not boot|unreachable/i.test(msg)) {
    return `the WebContainer could not load its runtime from stackblitz.com (${msg}); check the network and that stackblitz.com is reachable, ${fallback}`;
  }
  return `the WebContainer could not start: ${msg}; ${fallback}`;
}

/** The one container of a page (WebContainer.boot allows one at a time), booted on first use. */
class ContainerHost {
  private current: Promise<WcContainer> | null = null;
  /** Bumped at each teardown: episodes re-mount their files into the new container. */
  generation = 0;
  lastError: string | undefined;
  constructor(private readonly deps: WebContainerDeps) {}

  get(): Promise<WcContainer> {
    if (this.current) return this.current;
    const env = (this.deps.environment ?? defaultEnvironment)();
    if (env.crossOriginIsolated === false || env.onLine === false) return Promise.reject(new Error(bootErrorMessage(undefined, env)));
    const limit = this.deps.bootTimeoutMs ?? 60_000;
    this.current = new Promise<WcContainer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the WebContainer did not boot within ${limit >= 1000 ? `${Math.round(limit / 1000)} s` : `${limit} ms`} (stackblitz.com unreachable, or third-party cookies blocked?)`)), limit);
      this.deps.boot().then(
        (wc) => {
          clearTimeout(timer);
          wc.on?.('error', (e) => (this.lastError = e.message));
          resolve(wc);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    }).catch((e: unknown) => {
      this.current = null;
      throw new Error(bootErrorMessage(e, env));
    });
    return this.current;
  }

  /** Tear the container down (a process would not die); the next get() boots a new one. */
  async reboot(): Promise<void> {
    const old = this.current;
    this.current = null;
    this.generation++;
    try {
      (await old)?.teardown();
    } catch {
      // it never booted: nothing to tear down
    }
  }
}

const defaultEnvironment = () => {
  const g = globalThis as { crossOriginIsolated?: boolean; navigator?: { onLine?: boolean } };
  return { crossOriginIsolated: g.crossOriginIsolated, onLine: g.navigator?.onLine };
};

const hosts = new WeakMap<BootFn, ContainerHost>();
const hostFor = (deps: WebContainerDeps) => {
  let h = hosts.get(deps.boot);
  if (!h) hosts.set(deps.boot, (h = new ContainerHost(deps)));
  return h;
};

function toTree(files: FileMap): WcTree {
  const root: WcTree = {};
  for (const [path, text] of Object.entries(files)) {
    const parts = path.split('/');
    let dir = root;
    for (const p of parts.slice(0, -1)) {
      const node = (dir[p] ??= { directory: {} });
      if (!('directory' in node)) throw new Error(`${parts.slice(0, parts.indexOf(p) + 1).join('/')} is both a file and a folder in the file map`);
      dir = node.directory;
    }
    dir[parts[parts.length - 1]!] = { file: { contents: text } };
  }
  return root;
}

const errCode = (e: unknown) => `${(e as { code?: string })?.code ?? ''} ${(e as Error)?.message ?? ''}`;
let episodes = 0;

export class WebContainerSandbox implements Sandbox {
  readonly kind = 'webcontainer';
  private disposed = false;
  private generation = -1;
  /** The repository as this sandbox last wrote it: re-mounted if the container was rebooted. */
  private mirror: FileMap = {};
  private readonly opts: Required<SandboxOptions>;

  private constructor(
    private readonly host: ContainerHost,
    private base: FileMap,
    options: SandboxOptions,
    /** The episode's folder (relative to the container's workdir): repo/ and reporter.mjs. */
    private readonly dir: string,
    private readonly killGraceMs: number,
  ) {
    this.opts = { ...SANDBOX_DEFAULTS, ...options };
  }

  static async create(files: FileMap, options: SandboxOptions, deps: WebContainerDeps): Promise<WebContainerSandbox> {
    const dir = `episodes/e${++episodes}-${Math.random().toString(36).slice(2, 8)}`;
    const sb = new WebContainerSandbox(hostFor(deps), {}, options, dir, deps.killGraceMs ?? 1000);
    await sb.reset(files);
    return sb;
  }

  private get repo() {
    return `${this.dir}/repo`;
  }

  /** The container, with this episode's folder in it (mounted again after a reboot). */
  private async wc(): Promise<WcContainer> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    const wc = await this.host.get();
    if (this.generation !== this.host.generation) {
      this.generation = this.host.generation;
      await wc.fs.mkdir(this.repo, { recursive: true });
      await wc.mount({ 'reporter.mjs': { file: { contents: REPORTER } }, 'harden.mjs': { file: { contents: HARDEN } } }, { mountPoint: this.dir });
      await wc.mount(toTree(this.mirror), { mountPoint: this.repo });
    }
    return wc;
  }

  private abs(path: string, allowRoot = false): { rel: string; abs: string } {
    if (this.disposed) throw new Error('this sandbox was disposed');
    const rel = resolveRepoPath(path, allowRoot);
    return { rel, abs: rel ? `${this.repo}/${rel}` : this.repo };
  }

  async readFile(path: string): Promise<string> {
    const { rel, abs } = this.abs(path);
    const wc = await this.wc();
    try {
      return await wc.fs.readFile(abs, 'utf-8');
    } catch (e) {
      if (/ENOENT/.test(errCode(e))) throw new Error(`no such file in the repository: ${rel}`);
      if (/EISDIR/.test(errCode(e))) throw new Error(`${rel} is a folder, not a file`);
      throw e;
    }
  }

  async writeFile(path: string, text: string): Promise<void> {
    const { rel, abs } = this.abs(path);
    const wc = await this.wc();
    if (rel.includes('/')) await wc.fs.mkdir(`${this.repo}/${rel.slice(0, rel.lastIndexOf('/'))}`, { recursive: true });
    await wc.fs.writeFile(abs, text);
    this.mirror[rel] = text;
  }

  async deleteFile(path: string): Promise<void> {
    const { rel, abs } = this.abs(path);
    const wc = await this.wc();
    const exists = await wc.fs.readFile(abs, 'utf-8').then(
      () => true,
      (e: unknown) => (/EISDIR/.test(errCode(e)) ? Promise.reject(new Error(`${rel} is a folder, not a file`)) : false),
    );
    if (!exists) throw new Error(`no such file in the repository: ${rel}`);
    await wc.fs.rm(abs);
    delete this.mirror[rel];
  }

  async listFiles(dir = ''): Promise<string[]> {
    const { rel, abs } = this.abs(dir, true);
    const wc = await this.wc();
    const out: string[] = [];
    const walk = async (r: string, a: string) => {
      for (const ent of await wc.fs.readdir(a, { withFileTypes: true })) {
        const p = r ? `${r}/${ent.name}` : ent.name;
        if (ent.isDirectory()) await walk(p, `${a}/${ent.name}`);
        else if (ent.isFile()) out.push(p);
      }
    };
    await walk(rel, abs).catch((e: unknown) => {
      if (/ENOENT/.test(errCode(e))) throw new Error(`no such folder in the repository: ${rel}`);
      if (/ENOTDIR/.test(errCode(e))) throw new Error(`${rel} is a file, not a folder`);
      throw e;
    });
    return out.sort();
  }

  async applyPatch(diff: string): Promise<{ changed: string[] }> {
    const tryRead = (p: string) => this.readFile(p).catch((e: Error) => (/^no such file/.test(e.message) ? null : Promise.reject(e)));
    return applyDiffTo({ tryRead, writeFile: (p, t) => this.writeFile(p, t), deleteFile: (p) => this.deleteFile(p) }, diff);
  }

  async runTests(files: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const limitMs = options.timeoutMs ?? this.opts.timeoutMs;
    return runTestFiles(files, options, { limitMs, outputLimit: this.opts.outputLimit }, (f) => this.abs(f).rel, (rel, left, pattern) =>
      this.run([...(pattern !== undefined ? [`--test-name-pattern=${pattern}`] : []), rel], left, { file: rel, limitMs }));
  }

  async exec(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const c = parseNodeCommand(argv);
    if (c.kind === 'tests') return this.runTests(c.files ?? (await this.listFiles()).filter(isTestFile), options);
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    if (c.kind === 'eval') return this.run(c.args, timeoutMs);
    return this.run([this.abs(c.script).rel, ...c.args], timeoutMs);
  }

  /** One `node` process in the episode's repo folder: output parsed, time limit enforced. */
  private async run(args: string[], timeoutMs: number, extra: { file?: string; limitMs?: number } = {}): Promise<RunResult> {
    const started = performance.now();
    const wc = await this.wc();
    // No --max-old-space-size: the container's node may not take V8 flags (memoryMb is not enforced here).
    // The reporter is also the preload that hardens the process (node-reporter.mjs); the run's key, which it takes
    // from the environment and deletes there before the repository's code runs, marks its lines as its own.
    const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    const proc = await wc.spawn('node', ['--import=../reporter.mjs', '--test-reporter=../reporter.mjs', ...args], {
      cwd: this.repo,
      env: { NO_COLOR: '1', FORCE_COLOR: '0', TZ: 'UTC', LANG: 'C.UTF-8', WEBSWE_REPORTER_MARK: REPORTER_MARK, WEBSWE_REPORT_KEY: key },
      terminal: { cols: 500, rows: 40 },
    });
    const parsed = new OutputParser(this.opts.outputLimit, extra.file, key);
    const reading = (async () => {
      const reader = proc.output.getReader();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        if (value !== undefined) parsed.push(value);
      }
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    const first = await Promise.race([proc.exit, limit]);
    clearTimeout(timer);
    let exitCode: number | null = null;
    let note = '';
    if (first === 'timeout') {
      proc.kill();
      const grace = new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), this.killGraceMs));
      if ((await Promise.race([proc.exit, grace])) === 'stuck') {
        await this.host.reboot();
        note = '[the process did not stop when killed, so the WebContainer was torn down and booted again; the repository was restored from the sandbox\'s copy (files the program wrote itself are gone)]\n';
      }
    } else {
      exitCode = first;
      await Promise.race([reading, new Promise((r) => setTimeout(r, 200))]); // the output's last chunks
    }
    parsed.end();
    const timedOut = first === 'timeout';
    const tests = parsed.tests;
    const last = parsed.running?.join(' > ');
    const hung = timedOut && last !== undefined && !tests.some((t) => t.fullName === last) ? last : undefined;
    const killed = timedOut ? `\n[killed: the time limit of ${Math.round(extra.limitMs ?? timeoutMs)} ms was reached]\n${note}` : '';
    const lastError = this.host.lastError ? `[WebContainer error: ${this.host.lastError}]\n` : '';
    this.host.lastError = undefined;
    const result: RunResult = {
      tests,
      output: parsed.text() + killed + lastError + (parsed.sawTests ? formatTestReport(tests, hung) : ''),
      exitCode,
      timedOut,
      truncated: parsed.dropped > 0,
      durationMs: performance.now() - started,
      ...(parsed.foreign > 0 && { problems: [`${parsed.foreign} marked line(s) in the output did not come from the test runner`] }),
    };
    if (hung !== undefined) result.running = hung;
    return result;
  }

  async diff(): Promise<string> {
    const now: FileMap = {};
    for (const p of await this.listFiles()) now[p] = await this.readFile(p);
    return makeDiff(this.base, now);
  }

  async reset(files?: FileMap): Promise<void> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    if (files) {
      for (const p of Object.keys(files)) resolveRepoPath(p);
      this.base = { ...files };
    }
    this.mirror = { ...this.base };
    const wc = await this.host.get();
    if (this.generation === this.host.generation) await wc.fs.rm(this.repo, { recursive: true, force: true });
    this.generation = -1; // mount again (wc() does)
    await this.wc();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.generation !== this.host.generation) return;
    const wc = await this.host.get().catch(() => null);
    await wc?.fs.rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** What boots a page's container: @webcontainer/api's `WebContainer` class, or a stand-in with its `boot`. */
export interface WebContainerApi {
  boot(options: { coep: 'require-corp'; workdirName: string }): Promise<WcContainer>;
}
const BOOT_OPTIONS = { coep: 'require-corp', workdirName: 'webswe' } as const;
/** The page that WebContainer.boot loads in a hidden iframe (@webcontainer/api's default editor origin). */
const STACKBLITZ_HEADLESS = 'https://stackblitz.com/headless';
/** Set by useWebContainerApi (browser tests only): the page boots this instead of @webcontainer/api. */
let standIn: WebContainerApi | null = null;

/**
 * Whether stackblitz.com answers, asked before booting: offline, WebContainer.boot waits forever for its
 * iframe (navigator.onLine stays true on a machine with a network card but no route), so without this a
 * run would wait out the boot time limit. A no-cors request passes the page's COEP exactly when the boot
 * iframe's navigation would (same URL, same CORP check); its answer is opaque, which is all we need.
 */
async function reachStackBlitz(): Promise<void> {
  try {
    await fetch(STACKBLITZ_HEADLESS, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' });
  } catch (e) {
    throw new Error(`${new URL(STACKBLITZ_HEADLESS).origin} is unreachable: ${(e as Error).message}`);
  }
}

/** The real thing: @webcontainer/api, loaded on first use (it needs stackblitz.com), unless a stand-in is in use. */
export const bootWebContainer: BootFn = async () => {
  if (standIn) return standIn.boot(BOOT_OPTIONS);
  await reachStackBlitz();
  const { WebContainer } = await import('@webcontainer/api');
  return (await WebContainer.boot(BOOT_OPTIONS)) as unknown as WcContainer;
};

/** A SandboxFactory over a given container (tests pass a stand-in's boot function). */
export const webContainerFactory =
  (deps: WebContainerDeps) =>
  (files: FileMap, options: SandboxOptions = {}): Promise<Sandbox> =>
    WebContainerSandbox.create(files, options, deps);

const PAGE: WebContainerDeps = { boot: bootWebContainer };

/** The WebContainer sandbox of this page. */
export const createWebContainerSandbox = webContainerFactory(PAGE);

/** Why this page cannot boot a WebContainer, judged without booting one (null: it may; only a boot tells). */
export function webContainerUnavailable(): string | null {
  const env = defaultEnvironment();
  return env.crossOriginIsolated === false || env.onLine === false ? bootErrorMessage(undefined, env) : null;
}

/** Boot this page's container (once; later calls share it), or reject with the reason it cannot, in words. */
export async function readyWebContainer(): Promise<void> {
  await hostFor(PAGE).get();
}

/**
 * Test-only (the browser tier has no network): the page's WebContainer sandboxes boot `api` from now on
 * (null: @webcontainer/api again). A container already booted is torn down, so the next use boots the new one.
 * The page exposes it as `window.webswe.useWebContainerApi` (src/app/main.ts).
 */
export async function useWebContainerApi(api: WebContainerApi | null): Promise<void> {
  standIn = api;
  await hostFor(PAGE).reboot();
}
