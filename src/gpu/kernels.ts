// Registry of WGSL kernel sources by file name ("matmul.wgsl"). Kernels stay plain `.wgsl` files
// in kernels/; the browser registers them through Vite (adapter.browser.ts), Node from disk
// (adapter.node.ts). Core code only asks for text by name.

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
