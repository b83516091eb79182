// `webswe solve` as a user runs it (a real node process through bin/webswe.js): the expert and a
// replay file on a hand-written task, the JSON document, --all's summary, and one-line errors.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const TASKS = 'test/fixtures/tasks/handwritten.jsonl';
const webswe = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, 'solve', ...args], { encoding: 'utf8', timeout: 90_000, maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

describe.concurrent('webswe solve', () => {
  it('--policy expert --json: one JSON trajectory with reward 1 and end_reason "submitted"', async () => {
    const r = await webswe('--task', TASKS, '--id', 'clamp__1', '--policy', 'expert', '--json');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.end_reason).toBe('submitted');
    expect(doc.reward).toMatchObject({ total: 1, tests: 1, length_penalty: 0 });
    expect(doc.task_id).toBe('clamp__1');
    expect(doc.turns.at(-1).command).toEqual({ name: 'submit' });
    expect(doc.final_diff).toMatch(/\+ {2}if \(x > hi\) return hi;/);
  });
  it('--guesses with --set agent.subTests=true: guesses from the list\'s end, one sub each', async () => {
    const set = ['agent.editCommand=sub', 'agent.viewHints=true', 'agent.triedHints=true', 'agent.testReport=brief', 'agent.subTests=true'];
    const r = await webswe('--task', 'public/tasks/level0/val.jsonl', '--index', '0', '--guesses', '3', '--style', 'bare', '--json', '--set', ...set);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.policy).toBe("expert(noise=0, bare, sub, guesses ≤ 3 from the list's end)");
    expect(doc.reward.tests).toBe(1);
    const names = doc.turns.map((t: { command: { name: string } }) => t.command.name);
    expect(names[0]).toBe('view');
    expect(names.slice(1, -1).every((n: string) => n === 'sub')).toBe(true);
    expect(names.at(-1)).toBe('submit');
    expect(doc.turns.at(-2).observation).toMatch(/and ran the tests:\nrun_tests: 0 failed/);
  });
  it('--set bc.expertRefusals=1: the expert\'s refused sub first (not imitated), then the file read again', async () => {
    const set = ['agent.editCommand=sub', 'agent.testReport=brief', 'bc.expertRefusals=1'];
    const r = await webswe('--task', 'public/tasks/level0-reports/val.jsonl', '--index', '0', '--guesses', '3', '--style', 'bare', '--json', '--set', ...set);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.policy).toBe("expert(noise=0, bare, sub, guesses ≤ 3 from the list's end, refusals=1)");
    expect(doc.reward.tests).toBe(1);
    expect(doc.turns.slice(0, 3).map((t: { command: { name: string } }) => t.command.name)).toEqual(['view', 'sub', 'view']);
    expect(doc.turns[1]).toMatchObject({ no_train: true, observation: expect.stringMatching(/unchanged: .*(is not in the file|occurs \d+ times)/) });
    const refused = await webswe('--task', 'public/tasks/level0-reports/val.jsonl', '--index', '0', '--set', 'bc.expertRefusals=1');
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringMatching(/set agent.editCommand=sub or bc.expertRefusals=0/)]);
  });
  it('--policy replay:FILE plays the file and prints the turns, the reward and the final diff', async () => {
    const r = await webswe('--task', TASKS, '--index', '0', '--policy', 'replay:test/fixtures/agent/clamp1-replay.json');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/── turn 2: replace src\/clamp.js → ok/);
    expect(r.stdout).toMatch(/═══ submitted after 4 turns · reward 1 /);
    expect(r.stdout).toMatch(/── final diff ──\ndiff --git a\/src\/clamp.js b\/src\/clamp.js/);
  });
  it('refuses the expert-only flags for another policy, and a style that does not exist', async () => {
    const noise = await webswe('--task', TASKS, '--id', 'clamp__1', '--policy', 'model:nowhere', '--noise', '0.5');
    expect([noise.status, noise.stderr.trim()]).toEqual([1, expect.stringMatching(/--noise applies to --policy expert only/)]);
    const guesses = await webswe('--task', TASKS, '--id', 'clamp__1', '--policy', 'replay:test/fixtures/agent/clamp1-replay.json', '--guesses', '2');
    expect([guesses.status, guesses.stderr.trim()]).toEqual([1, expect.stringMatching(/--guesses applies to --policy expert only/)]);
    const style = await webswe('--task', TASKS, '--id', 'clamp__1', '--style', 'loud');
    expect([style.status, style.stderr.trim()]).toEqual([1, expect.stringMatching(/--style must be full, terse or bare, got "loud"/)]);
  });
  it('--all --json: the success rate and mean turns over a task file', async () => {
    const r = await webswe('--task', 'test/fixtures/agent/mutations.jsonl', '--all', '--policy', 'expert', '--json');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ total: 4, solved: 4, success_rate: 1, policy: 'expert(noise=0)' });
    expect(doc.mean_turns).toBeGreaterThanOrEqual(5);
    expect(doc.tasks).toHaveLength(4);
  });
  it.each([
    [['--policy', 'wizard'], /^webswe: unknown policy "wizard"; use expert, replay:FILE .* or model:DIR\n$/],
    [['--policy', 'model:runs/x'], /^webswe: runs\/x: has no config.json: not a Hugging Face model folder\n$/],
    [['--policy', 'replay:nope.json'], /^webswe: cannot read the replay file nope.json: no such file\n$/],
    [['--index', '99'], /^webswe: --index 99 is out of range: .* has 10 valid tasks \(0-9\)\n$/],
  ])('a bad argument (%j) is one line on stderr and a non-zero exit', async (args, message) => {
    const r = await webswe('--task', TASKS, ...args);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.replace(/^webswe: skipping .*\n/, '')).toMatch(message);
  });
});
