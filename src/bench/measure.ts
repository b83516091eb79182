// Timing discipline for benchmarks: warm up (compiles pipelines), then repeat until both a minimum
// count and a minimum time are reached; report the median. Ours and the peer are timed the same
// way: wall time from recording the work to the GPU queue being idle.

export interface Timing {
  /** Median milliseconds per run. */
  ms: number;
  reps: number;
  /** All samples, ms. */
  samples: number[];
}

export interface MeasureOptions {
  warmup?: number;
  minReps?: number;
  minMs?: number;
  maxReps?: number;
}

/** `run` records the work; `idle` resolves when the GPU has finished it. */
export async function measure(run: () => void, idle: () => Promise<void>, opts: MeasureOptions = {}): Promise<Timing> {
  const { warmup = 1, minReps = 3, minMs = 200, maxReps = 50 } = opts;
  for (let i = 0; i < warmup; i++) {
    run();
    await idle();
  }
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < maxReps && (samples.length < minReps || performance.now() - start < minMs)) {
    const t0 = performance.now();
    run();
    await idle();
    samples.push(performance.now() - t0);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { ms: sorted[Math.floor(sorted.length / 2)]!, reps: samples.length, samples };
}

export const gflops = (flops: number, ms: number) => flops / ms / 1e6;
export const gbps = (bytes: number, ms: number) => bytes / ms / 1e6;
