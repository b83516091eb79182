// Errors the GPU layer throws. Each names the problem and the fix; each keeps a stable `name`
// so it survives the comlink worker boundary and can be matched by callers.

/** A WGSL kernel failed to compile or its pipeline failed validation. */
export class KernelCompileError extends Error {
  override name = 'KernelCompileError';
  constructor(
    readonly file: string,
    readonly messages: { line: number; column: number; text: string; type: string }[],
    detail = '',
  ) {
    super(
      `kernels/${file} failed to compile:\n` +
        (messages.length
          ? messages.map((m) => `  kernels/${file}:${m.line}:${m.column}: ${m.type}: ${m.text}`).join('\n')
          : `  ${detail}`),
    );
  }
}

/** An allocation larger than the device allows, or one the device could not satisfy. */
export class GpuOutOfMemoryError extends Error {
  override name = 'GpuOutOfMemoryError';
  constructor(
    readonly label: string,
    readonly bytes: number,
    readonly limit: number | undefined,
  ) {
    const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
    super(
      `GPU out of memory allocating "${label}": ${mib(bytes)} asked` +
        (limit !== undefined ? `, the device allows ${mib(limit)} per buffer` : ', the device refused it') +
        '. Lower the batch size or context length, or use a smaller preset.',
    );
  }
}

/** The GPUDevice was lost (driver reset, tab backgrounded, destroy()); every later call fails. */
export class GpuDeviceLostError extends Error {
  override name = 'GpuDeviceLostError';
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(`GPU device lost (${reason}): ${detail}. Acquire a new device and resume from the last checkpoint.`);
  }
}

/** No WebGPU adapter could be obtained. */
export class NoAdapterError extends Error {
  override name = 'NoAdapterError';
}

/** A GPU validation error raised while running work (a bug in a dispatcher, not user input). */
export class GpuValidationError extends Error {
  override name = 'GpuValidationError';
}
