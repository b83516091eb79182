// Conversions between f32 and the 16-bit float formats of safetensors files: BF16 (the top half of
// an f32; written with round-to-nearest-even, as torch's .to(torch.bfloat16)) and F16 (IEEE half,
// read only), and UTF-8 text. Typed arrays are little-endian on every host we run on (checked here).

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('webswe needs a little-endian host (safetensors data is little-endian)');

/** bf16 bit patterns → f32: the 16 bits become the high half of the f32. */
export function bf16ToF32(src: Uint16Array): Float32Array {
  const u = new Uint32Array(src.length);
  for (let i = 0; i < src.length; i++) u[i] = src[i]! << 16;
  return new Float32Array(u.buffer);
}

/** f32 → bf16 bit patterns, round to nearest even; NaN stays a quiet NaN of the same sign. */
export function f32ToBf16(src: Float32Array): Uint16Array {
  const bits = new Uint32Array(src.buffer, src.byteOffset, src.length);
  const out = new Uint16Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const b = bits[i]!;
    if ((b & 0x7fffffff) > 0x7f800000) out[i] = (b >>> 16) | 0x0040;
    else out[i] = (b + 0x7fff + ((b >>> 16) & 1)) >>> 16; // < 2^32 for every non-NaN pattern
  }
  return out;
}

/** IEEE binary16 bit patterns → f32 (subnormals, infinities and NaN included). */
export function f16ToF32(src: Uint16Array): Float32Array {
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const h = src[i]!;
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >>> 10) & 0x1f;
    const frac = h & 0x3ff;
    if (exp === 0) out[i] = sign * frac * 2 ** -24; // zero and subnormals
    else if (exp === 31) out[i] = frac ? NaN : sign * Infinity;
    else out[i] = sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return out;
}

// UTF-8 text ↔ bytes. Every runtime has TextEncoder/TextDecoder, but the core's typings (no DOM, no
// Node; src/host.d.ts) do not declare them, so they are reached through globalThis here.
interface TextCodecs {
  TextEncoder: new () => { encode(s: string): Uint8Array };
  TextDecoder: new (label?: string, opts?: { fatal?: boolean }) => { decode(b: Uint8Array): string };
}
const codecs = globalThis as unknown as TextCodecs;
export const utf8Encode = (s: string): Uint8Array => new codecs.TextEncoder().encode(s);
/** `fatal`: throw on malformed UTF-8 instead of inserting U+FFFD. */
export const utf8Decode = (b: Uint8Array, fatal = false): string => new codecs.TextDecoder('utf-8', { fatal }).decode(b);
