// The page's side of the trainer worker: the comlink proxy, one listener registered with the
// worker whose run events are fanned out to the open view, and the page's WebContainer sandboxes
// handed to the worker (they boot only from a page) for runs with agent.sandbox = webcontainer.
import * as Comlink from 'comlink';
import type { Progress } from '../rl/phases.ts';
import type { FileMap, SandboxOptions } from '../sandbox/types.ts';
import type { PageSandboxProvider, RunEvent, WorkerApi } from '../../workers/trainer.api.ts';

const worker = new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
export const trainer = Comlink.wrap<WorkerApi>(worker);

const subscribers = new Set<(e: RunEvent) => void>();

/** Subscribe to run events; returns the unsubscribe function. */
export function onRunEvent(f: (e: RunEvent) => void): () => void {
  subscribers.add(f);
  return () => subscribers.delete(f);
}

/** The run the worker is training when the page opened, with its last progress. */
export const watching: Promise<{ run: string | null; progress: Progress | null }> = trainer.watch(
  Comlink.proxy((e: RunEvent) => {
    for (const f of subscribers) f(e);
  }),
);

/** The page's WebContainer sandboxes as the worker's episodes use them (workers/page-sandboxes.ts): nothing
 *  boots until a run (or the New run form) asks; each sandbox goes back as a proxy the worker disposes. */
const webContainers: PageSandboxProvider = {
  ready: async () => (await import('../sandbox/webcontainer.browser.ts')).readyWebContainer(),
  create: async (files: FileMap, options?: SandboxOptions) =>
    Comlink.proxy(await (await import('../sandbox/webcontainer.browser.ts')).createWebContainerSandbox(files, options)),
};
void trainer.provideSandbox('webcontainer', Comlink.proxy(webContainers));
