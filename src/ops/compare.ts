// The one tolerance helper (docs/style.md §5): compares two arrays under |x−y| ≤ atol + rtol·|y| and
// reports the label, max abs/rel error, the first mismatching index and a few pairs.

export interface Tolerance {
  atol: number;
  rtol: number;
}

export interface Comparison {
  ok: boolean;
  maxAbs: number;
  maxRel: number;
  firstBad: number;
  bad: number;
  report: string;
}

export function compareArrays(label: string, got: ArrayLike<number>, want: ArrayLike<number>, tol: Tolerance): Comparison {
  if (got.length !== want.length) {
    return { ok: false, maxAbs: Infinity, maxRel: Infinity, firstBad: 0, bad: got.length, report: `${label}: length ${got.length} ≠ expected ${want.length}` };
  }
  let maxAbs = 0, maxRel = 0, firstBad = -1, bad = 0;
  const pairs: string[] = [];
  for (let i = 0; i < got.length; i++) {
    const g = got[i]!, w = want[i]!;
    const abs = Math.abs(g - w);
    const rel = abs / Math.max(Math.abs(w), 1e-30);
    const same = g === w || (Number.isNaN(g) && Number.isNaN(w));
    if (!same) {
      if (!(abs <= maxAbs)) maxAbs = abs;
      if (!(rel <= maxRel)) maxRel = rel;
    }
    if (!same && !(abs <= tol.atol + tol.rtol * Math.abs(w))) {
      bad++;
      if (firstBad < 0) firstBad = i;
      if (pairs.length < 5) pairs.push(`[${i}] got ${g} want ${w}`);
    }
  }
  const ok = bad === 0;
  const report = ok
    ? `${label}: ok (max abs ${maxAbs.toExponential(2)}, max rel ${maxRel.toExponential(2)}, atol ${tol.atol}, rtol ${tol.rtol})`
    : `${label}: ${bad}/${got.length} values outside atol ${tol.atol} + rtol ${tol.rtol}; max abs ${maxAbs.toExponential(3)}, max rel ${maxRel.toExponential(3)}; first at ${firstBad}; ${pairs.join('; ')}`;
  return { ok, maxAbs, maxRel, firstBad, bad, report };
}
