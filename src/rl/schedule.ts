// Learning-rate schedules: linear warm-up, then cosine decay to 0 (the paper's RFT schedule).

export function cosineWithWarmup(step: number, totalSteps: number, warmupSteps: number, peak: number): number {
  if (totalSteps <= 0) return peak;
  if (step < warmupSteps) return (peak * (step + 1)) / warmupSteps;
  const decaySteps = Math.max(1, totalSteps - warmupSteps);
  const progress = Math.min(1, (step - warmupSteps) / decaySteps);
  return 0.5 * peak * (1 + Math.cos(Math.PI * progress));
}

/** Linear warm-up over `warmupSteps`, then `peak` held (DAPO's rate; the drills-only stage of cloning). */
export function constantWithWarmup(step: number, warmupSteps: number, peak: number): number {
  return peak * Math.min(1, (step + 1) / Math.max(1, warmupSteps));
}
