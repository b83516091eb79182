// CPU reference of rotary position embedding, Hugging Face half-rotation (`rotate_half`): pairs
// (i, i + HS/2) rotate by θ_i = pos · inv_freq[i], the angle formed in f32 exactly as HF forms it
// (see ropeInvFreq), cos/sin in f64 of that angle. `inverse` rotates by −θ: the backward.
import { ropeDims, ropeInvFreq } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

/** x (N, H, HS), positions (N) i32 → (N, H, HS). */
export function rope(x: CpuTensor, positions: CpuTensor, theta: number, opts: { inverse?: boolean } = {}): CpuTensor {
  const { N, H, HS } = ropeDims(x, positions, theta);
  const half = HS / 2;
  const invFreq = ropeInvFreq(HS, theta);
  const sign = opts.inverse ? -1 : 1;
  const X = x.data, out = f32(X.length);
  for (let n = 0; n < N; n++) {
    const pos = Math.fround(positions.data[n]!);
    for (let i = 0; i < half; i++) {
      const angle = Math.fround(pos * invFreq[i]!);
      const c = Math.cos(angle), s = sign * Math.sin(angle);
      for (let h = 0; h < H; h++) {
        const o = (n * H + h) * HS;
        const x1 = X[o + i]!, x2 = X[o + i + half]!;
        out[o + i] = x1 * c - x2 * s;
        out[o + i + half] = x2 * c + x1 * s;
      }
    }
  }
  return { shape: [...x.shape], dtype: 'f32', label: 'rope.out', data: out };
}
