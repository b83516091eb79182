// Wall-clock accounting of rollout work: the episode loop records when generation (policy calls)
// and sandbox work (starting sandboxes, commands, grading) were busy; a batch's report then gives
// busy seconds per kind (the union of its intervals: parallel sandboxes count once) and how long
// both were busy at the same time (the sandbox work hidden behind generation).

export type BusyKind = 'generation' | 'sandbox';

export interface Span {
  start: number;
  end: number;
}

/** Sorted, non-overlapping intervals covering the spans. */
export function union(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** Milliseconds the spans last, summed (overlapping ones count twice: pass a union for the time any was busy). */
export const total = (spans: readonly Span[]) => spans.reduce((a, s) => a + (s.end - s.start), 0);

export class Timeline {
  private readonly spans: Record<BusyKind, Span[]> = { generation: [], sandbox: [] };

  /** Record that `kind` was busy from `start` to `end` (performance.now() milliseconds). */
  add(kind: BusyKind, start: number, end: number): void {
    if (end > start) this.spans[kind].push({ start, end });
  }

  /** Time `fn` as `kind` work (also when it throws). */
  async time<R>(kind: BusyKind, fn: () => Promise<R>): Promise<R> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.add(kind, t0, performance.now());
    }
  }

  /** Seconds during which `kind` was busy. */
  busy(kind: BusyKind): number {
    return total(union(this.spans[kind])) / 1000;
  }

  /** Seconds during which generation and the sandbox were both busy. */
  overlap(): number {
    const a = union(this.spans.generation), b = union(this.spans.sandbox);
    let ms = 0;
    for (let i = 0, j = 0; i < a.length && j < b.length; ) {
      ms += Math.max(0, Math.min(a[i]!.end, b[j]!.end) - Math.max(a[i]!.start, b[j]!.start));
      if (a[i]!.end < b[j]!.end) i++;
      else j++;
    }
    return ms / 1000;
  }
}
