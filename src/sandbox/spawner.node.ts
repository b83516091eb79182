// Starting sandbox processes without forking the trainer: one small spawner process (spawner-host.mjs),
// forked once, starts them and relays their pipes over IPC. Measured here: a spawn from a process holding
// ~320 MB and WASM memories blocks its main thread ~23 ms (the fork copies its page tables), from a fresh
// node process ~4 ms; a profile of an evaluation on the worker sandbox had 18 % of the trainer's main thread
// in ChildProcess.spawn. The spawner keeps the event loop alive only while one of its children is.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOST = fileURLToPath(new URL('./spawner-host.mjs', import.meta.url));

type HostMessage =
  | { t: 'pid'; id: number; pid: number }
  | { t: 'data'; id: number; fd: number; d: string }
  | { t: 'exit'; id: number; code: number | null; signal: string | null; error?: string };

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  /** Pipes: stdin, stdout, stderr and any more (fd 3 …). */
  fds?: number;
}

/** A process the spawner started: its pipes as callbacks, its end, and a kill of its whole group. */
export class RemoteProcess {
  /** Known once the spawner has started it. */
  pid: number | undefined;
  /** Text from fd 1 (stdout), 2 (stderr), 3 … */
  onData: ((fd: number, text: string) => void) | null = null;
  /** After its pipes closed: the exit code, or the signal; `error` when it could not start. */
  onClose: ((code: number | null, signal: string | null, error?: string) => void) | null = null;
  /** Called with the pid as soon as it is known. */
  onPid: ((pid: number) => void) | null = null;
  closed = false;

  constructor(
    private readonly spawner: Spawner,
    readonly id: number,
  ) {}

  write(text: string): void {
    if (!this.closed) this.spawner.post({ t: 'in', id: this.id, d: text });
  }

  end(): void {
    if (!this.closed) this.spawner.post({ t: 'end', id: this.id });
  }

  /** SIGKILL to its process group. */
  kill(): void {
    if (!this.closed) this.spawner.post({ t: 'kill', id: this.id });
  }

  /** Whether it keeps this process's event loop alive (a process kept idle for later use need not). */
  holds = true;
  setHolds(holds: boolean): void {
    this.holds = holds;
    this.spawner.hold();
  }
}

export class Spawner {
  private host: ChildProcess | null = null;
  private next = 1;
  private readonly live = new Map<number, RemoteProcess>();

  spawn(file: string, args: readonly string[], opts: SpawnOptions): RemoteProcess {
    const p = new RemoteProcess(this, this.next++);
    this.live.set(p.id, p);
    this.ensure();
    this.hold();
    this.post({ t: 'spawn', id: p.id, file, args, cwd: opts.cwd, env: opts.env, fds: opts.fds ?? 3 });
    return p;
  }

  post(m: object): void {
    // A spawner that died takes its children with it; their ends were reported (onHostExit).
    if (this.host?.connected) this.host.send(m);
  }

  private ensure(): void {
    if (this.host?.connected) return;
    const host = fork(HOST, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [], serialization: 'json' });
    host.on('message', (m: HostMessage) => this.receive(m));
    host.on('exit', () => this.onHostExit(host));
    host.on('error', () => this.onHostExit(host));
    this.host = host;
  }

  private receive(m: HostMessage): void {
    const p = this.live.get(m.id);
    if (!p) return;
    if (m.t === 'pid') {
      p.pid = m.pid;
      p.onPid?.(m.pid);
    } else if (m.t === 'data') p.onData?.(m.fd, m.d);
    else this.finish(p, m.code, m.signal, m.error);
  }

  private finish(p: RemoteProcess, code: number | null, signal: string | null, error?: string): void {
    if (p.closed) return;
    p.closed = true;
    this.live.delete(p.id);
    this.hold();
    p.onClose?.(code, signal, error);
  }

  private onHostExit(host: ChildProcess): void {
    if (this.host !== host) return;
    this.host = null;
    for (const p of [...this.live.values()]) this.finish(p, null, 'SIGKILL', 'the sandbox spawner process ended');
  }

  /** Keep the event loop alive while a child that holds is live (a finished command must not wait for the
   *  spawner, nor for the idle processes kept for later sandboxes: src/sandbox/worker-node.node.ts). */
  hold(): void {
    const h = this.host;
    if (!h) return;
    let busy = false;
    for (const p of this.live.values()) if ((busy = p.holds)) break;
    const channel = (h as unknown as { channel?: { ref(): void; unref(): void } }).channel;
    if (busy) h.ref(), channel?.ref();
    else h.unref(), channel?.unref();
  }

  /** End the spawner: its children are killed with it and reported ended. */
  close(): void {
    const host = this.host;
    if (!host) return;
    if (host.connected) host.disconnect();
    this.onHostExit(host);
  }
}

/** The process's spawner, started at its first use. */
let shared: Spawner | null = null;
export const spawner = (): Spawner => (shared ??= new Spawner());
