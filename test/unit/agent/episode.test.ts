// The episode loop: end reasons (submit, turn limit, context budget, replay exhausted, policy error),
// format errors counted as turns, batched policy calls, rewards with the turn-length penalty, and
// grading from the task's own tests even when the agent edited or deleted them (node sandboxes).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatCommand, type Command } from '../../../src/agent/commands.ts';
import { abandonAfterMs, runEpisode, runEpisodes, type EpisodeOptions } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import type { EpisodeView, Policy, TurnOutput } from '../../../src/agent/policy.ts';
import { BRIEF_SYSTEM_PROMPT, SYSTEM_PROMPT } from '../../../src/agent/prompt.ts';
import { charTokens } from '../../../src/agent/render.ts';
import { ReplayPolicy } from '../../../src/agent/replay.ts';
import { trajectoryMessages } from '../../../src/agent/trajectory.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import type { FileMap, SandboxFactory } from '../../../src/sandbox/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';

const task = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'x').tasks.find((t) => t.instance_id === 'clamp__1')!;
const base = episodeOptions(resolveConfig(), { sandbox: 'node' });
const opts = (o: Partial<EpisodeOptions> = {}): EpisodeOptions => ({ ...base, ...o, reward: { ...base.reward, ...o.reward } });
const turn = (c: Command, why = 'Next step.') => `${why}\n${formatCommand(c)}`;
const FIX: Command = { name: 'replace', path: 'src/clamp.js', edits: [{ search: '  if (x > hi) return lo;\n', replace: '  if (x > hi) return hi;\n' }] };
const SUBMIT = turn({ name: 'submit' });
/** Memory sandboxes whose test runs report every task test as failing (limits need no real tests). */
const memory: SandboxFactory = async (files: FileMap) =>
  new MemorySandbox(files, () => ({ tests: [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].map((fullName) => ({ fullName, status: 'fail' as const })), output: '', exitCode: 1, timedOut: false, truncated: false, durationMs: 0 }));

describe('episode limits and end reasons (memory sandbox)', () => {
  it('ends at T_max, keeps the episode and applies the turn-length penalty', async () => {
    const replay = new ReplayPolicy(Array(10).fill(turn({ name: 'view', path: 'src/clamp.js' })));
    const t = await runEpisode(task, replay, memory, opts({ maxTurns: 4, reward: { ...base.reward, lengthThreshold: 2 } }));
    expect(t.end_reason).toBe('max_turns');
    expect(t.turns).toHaveLength(4);
    expect(t.reward).toEqual({ tests: 0, length_penalty: (2 - 4) / (4 - 2), total: -1 });
  });
  it('grades an episode that did not submit only with gradeUnsubmitted (its reward is 0 either way)', async () => {
    // The fix is in place when the turn limit ends the episode: graded, its tests pass; not graded, none run.
    const fixes = () => new ReplayPolicy([turn(FIX), turn({ name: 'view', path: 'src/clamp.js' })]);
    let made = 0;
    const counting: SandboxFactory = (files, o) => (made++, createNodeSandbox(files, o));
    const one = { maxTurns: 2, reward: { ...base.reward, lengthPenalty: false } };
    expect(base.gradeUnsubmitted).toBe(false); // the run config's default
    const skipped = await runEpisode(task, fixes(), counting, opts(one));
    expect(skipped.end_reason).toBe('max_turns');
    expect(made).toBe(1); // the episode's sandbox only
    expect(skipped.tests).toEqual({ passed: [], failed: [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS], timed_out: false, graded: false });
    expect(skipped.final_diff).toContain('+  if (x > hi) return hi;');
    expect(skipped.reward.total).toBe(0);
    made = 0;
    const graded = await runEpisode(task, fixes(), counting, opts({ ...one, gradeUnsubmitted: true }));
    expect(made).toBe(2); // and the grader's
    expect(graded.tests.graded).toBeUndefined();
    expect(graded.tests.failed).toEqual([]);
    expect(graded.reward.total).toBe(0); // passing tests without a submit earn nothing
    expect(episodeOptions(resolveConfig({ 'agent.gradeUnsubmitted': true }), { sandbox: 'node' }).gradeUnsubmitted).toBe(true);
  });
  it('ends when the context budget is spent; a turn that overflows it is recorded but not run', async () => {
    const long = turn({ name: 'view', path: 'src/clamp.js' }, 'x'.repeat(400));
    const t = await runEpisode(task, new ReplayPolicy([long, long, long, long]), memory, opts({ contextTokens: 1000 }));
    expect(t.end_reason).toBe('context_limit');
    expect(t.budget_unit).toBe('chars/4');
    expect(t.context_used).toBeGreaterThan(1000);
    expect(t.turns.at(-1)!.status).toBe('not_run');
    expect(t.turns.at(-1)!.observation).toBe('');
    const small = await runEpisode(task, new ReplayPolicy([turn({ name: 'view', path: 'src/clamp.js' })]), memory, opts({ contextTokens: 100 }));
    expect(small.end_reason).toBe('context_limit'); // the prompt alone fills it
    expect(small.turns).toHaveLength(0);
  });
  it('a stop request ends every live episode before its next turn, as stopped and ungraded', async () => {
    let turns = 0, sandboxes = 0;
    const counting: SandboxFactory = async (files) => (sandboxes++, memory(files)); // grading opens one more per episode
    const views = Array(10).fill(turn({ name: 'view', path: 'src/clamp.js' }));
    const ts = await runEpisodes([0, 1, 2].map((seed) => ({ task, seed })), new ReplayPolicy(views), counting, opts({ maxTurns: 12, onTurn: () => void turns++, shouldStop: () => turns >= 6 }));
    // Two turns of three episodes, then nothing: no third turn, no grading run.
    expect(ts.map((t) => [t.end_reason, t.turns.length])).toEqual([['stopped', 2], ['stopped', 2], ['stopped', 2]]);
    expect(sandboxes).toBe(3);
    expect(ts[0]!.tests.passed).toEqual([]);
  });
  it('a command that finished while the event loop was busy is not abandoned (load does not change an observation)', async () => {
    // The tests' report arrives by real I/O (a file read) while the loop is held for 4.5 s by other work,
    // as generation for another batch holds it on a loaded machine: past the old 3 s grace, not past the guard.
    const slowLoop: SandboxFactory = async (files: FileMap) => {
      const sb = await memory(files);
      const run = sb.runTests.bind(sb);
      sb.runTests = async (...a: Parameters<typeof run>) => {
        const io = readFile('test/fixtures/tasks/handwritten.jsonl', 'utf8');
        setTimeout(() => {
          const t = performance.now();
          while (performance.now() - t < 4500); // busy: no timer or I/O callback runs meanwhile
        }, 0);
        await io;
        return run(...a);
      };
      return sb;
    };
    const t = await runEpisode(task, new ReplayPolicy([turn({ name: 'run_tests' })]), slowLoop, opts({ maxTurns: 1, commandTimeoutMs: 100, reward: { ...base.reward, lengthPenalty: false } }));
    expect(t.turns[0]!.observation).not.toMatch(/abandoned/);
    expect(t.turns[0]!.observation).toMatch(/run_tests: \d+ failed/);
    expect(abandonAfterMs(1000)).toBe(40_000); // micro's 1 s limit: abandoned only after 40 s
  });
  it('opens with the full system prompt by default and the one-line one with systemPrompt = brief', async () => {
    const view = [turn({ name: 'view', path: 'src/clamp.js' })];
    const one = { maxTurns: 1, reward: { ...base.reward, lengthPenalty: false } };
    const full = await runEpisode(task, new ReplayPolicy(view), memory, opts(one));
    const brief = await runEpisode(task, new ReplayPolicy(view), memory, opts({ ...one, systemPrompt: 'brief' }));
    expect(full.system).toBe(SYSTEM_PROMPT);
    expect(brief.system).toBe(BRIEF_SYSTEM_PROMPT);
    expect(trajectoryMessages(brief)[0]).toEqual({ role: 'system', content: BRIEF_SYSTEM_PROMPT });
    // Budgets count the prompt: the brief one leaves the rest of the context to the turns.
    expect(full.context_used - brief.context_used).toBe(charTokens(SYSTEM_PROMPT) - charTokens(BRIEF_SYSTEM_PROMPT));
    expect(episodeOptions(resolveConfig({ 'agent.systemPrompt': 'brief' }), { sandbox: 'node' }).systemPrompt).toBe('brief');
  });
  it('passes the remaining budget to the policy as maxTokens', async () => {
    const seen: number[] = [];
    const policy: Policy = { name: 'spy', version: 0, act: async (s) => (seen.push(s[0]!.maxTokens), [{ text: turn({ name: 'view', path: 'src/clamp.js' }) }]) };
    await runEpisode(task, policy, memory, opts({ maxTurns: 3, actionTokens: 100000, contextTokens: 3000, reward: { ...base.reward, lengthPenalty: false } }));
    expect(seen[0]).toBeLessThan(3000);
    expect(seen[1]).toBeLessThan(seen[0]!);
  });
  it('counts format errors as turns and records them; the observation shows the expected form', async () => {
    const t = await runEpisode(task, new ReplayPolicy(['I will just think.', turn({ name: 'submit' }) + '\nextra']), memory, opts({ maxTurns: 2, reward: { ...base.reward, lengthPenalty: false } }));
    expect(t.end_reason).toBe('max_turns');
    expect(t.turns.map((x) => x.format_error)).toEqual(['no command block', 'text after the command block; the command block must end the turn']);
    expect(t.turns[0]!.status).toBe('format_error');
    expect(t.turns[0]!.observation).toMatch(/^Format error: no command block\. The turn was not run\.\nEach turn is your reasoning followed by exactly one command block/);
    expect(t.turns[0]!.observation).toContain('```command\nview src/lib.js 1 40\n```');
  });
  it('ends with policy_exhausted when a replay runs out, and with error when the policy throws', async () => {
    const t = await runEpisode(task, new ReplayPolicy([turn({ name: 'run_tests' })]), memory, opts());
    expect(t.end_reason).toBe('policy_exhausted');
    expect(t.turns).toHaveLength(1);
    const broken: Policy = { name: 'broken', version: 0, act: async () => Promise.reject(new Error('out of memory')) };
    const e = await runEpisode(task, broken, memory, opts());
    expect(e).toMatchObject({ end_reason: 'error', error: 'policy broken failed: out of memory', reward: { tests: 0 } });
  });
  it('asks the policy once per turn for all live episodes of a group', async () => {
    const batches: number[] = [];
    const policy: Policy = {
      name: 'batch',
      version: 3,
      act: async (states: readonly EpisodeView[]): Promise<TurnOutput[]> => {
        batches.push(states.length);
        return states.map((s) => ({ text: s.turns.length >= s.seed ? SUBMIT : turn({ name: 'view', path: 'src/clamp.js' }) }));
      },
    };
    const ts = await runEpisodes([0, 1, 2].map((seed) => ({ task, seed })), policy, memory, opts());
    expect(batches).toEqual([3, 2, 1]);
    expect(ts.map((t) => [t.end_reason, t.turns.length, t.policy_version])).toEqual([['submitted', 1, 3], ['submitted', 2, 3], ['submitted', 3, 3]]);
  });
});

describe('grading on a fresh copy (node sandbox)', () => {
  const rewrite = (content: string) => turn({ name: 'create', path: 'test/clamp.test.js', content });
  const FAKE_TEST = "import { it } from 'node:test';\nit('passes', () => {});\n";
  it('a fix with the tests emptied or rewritten still earns 1; rewriting the tests without a fix, or not submitting, earns 0', async () => {
    const [fixedDeleted, fixedRewritten, cheated, unsubmitted] = await runEpisodes(
      [
        { task, seed: 0, id: 'fixed+deleted' },
        { task, seed: 1, id: 'fixed+rewritten' },
        { task, seed: 2, id: 'cheat' },
        { task, seed: 3, id: 'no-submit' },
      ],
      {
        name: 'scripted',
        version: 0,
        act: async (s) =>
          s.map((v) => {
            const plan = { 'fixed+deleted': [turn(FIX), rewrite(''), SUBMIT], 'fixed+rewritten': [turn(FIX), rewrite(FAKE_TEST), SUBMIT], cheat: [rewrite(FAKE_TEST), turn({ name: 'run_tests' }), SUBMIT], 'no-submit': [turn(FIX)] }[v.id]!;
            const text = plan[v.turns.length];
            return text === undefined ? { text: '', finish: 'exhausted' } : { text };
          }),
      },
      createNodeSandbox,
      opts({ gradeUnsubmitted: true }),
    );
    expect(fixedDeleted!.reward.tests).toBe(1);
    expect(fixedRewritten!.reward.tests).toBe(1);
    expect(cheated!.turns[1]!.observation).toMatch(/^run_tests: 0 failed, 1 passed/); // the agent's own tests pass…
    expect(cheated!.reward.tests).toBe(0); // …but the grade comes from the task's tests
    expect(cheated!.tests.failed).toEqual(task.FAIL_TO_PASS);
    expect(cheated!.final_diff).toMatch(/diff --git a\/test\/clamp.test.js/);
    // Not submitted (here: the replay ran out) and graded when asked: R = 0 although the final files pass (docs/dapo.md).
    expect(unsubmitted!.end_reason).toBe('policy_exhausted');
    expect(unsubmitted!.tests.failed).toEqual([]);
    expect(unsubmitted!.reward.tests).toBe(0);
  });
});
