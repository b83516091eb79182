// Registry of WGSL kernel sources by file name ("matmul.wgsl"). Kernels stay plain `.wgsl` files
// in kernels/; the browser registers them through Vite (adapter.browser.ts), Node from disk
// (adapter.node.ts). Core code only asks for text by name. A kernel with a subgroup path marks it in
// its one file (kernelVariant); the context compiles the path the device can run.

const sources = new Map<string, string>();

export function registerKernelSources(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) sources.set(name.split('/').pop()!, text);
}

export function kernelSource(file: string): string {
  const text = sources.get(file);
  if (text === undefined) {
    const known = [...sources.keys()].join(', ') || 'none';
    throw new Error(`kernel source "${file}" is not registered (known: ${known}); acquire the device through src/gpu/adapter.*`);
  }
  return text;
}

/** Replace a registered source (tests use this to prove a broken kernel is reported). */
export function overrideKernelSource(file: string, text: string): () => void {
  const before = sources.get(file);
  sources.set(file, text);
  return () => (before === undefined ? sources.delete(file) : sources.set(file, before));
}

const SG_OPEN = /^\s*\/\/ ---- subgroups$/;
const SG_ELSE = /^\s*\/\/ ---- no subgroups$/;
const SG_END = /^\s*\/\/ ---- end subgroups$/;

/**
 * One variant of a kernel with a subgroup path. Its text marks each place the two paths differ:
 *
 *     // ---- subgroups
 *     (code that uses subgroup builtins)
 *     // ---- no subgroups
 *     (code that does the same with workgroup memory and barriers)
 *     // ---- end subgroups
 *
 * `subgroups` keeps the first branch of every block and enables the extension (`enable subgroups;` on the
 * first line); otherwise the second. Dropped lines become empty lines, so compiler messages keep the file's
 * line numbers. A block left open, an `else` or `end` without its `open`, throws, naming the file and line.
 */
export function kernelVariant(file: string, text: string, subgroups: boolean): string {
  const lines = text.split('\n');
  let state: 'out' | 'sg' | 'fallback' = 'out';
  let opened = 0;
  const bad = (i: number, what: string) => new Error(`${file}:${i + 1}: ${what} (subgroup blocks are "// ---- subgroups", "// ---- no subgroups", "// ---- end subgroups")`);
  const out = lines.map((line, i) => {
    if (SG_OPEN.test(line)) {
      if (state !== 'out') throw bad(i, 'a subgroup block opened inside another');
      state = 'sg';
      opened++;
      return '';
    }
    if (SG_ELSE.test(line)) {
      if (state !== 'sg') throw bad(i, '"no subgroups" outside a subgroup block');
      state = 'fallback';
      return '';
    }
    if (SG_END.test(line)) {
      if (state !== 'fallback') throw bad(i, '"end subgroups" without its "no subgroups" branch');
      state = 'out';
      return '';
    }
    if (state === 'out') return line;
    return (state === 'sg') === subgroups ? line : '';
  });
  if (state !== 'out') throw bad(lines.length - 1, 'a subgroup block is not closed');
  if (opened === 0) throw new Error(`${file}: declared with a subgroup path, but has no "// ---- subgroups" block`);
  if (subgroups) out[0] = `enable subgroups; ${out[0]}`;
  return out.join('\n');
}

/** Whether a kernel's text has a subgroup path (the declaration test checks it against KernelDecl.subgroups). */
export const hasSubgroupPath = (text: string) => text.split('\n').some((l) => SG_OPEN.test(l));
