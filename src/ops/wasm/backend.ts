// WasmBackend: FastCpuBackend with its hot ops (matmul, attention, attention against a KV cache,
// logprobs, SwiGLU, RMSNorm, forward and backward) on WebAssembly SIMD kernels run on all cores
// (kernels/*.c through the KernelPool of threads.ts) — the trainer's engine where no hardware GPU
// adapter exists (`--backend wasm`, and what `auto` picks there). Results are bitwise the same for
// any thread count; CpuBackend stays the oracle (test/unit/ops/wasm.test.ts). Create it with
// `await WasmBackend.create(threads, spawn)` (helper threads start asynchronously; under Node
// `wasmBackendNode` in threads.node.ts); `close()` ends them.
import { FastCpuBackend } from '../fast-cpu/backend.ts';
import type { MatmulOptions } from '../matmul.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { wasmAttention, wasmAttentionBackward, wasmAttentionCached } from './attention.ts';
import { wasmLogprobs, wasmLogprobsBackward } from './logprobs.ts';
import { wasmRmsnorm, wasmRmsnormBackward, wasmSwiglu, wasmSwigluBackward } from './layers.ts';
import { wasmMatmul } from './matmul.ts';
import { KernelPool, type SpawnHelper } from './threads.ts';

export class WasmBackend extends FastCpuBackend {
  private constructor(readonly pool: KernelPool) {
    super();
  }

  /** A backend on `threads` threads; more than one needs the host's `spawn` (threads.node.ts: `wasmBackendNode`). */
  static async create(threads = 1, spawn?: SpawnHelper): Promise<WasmBackend> {
    return new WasmBackend(await KernelPool.create(threads, spawn));
  }

  get threads(): number {
    return this.pool.threads;
  }

  override matmul = (a: CpuTensor, b: CpuTensor, opts?: MatmulOptions<CpuTensor>): CpuTensor => wasmMatmul(this.pool, a, b, opts);
  override attention = (q: CpuTensor, k: CpuTensor, v: CpuTensor, seg: CpuTensor, opts?: { scale?: number }) => wasmAttention(this.pool, q, k, v, seg, opts);
  override attentionBackward = (q: CpuTensor, k: CpuTensor, v: CpuTensor, out: CpuTensor, dout: CpuTensor, lse: CpuTensor, seg: CpuTensor, opts?: { scale?: number }) =>
    wasmAttentionBackward(this.pool, q, k, v, out, dout, lse, seg, opts);
  override attentionCached = (q: CpuTensor, kCache: CpuTensor, vCache: CpuTensor, len: CpuTensor, opts?: { scale?: number; rows?: CpuTensor }) => wasmAttentionCached(this.pool, q, kCache, vCache, len, opts);
  override logprobs = (logits: CpuTensor, targets: CpuTensor) => wasmLogprobs(this.pool, logits, targets);
  override logprobsBackward = (logits: CpuTensor, targets: CpuTensor, lse: CpuTensor, entropy: CpuTensor, dlogp: CpuTensor, dentropy?: CpuTensor, out?: CpuTensor) =>
    wasmLogprobsBackward(this.pool, logits, targets, lse, entropy, dlogp, dentropy, out);
  override swiglu = (gate: CpuTensor, up: CpuTensor) => wasmSwiglu(this.pool, gate, up);
  override swigluBackward = (dh: CpuTensor, gate: CpuTensor, up: CpuTensor) => wasmSwigluBackward(this.pool, dh, gate, up);
  override rmsnorm = (x: CpuTensor, w: CpuTensor, eps: number) => wasmRmsnorm(this.pool, x, w, eps);
  override rmsnormBackward = (dy: CpuTensor, x: CpuTensor, w: CpuTensor, rstd: CpuTensor, dw: CpuTensor, opts?: { accumulateDx?: CpuTensor }) =>
    wasmRmsnormBackward(this.pool, dy, x, w, rstd, dw, opts);

  close(): void {
    this.pool.close();
  }
}
