// Recycled Float32Arrays for the CPU backends' op results: `f32(n)` hands out a zeroed array of n
// floats, from those given back by `recycle` (a WasmBackend's free) when one of that length is kept,
// else a new one. Why: a fresh typed array costs far more than zeroing one — in a Chromium worker
// 40–80 µs for 16–256 KiB, in Node 4–30 µs, against < 1 µs to fill 64 KiB — and a training step
// makes ~1,500 of them. Only arrays f32 made are taken back (a tensor wrapping a caller's array is
// never recycled), each once; the pool keeps at most POOL_BYTES, longest-kept given up first.
// WEBSWE_RECYCLE (Node's environment): `off` never recycles; `poison` fills each array given back with
// NaN, so that a holder reading it after its free shows (the use-after-free test in test/unit/ops).
const POOL_BYTES = 256 * 2 ** 20;
export type RecycleMode = 'on' | 'off' | 'poison';
const MODES: readonly string[] = ['on', 'off', 'poison'];
const fromEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.WEBSWE_RECYCLE ?? 'on';
if (!MODES.includes(fromEnv)) throw new Error(`WEBSWE_RECYCLE must be on, off or poison, got "${fromEnv}"`);
let mode = fromEnv as RecycleMode;

const byLength = new Map<number, Float32Array[]>();
const made = new WeakSet<Float32Array>();
const pooled = new Set<Float32Array>(); // insertion order: the eviction order
let pooledBytes = 0;

/** A zeroed Float32Array of n floats (as `new Float32Array(n)`), recycled where one is kept. */
export function f32(n: number): Float32Array {
  const a = byLength.get(n)?.pop();
  if (a) {
    pooled.delete(a);
    pooledBytes -= a.byteLength;
    return a.fill(0);
  }
  const fresh = new Float32Array(n);
  made.add(fresh);
  return fresh;
}

/** Gives an array back for f32 to hand out again: its holder must never read or write it after. */
export function recycle(a: ArrayLike<number>): void {
  if (mode === 'off' || !(a instanceof Float32Array) || !made.has(a) || pooled.has(a) || a.length === 0) return;
  if (mode === 'poison') a.fill(NaN);
  pooled.add(a);
  pooledBytes += a.byteLength;
  const list = byLength.get(a.length);
  if (list) list.push(a);
  else byLength.set(a.length, [a]);
  for (const old of pooled) {
    if (pooledBytes <= POOL_BYTES) break;
    pooled.delete(old);
    pooledBytes -= old.byteLength;
    const l = byLength.get(old.length)!;
    l.splice(l.indexOf(old), 1);
    if (!l.length) byLength.delete(old.length);
  }
}

/** Sets how `recycle` behaves (tests; a process takes WEBSWE_RECYCLE) and empties the pool; returns the mode it replaced. */
export function setRecycleMode(m: RecycleMode): RecycleMode {
  if (!MODES.includes(m)) throw new Error(`recycle mode must be on, off or poison, got "${m}"`);
  const was = mode;
  mode = m;
  byLength.clear();
  pooled.clear();
  pooledBytes = 0;
  return was;
}

/** Bytes kept for reuse. */
export const recycledBytes = (): number => pooledBytes;
