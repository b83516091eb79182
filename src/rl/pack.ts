// Packing episodes into training rows: B rows of T tokens, each episode a segment (positions
// restart at 0, segment ids keep episodes apart, −1 pads). First-fit decreasing, deterministic.
// Per position t the row carries what scores token t+1 (the target): its loss mask (action
// tokens only), its behaviour log-prob and its episode's advantage.

export interface EpisodeTokens {
  /** Token ids of the whole episode (prompt, actions, observations). */
  ids: readonly number[];
  /** 1 where the token is an action token the policy generated (and is trained on). */
  mask: readonly number[];
  /** Behaviour log-prob per token (action tokens; anything elsewhere). */
  logprobs?: readonly number[];
  /** Advantage of the episode (broadcast to its action tokens). */
  advantage?: number;
  /** Advantage per token (each assistant turn its own: dapo.refusedTurns = blame); read in place of `advantage`. */
  advantages?: readonly number[];
}

export interface PackedRows {
  B: number;
  T: number;
  ids: Int32Array;
  targets: Int32Array;
  positions: Int32Array;
  seg: Int32Array;
  /** (N) the target's loss weight: 1 on a trained action token, else 0. */
  mask: Float32Array;
  oldLogp: Float32Array;
  adv: Float32Array;
  /** (N) index of the episode each position belongs to (−1 padding). */
  episode: Int32Array;
  /** Positions with mask 1 (action tokens). */
  actionTokens: number;
}

/**
 * The row length T of a training step's batch. rows 0: the longest episode's length (first-fit then
 * makes as many rows as it needs; the default). rows R > 0: the episodes balanced over R rows (longest
 * first into the lightest row) and T that balance's longest row, at most `cap` (the context an episode
 * can reach) and at least the longest episode: fewer padding tokens for backends whose row-wise ops
 * pay for padding and whose attention skips other segments (the WASM backend). Episodes of 600, 300,
 * 300 and 250 tokens: 600 | 300 + 300 | 250 at rows 0 (1,800 tokens), 600 + 250 | 300 + 300 at rows 2
 * (1,700); on mini's cloning batches (four of 288-1,043 tokens) 1.21 → 1.06 tokens per real token.
 */
export function trainRowLength(lengths: readonly number[], rows = 0, cap = Infinity): number {
  const longest = Math.max(8, ...lengths);
  if (rows <= 0) return longest;
  const load = new Array<number>(Math.min(rows, Math.max(1, lengths.length))).fill(0);
  for (const n of [...lengths].sort((a, b) => b - a)) {
    let j = 0;
    for (let i = 1; i < load.length; i++) if (load[i]! < load[j]!) j = i;
    load[j] = load[j]! + n;
  }
  return Math.max(longest, Math.min(cap, Math.max(...load)));
}

/** Pack episodes (each ≤ T tokens) into rows; refuses longer ones naming the fix. */
export function packEpisodes(eps: readonly EpisodeTokens[], T: number): PackedRows {
  for (const [i, e] of eps.entries()) {
    if (e.ids.length > T) throw new Error(`episode ${i} has ${e.ids.length} tokens, more than a training row (${T}); raise the row length or lower agent.contextTokens`);
    if (e.mask.length !== e.ids.length) throw new Error(`episode ${i}: mask length ${e.mask.length} ≠ ids length ${e.ids.length}`);
    if (e.advantages && e.advantages.length !== e.ids.length) throw new Error(`episode ${i}: advantages length ${e.advantages.length} ≠ ids length ${e.ids.length}`);
  }
  // First-fit decreasing by length (ties by index, so the packing is deterministic).
  const order = eps.map((e, i) => i).sort((a, b) => eps[b]!.ids.length - eps[a]!.ids.length || a - b);
  const rows: { used: number; items: number[] }[] = [];
  for (const i of order) {
    const n = eps[i]!.ids.length;
    let row = rows.find((r) => r.used + n <= T);
    if (!row) rows.push((row = { used: 0, items: [] }));
    row.items.push(i);
    row.used += n;
  }
  const B = Math.max(1, rows.length), N = B * T;
  const out: PackedRows = {
    B, T,
    ids: new Int32Array(N), targets: new Int32Array(N), positions: new Int32Array(N), seg: new Int32Array(N).fill(-1),
    mask: new Float32Array(N), oldLogp: new Float32Array(N), adv: new Float32Array(N), episode: new Int32Array(N).fill(-1), actionTokens: 0,
  };
  rows.forEach((r, b) => {
    let off = b * T;
    r.items.forEach((i, s) => {
      const e = eps[i]!;
      for (let t = 0; t < e.ids.length; t++) {
        const o = off + t;
        out.ids[o] = e.ids[t]!;
        out.positions[o] = t;
        out.seg[o] = s;
        out.episode[o] = i;
        if (t + 1 < e.ids.length) {
          out.targets[o] = e.ids[t + 1]!;
          if (e.mask[t + 1]) {
            out.mask[o] = 1;
            out.oldLogp[o] = e.logprobs?.[t + 1] ?? 0;
            out.adv[o] = e.advantages?.[t + 1] ?? e.advantage ?? 0;
            out.actionTokens++;
          }
        }
      }
      off += e.ids.length;
    });
  });
  return out;
}

/**
 * Rows [r0, r1) of a packing as a packing of their own (views, no copy). Its actionTokens are its own; a step cut
 * into passes scales every pass's gradient by the whole batch's (steps.ts).
 */
export function sliceRows(rows: PackedRows, r0: number, r1: number): PackedRows {
  if (!(Number.isInteger(r0) && Number.isInteger(r1) && 0 <= r0 && r0 < r1 && r1 <= rows.B)) throw new Error(`sliceRows: rows [${r0}, ${r1}) are not inside 0..${rows.B}`);
  const a = r0 * rows.T, b = r1 * rows.T;
  const mask = rows.mask.subarray(a, b);
  let actionTokens = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) actionTokens++;
  return {
    B: r1 - r0, T: rows.T,
    ids: rows.ids.subarray(a, b), targets: rows.targets.subarray(a, b), positions: rows.positions.subarray(a, b), seg: rows.seg.subarray(a, b),
    mask, oldLogp: rows.oldLogp.subarray(a, b), adv: rows.adv.subarray(a, b), episode: rows.episode.subarray(a, b), actionTokens,
  };
}

/** The passes of one optimiser step: whole rows, at most `passTokens` tokens each (at least one row);
 *  0 keeps the batch in one pass. */
export function passes(rows: PackedRows, passTokens = 0): PackedRows[] {
  const per = passTokens > 0 ? Math.max(1, Math.floor(passTokens / rows.T)) : rows.B;
  if (per >= rows.B) return [rows];
  const out: PackedRows[] = [];
  for (let r = 0; r < rows.B; r += per) out.push(sliceRows(rows, r, Math.min(rows.B, r + per)));
  return out;
}
