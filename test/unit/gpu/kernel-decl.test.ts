// Every kernel's TS declaration (bindings, uniform struct, overrides, workgroup size) agrees with
// its .wgsl text, every .wgsl file is declared, and every file opens with the docs/style.md header.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KERNELS_DIR } from '../../../src/gpu/adapter.node.ts';
import { packParams, paramsByteSize } from '../../../src/gpu/kernel.ts';
import { reflectWgsl } from '../../../src/gpu/wgsl-reflect.ts';
import { KERNELS } from '../../../src/ops/webgpu/registry.ts';

const files = readdirSync(KERNELS_DIR).filter((f) => f.endsWith('.wgsl'));

describe('kernel declarations', () => {
  it('every .wgsl file has exactly one declaration', () => {
    expect(files.sort()).toEqual([...new Set(KERNELS.map((k) => k.file))].sort());
  });
  for (const decl of KERNELS) {
    describe(decl.file, () => {
      const r = reflectWgsl(readFileSync(KERNELS_DIR + decl.file, 'utf8'));
      it('bindings match by index, name and access', () => {
        expect(r.bindings).toEqual(decl.bindings.map((b, i) => ({ binding: i, name: b.name, access: b.access })));
      });
      it('uniform struct Params matches member order and types', () => {
        expect(r.params).toEqual(Object.entries(decl.params).map(([name, type]) => ({ name, type })));
      });
      it('override constants and workgroup size match', () => {
        expect(r.overrides).toEqual(Object.entries(decl.overrides).map(([name, type]) => ({ name, type })));
        expect(r.workgroupSize).toEqual([...decl.workgroupSize]);
      });
      it('opens with the header: math, bindings, work/dispatch, writes, limits', () => {
        expect(r.header.split('\n')[0]).toMatch(new RegExp(`^// ${decl.file.replace('.wgsl', '')}: `));
        for (const part of [/Bindings/, /Dispatch/, /[Ww]rites/]) expect(r.header).toMatch(part);
      });
    });
  }
});

describe('uniform packing', () => {
  it('packs scalars in order, little-endian, padded to 16 bytes, and refuses bad values', () => {
    const decl = KERNELS.find((k) => k.file === 'matmul.wgsl')!;
    const blocks = { lda: 7, ldb: 5, ldc: 5, offA: 0, offB: 0, offC: 0, offBias: 0 };
    const buf = packParams(decl, { M: 3, N: 5, K: 7, strideA: 21, strideB: 0, strideC: 15, ...blocks });
    expect(buf.byteLength).toBe(paramsByteSize(decl));
    expect(buf.byteLength % 16).toBe(0);
    expect([...new Uint32Array(buf).slice(0, 6)]).toEqual([3, 5, 7, 21, 0, 15]);
    expect(() => packParams(decl, { M: 1.5, N: 1, K: 1, strideA: 1, strideB: 1, strideC: 1, ...blocks })).toThrow(/"M" \(u32\) must be an integer/);
  });
});
