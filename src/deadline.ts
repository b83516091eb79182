// A time limit that yields to what already happened: when `ms` have passed, one more turn of the event
// loop goes by before `fn` runs, so that an end whose I/O completed while the thread was busy (generating
// for other episodes, say) is read first, and a finished run is not reported as stopped at its limit.
// Used by every wall limit that races an end delivered by I/O: the episode loop's guard
// (agent/episode.ts), the worker sandbox's runs (sandbox/worker/sandbox.ts) and the node sandbox's
// processes (sandbox/node-run.node.ts). Core code: browser and Node alike.

/** Run `fn` once `ms` have passed and one more turn of the event loop has gone by; returns the cancel. */
export function deadline(ms: number, fn: () => void): () => void {
  let timer = setTimeout(() => {
    timer = setTimeout(fn, 0);
  }, ms);
  return () => clearTimeout(timer);
}
