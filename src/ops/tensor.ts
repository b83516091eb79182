// Tensors of the two backends and the shape helpers both share. Shape alphabet (docs/style.md):
// B batch, T time, C channels, V vocabulary, NH heads, NKV key/value heads, HS head size, L layers.

export type DType = 'f32' | 'i32' | 'u32';
export type TypedArray = Float32Array | Int32Array | Uint32Array;

export interface Tensor {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly label: string;
}

export interface CpuTensor extends Tensor {
  readonly data: TypedArray;
}

export interface GpuTensor extends Tensor {
  readonly buffer: GPUBuffer;
}

export function numel(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function dtypeOf(data: TypedArray): DType {
  return data instanceof Float32Array ? 'f32' : data instanceof Int32Array ? 'i32' : 'u32';
}

export function allocate(dtype: DType, n: number): TypedArray {
  return dtype === 'f32' ? new Float32Array(n) : dtype === 'i32' ? new Int32Array(n) : new Uint32Array(n);
}

export function shapeStr(shape: readonly number[]): string {
  return `(${shape.join(', ')})`;
}

/** Throws a message naming the op, the argument and both shapes. */
export function expectShape(op: string, arg: string, got: readonly number[], want: readonly number[]): void {
  if (got.length !== want.length || got.some((d, i) => d !== want[i])) {
    throw new Error(`${op}: ${arg} has shape ${shapeStr(got)}, expected ${shapeStr(want)}`);
  }
}

export function expectDtype(op: string, arg: string, t: Tensor, dtype: DType): void {
  if (t.dtype !== dtype) throw new Error(`${op}: ${arg} must be ${dtype}, got ${t.dtype}`);
}
