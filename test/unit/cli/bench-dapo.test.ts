// `webswe bench train --dapo` as a user runs it (a real node process): one real DAPO iteration of
// the scratch-30k shape on the shortest bundled training task (node sandboxes, a real update), --json
// printing the wall-time split and tokens/s; the parts are non-negative and add up to the total.
// Also the one-line refusals of bad --overlap / --model values.
import { describe, expect, it } from 'vitest';
import { webswe } from '../../helpers/cli.ts';

const SMALL = ['dapo.tasksPerIteration=1', 'dapo.groupSize=2', 'dapo.optimizerSteps=1', 'agent.maxTurns=2', 'reward.lengthThreshold=1', 'agent.actionTokens=16', 'agent.contextTokens=1536'];

describe('webswe bench train --dapo', () => {
  it('--json reports one iteration: time split, tokens and tokens/s', async () => {
    const r = await webswe('bench', 'train', '--dapo', '--model', 'scratch-30k', '--backend', 'fast-cpu', '--json', ...SMALL.flatMap((s) => ['--set', s]));
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { results: Record<string, any>[] };
    expect(doc.results).toHaveLength(1);
    const res = doc.results[0]!;
    expect(res).toMatchObject({ model: 'scratch-30k', overlap: true, settings: { tasks: 1, group_size: 2, episodes: 2, max_turns: 2, action_tokens: 16, optimizer_steps: 1 } });
    expect(res.backend).toMatch(/fast-cpu/);
    const t = res.timing as Record<string, number>;
    const keys = ['total_s', 'rollout_s', 'generation_s', 'sandbox_s', 'sandbox_overlapped_s', 'forward_backward_s', 'optimizer_s', 'other_s'];
    expect(Object.keys(t).sort()).toEqual([...keys].sort());
    for (const k of keys) expect(t[k], k).toBeGreaterThanOrEqual(0);
    for (const k of ['total_s', 'generation_s', 'sandbox_s', 'forward_backward_s', 'optimizer_s']) expect(t[k], k).toBeGreaterThan(0);
    expect(t.sandbox_overlapped_s).toBeLessThanOrEqual(t.sandbox_s!);
    const parts = t.generation_s! + (t.sandbox_s! - t.sandbox_overlapped_s!) + t.forward_backward_s! + t.optimizer_s!;
    expect(parts).toBeLessThanOrEqual(t.total_s! + 1e-9);
    expect(parts + t.other_s!).toBeCloseTo(t.total_s!, 6);
    expect(t.generation_s! + t.sandbox_s! - t.sandbox_overlapped_s!).toBeLessThanOrEqual(t.rollout_s! + 1e-9);
    expect(res.tokens.generated).toBeGreaterThan(0);
    expect(res.tokens.trained).toBeGreaterThan(res.tokens.generated);
    expect(res.generation_tokens_per_s).toBeCloseTo(res.tokens.generated / t.generation_s!, 6);
    expect(res.training_tokens_per_s).toBeCloseTo(res.tokens.trained / (t.forward_backward_s! + t.optimizer_s!), 6);
    // The trainer's own metrics row, with the same split in its timing.
    expect(res.metrics).toMatchObject({ phase: 'dapo', step: 0, values: { episodes: 2, optimizer_steps: 1 } });
    expect(res.metrics.timing).toMatchObject({ generation_s: t.generation_s, forward_backward_s: t.forward_backward_s, optimizer_s: t.optimizer_s, total_s: t.total_s });
  }, 150_000);

  it('refuses a bad --overlap or --model with one line naming the choices', async () => {
    const overlap = await webswe('bench', 'train', '--dapo', '--overlap', 'sideways', '--backend', 'fast-cpu');
    expect(overlap.status).not.toBe(0);
    expect(overlap.stderr).toMatch(/--overlap must be on, off or both, got "sideways"/);
    const preset = await webswe('bench', 'train', '--dapo', '--model', 'huge', '--backend', 'fast-cpu');
    expect(preset.status).not.toBe(0);
    expect(preset.stderr).toMatch(/--model must be one of scratch-30k, scratch-160k, scratch-400k, scratch-5m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b \(a comma list, or both\), got "huge"/);
    expect(preset.stderr).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);
});
