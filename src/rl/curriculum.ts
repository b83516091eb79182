// Stage-2 curriculum (the paper): drop tasks solved in ≥ 2/3 of attempts so far (too easy) and
// tasks never solved (no signal). Keeps a per-task tally across the run (checkpointed).

export interface TaskTally {
  attempts: number;
  solved: number;
}

export class Curriculum {
  readonly tally = new Map<string, TaskTally>();

  record(taskId: string, solved: boolean): void {
    const t = this.tally.get(taskId) ?? { attempts: 0, solved: 0 };
    t.attempts++;
    if (solved) t.solved++;
    this.tally.set(taskId, t);
  }

  /** Tasks kept for stage 2. Tasks never attempted are kept (no evidence either way). */
  filter(taskIds: readonly string[], solvedFraction: number): { kept: string[]; tooEasy: string[]; neverSolved: string[] } {
    const kept: string[] = [], tooEasy: string[] = [], neverSolved: string[] = [];
    for (const id of taskIds) {
      const t = this.tally.get(id);
      if (!t || t.attempts === 0) kept.push(id);
      else if (t.solved === 0) neverSolved.push(id);
      else if (t.solved / t.attempts >= solvedFraction) tooEasy.push(id);
      else kept.push(id);
    }
    return { kept, tooEasy, neverSolved };
  }

  toJSON(): Record<string, TaskTally> {
    return Object.fromEntries([...this.tally].sort(([a], [b]) => a.localeCompare(b)));
  }
  static fromJSON(j: Record<string, TaskTally>): Curriculum {
    const c = new Curriculum();
    for (const [k, v] of Object.entries(j)) c.tally.set(k, { ...v });
    return c;
  }
}
