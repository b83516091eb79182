// A small reader of the parts of a WGSL file that its TS declaration must agree with: group-0
// bindings (index, name, address space/access), the members of `struct Params`, `override`
// constants and @workgroup_size. Used by the GPU-free declaration test, not at run time.

export interface WgslReflection {
  bindings: { binding: number; name: string; access: 'read' | 'read_write' | 'uniform' }[];
  params: { name: string; type: string }[];
  overrides: { name: string; type: string }[];
  workgroupSize: number[];
  header: string;
}

const stripComments = (s: string) => s.replace(/\/\/[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');

export function reflectWgsl(text: string): WgslReflection {
  const header = text.match(/^(?:\s*\/\/[^\n]*\n)+/)?.[0] ?? '';
  const code = stripComments(text);
  const bindings: WgslReflection['bindings'] = [];
  const bindRe = /@group\(0\)\s*@binding\((\d+)\)\s*var<\s*(storage|uniform)\s*(?:,\s*(read|read_write))?\s*>\s*(\w+)/g;
  for (const m of code.matchAll(bindRe)) {
    const access = m[2] === 'uniform' ? 'uniform' : ((m[3] ?? 'read') as 'read' | 'read_write');
    bindings.push({ binding: Number(m[1]), name: m[4]!, access });
  }
  bindings.sort((a, b) => a.binding - b.binding);
  const params: WgslReflection['params'] = [];
  const struct = code.match(/struct\s+Params\s*\{([^}]*)\}/);
  if (struct) for (const m of struct[1]!.matchAll(/(\w+)\s*:\s*([\w<>]+)/g)) params.push({ name: m[1]!, type: m[2]! });
  const overrides = [...code.matchAll(/override\s+(\w+)\s*:\s*(\w+)/g)].map((m) => ({ name: m[1]!, type: m[2]! }));
  const wg = code.match(/@workgroup_size\(([^)]*)\)/);
  const workgroupSize = wg ? wg[1]!.split(',').map((s) => Number(s.trim())) : [];
  while (workgroupSize.length < 3) workgroupSize.push(1);
  return { bindings, params, overrides, workgroupSize, header };
}
