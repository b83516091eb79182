// Every kernel declaration, for the declaration test and pipeline warm-up.
import type { KernelDecl } from '../gpu/kernel.ts';
import { MATMUL } from './matmul.ts';

export const KERNELS: readonly KernelDecl[] = [MATMUL];
