// The WASM backend's helper threads in a browser: Web Workers from a Blob of HELPER_SOURCE, started
// from the trainer's worker (a cross-origin isolated page gives it SharedArrayBuffer); and the cores
// the browser reports.
import { HELPER_SOURCE, type Helper, type HelperData } from './threads.ts';

const PROGRAM = `${HELPER_SOURCE}\nonmessage = (e) => start(e.data, (m) => postMessage(m));`;
let url: string | null = null;

export function spawnWebHelper(data: HelperData): Helper {
  url ??= URL.createObjectURL(new Blob([PROGRAM], { type: 'text/javascript' }));
  const w = new Worker(url, { name: `webswe wasm helper ${data.id}` });
  const ready = new Promise<void>((resolve, reject) => {
    w.onmessage = () => resolve();
    w.onerror = (e) => reject(new Error(e.message || 'the worker reported an error'));
  });
  w.postMessage(data);
  return { ready, terminate: () => w.terminate() };
}

/** Threads for the WASM backend here: the cores the browser reports (at least 1). */
export const webThreads = (): number => Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);
