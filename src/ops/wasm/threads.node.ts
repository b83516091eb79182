// The WASM backend's helper threads under Node: worker_threads running HELPER_SOURCE, unref'd so that
// a helper blocked in Atomics.wait never keeps the process alive; and the cores Node reports.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { WasmBackend } from './backend.ts';
import { HELPER_SOURCE, type Helper, type HelperData } from './threads.ts';

const PROGRAM = `${HELPER_SOURCE}\nconst { workerData, parentPort } = require('node:worker_threads');\nstart(workerData, (m) => parentPort.postMessage(m));`;

export function spawnNodeHelper(data: HelperData): Helper {
  const w = new Worker(PROGRAM, { eval: true, workerData: data });
  w.unref();
  return {
    ready: new Promise((resolve, reject) => {
      w.once('message', () => resolve());
      w.once('error', reject);
    }),
    terminate: () => void w.terminate(),
  };
}

/** Threads for the WASM backend here: every core Node reports. */
export const nodeThreads = (): number => availableParallelism();

/** A WasmBackend on `threads` threads under Node (default: every core). */
export async function wasmBackendNode(threads = nodeThreads()): Promise<WasmBackend> {
  return WasmBackend.create(threads, spawnNodeHelper);
}
