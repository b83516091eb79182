// The kernel benchmark's result and option types, apart from kernels.ts and ops.ts (which both use
// them) so that neither imports the other.
import type { MeasureOptions } from './measure.ts';
import type { TfPeer } from './peer-tfjs.ts';

export interface BenchResult {
  op: string;
  shape: string;
  ms: number;
  gflops?: number;
  gbps?: number;
  /** Napkin math: the work and what it implies. */
  napkin: string;
  peer?: string;
  peer_ms?: number;
  /** peer_ms / ms: how many times faster ours is. */
  ratio?: number;
  peak_bytes?: number;
  /** A few-row matmul: the 64-tile kernel's ms for the same product at 64 rows, and tile_ms / ms. */
  tile_ms?: number;
  vs_tile?: number;
  note?: string;
}

export type ShapeSet = 'small' | 'large';

export interface KernelBenchOptions {
  shapes: ShapeSet;
  peer: TfPeer | null;
  measure?: MeasureOptions;
  onProgress?: (label: string) => void;
}
