// Philox4x32-10 (Salmon et al. 2011, Random123): a counter-based generator, the same words on the
// CPU and in kernels/sample.wgsl. Checked against Random123's known-answer vectors
// (test/unit/ops/sample.test.ts) and against the WGSL copy (test/gpu/ops/sample.test.ts).

const M0 = 0xd2511f53, M1 = 0xcd9e8d57; // round multipliers
const W0 = 0x9e3779b9, W1 = 0xbb67ae85; // Weyl key increments

/** High 32 bits of the 64-bit product a·b, by 16-bit halves (the WGSL copy does the same). */
function mulhi32(a: number, b: number): number {
  const al = a & 0xffff, ah = a >>> 16, bl = b & 0xffff, bh = b >>> 16;
  const lo = al * bl, m1 = ah * bl, m2 = al * bh;
  const carry = ((lo >>> 16) + (m1 & 0xffff) + (m2 & 0xffff)) >>> 16;
  return (ah * bh + (m1 >>> 16) + (m2 >>> 16) + carry) >>> 0;
}

/** philox4x32-10(counter (4 u32), key (2 u32)) → 4 u32 words. */
export function philox4x32(counter: readonly [number, number, number, number], key: readonly [number, number]): [number, number, number, number] {
  let [c0, c1, c2, c3] = counter.map((x) => x >>> 0) as [number, number, number, number];
  let k0 = key[0] >>> 0, k1 = key[1] >>> 0;
  for (let r = 0; r < 10; r++) {
    if (r > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi32(M0, c0), lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi32(M1, c2), lo1 = Math.imul(M1, c2) >>> 0;
    [c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0];
  }
  return [c0, c1, c2, c3];
}

/** The key words of a seed: (low 32 bits, high bits). Seeds are integers in [0, 2^53). */
export function seedKey(seed: number): [number, number] {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`sample: seed must be an integer in [0, 2^53), got ${seed}`);
  return [seed >>> 0, Math.floor(seed / 4294967296) >>> 0];
}

/** A uniform in [0, 1) from one word: its top 24 bits · 2^-24 (exact in f32, never 1). */
export function wordToUniform(w: number): number {
  return (w >>> 8) * 2 ** -24;
}

/** The uniform that row `row` of sample() draws: philox(key = seed, counter = (counter, row, 0, 0)). */
export function sampleUniform(seed: number, counter: number, row: number): number {
  return wordToUniform(philox4x32([counter >>> 0, row >>> 0, 0, 0], seedKey(seed))[0]);
}
