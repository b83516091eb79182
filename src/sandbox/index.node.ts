// The sandboxes by name, for commands that take `--sandbox NAME`. Node has the `node` sandbox and the
// worker sandbox (its runs in a confined node process per episode: worker-node.node.ts); WebContainers
// run in a browser page and register there through registerSandbox.
import { createNodeSandbox } from './node.node.ts';
import { createNodeWorkerSandbox } from './worker-node.node.ts';
import type { SandboxFactory } from './types.ts';

export interface SandboxEntry {
  description: string;
  /** Absent where this kind cannot run in the current process; `unavailable` then says why. */
  create?: SandboxFactory;
  unavailable?: string;
}

const registry = new Map<string, SandboxEntry>([
  // Time limits count the process's CPU time (wall time stops it at 10×): a loaded machine, or many
  // episodes' sandboxes at once, neither times out a test run that would pass nor changes a reward.
  ['node', { description: 'a confined `node` process per run, in a temporary folder per episode', create: (files, opts) => createNodeSandbox(files, { clock: 'cpu', ...opts }) }],
  [
    'worker',
    {
      description: "the browser's worker sandbox (node:test and node:assert as it emulates them), its runs in one confined `node` process per episode",
      // In a page: window.webswe.sandboxes.worker (src/app/main.ts, src/sandbox/worker.browser.ts), a Web Worker a run.
      // CPU time limits, as the node sandbox's.
      create: (files, opts) => createNodeWorkerSandbox(files, { clock: 'cpu', ...opts }),
    },
  ],
  [
    'webcontainer',
    {
      description: 'StackBlitz WebContainers in a browser page (online)',
      unavailable: 'WebContainers run only in a cross-origin-isolated browser page with access to stackblitz.com; under Node use --sandbox node',
    },
  ],
]);

export function registerSandbox(name: string, entry: SandboxEntry): void {
  registry.set(name, entry);
}

export function sandboxNames(): string[] {
  return [...registry.keys()];
}

/** The factory for `name`, or an Error whose message says why it cannot run here. */
export function sandboxFactory(name: string): SandboxFactory {
  const entry = registry.get(name);
  if (!entry) throw new Error(`unknown sandbox "${name}"; choose one of: ${sandboxNames().join(', ')}`);
  if (!entry.create) throw new Error(`--sandbox ${name} is not available here: ${entry.unavailable ?? 'no implementation registered'}`);
  return entry.create;
}
