// GpuContext: one GPUDevice and everything that talks to it. Pipeline cache keyed by kernel and
// override constants, labelled buffers with out-of-memory checks (storage buffers within the
// binding limit, which a context may lower: larger tensors are split by the ops), batched command
// recording with one submit per flush, readback, error scopes that turn late GPU errors into typed
// exceptions, device loss wired to one observable place, and timing (timestamp queries, else
// submissions).
import { GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError, KernelCompileError } from './errors.ts';
import { kernelSource, kernelVariant } from './kernels.ts';
import { overrideConstants, packParams, paramsByteSize, type KernelDecl } from './kernel.ts';
import { sizeClass } from './size-class.ts';

export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
}

export type LostListener = (err: GpuDeviceLostError) => void;

export interface DispatchArgs<P extends string, O extends string> {
  buffers: Record<string, GPUBuffer>;
  params: Record<P, number>;
  constants?: Partial<Record<O, boolean | number>>;
  workgroups: readonly [number, number?, number?];
  label?: string;
}

export interface GpuContextOptions {
  /** Bytes one storage binding may hold, lowered below the device's limit (tests use a few KiB so
   *  that tensors are split; see src/ops/webgpu/split.ts). Clamped to maxStorageBufferBindingSize and
   *  maxBufferSize; at least 256 (a binding must hold a few rows). */
  bindingLimit?: number;
  /** Bytes the pool of released buffers may always hold (default 256 MiB); it may hold up to the
   *  high-water mark of live buffers when that is larger. See `buffer` and `poolReleased`. */
  poolLimit?: number;
}

/** Default floor of the pool's budget: a micro or tiny step's whole working set fits in it. */
export const DEFAULT_POOL_LIMIT = 256 * 2 ** 20;

const pipelinesByDevice = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>();

/** The smallest binding limit a context accepts. */
export const MIN_BINDING_LIMIT = 256;

export { sizeClass };

export class GpuContext {
  readonly limits: GPUSupportedLimits;
  /** Largest storage buffer this context creates: min(maxStorageBufferBindingSize, maxBufferSize,
   *  options.bindingLimit), a multiple of 4. Tensors past it are split into row chunks by the ops. */
  readonly bindingLimit: number;
  readonly features: ReadonlySet<string>;
  /** Whether kernels with a subgroup path compile it (default: where the device has 'subgroups'). A bench or
   *  test may turn it off to run the fallback on the same device; turning it on without the feature throws. */
  get subgroups(): boolean {
    return this.useSubgroups;
  }
  set subgroups(on: boolean) {
    if (on && !this.features.has('subgroups')) throw new Error(`GpuContext: this device has no 'subgroups' feature (adapter ${this.adapter.vendor} ${this.adapter.architecture})`);
    this.useSubgroups = on;
  }
  private useSubgroups: boolean;
  /** Pipelines by kernel and constants, shared by every context on this device (they are device
   *  objects: a second context, e.g. one with a lower binding limit, compiles nothing again). */
  private readonly pipelines: Map<string, GPUComputePipeline>;
  private readonly pendingErrors: Promise<Error | null>[] = [];
  private encoder: GPUCommandEncoder | null = null;
  private lostError: GpuDeviceLostError | null = null;
  private readonly lostListeners = new Set<LostListener>();
  private timing: { querySet: GPUQuerySet; next: number; capacity: number } | null = null;
  /** Bytes of live buffers handed out by `buffer()` (pooled ones excluded), and their high-water
   *  mark since the last `resetPeak()` (memory reports and benchmarks). */
  allocatedBytes = 0;
  peakBytes = 0;
  resetPeak(): void {
    this.peakBytes = this.allocatedBytes;
  }
  /** High-water mark of live bytes over the context's life (never reset): the pool's budget. */
  private liveHighWater = 0;
  private readonly poolLimit: number;

  constructor(
    readonly device: GPUDevice,
    readonly adapter: AdapterSummary,
    options: GpuContextOptions = {},
  ) {
    this.limits = device.limits;
    let pipelines = pipelinesByDevice.get(device);
    if (!pipelines) pipelinesByDevice.set(device, (pipelines = new Map()));
    this.pipelines = pipelines;
    const asked = options.bindingLimit;
    if (asked !== undefined && !(Number.isInteger(asked) && asked >= MIN_BINDING_LIMIT)) {
      throw new Error(`GpuContext: bindingLimit must be an integer of at least ${MIN_BINDING_LIMIT} bytes, got ${asked}`);
    }
    const limit = Math.min(asked ?? Infinity, this.limits.maxStorageBufferBindingSize, this.limits.maxBufferSize);
    this.bindingLimit = Math.floor(limit / 4) * 4;
    const pool = options.poolLimit ?? DEFAULT_POOL_LIMIT;
    if (!(Number.isFinite(pool) && pool >= 0)) throw new Error(`GpuContext: poolLimit must be a number of bytes ≥ 0, got ${pool}`);
    this.poolLimit = pool;
    this.features = new Set(device.features as unknown as Iterable<string>);
    this.useSubgroups = this.features.has('subgroups');
    device.lost.then((info) => {
      if (info.reason === 'destroyed' && this.disposed) return;
      this.lostError = new GpuDeviceLostError(info.reason, info.message || 'no message');
      for (const l of this.lostListeners) l(this.lostError);
    });
  }
  private disposed = false;

  /** The single place device loss is observed. Returns an unsubscribe function. */
  onLost(listener: LostListener): () => void {
    if (this.lostError) queueMicrotask(() => listener(this.lostError!));
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }
  get lost(): GpuDeviceLostError | null {
    return this.lostError;
  }
  private checkAlive(): void {
    if (this.lostError) throw this.lostError;
  }

  // ---- buffers -------------------------------------------------------------------------------

  /**
   * A labelled storage buffer; refuses sizes beyond the device limit (storage buffers: beyond the
   * binding limit, since they are bound whole) before asking the driver.
   * Sizes are rounded up to a size class (sizeClass: at most 1/8 more), and a released buffer of the
   * same class and usage is reused when there is one, zero-filled like a new buffer (unless `zero` is
   * false: the caller overwrites what it uses). A buffer may so be larger than asked: every op reads and
   * binds the bytes it needs, never `buf.size` (no kernel uses arrayLength). Released buffers join the pool
   * only once the commands that may read them are submitted (see release), so a queue.writeBuffer
   * into a reused buffer can never overtake those reads.
   */
  buffer(label: string, bytes: number, usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST, zero = true): GPUBuffer {
    this.checkAlive();
    const exact = Math.max(16, Math.ceil(bytes / 4) * 4);
    // A size class, unless rounding up would pass a limit the exact size is within (then the exact size).
    const rounded = sizeClass(exact);
    const size = rounded <= this.limits.maxBufferSize && (!(usage & GPUBufferUsage.STORAGE) || rounded <= this.bindingLimit) ? rounded : exact;
    const pooled = this.pool.get(`${size}|${usage}`)?.pop();
    if (pooled) {
      this.poolOrder.delete(pooled);
      this.pooledBytes -= size;
      this.allocatedBytes += size;
      this.peakBytes = Math.max(this.peakBytes, this.allocatedBytes);
      this.liveHighWater = Math.max(this.liveHighWater, this.allocatedBytes);
      pooled.label = label;
      if (zero && usage & GPUBufferUsage.COPY_DST) this.clear(pooled);
      return pooled;
    }
    if (size > this.limits.maxBufferSize) throw new GpuOutOfMemoryError(label, size, this.limits.maxBufferSize);
    if (usage & GPUBufferUsage.STORAGE && size > this.bindingLimit) throw new GpuOutOfMemoryError(label, size, this.bindingLimit);
    this.device.pushErrorScope('out-of-memory');
    const buf = this.device.createBuffer({ label, size, usage });
    this.pendingErrors.push(this.device.popErrorScope().then((e) => (e ? new GpuOutOfMemoryError(label, size, undefined) : null)));
    this.allocatedBytes += size;
    this.peakBytes = Math.max(this.peakBytes, this.allocatedBytes);
    this.liveHighWater = Math.max(this.liveHighWater, this.allocatedBytes);
    return buf;
  }

  /** A buffer initialised from a typed array. */
  upload(label: string, data: ArrayBufferView, usage?: number): GPUBuffer {
    const buf = this.buffer(label, data.byteLength, usage, false);
    this.device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
    return buf;
  }

  /** Give a buffer back. It joins the pool at the next submit: recorded commands may still read it. */
  release(buf: GPUBuffer): void {
    this.allocatedBytes -= buf.size;
    this.released.push(buf);
  }
  private released: GPUBuffer[] = [];
  /**
   * Move the released buffers into the pool (called once their reads are submitted), then destroy the
   * longest-pooled ones while the pool holds more than max(poolLimit, live high-water mark) bytes.
   * The bound matters: sizes change from call to call (prefill and training lengths follow each
   * episode), so an unbounded pool keeps one buffer of every size ever asked. On an H200 the tiny
   * run's pool grew through ~400 generate calls until the device refused a 66 MiB buffer (the GPU
   * report). Device memory stays under live + max(poolLimit, high water). destroy() of a buffer that
   * submitted work still reads is allowed: the implementation frees it after that work.
   */
  private poolReleased(): void {
    for (const buf of this.released) {
      const key = `${buf.size}|${buf.usage}`;
      const list = this.pool.get(key) ?? [];
      list.push(buf);
      this.pool.set(key, list);
      this.poolOrder.add(buf);
      this.pooledBytes += buf.size;
    }
    this.released = [];
    const budget = Math.max(this.poolLimit, this.liveHighWater);
    for (const oldest of this.poolOrder) {
      if (this.pooledBytes <= budget) break;
      this.poolOrder.delete(oldest);
      const list = this.pool.get(`${oldest.size}|${oldest.usage}`)!;
      list.splice(list.indexOf(oldest), 1);
      this.pooledBytes -= oldest.size;
      this.evictedBytes += oldest.size;
      oldest.destroy();
    }
  }
  private readonly pool = new Map<string, GPUBuffer[]>();
  /** Pooled buffers, longest-pooled first (a Set keeps insertion order): the eviction order. */
  private readonly poolOrder = new Set<GPUBuffer>();
  /** Bytes held in the pool of released buffers. */
  pooledBytes = 0;
  /** Bytes of pooled buffers destroyed to keep the pool within its budget (Backend.memory, the run's metrics). */
  evictedBytes = 0;

  /** Free the pool's buffers once the GPU has finished everything submitted so far. */
  async trimPool(): Promise<void> {
    await this.flush();
    const all = [...this.pool.values()].flat();
    this.pool.clear();
    this.poolOrder.clear();
    this.pooledBytes = 0;
    await this.sync();
    for (const b of all) b.destroy();
  }

  /** Record a zero fill of a buffer (or a byte range of it). */
  clear(buf: GPUBuffer, offset = 0, size?: number): void {
    this.commandEncoder().clearBuffer(buf, offset, size);
  }

  /** Copy `bytes` from a buffer back to the CPU (flushes pending work first). The count is required: a
   *  buffer can be larger than was asked for it (its size class). */
  async read(buf: GPUBuffer, bytes: number, offset = 0): Promise<ArrayBuffer> {
    this.checkAlive();
    const staging = this.device.createBuffer({ label: `${buf.label}/readback`, size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    this.commandEncoder().copyBufferToBuffer(buf, offset, staging, 0, bytes);
    await this.flushSoon();
    await staging.mapAsync(GPUMapMode.READ);
    this.checkAlive();
    const out = staging.getMappedRange().slice(0);
    staging.destroy();
    return out;
  }

  // ---- pipelines and dispatch ----------------------------------------------------------------

  /** Create (or reuse) the pipeline for a kernel and its override constants. */
  pipeline(decl: KernelDecl, constants: Record<string, boolean | number> = {}): GPUComputePipeline {
    const sg = decl.subgroups === true && this.useSubgroups;
    const key = `${decl.file}|${decl.entry}|${JSON.stringify(constants)}${sg ? '|subgroups' : ''}`;
    let p = this.pipelines.get(key);
    if (p) return p;
    this.checkAlive();
    const label = `${decl.file}${Object.keys(constants).length ? ` ${JSON.stringify(constants)}` : ''}${sg ? ' (subgroups)' : ''}`;
    this.device.pushErrorScope('validation');
    const text = kernelSource(decl.file);
    const code = decl.subgroups ? kernelVariant(decl.file, text, sg) : text;
    const module = this.device.createShaderModule({ label: decl.file, code });
    p = this.device.createComputePipeline({
      label,
      layout: 'auto',
      compute: { module, entryPoint: decl.entry, constants: overrideConstants(constants) },
    });
    this.pendingErrors.push(
      this.device.popErrorScope().then(async (err) => {
        if (!err) return null;
        const info = await module.getCompilationInfo();
        const msgs = info.messages
          .filter((m) => m.type === 'error')
          .map((m) => ({ line: m.lineNum, column: m.linePos, text: m.message, type: m.type }));
        return new KernelCompileError(decl.file, msgs, err.message);
      }),
    );
    this.pipelines.set(key, p);
    return p;
  }

  /** Compile a kernel now and throw its compiler messages if it is broken. */
  async compile(decl: KernelDecl, constants: Record<string, boolean | number> = {}): Promise<void> {
    this.pipeline(decl, constants);
    await this.drainErrors();
  }

  /** Record one compute dispatch of a declared kernel into the current command encoder. */
  dispatch<P extends string, O extends string>(decl: KernelDecl<P, O>, args: DispatchArgs<P, O>): void {
    const pipeline = this.pipeline(decl, (args.constants ?? {}) as Record<string, boolean | number>);
    const entries: GPUBindGroupEntry[] = [];
    let uniform: GPUBuffer | null = null;
    decl.bindings.forEach((b, i) => {
      if (b.access === 'uniform') {
        uniform = this.device.createBuffer({ label: `${decl.file}/params`, size: paramsByteSize(decl), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        this.device.queue.writeBuffer(uniform, 0, packParams(decl, args.params));
        entries.push({ binding: i, resource: { buffer: uniform } });
      } else {
        const buf = args.buffers[b.name];
        if (!buf) throw new Error(`${decl.file}: binding "${b.name}" was not given a buffer`);
        entries.push({ binding: i, resource: { buffer: buf } });
      }
    });
    const bindGroup = this.device.createBindGroup({ label: args.label ?? decl.file, layout: pipeline.getBindGroupLayout(0), entries });
    const [x, y = 1, z = 1] = args.workgroups;
    const max = this.limits.maxComputeWorkgroupsPerDimension;
    if (x > max || y > max || z > max) throw new Error(`${decl.file}: dispatch ${x}×${y}×${z} exceeds ${max} workgroups per dimension`);
    if (x === 0 || y === 0 || z === 0) return;
    const pass = this.commandEncoder().beginComputePass({ label: args.label ?? decl.file, timestampWrites: this.timestampWrites() });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(x, y, z);
    pass.end();
    if (uniform) this.transient.push(uniform);
  }
  private transient: GPUBuffer[] = [];
  /** Command buffers submitted so far (`bench generate` reports them per generated token). */
  submissions = 0;

  private commandEncoder(): GPUCommandEncoder {
    this.checkAlive();
    this.encoder ??= this.device.createCommandEncoder();
    return this.encoder;
  }

  private flushing: Promise<void> | null = null;
  /** One submission, a microtask from now, for everything recorded until then: reads issued together
   *  (Promise.all over several tensors) share one submit and one wait. */
  private flushSoon(): Promise<void> {
    return (this.flushing ??= Promise.resolve().then(() => {
      this.flushing = null;
      return this.flush();
    }));
  }

  /** Submit recorded work and surface any error raised since the last flush. */
  async flush(): Promise<void> {
    if (this.encoder) {
      this.device.pushErrorScope('validation');
      this.device.queue.submit([this.encoder.finish()]);
      this.submissions++;
      this.encoder = null;
      this.poolReleased();
      this.pendingErrors.push(this.device.popErrorScope().then((e) => (e ? new GpuValidationError(e.message) : null)));
      const done = this.transient;
      this.transient = [];
      this.device.queue.onSubmittedWorkDone().then(() => done.forEach((b) => b.destroy()));
    }
    await this.drainErrors();
  }

  private async drainErrors(): Promise<void> {
    const errs = (await Promise.all(this.pendingErrors.splice(0))).filter((e): e is Error => e !== null);
    this.checkAlive();
    // Compile errors first: a broken kernel also invalidates the submit that used it.
    const first = errs.find((e) => e instanceof KernelCompileError) ?? errs[0];
    if (first) throw first;
  }

  /** Wait until the GPU has finished everything submitted so far. */
  async sync(): Promise<void> {
    await this.flush();
    await this.device.queue.onSubmittedWorkDone();
    this.checkAlive();
  }

  // ---- timing --------------------------------------------------------------------------------

  private timestampWrites(): GPUComputePassTimestampWrites | undefined {
    const t = this.timing;
    if (!t || t.next + 2 > t.capacity) return undefined;
    const w = { querySet: t.querySet, beginningOfPassWriteIndex: t.next, endOfPassWriteIndex: t.next + 1 };
    t.next += 2;
    return w;
  }

  /**
   * GPU time of the work `run` records, in ms. With `timestamp-query`: first pass begin to last
   * pass end (Chrome quantises to 100 µs). Without it: wall time of the whole submission.
   */
  async time(run: () => void, maxPasses = 2048): Promise<{ ms: number; method: 'timestamp' | 'submission' }> {
    await this.sync();
    if (!this.features.has('timestamp-query')) {
      const t0 = performance.now();
      run();
      await this.sync();
      return { ms: performance.now() - t0, method: 'submission' };
    }
    const capacity = maxPasses * 2;
    const querySet = this.device.createQuerySet({ label: 'timing', type: 'timestamp', count: capacity });
    const timing = { querySet, next: 0, capacity };
    this.timing = timing;
    try {
      run();
    } finally {
      this.timing = null;
    }
    if (timing.next === 0) throw new Error('GpuContext.time: the measured work recorded no compute pass');
    const used = timing.next;
    const resolve = this.device.createBuffer({ label: 'timing/resolve', size: capacity * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.commandEncoder().resolveQuerySet(querySet, 0, used, resolve, 0);
    const raw = new BigUint64Array(await this.read(resolve, used * 8));
    resolve.destroy();
    querySet.destroy();
    return { ms: Number(raw[used - 1]! - raw[0]!) / 1e6, method: 'timestamp' };
  }
  dispose(): void {
    this.disposed = true;
    this.device.destroy();
  }
}
