// safetensors read/write: the Python-written fixtures read and re-written byte for byte, the
// load → save → load round trip bit-exact, BF16/F16 decoding, and every broken file refused with
// a one-line reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHfConfig, type ModelConfig } from '../../../src/model/config.ts';
import { bf16ToF32, f16ToF32, f32ToBf16 } from '../../../src/model/dtypes.ts';
import { ModelFileError } from '../../../src/model/errors.ts';
import { blobSource, bufferSource, readHeader, SafetensorsFile, writeSafetensors, type NamedTensor } from '../../../src/model/safetensors.ts';
import { expectedTensors, validateAgainstConfig, WeightSet } from '../../../src/model/weights.ts';

const fixture = (name: string, file: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/models/${name}/${file}`, import.meta.url)));
const configOf = (name: string) => parseHfConfig(new TextDecoder().decode(fixture(name, 'config.json')));
const open = (bytes: Uint8Array) => SafetensorsFile.open(bufferSource(bytes));
/** Bitwise equality of two f32 arrays (NaN payloads and -0 included). */
const sameBits = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

async function readAll(f: SafetensorsFile): Promise<NamedTensor[]> {
  const out: NamedTensor[] = [];
  for (const name of f.names) out.push({ name, shape: f.info(name).shape, data: await f.read(name) });
  return out;
}

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFileError);
    const msg = (e as Error).message;
    expect(msg, 'one line').not.toMatch(/\n/);
    return msg;
  }
  throw new Error('expected a refusal');
}

/** A file from a header object and `dataBytes` zero bytes; `len` overrides the length prefix. */
function craft(header: Record<string, unknown> | string, dataBytes: number, len?: number): Uint8Array {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + dataBytes);
  new DataView(out.buffer).setBigUint64(0, BigInt(len ?? json.length), true);
  out.set(json, 8);
  return out;
}

describe('safetensors fixtures (written by test/fixtures/torch/hf_models.py)', () => {
  for (const name of ['llama', 'qwen2', 'qwen3']) {
    it(`${name}: header valid, matches the config, gradients named like the parameters`, async () => {
      const c = configOf(name);
      const f = await open(fixture(name, 'model.safetensors'));
      validateAgainstConfig(f.header.tensors, c);
      expect(f.names.sort()).toEqual(expectedTensors(c).map((s) => s.name).sort());
      expect(f.header.metadata).toEqual({ format: 'pt' });
      const ref = JSON.parse(new TextDecoder().decode(fixture(name, 'reference.json'))) as { grads: Record<string, { shape: number[] }> };
      expect(Object.entries(ref.grads).map(([n, g]) => [n, g.shape])).toEqual(expectedTensors(c).map((s) => [s.name, s.shape]));
    });

    it(`${name}: re-written byte for byte; load → save → load is bit-exact`, async () => {
      const original = fixture(name, 'model.safetensors');
      const tensors = await readAll(await open(original));
      const again = writeSafetensors(tensors);
      expect(Buffer.from(again).equals(Buffer.from(original))).toBe(true);
      const back = await readAll(await open(again));
      expect(back.map((t) => [t.name, t.shape])).toEqual(tensors.map((t) => [t.name, t.shape]));
      back.forEach((t, i) => expect(sameBits(t.data, tensors[i]!.data)).toBe(true));
    });
  }

  it('BF16: reads the values torch rounded, and writes torch\'s bytes', async () => {
    const f32 = await readAll(await open(fixture('qwen2', 'model.safetensors')));
    const bf16File = fixture('qwen2-bf16', 'model.safetensors');
    const bf = await open(bf16File);
    validateAgainstConfig(bf.header.tensors, configOf('qwen2-bf16'));
    for (const t of f32) {
      expect(bf.info(t.name).dtype).toBe('BF16');
      expect(sameBits(await bf.read(t.name), bf16ToF32(f32ToBf16(t.data)))).toBe(true);
    }
    expect(Buffer.from(writeSafetensors(f32, { dtype: 'BF16' })).equals(Buffer.from(bf16File))).toBe(true);
  });
});

describe('16-bit decoding', () => {
  it('BF16 known values and round to nearest even', () => {
    expect([...bf16ToF32(new Uint16Array([0x3f80, 0xc000, 0x4049, 0x0000, 0x8000, 0x7f80, 0xff80]))]).toEqual([1, -2, 3.140625, 0, -0, Infinity, -Infinity]);
    expect(Number.isNaN(bf16ToF32(new Uint16Array([0x7fc0]))[0])).toBe(true);
    const f = new Float32Array(new Uint32Array([0x3f808000, 0x3f818000, 0x3f808001, 0x7f7fffff, 0x7fc00001, 0x00000001]).buffer);
    // tie → even (down), tie → even (up), above the tie → up, max finite → inf, NaN stays NaN, tiny → 0
    expect([...f32ToBf16(f)]).toEqual([0x3f80, 0x3f82, 0x3f81, 0x7f80, 0x7fc0, 0x0000]);
  });

  it('F16 known values: normals, subnormals, zeros, infinities, NaN', () => {
    const got = f16ToF32(new Uint16Array([0x3c00, 0xc000, 0x7bff, 0x0400, 0x0001, 0x8000, 0x7c00, 0xfc00, 0x3555]));
    expect([...got]).toEqual([1, -2, 65504, 2 ** -14, 2 ** -24, -0, Infinity, -Infinity, Math.fround(0.333251953125)]);
    expect(Number.isNaN(f16ToF32(new Uint16Array([0x7e00]))[0])).toBe(true);
  });

  it('F16 tensors in a file are read as f32', async () => {
    const file = craft({ h: { dtype: 'F16', shape: [2], data_offsets: [0, 4] } }, 4);
    file.set([0x00, 0x3c, 0x00, 0xc0], file.length - 4);
    expect([...(await (await open(file)).read('h'))]).toEqual([1, -2]);
  });
});

describe('broken files are refused with one line, before any tensor is used', () => {
  const good = () => fixture('llama', 'model.safetensors');

  it('truncated', async () => {
    const cut = good().subarray(0, good().length - 100);
    expect(await refusal(open(cut))).toMatch(/^model\.safetensors: header says tensor lm_head\.weight ends at byte \d+ but the file has \d+ bytes: the file is truncated or corrupt; download it again$/);
    expect(await refusal(open(good().subarray(0, 5)))).toMatch(/the file has 5 bytes, too few for a safetensors header/);
    expect(await refusal(open(good().subarray(0, 200)))).toMatch(/header length \d+ bytes runs past the end of the file \(200 bytes\)/);
  });

  it('header lying about offsets: overlap, gap, wrong size, trailing bytes', async () => {
    const t = (b: number, e: number, shape = [2]) => ({ dtype: 'F32', shape, data_offsets: [b, e] });
    expect(await refusal(open(craft({ a: t(0, 8), b: t(4, 12) }, 12)))).toMatch(/header lies about offsets: tensor b \(bytes \d+–\d+\) overlaps a/);
    expect(await refusal(open(craft({ a: t(0, 8), b: t(12, 20) }, 20)))).toMatch(/header lies about offsets: bytes \d+–\d+ between a and b belong to no tensor/);
    expect(await refusal(open(craft({ a: t(0, 12) }, 12)))).toMatch(/tensor a: data_offsets \[0, 12\] hold 12 bytes but F32 \(2\) needs 8/);
    expect(await refusal(open(craft({ a: t(8, 4) }, 8)))).toMatch(/tensor a: data_offsets \[8,4\] is not \[begin, end\]/);
    expect(await refusal(open(craft({ a: t(0, 8) }, 16)))).toMatch(/the header accounts for \d+ bytes but the file has \d+: trailing bytes/);
  });

  it('header length absurd', async () => {
    expect(await refusal(open(craft({}, 0, 2 ** 40)))).toMatch(/header length 1099511627776 bytes is absurd \(limit 100000000\)/);
  });

  it('bad JSON, not an object, bad metadata, bad shape', async () => {
    expect(await refusal(open(craft('{"a": {"dtype": "F32",', 0)))).toMatch(/^model\.safetensors: header is not valid JSON \(.*\): the file is corrupt or not a safetensors file$/);
    expect(await refusal(open(craft('[1, 2]', 0)))).toMatch(/header is not a JSON object/);
    expect(await refusal(open(craft({ __metadata__: { format: 1 } }, 0)))).toMatch(/__metadata__\.format must be a string/);
    expect(await refusal(open(craft({ a: { dtype: 'F32', shape: [-1], data_offsets: [0, 0] } }, 0)))).toMatch(/tensor a: shape \[-1\] is not a list of sizes/);
    const bytes = craft('{"a":1}', 0);
    bytes[9] = 0xff; // invalid UTF-8
    expect(await refusal(open(bytes))).toMatch(/header is not valid JSON/);
  });

  it('unknown dtype; a known dtype we do not read', async () => {
    expect(await refusal(open(craft({ a: { dtype: 'F17', shape: [1], data_offsets: [0, 4] } }, 4)))).toMatch(/tensor a has unknown dtype "F17" \(the format defines BOOL, U8/);
    const f = await open(craft({ a: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, 8));
    expect(await refusal(f.read('a'))).toMatch(/tensor a has dtype I64; only F32, F16, BF16 weights are read/);
  });

  it('shapes, names or dtypes that do not match the config', async () => {
    const llama = configOf('llama');
    const tensors = (await open(good())).header.tensors;
    const wider: ModelConfig = { ...llama, intermediateSize: 128 };
    expect(await refusal(() => validateAgainstConfig(tensors, wider))).toMatch(
      /^model\.safetensors: tensor model\.layers\.0\.mlp\.gate_proj\.weight has shape \(64, 32\) but config\.json implies \(128, 32\) \(intermediate_size, hidden_size\): is config\.json the one for this file\?$/,
    );
    expect(await refusal(() => validateAgainstConfig(tensors, { ...llama, numLayers: 3 }))).toMatch(/tensor model\.layers\.2\.input_layernorm\.weight is missing \(config\.json describes a llama model with 3 layers\)/);
    expect(await refusal(() => validateAgainstConfig(tensors, { ...llama, numLayers: 1 }))).toMatch(/unexpected tensor model\.layers\.1\.\S+ for a llama model with 1 layers/);
    expect(await refusal(() => validateAgainstConfig(tensors, configOf('qwen3')))).toMatch(/tensor model\.layers\.0\.self_attn\.q_proj\.weight has shape \(32, 32\) but config\.json implies \(64, 32\)/);
    const asI8 = new Map([...tensors].map(([n, t]) => [n, n === 'model.norm.weight' ? { ...t, dtype: 'I8' } : t]));
    expect(await refusal(() => validateAgainstConfig(asI8, llama))).toMatch(/tensor model\.norm\.weight has dtype I8/);
    // A tied model may carry lm_head.weight; an untied one must.
    validateAgainstConfig(tensors, { ...llama, tieWordEmbeddings: true });
    const noHead = new Map([...tensors].filter(([n]) => n !== 'lm_head.weight'));
    expect(await refusal(() => validateAgainstConfig(noHead, llama))).toMatch(/tensor lm_head\.weight is missing/);
  });
});

describe('sources and sets', () => {
  it('reads through a Blob the same as from memory', async () => {
    const bytes = fixture('qwen3', 'model.safetensors');
    const a = await open(bytes);
    const b = await SafetensorsFile.open(blobSource(new Blob([bytes])));
    for (const n of a.names) expect(sameBits(await b.read(n), await a.read(n))).toBe(true);
    expect((await readHeader(blobSource(new Blob([bytes])))).tensors.size).toBe(a.names.length);
  });

  it('shards form one set; an overlap between shards is refused', async () => {
    const all = await readAll(await open(fixture('llama', 'model.safetensors')));
    const half = Math.floor(all.length / 2);
    const s1 = await SafetensorsFile.open(bufferSource(writeSafetensors(all.slice(0, half)), 'model-00001-of-00002.safetensors'));
    const s2 = await SafetensorsFile.open(bufferSource(writeSafetensors(all.slice(half)), 'model-00002-of-00002.safetensors'));
    const set = new WeightSet([s1, s2]).validate(configOf('llama'));
    const read = await set.readModel(configOf('llama'));
    for (const t of all) expect(sameBits(read.get(t.name)!, t.data)).toBe(true);
    const s3 = await SafetensorsFile.open(bufferSource(writeSafetensors(all.slice(half - 1)), 'model-00003.safetensors'));
    expect(await refusal(() => new WeightSet([s1, s3]))).toMatch(/^model-00003\.safetensors: tensor \S+ is also in model-00001-of-00002\.safetensors: the shards overlap$/);
  });

  it('the writer refuses inconsistent input', () => {
    expect(() => writeSafetensors([{ name: 'a', shape: [3], data: new Float32Array(2) }])).toThrow(/tensor a has 2 values but shape \(3\)/);
    expect(() => writeSafetensors([{ name: '__metadata__', shape: [1], data: new Float32Array(1) }])).toThrow(/reserved/);
  });
});

describe('decoding from Node Buffers', () => {
  it('reads tensors correctly from a Buffer that is a view into a larger pool', async () => {
    const { writeSafetensors, SafetensorsFile, bufferSource } = await import('../../../src/model/safetensors.ts');
    const data = Float32Array.from({ length: 10 }, (_, i) => i + 0.5);
    const file = writeSafetensors([{ name: 'w', shape: [10], data }]);
    const pool = Buffer.alloc(file.length + 13);
    Buffer.from(file).copy(pool, 13);
    const view = pool.subarray(13); // like fs.readFile's pooled Buffers: byteOffset ≠ 0
    const f = await SafetensorsFile.open(bufferSource(view));
    expect([...(await f.read('w'))]).toEqual([...data]);
  });
});
