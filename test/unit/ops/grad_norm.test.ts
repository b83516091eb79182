// globalNorm CPU reference by hand (its PyTorch check, against clip_grad_norm_, is in adamw.test.ts).
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { globalNorm } from '../../../src/ops/reference/grad_norm.ts';

const be = new CpuBackend();
const v = (data: number[]) => be.fromArray(new Float32Array(data), [data.length]);

describe('globalNorm reference by hand', () => {
  it('sqrt of the sum of squares over every tensor, of any shape', () => {
    expect(globalNorm([v([3]), be.fromArray(new Float32Array([0, 4]), [1, 2])]).data[0]).toBe(5);
    expect(globalNorm([v([1, 1, 1, 1])]).data[0]).toBe(2);
  });
  it('is 0 for no tensors and for empty ones', () => {
    expect(globalNorm([]).data[0]).toBe(0);
    expect(globalNorm([be.zeros([0])]).data[0]).toBe(0);
  });
  it('refuses non-f32 gradients, naming the tensor', () => {
    expect(() => globalNorm([v([1]), be.fromArray(Int32Array.of(1), [1], 'wte.grad')])).toThrow(/globalNorm: grads\[1\] \(wte.grad\) must be f32, got i32/);
  });
});
