// Segment bookkeeping of the fast CPU attention (attention.ts) for one batch row: which rows a quad
// holds (r = t·G + g), which keys it must visit (from the first key of its rows' segments to its
// last row: causal and segment skipping), and which tiles need masking pair by pair (the diagonal,
// a segment start, padding). Tiling and kernels: attention_tiles.ts.
import type { TileMask } from './attention_tiles.ts';

/** Row t of batch b sees key s iff s ≤ t and seg[s] = seg[t] ≥ 0. */
export class Quads implements TileMask {
  /** Quads of rows, tiles of keys. */
  readonly nq: number;
  readonly nk: number;
  /** Keys the loaded quad must visit: lo..hi (inclusive). */
  lo = 0;
  hi = 0;
  private readonly first: Int32Array; // first position of seg[t]'s segment in the row
  private readonly run: Int32Array; // start of the contiguous run of seg[t] that holds t
  private readonly rowT = new Int32Array(4);
  private readonly rowS = new Int32Array(4);
  private b0 = 0;
  private qd = 0;
  private minT = 0;
  private maxRun = 0;
  private full = false;

  constructor(
    private readonly T: number,
    private readonly G: number,
    private readonly seg: Int32Array,
  ) {
    this.nq = Math.ceil((T * G) / 4);
    this.nk = Math.ceil(T / 4);
    this.first = new Int32Array(T);
    this.run = new Int32Array(T);
  }

  setBatch(b: number): void {
    const { T, seg, first, run } = this;
    this.b0 = b * T;
    const seen = new Map<number, number>();
    for (let t = 0; t < T; t++) {
      const st = seg[this.b0 + t]!;
      if (!seen.has(st)) seen.set(st, t);
      first[t] = seen.get(st)!;
      run[t] = t > 0 && seg[this.b0 + t - 1] === st ? run[t - 1]! : t;
    }
  }

  /** Loads quad qd; false when none of its rows attends (all padding). */
  load(qd: number): boolean {
    const { T, G, seg, rowT, rowS } = this;
    this.qd = qd;
    let lo = T, hi = -1, minT = T, maxRun = 0, full = true;
    for (let i = 0; i < 4; i++) {
      const r = 4 * qd + i, t = (r / G) | 0;
      const st = r < T * G ? seg[this.b0 + t]! : -1;
      rowT[i] = t;
      rowS[i] = st;
      if (st < 0) {
        full = false;
        continue;
      }
      lo = Math.min(lo, this.first[t]!);
      hi = Math.max(hi, t);
      minT = Math.min(minT, t);
      maxRun = Math.max(maxRun, this.run[t]!);
    }
    Object.assign(this, { lo, hi, minT, maxRun, full });
    return hi >= 0;
  }

  valid(i: number): boolean {
    return this.rowS[i]! >= 0;
  }

  /** Every row of the quad sees every key of tile kt. */
  unmasked(kt: number): boolean {
    const s0 = 4 * kt;
    return this.full && s0 >= this.maxRun && s0 + 3 <= this.minT;
  }

  /** S[4i + c] = −∞ where row i does not see key 4·kt + c. */
  mask(kt: number, S: Float64Array): void {
    for (let i = 0; i < 4; i++) {
      const t = this.rowT[i]!, st = this.rowS[i]!;
      for (let c = 0; c < 4; c++) {
        const s = 4 * kt + c;
        if (st < 0 || s > t || this.seg[this.b0 + s] !== st) S[4 * i + c] = -Infinity;
      }
    }
  }

  /** Row i of the loaded quad exists (it may be padding); its position t and head g in the group. */
  real(i: number): boolean {
    return 4 * this.qd + i < this.T * this.G;
  }
  t(i: number): number {
    return this.rowT[i]!;
  }
  g(i: number): number {
    return (4 * this.qd + i) % this.G;
  }
}
