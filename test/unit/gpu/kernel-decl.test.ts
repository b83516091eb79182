// Every kernel's TS declaration (bindings, uniform struct, overrides, workgroup size) agrees with
// its .wgsl text, every .wgsl file is declared, and every file opens with the docs/style.md header.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KERNELS_DIR } from '../../../src/gpu/adapter.node.ts';
import { packParams, paramsByteSize } from '../../../src/gpu/kernel.ts';
import { reflectWgsl } from '../../../src/gpu/wgsl-reflect.ts';
import { hasSubgroupPath, kernelVariant } from '../../../src/gpu/kernels.ts';
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
      it('declares its subgroup path where its text marks one, and both variants keep the declaration', () => {
        const text = readFileSync(KERNELS_DIR + decl.file, 'utf8');
        expect(decl.subgroups === true).toBe(hasSubgroupPath(text));
        if (!decl.subgroups) return;
        for (const sg of [true, false]) {
          const code = kernelVariant(decl.file, text, sg);
          const v = reflectWgsl(code);
          expect(v.bindings).toEqual(r.bindings);
          expect(v.params).toEqual(r.params);
          expect(v.workgroupSize).toEqual(r.workgroupSize);
          // Each variant has one entry point, and only the subgroup one names subgroup builtins.
          const bare = code.replace(/\/\/[^\n]*/g, '');
          expect(bare.match(new RegExp(`\\bfn\\s+${decl.entry}\\s*\\(`, 'g'))?.length).toBe(1);
          expect(/subgroup(Max|Min|Add|_size|_invocation_id)/.test(bare)).toBe(sg);
          expect(code.startsWith('enable subgroups; ')).toBe(sg);
          expect(code.split('\n').length).toBe(text.split('\n').length);
        }
      });
      it('opens with the header: math, bindings, work/dispatch, writes, limits', () => {
        expect(r.header.split('\n')[0]).toMatch(new RegExp(`^// ${decl.file.replace('.wgsl', '')}: `));
        for (const part of [/Bindings/, /Dispatch/, /[Ww]rites/]) expect(r.header).toMatch(part);
      });
    });
  }
});

describe('kernelVariant', () => {
  const text = ['// k: a kernel', 'fn main() {', '  // ---- subgroups', '  a = subgroupMax(x);', '  // ---- no subgroups', '  a = tree(x);', '  // ---- end subgroups', '}'].join('\n');
  it('keeps one branch, in place, and enables the extension on the first line for the subgroup one', () => {
    expect(kernelVariant('k.wgsl', text, true).split('\n')).toEqual(['enable subgroups; // k: a kernel', 'fn main() {', '', '  a = subgroupMax(x);', '', '', '', '}']);
    expect(kernelVariant('k.wgsl', text, false).split('\n')).toEqual(['// k: a kernel', 'fn main() {', '', '', '', '  a = tree(x);', '', '}']);
  });
  it('refuses a malformed block, naming the file and line', () => {
    const lines = text.split('\n');
    expect(() => kernelVariant('k.wgsl', lines.filter((_, i) => i !== 6).join('\n'), true)).toThrow(/^k\.wgsl:7: a subgroup block is not closed/);
    expect(() => kernelVariant('k.wgsl', lines.filter((_, i) => i !== 4).join('\n'), false)).toThrow(/^k\.wgsl:6: "end subgroups" without its "no subgroups" branch/);
    expect(() => kernelVariant('k.wgsl', lines.filter((_, i) => i !== 2).join('\n'), false)).toThrow(/^k\.wgsl:4: "no subgroups" outside a subgroup block/);
    expect(() => kernelVariant('k.wgsl', [...lines.slice(0, 3), ...lines.slice(2)].join('\n'), false)).toThrow(/^k\.wgsl:4: a subgroup block opened inside another/);
    expect(() => kernelVariant('k.wgsl', '// k\nfn main() {}', true)).toThrow(/declared with a subgroup path, but has no "\/\/ ---- subgroups" block/);
  });
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
