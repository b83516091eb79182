// Reads the PyTorch op fixtures written by test/fixtures/torch/*.py (see common.py for the format).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TypedArray } from '../../src/ops/tensor.ts';

export interface FixtureTensor {
  shape: number[];
  data: TypedArray;
}
export interface FixtureCase {
  name: string;
  attrs: Record<string, unknown>;
  tensors: Record<string, FixtureTensor>;
}

const DIR = fileURLToPath(new URL('../fixtures/ops/', import.meta.url));

export function loadOpFixture(op: string): FixtureCase[] {
  const doc = JSON.parse(readFileSync(`${DIR}${op}.json`, 'utf8')) as {
    cases: { name: string; attrs: Record<string, unknown>; tensors: Record<string, { dtype: string; shape: number[]; data: number[] }> }[];
  };
  return doc.cases.map((c) => ({
    name: c.name,
    attrs: c.attrs,
    tensors: Object.fromEntries(
      Object.entries(c.tensors).map(([k, t]) => [k, { shape: t.shape, data: t.dtype === 'i32' ? Int32Array.from(t.data) : Float32Array.from(t.data) }]),
    ),
  }));
}
