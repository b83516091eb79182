// Recycled Float32Arrays for the CPU backends' op results: `f32(n)` hands out a zeroed array of n floats,
// a view on a buffer of n's size class (size-class.ts: at most 1/8 larger) taken from those given back by
// `recycle` (a WasmBackend's free) when one of that class is kept, else on a new one. Why: a fresh typed
// array costs far more than zeroing one — in a Chromium worker 40–80 µs for 16–256 KiB, in Node 4–30 µs,
// against < 1 µs to fill 64 KiB — and a micro training step makes ~1,500 of them; by class, not by
// exact length, because a step's lengths follow its episodes' (the tab's copy drills, whose results
// were fresh arrays every step at exact lengths).
//
// Safety: only views f32 made are taken back, each once — a view given back is forgotten, so a second free
// of it (a tensor and its reshaped view) is ignored, even after its buffer went to another view; a tensor
// wrapping a caller's array is never recycled. A view's `.buffer` may be larger than the view: code that
// reads the bytes of a result uses byteOffset and byteLength (safetensors.ts, dtypes.ts), and `read` gives
// a copy. The pool keeps at most POOL_BYTES, longest-kept given up first.
//
// WEBSWE_RECYCLE (Node's environment): `off` never recycles; `poison` fills each array given back with NaN,
// so that a holder reading it after its free shows (the use-after-free test, test/unit/ops/recycle.test.ts).
import { sizeClass } from '../gpu/size-class.ts';

const POOL_BYTES = 256 * 2 ** 20;
export type RecycleMode = 'on' | 'off' | 'poison';
const MODES: readonly string[] = ['on', 'off', 'poison'];
const fromEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.WEBSWE_RECYCLE ?? 'on';
if (!MODES.includes(fromEnv)) throw new Error(`WEBSWE_RECYCLE must be on, off or poison, got "${fromEnv}"`);
let mode = fromEnv as RecycleMode;

/** Kept buffers by byte size (a size class). */
const byClass = new Map<number, ArrayBuffer[]>();
/** Views handed out and not yet given back. */
const live = new WeakSet<Float32Array>();
/** Kept buffers, insertion order: the eviction order. */
const kept = new Set<ArrayBuffer>();
let keptBytes = 0;

/** A zeroed Float32Array of n floats (as `new Float32Array(n)`), on a recycled buffer where one is kept. */
export function f32(n: number): Float32Array {
  const bytes = sizeClass(Math.max(1, n) * 4);
  const reused = byClass.get(bytes)?.pop();
  if (reused) {
    kept.delete(reused);
    keptBytes -= bytes;
  }
  const a = new Float32Array(reused ?? new ArrayBuffer(bytes), 0, n);
  if (reused) a.fill(0);
  live.add(a);
  return a;
}

/** Gives an array back for f32 to hand out again: its holder must never read or write it after. */
export function recycle(a: ArrayLike<number>): void {
  if (mode === 'off' || !(a instanceof Float32Array) || !live.delete(a)) return;
  const buf = a.buffer as ArrayBuffer;
  if (mode === 'poison') new Float32Array(buf).fill(NaN);
  kept.add(buf);
  keptBytes += buf.byteLength;
  const list = byClass.get(buf.byteLength);
  if (list) list.push(buf);
  else byClass.set(buf.byteLength, [buf]);
  for (const old of kept) {
    if (keptBytes <= POOL_BYTES) break;
    kept.delete(old);
    keptBytes -= old.byteLength;
    const l = byClass.get(old.byteLength)!;
    l.splice(l.indexOf(old), 1);
    if (!l.length) byClass.delete(old.byteLength);
  }
}

/** Sets how `recycle` behaves (tests; a process takes WEBSWE_RECYCLE) and empties the pool; returns the mode it replaced. */
export function setRecycleMode(m: RecycleMode): RecycleMode {
  if (!MODES.includes(m)) throw new Error(`recycle mode must be on, off or poison, got "${m}"`);
  const was = mode;
  mode = m;
  byClass.clear();
  kept.clear();
  keptBytes = 0;
  return was;
}

/** Bytes kept for reuse. */
export const recycledBytes = (): number => keptBytes;
