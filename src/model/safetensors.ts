// The safetensors format (https://github.com/huggingface/safetensors): 8-byte little-endian header
// length N, N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__"?},
// then the raw little-endian data. The header is checked whole before any tensor is read; tensors
// are read as f32 (F32, F16, BF16) from any ByteSource (memory, Blob, a file under Node).
import { ModelFileError } from './errors.ts';
import { bf16ToF32, f16ToF32, f32ToBf16, utf8Decode, utf8Encode } from './dtypes.ts';

/** Bytes per element of every dtype the format defines (we read F32, F16 and BF16). */
export const DTYPE_BYTES: Readonly<Record<string, number>> = Object.freeze({
  BOOL: 1, U8: 1, I8: 1, F8_E4M3: 1, F8_E5M2: 1, I16: 2, U16: 2, F16: 2, BF16: 2,
  I32: 4, U32: 4, F32: 4, I64: 8, U64: 8, F64: 8,
});
export const READ_DTYPES = ['F32', 'F16', 'BF16'] as const;
export type WriteDtype = 'F32' | 'BF16';
/** The reference implementation's limit on the header. */
export const MAX_HEADER_BYTES = 100_000_000;

export interface TensorInfo {
  readonly name: string;
  readonly dtype: string;
  readonly shape: readonly number[];
  /** Absolute byte range in the file: [begin, end). */
  readonly begin: number;
  readonly end: number;
}

export interface SafetensorsHeader {
  readonly file: string;
  readonly fileSize: number;
  readonly dataStart: number;
  readonly metadata: Readonly<Record<string, string>>;
  /** In file order (by offset). */
  readonly tensors: ReadonlyMap<string, TensorInfo>;
}

/** Random access to a file's bytes: memory, a Blob/File slice, a Node file handle. */
export interface ByteSource {
  readonly name: string;
  readonly size: number;
  read(begin: number, end: number): Promise<Uint8Array>;
}

/** The part of Blob/File this module uses (the core is compiled without DOM types). */
export interface BlobLike {
  readonly size: number;
  slice(begin: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export function bufferSource(bytes: Uint8Array | ArrayBuffer, name = 'model.safetensors'): ByteSource {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return { name, size: u8.byteLength, read: async (b, e) => u8.subarray(b, e) };
}

export function blobSource(blob: BlobLike, name = 'model.safetensors'): ByteSource {
  return { name, size: blob.size, read: async (b, e) => new Uint8Array(await blob.slice(b, e).arrayBuffer()) };
}

const shapeStr = (s: readonly number[]) => `(${s.join(', ')})`;
const numel = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The header length from the first 8 bytes, checked against the file size. */
export function headerLength(first8: Uint8Array, fileSize: number, file: string): number {
  const fail = (d: string): never => {
    throw new ModelFileError(file, d);
  };
  if (fileSize < 8 || first8.byteLength < 8) fail(`the file has ${fileSize} bytes, too few for a safetensors header: it is truncated or not a safetensors file`);
  const dv = new DataView(first8.buffer, first8.byteOffset, 8);
  const n = dv.getUint32(4, true) * 2 ** 32 + dv.getUint32(0, true);
  if (n > MAX_HEADER_BYTES) fail(`header length ${n} bytes is absurd (limit ${MAX_HEADER_BYTES}): the file is corrupt or not a safetensors file`);
  if (n < 2) fail(`header length ${n} bytes is too small for a JSON object: the file is corrupt`);
  if (8 + n > fileSize) fail(`header length ${n} bytes runs past the end of the file (${fileSize} bytes): the file is truncated or corrupt; download it again`);
  return n;
}

/** Parses and validates the JSON header: dtypes, shapes, offsets inside the file, no gaps/overlaps.
 *  `partial` (a download in progress, fileSize announced) skips the check that nothing trails the data. */
export function parseHeader(headerBytes: Uint8Array, fileSize: number, file: string, partial = false): SafetensorsHeader {
  const fail = (d: string): never => {
    throw new ModelFileError(file, d);
  };
  const dataStart = 8 + headerBytes.byteLength;
  const dataSize = fileSize - dataStart;
  let doc: unknown;
  try {
    doc = JSON.parse(utf8Decode(headerBytes, true));
  } catch (e) {
    fail(`header is not valid JSON (${String((e as Error).message).split('\n')[0]}): the file is corrupt or not a safetensors file`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return fail('header is not a JSON object: the file is corrupt');
  const metadata: Record<string, string> = {};
  const list: TensorInfo[] = [];
  for (const [name, v] of Object.entries(doc as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) fail('__metadata__ must be an object of strings');
      for (const [k, s] of Object.entries(v as Record<string, unknown>)) {
        if (typeof s !== 'string') fail(`__metadata__.${k} must be a string`);
        metadata[k] = s as string;
      }
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(`tensor ${name}: entry is not an object`);
    const { dtype, shape, data_offsets: off } = v as Record<string, unknown>;
    if (typeof dtype !== 'string' || DTYPE_BYTES[dtype] === undefined) {
      fail(`tensor ${name} has unknown dtype ${JSON.stringify(dtype)} (the format defines ${Object.keys(DTYPE_BYTES).join(', ')})`);
    }
    if (!Array.isArray(shape) || !shape.every(isCount)) fail(`tensor ${name}: shape ${JSON.stringify(shape)} is not a list of sizes`);
    if (!Array.isArray(off) || off.length !== 2 || !isCount(off[0]) || !isCount(off[1]) || off[0] > off[1]) {
      fail(`tensor ${name}: data_offsets ${JSON.stringify(off)} is not [begin, end] with begin ≤ end`);
    }
    const [b, e] = off as [number, number];
    const want = numel(shape as number[]) * DTYPE_BYTES[dtype as string]!;
    if (e - b !== want) fail(`tensor ${name}: data_offsets [${b}, ${e}] hold ${e - b} bytes but ${dtype} ${shapeStr(shape as number[])} needs ${want}`);
    if (e > dataSize) {
      fail(`header says tensor ${name} ends at byte ${dataStart + e} but the file has ${fileSize} bytes: the file is truncated or corrupt; download it again`);
    }
    list.push({ name, dtype: dtype as string, shape: Object.freeze([...(shape as number[])]), begin: dataStart + b, end: dataStart + e });
  }
  list.sort((x, y) => x.begin - y.begin || x.end - y.end);
  let at = dataStart;
  let prev = '(the header)';
  for (const t of list) {
    if (t.begin < at) fail(`header lies about offsets: tensor ${t.name} (bytes ${t.begin}–${t.end}) overlaps ${prev}: the file is corrupt`);
    if (t.begin > at) fail(`header lies about offsets: ${at - dataStart > 0 ? `bytes ${at}–${t.begin} between ${prev} and ${t.name}` : `bytes ${at}–${t.begin} before ${t.name}`} belong to no tensor: the file is corrupt`);
    at = t.end;
    prev = t.name;
  }
  if (at !== fileSize && !partial) fail(`the header accounts for ${at} bytes but the file has ${fileSize}: trailing bytes after the last tensor; the file is corrupt`);
  return Object.freeze({ file, fileSize, dataStart, metadata: Object.freeze(metadata), tensors: new Map(list.map((t) => [t.name, Object.freeze(t)])) });
}

/** Reads and validates the header of a source. */
export async function readHeader(src: ByteSource): Promise<SafetensorsHeader> {
  const n = headerLength(await src.read(0, Math.min(8, src.size)), src.size, src.name);
  return parseHeader(await src.read(8, 8 + n), src.size, src.name);
}

/** Converts one tensor's bytes to f32 (a new array). */
export function decodeTensor(info: TensorInfo, bytes: Uint8Array, file = 'model.safetensors'): Float32Array {
  if (bytes.byteLength !== info.end - info.begin) throw new ModelFileError(file, `tensor ${info.name}: read ${bytes.byteLength} bytes, expected ${info.end - info.begin}`);
  // An aligned copy. Not bytes.slice(): on a Node Buffer, slice() is a view into a shared pool.
  const own = new Uint8Array(bytes);
  switch (info.dtype) {
    case 'F32':
      return new Float32Array(own.buffer, 0, own.byteLength / 4);
    case 'BF16':
      return bf16ToF32(new Uint16Array(own.buffer, 0, own.byteLength / 2));
    case 'F16':
      return f16ToF32(new Uint16Array(own.buffer, 0, own.byteLength / 2));
    default:
      throw new ModelFileError(file, `tensor ${info.name} has dtype ${info.dtype}; only ${READ_DTYPES.join(', ')} weights are read`);
  }
}

/** A validated safetensors file over a ByteSource; tensors are read on demand. */
export class SafetensorsFile {
  private constructor(readonly source: ByteSource, readonly header: SafetensorsHeader) {}
  static async open(source: ByteSource): Promise<SafetensorsFile> {
    return new SafetensorsFile(source, await readHeader(source));
  }
  get names(): string[] {
    return [...this.header.tensors.keys()];
  }
  info(name: string): TensorInfo {
    const t = this.header.tensors.get(name);
    if (!t) throw new ModelFileError(this.source.name, `has no tensor ${name}`);
    return t;
  }
  async read(name: string): Promise<Float32Array> {
    const t = this.info(name);
    return decodeTensor(t, await this.source.read(t.begin, t.end), this.source.name);
  }
}

export interface NamedTensor {
  readonly name: string;
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/** Serialises tensors (in the given order) as F32 or BF16 (round to nearest even). The header is
 *  padded with spaces to a multiple of 8 bytes, as the reference writer does, so data is aligned.
 *  `metadata` defaults to {format: "pt"}, which transformers requires. */
export function writeSafetensors(tensors: readonly NamedTensor[], opts: { dtype?: WriteDtype; metadata?: Record<string, string> } = {}): Uint8Array {
  const dtype = opts.dtype ?? 'F32';
  const width = DTYPE_BYTES[dtype]!;
  const header: Record<string, unknown> = { __metadata__: opts.metadata ?? { format: 'pt' } };
  let at = 0;
  for (const t of tensors) {
    if (t.name === '__metadata__' || t.name in header) throw new Error(`writeSafetensors: duplicate or reserved tensor name ${t.name}`);
    if (numel(t.shape) !== t.data.length) throw new Error(`writeSafetensors: tensor ${t.name} has ${t.data.length} values but shape ${shapeStr(t.shape)}`);
    header[t.name] = { dtype, shape: [...t.shape], data_offsets: [at, at + t.data.length * width] };
    at += t.data.length * width;
  }
  const json = utf8Encode(JSON.stringify(header));
  const padded = Math.ceil(json.byteLength / 8) * 8;
  const out = new Uint8Array(8 + padded + at);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, padded, true);
  out.set(json, 8);
  out.fill(0x20, 8 + json.byteLength, 8 + padded);
  let pos = 8 + padded;
  for (const t of tensors) {
    const bytes = dtype === 'F32' ? new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength) : new Uint8Array(f32ToBf16(t.data).buffer);
    out.set(bytes, pos);
    pos += bytes.byteLength;
  }
  return out;
}
