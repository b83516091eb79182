// Kernel declarations: each WGSL kernel's bindings, uniform struct and override constants are
// declared once here-style (defineKernel) beside its dispatcher; `packParams` lays the uniform
// struct out by WGSL's rules, and test/unit/gpu checks every declaration against the .wgsl text.

export type ScalarType = 'u32' | 'i32' | 'f32';
export type BindingAccess = 'read' | 'read_write' | 'uniform';

export interface KernelDecl<P extends string = string, O extends string = string> {
  /** File name under kernels/. */
  file: string;
  entry: string;
  /** Binding i of group 0 is bindings[i]; `uniform` bindings carry the `Params` struct. */
  bindings: readonly { name: string; access: BindingAccess }[];
  /** Members of `struct Params` in declaration order (all 4-byte scalars). */
  params: Readonly<Record<P, ScalarType>>;
  /** `override` constants and their WGSL types. */
  overrides: Readonly<Record<O, 'bool' | ScalarType>>;
  /** @workgroup_size as declared in the file (checked by the declaration test). */
  workgroupSize: readonly [number, number, number];
  /** The file marks a subgroup path (kernels.ts kernelVariant), compiled where the device has 'subgroups'. */
  subgroups?: boolean;
}

export function defineKernel<P extends string, O extends string>(decl: KernelDecl<P, O>): KernelDecl<P, O> {
  return Object.freeze(decl);
}

/** Bytes of the uniform struct: 4-byte scalars packed in order, size rounded up to 16. */
export function paramsByteSize(decl: KernelDecl): number {
  const n = Object.keys(decl.params).length;
  return Math.max(16, Math.ceil((n * 4) / 16) * 16);
}

/** Pack uniform values per the declaration; refuses missing or non-integer values for ints. */
export function packParams<P extends string>(decl: KernelDecl<P>, values: Record<P, number>): ArrayBuffer {
  const buf = new ArrayBuffer(paramsByteSize(decl));
  const view = new DataView(buf);
  let offset = 0;
  for (const [name, type] of Object.entries(decl.params) as [P, ScalarType][]) {
    const v = values[name];
    if (typeof v !== 'number' || Number.isNaN(v)) throw new Error(`${decl.file}: uniform "${name}" is missing or NaN`);
    if (type === 'f32') view.setFloat32(offset, v, true);
    else {
      if (!Number.isInteger(v)) throw new Error(`${decl.file}: uniform "${name}" (${type}) must be an integer, got ${v}`);
      if (type === 'u32') view.setUint32(offset, v, true);
      else view.setInt32(offset, v, true);
    }
    offset += 4;
  }
  return buf;
}

/** Override constants as GPUProgrammableStage.constants wants them (bools as 0/1). */
export function overrideConstants(values: Record<string, boolean | number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'boolean' ? Number(v) : v;
  return out;
}
