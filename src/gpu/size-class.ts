// The size classes of the buffer pools (the GPU's, src/gpu/context.ts; the CPU backends' op results,
// recycle.ts): below 64 KiB a multiple of 256 bytes; above, 2^k · (1 + j/8) for j = 0…7, so a buffer is
// at most 1/8 larger than asked. Exact sizes made a pool a churn: prefill and training sizes follow each
// episode's length, so a released buffer was rarely asked for again — on an H200 a one-minute tiny run
// destroyed 35 GB of pooled buffers while its live peak was 1.9 GB (docs/gpu-h200.md, second report); in a
// Chromium tab the copy drills' results, whose length changes every step, were fresh arrays.

/** The class of a buffer of `bytes`: the bytes a pool's buffer for it holds. */
export function sizeClass(bytes: number): number {
  if (bytes <= 65536) return Math.ceil(bytes / 256) * 256;
  const step = 2 ** (Math.floor(Math.log2(bytes)) - 3);
  return Math.ceil(bytes / step) * step;
}
