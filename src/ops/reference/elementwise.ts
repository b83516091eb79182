// CPU reference of the elementwise helpers: residual add and scale, into `out` when given (which
// may alias an input: each element is read before it is written).
import { sameShape } from '../layers.shape.ts';
import { expectDtype, expectShape, numel, type CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

const target = (op: string, like: CpuTensor, out?: CpuTensor): CpuTensor => {
  if (!out) return { shape: [...like.shape], dtype: 'f32', label: `${op}.out`, data: f32(numel(like.shape)) };
  expectDtype(op, 'out', out, 'f32');
  expectShape(op, 'out', out.shape, like.shape);
  return out;
};

/** a + b, same shape; into `out` when given (may alias a). */
export function add(a: CpuTensor, b: CpuTensor, out?: CpuTensor): CpuTensor {
  const n = sameShape('add', { a, b });
  const o = target('add', a, out);
  for (let i = 0; i < n; i++) o.data[i] = a.data[i]! + b.data[i]!;
  return o;
}

/** a · s elementwise; into `out` when given (may alias a). */
export function scale(a: CpuTensor, s: number, out?: CpuTensor): CpuTensor {
  const n = sameShape('scale', { a });
  if (!Number.isFinite(s)) throw new Error(`scale: s must be finite, got ${s}`);
  const o = target('scale', a, out);
  for (let i = 0; i < n; i++) o.data[i] = a.data[i]! * Math.fround(s);
  return o;
}
