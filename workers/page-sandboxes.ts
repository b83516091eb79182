// Sandboxes that live in the page, used from the trainer worker: WebContainers boot only from a page, so the
// page hands the worker a provider (a Comlink.proxy, src/app/client.ts) when it loads. Episodes create their
// sandboxes through it; each comes back as a comlink proxy, wrapped here as a Sandbox whose dispose() also
// releases the proxy (its MessagePort). Errors cross comlink with their name and message, which is what the
// episode loop reads (PathError, CommandError, PatchError, "no such file"). A page reload ends the worker
// with the page, so a run that used them shows as interrupted, as any other.
import * as Comlink from 'comlink';
import { ConfigError } from '../src/rl/config.ts';
import type { FileMap, RunOptions, RunResult, Sandbox, SandboxFactory, SandboxOptions } from '../src/sandbox/types.ts';
import type { PageSandboxKind, PageSandboxProvider } from './trainer.api.ts';

/** How the worker sees a provider: every call a message to the page; create() gives a remote Sandbox. */
type RemoteProvider = Comlink.Remote<PageSandboxProvider>;
type RemoteSandbox = Comlink.Remote<Sandbox>;

/** One page sandbox, seen from the worker. */
class PageSandbox implements Sandbox {
  private released = false;
  constructor(
    readonly kind: PageSandboxKind,
    private readonly remote: RemoteSandbox,
  ) {}
  readFile = (path: string): Promise<string> => this.remote.readFile(path);
  writeFile = (path: string, text: string): Promise<void> => this.remote.writeFile(path, text);
  deleteFile = (path: string): Promise<void> => this.remote.deleteFile(path);
  listFiles = (dir?: string): Promise<string[]> => this.remote.listFiles(dir);
  applyPatch = (diff: string): Promise<{ changed: string[] }> => this.remote.applyPatch(diff);
  runTests = (files: readonly string[], options?: RunOptions): Promise<RunResult> => this.remote.runTests([...files], options);
  exec = (argv: readonly string[], options?: RunOptions): Promise<RunResult> => this.remote.exec([...argv], options);
  diff = (): Promise<string> => this.remote.diff();
  reset = (files?: FileMap): Promise<void> => this.remote.reset(files);
  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await this.remote.dispose();
    } finally {
      this.remote[Comlink.releaseProxy]();
    }
  }
}

const WORKER_HINT = 'agent.sandbox = "worker" runs episodes in the trainer worker, offline';

/** The page's providers by kind: given once per page, used by every run that names their kind. */
export class PageSandboxes {
  private readonly providers = new Map<PageSandboxKind, RemoteProvider>();

  /** The page's provider arrives as a comlink proxy whatever its declared type says. */
  provide(kind: PageSandboxKind, provider: PageSandboxProvider): void {
    this.providers.get(kind)?.[Comlink.releaseProxy]();
    this.providers.set(kind, provider as unknown as RemoteProvider);
  }

  private provider(kind: PageSandboxKind): RemoteProvider {
    const p = this.providers.get(kind);
    if (!p) throw new ConfigError(`agent.sandbox: "${kind}" sandboxes live in the page, and this page has not provided them (the app provides them as it loads); ${WORKER_HINT}`);
    return p;
  }

  /** Refuse a run (ConfigError naming agent.sandbox) unless the page's sandbox host boots; the page says why not. */
  async check(kind: PageSandboxKind): Promise<void> {
    const provider = this.provider(kind);
    try {
      await provider.ready();
    } catch (e) {
      throw new ConfigError(`agent.sandbox: ${(e as Error).message} (${WORKER_HINT})`);
    }
  }

  /** The SandboxFactory episodes call: each sandbox is made in the page and driven from here. */
  factory(kind: PageSandboxKind): SandboxFactory {
    const provider = this.provider(kind);
    return async (files, options?: SandboxOptions) => new PageSandbox(kind, (await provider.create(files, options)) as unknown as RemoteSandbox);
  }
}
