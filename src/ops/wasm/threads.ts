// The WASM kernels on all cores: one shared WebAssembly.Memory, one instance of kernels.wasm per
// thread (the caller's own, plus helper threads: worker_threads under Node, Web Workers in a
// page's worker), and a fork-join over work items through a control block in that memory.
//
// A job: the caller writes the op and its arguments into the control block, bumps the epoch and
// wakes the helpers (Atomics.notify); every thread, the caller too, claims items with an atomic
// counter until none are left; the caller then waits (Atomics.wait) until every helper has checked
// in. An item's outputs are computed by one thread alone, in a fixed order, so which thread ran it,
// and how many threads there were, never changes a bit. Ops are synchronous, as the Backend
// contract wants: the caller blocks, which Node's main thread and a Web Worker may (a page's main
// thread may not: the app's backend lives in the trainer's worker). Threads are started by the host
// (threads.node.ts: worker_threads; threads.browser.ts: Web Workers); the core only runs them.
//
// Memory map (bytes): [0, 8 KiB) the module's data; [8 KiB, +256) the control block (epoch, item
// counter, op, arguments); from 64 KiB one region per thread (its own shadow stack — each instance's
// __stack_pointer is set here — and its matmul scratch); after them the resident blocks (data that
// outlives an op call: a KV cache kept tiled, attention.ts), then the operands' heap, laid out anew by
// each op call (grown as needed, up to KERNELS_MAX_PAGES).
import { KERNELS_MAX_PAGES, KERNELS_WASM_BASE64 } from './kernels.wasm.ts';

/** The exports of kernels/*.c: every op runs as `op_item(item, tid, args)` (args: i32 words at a byte address). */
export interface KernelExports {
  mm_item(item: number, tid: number, args: number): void;
  attn_fwd_item(item: number, tid: number, args: number): void;
  attn_bwd_item(item: number, tid: number, args: number): void;
  mm_scratch_floats(): number;
  mm_rows_per_item(): number;
  mm_cols_per_item(): number;
  attn_scratch_floats(T: number, HS: number): number;
  lp_fwd_item(item: number, tid: number, args: number): void;
  lp_bwd_item(item: number, tid: number, args: number): void;
  lp_rows_per_item(): number;
  swiglu_item(item: number, tid: number, args: number): void;
  swiglu_bwd_item(item: number, tid: number, args: number): void;
  rmsnorm_item(item: number, tid: number, args: number): void;
  rmsnorm_bwd_item(item: number, tid: number, args: number): void;
  ew_per_item(): number;
  rn_rows_per_item(): number;
  attn_cached_item(item: number, tid: number, args: number): void;
  peak_item(item: number, tid: number, args: number): void;
  stream_item(item: number, tid: number, args: number): void;
  __stack_pointer: WebAssembly.Global;
}

/** Ops a job can run: control-block op codes, and the export each one calls (the helpers' table too). */
export const OP = { quit: 0, matmul: 1, attentionForward: 2, attentionBackward: 3, logprobs: 4, logprobsBackward: 5, swiglu: 6, swigluBackward: 7, rmsnorm: 8, rmsnormBackward: 9, attentionCached: 10, peak: 11, stream: 12 } as const;
const OP_EXPORTS = ['', 'mm_item', 'attn_fwd_item', 'attn_bwd_item', 'lp_fwd_item', 'lp_bwd_item', 'swiglu_item', 'swiglu_bwd_item', 'rmsnorm_item', 'rmsnorm_bwd_item', 'attn_cached_item', 'peak_item', 'stream_item'] as const;

const CTRL = 8192; // byte address of the control block
const C_EPOCH = 0, C_NEXT = 1, C_ITEMS = 2, C_DONE = 3, C_OP = 4, C_HELPERS = 5, C_ARGS = 8; // Int32 slots
const MAX_ARGS = 56;
const ARGS = CTRL + C_ARGS * 4; // byte address of the current job's arguments
const REGIONS = 65536; // each thread's region: its shadow stack, then its matmul scratch
const STACK = 16384;
const PAGE = 65536;

/** The helper thread's whole program (plain JS, no imports): the same item loop as `run`. */
const HELPER = `
function start(d, post) {
  const ex = new WebAssembly.Instance(d.module, { env: { memory: d.memory } }).exports;
  ex.__stack_pointer.value = d.stackTop;
  const fns = ${JSON.stringify(OP_EXPORTS)}.map((n) => n && ex[n]);
  const ctrl = new Int32Array(d.memory.buffer, ${CTRL}, 64);
  let epoch = 0;
  post('ready');
  for (;;) {
    Atomics.wait(ctrl, ${C_EPOCH}, epoch);
    epoch = Atomics.load(ctrl, ${C_EPOCH});
    const op = ctrl[${C_OP}];
    if (op === ${OP.quit}) return;
    const items = ctrl[${C_ITEMS}], f = fns[op];
    for (let i = Atomics.add(ctrl, ${C_NEXT}, 1); i < items; i = Atomics.add(ctrl, ${C_NEXT}, 1)) f(i, d.id, ${ARGS});
    if (Atomics.add(ctrl, ${C_DONE}, 1) + 1 === ctrl[${C_HELPERS}]) Atomics.notify(ctrl, ${C_DONE});
  }
}`;
/** The helper's program: a `start(data, post)` function the host wraps (post('ready') once instantiated). */
export const HELPER_SOURCE = HELPER;

/** One thread's region: its stack, then its matmul scratch (packed A, packed B, accumulators). */
const regionBytes = (ex: KernelExports) => STACK + ex.mm_scratch_floats() * 4;

let compiled: WebAssembly.Module | null = null;
function kernelsModule(): WebAssembly.Module {
  if (!compiled) {
    const bin = atob(KERNELS_WASM_BASE64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/** What a helper thread is given: the module, the shared memory, its thread id and stack. */
export interface HelperData {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  id: number;
  stackTop: number;
}

/** A started helper: resolves once it has its instance, and can be ended. */
export interface Helper {
  ready: Promise<void>;
  terminate(): void;
}

/** Starts one helper thread running HELPER_SOURCE's `start(data, post)` (threads.node.ts, threads.browser.ts). */
export type SpawnHelper = (data: HelperData) => Helper;

export class KernelPool {
  readonly ex: KernelExports;
  readonly memory: WebAssembly.Memory;
  /** Threads that run items: the caller + helpers. */
  readonly threads: number;
  private readonly ctrl: Int32Array;
  private readonly regionBytes: number;
  private readonly fns: ((item: number, tid: number, args: number) => void)[];
  /** Byte address where the resident blocks start (the operands' heap follows the last of them). */
  private readonly residentBase: number;
  /** Resident blocks by address: [byte address, bytes]. */
  private readonly resident: [number, number][] = [];
  private f32view: Float32Array;

  private constructor(memory: WebAssembly.Memory, ex: KernelExports, private readonly helpers: Helper[]) {
    this.memory = memory;
    this.ex = ex;
    this.threads = helpers.length + 1;
    this.ctrl = new Int32Array(memory.buffer, CTRL, 64);
    this.regionBytes = regionBytes(ex);
    this.residentBase = REGIONS + this.threads * this.regionBytes;
    this.fns = OP_EXPORTS.map((n) => (n ? ex[n] : () => {}));
    ex.__stack_pointer.value = REGIONS + STACK;
    this.f32view = new Float32Array(memory.buffer);
  }

  /** A pool of `threads` threads (1: the caller alone, no helper; more need `spawn`, a host's way to
   *  start a thread, and a thread that may block). Resolves once every helper is ready. */
  static async create(threads: number, spawn?: SpawnHelper): Promise<KernelPool> {
    if (!Number.isInteger(threads) || threads < 1) throw new Error(`wasm backend: threads must be a whole number ≥ 1, got ${threads}`);
    if (threads > 1 && !spawn) throw new Error('wasm backend: more than one thread needs a host thread starter (threads.node.ts or threads.browser.ts)');
    if (threads > 1 && typeof SharedArrayBuffer === 'undefined') {
      throw new Error('wasm backend: more than one thread needs SharedArrayBuffer (in a page: cross-origin isolation); use 1 thread');
    }
    const module = kernelsModule();
    const probe = new WebAssembly.Memory({ initial: 1, maximum: KERNELS_MAX_PAGES, shared: true });
    const region = regionBytes(new WebAssembly.Instance(module, { env: { memory: probe } }).exports as unknown as KernelExports);
    const memory = new WebAssembly.Memory({ initial: Math.ceil((REGIONS + threads * region) / PAGE) + 16, maximum: KERNELS_MAX_PAGES, shared: true });
    const ex = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as KernelExports;
    const helpers: Helper[] = [];
    try {
      for (let id = 1; id < threads; id++) helpers.push(spawn!({ module, memory, id, stackTop: REGIONS + id * region + STACK }));
      await Promise.all(helpers.map((h) => h.ready));
    } catch (e) {
      for (const h of helpers) h.terminate();
      throw new Error(`wasm backend: a helper thread failed to start (${(e as Error).message}); use 1 thread`);
    }
    return new KernelPool(memory, ex, helpers);
  }

  /** Matmul scratch of thread 0 and the bytes between threads' scratch (args of mm_item). */
  get matmulScratch(): { base: number; stride: number } {
    return { base: REGIONS + STACK, stride: this.regionBytes };
  }

  /** The whole memory as floats (re-made after a grow). */
  get f32(): Float32Array {
    if (this.f32view.buffer.byteLength !== this.memory.buffer.byteLength) this.f32view = new Float32Array(this.memory.buffer);
    return this.f32view;
  }

  /** Byte address where the operands' heap starts: after the last resident block. */
  get heapBase(): number {
    const last = this.resident.at(-1);
    return last ? last[0] + last[1] : this.residentBase;
  }

  /** A zeroed block of `bytes` (rounded up to 16) that stays until freeResident: the first gap between
   *  resident blocks that holds it, else after the last. Never during an op call's layout (HeapLayout). */
  allocResident(bytes: number): number {
    const size = (bytes + 15) & ~15;
    let at = this.residentBase, i = 0;
    for (; i < this.resident.length && this.resident[i]![0] - at < size; i++) at = this.resident[i]![0] + this.resident[i]![1];
    if (i === this.resident.length) this.growTo(at + size);
    this.resident.splice(i, 0, [at, size]);
    this.f32.fill(0, at / 4, (at + size) / 4);
    return at;
  }

  /** Gives back a block from allocResident (its address); an unknown address is an error. */
  freeResident(at: number): void {
    const i = this.resident.findIndex(([a]) => a === at);
    if (i < 0) throw new Error(`wasm backend: no resident block at ${at}`);
    this.resident.splice(i, 1);
  }

  /** Bytes held by resident blocks. */
  get residentBytes(): number {
    return this.resident.reduce((a, [, n]) => a + n, 0);
  }

  /** Makes the heap at least `bytes` long past heapBase. */
  reserve(bytes: number): void {
    this.growTo(this.heapBase + bytes);
  }

  /** Makes the memory at least `need` bytes long (up to KERNELS_MAX_PAGES). */
  private growTo(need: number): void {
    const have = this.memory.buffer.byteLength;
    if (need <= have) return;
    const pages = Math.ceil((need - have) / PAGE);
    if (have / PAGE + pages > KERNELS_MAX_PAGES) {
      throw new Error(`wasm backend: an op needs ${(need / 2 ** 20).toFixed(0)} MiB of WebAssembly memory, more than its ${KERNELS_MAX_PAGES / 16} MiB limit; use a smaller batch or the fast-cpu backend`);
    }
    this.memory.grow(pages);
  }

  /** Runs items [0, items) of `op` with `args` (i32 words) on every thread, or on the caller alone
   *  when `parallel` is false (small jobs: a fork-join costs tens of µs; the bits do not depend on it). */
  run(op: number, args: readonly number[], items: number, parallel = true): void {
    const c = this.ctrl, f = this.fns[op]!;
    if (args.length > MAX_ARGS) throw new Error(`wasm backend: ${args.length} arguments, the control block holds ${MAX_ARGS}`);
    for (let i = 0; i < args.length; i++) c[C_ARGS + i] = args[i]!;
    if (!parallel || this.helpers.length === 0 || items < 2) {
      for (let i = 0; i < items; i++) f(i, 0, ARGS);
      return;
    }
    c[C_OP] = op;
    c[C_ITEMS] = items;
    c[C_HELPERS] = this.helpers.length;
    Atomics.store(c, C_NEXT, 0);
    Atomics.store(c, C_DONE, 0);
    Atomics.add(c, C_EPOCH, 1);
    Atomics.notify(c, C_EPOCH);
    for (let i = Atomics.add(c, C_NEXT, 1); i < items; i = Atomics.add(c, C_NEXT, 1)) f(i, 0, ARGS);
    for (let d = Atomics.load(c, C_DONE); d < this.helpers.length; d = Atomics.load(c, C_DONE)) Atomics.wait(c, C_DONE, d);
  }

  /** Ends the helpers (the pool is unusable after). */
  close(): void {
    if (this.helpers.length) {
      this.ctrl[C_OP] = OP.quit;
      Atomics.add(this.ctrl, C_EPOCH, 1);
      Atomics.notify(this.ctrl, C_EPOCH);
    }
    for (const h of this.helpers) h.terminate();
    this.helpers.length = 0;
  }
}

/** One op call's operands on the pool's heap: `put` places a copy of an array, `alloc` space for a
 *  result, both 16-byte aligned and returning byte addresses; `commit` grows the memory and copies. */
export class HeapLayout {
  private bytes = 0;
  private readonly copies: [Float32Array | Int32Array, number][] = [];
  constructor(private readonly pool: KernelPool) {}

  put(a: Float32Array | Int32Array): number {
    const at = this.alloc(a.length);
    this.copies.push([a, at]);
    return at;
  }

  alloc(elements: number): number {
    const at = this.pool.heapBase + this.bytes;
    this.bytes += ((elements + 3) & ~3) * 4;
    return at;
  }

  commit(): void {
    this.pool.reserve(this.bytes);
    const f32 = this.pool.f32, i32 = new Int32Array(f32.buffer);
    for (const [a, at] of this.copies) (a instanceof Float32Array ? f32 : i32).set(a, at / 4);
  }

  /** Copies `src` to byte address `at` (after commit: a partial copy into space from `alloc`). */
  write(src: Float32Array, at: number): void {
    this.pool.f32.set(src, at / 4);
  }

  /** Copies n floats at byte address `at` into `into` (from its start). */
  read(at: number, into: Float32Array): void {
    into.set(this.view(at, into.length));
  }

  /** n floats at byte address `at`, in place: valid until the pool's next op call (intermediate values an
   *  op reduces in JS at once, never a result). */
  view(at: number, n: number): Float32Array {
    return this.pool.f32.subarray(at / 4, at / 4 + n);
  }
}
