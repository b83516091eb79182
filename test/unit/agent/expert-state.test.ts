// The state expert (DAgger's labeller): from any state an episode reaches (the start, after a wrong edit,
// after an edit of the tests) it replays the episode's edits and finishes the fix; the takeover policy
// lets a student play the first turns, marks them not to imitate, and hands the episode over. With guesses
// (bc.daggerGuesses) it plays guess and check as the scripted expert does, from the start or after a student's
// own guess.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatCommand, type Command } from '../../../src/agent/commands.ts';
import { runEpisode, runEpisodes } from '../../../src/agent/episode.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { fixesFor, onceTokens } from '../../../src/agent/tools.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { replayState, StateExpertPolicy, TakeoverPolicy } from '../../../src/agent/expert-state.ts';
import type { Policy } from '../../../src/agent/policy.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { FUNCTION_WORLD_DEFAULTS, level0Tasks, level1Tasks } from '../../../src/tasks/build-functions.ts';
import { checkFunction } from '../../../src/tasks/functions-oracle.node.ts';
import { parseCorpusFile } from '../../../src/tasks/functions.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const checked = parseCorpusFile('sample', readFileSync('test/fixtures/functions/sample.js', 'utf8')).functions.map((fn) => {
  const r = checkFunction(fn);
  return { fn, cases: r.cases, killed: r.killed };
});
const o = { ...FUNCTION_WORLD_DEFAULTS, testFraction: 0, valFraction: 0 };
const l0 = level0Tasks(checked, o);
const l1 = level1Tasks(checked, o);
const opts = episodeOptions(resolveConfig({ 'agent.editCommand': 'edit', 'agent.maxTurns': 12, 'reward.lengthThreshold': 8 }), { sandbox: 'node' });
const say = (c: Command) => `Trying.\n${formatCommand(c)}`;

describe('state expert', () => {
  it('solves level-0 and level-1 tasks from the start: view, edit, run the tests, submit', async () => {
    for (const task of [l0[0]!, l0[7]!, l1[2]!]) {
      const t = await runEpisode(task, new StateExpertPolicy('edit'), createNodeSandbox, opts);
      expect(t.reward.tests, task.instance_id).toBe(1);
      expect(t.turns.map((x) => x.command!.name)).toEqual(['view', 'edit', 'run_tests', 'submit']);
    }
  }, 60_000);
  it('with replace it writes SEARCH/REPLACE blocks', async () => {
    const t = await runEpisode(l0[1]!, new StateExpertPolicy('replace'), createNodeSandbox, opts);
    expect(t.reward.tests).toBe(1);
    expect(t.turns[1]!.command!.name).toBe('replace');
  }, 30_000);
  it('takes over after a student breaks other lines and the tests, and repairs everything', async () => {
    const task = l0.find((t) => t.instance_id === 'sumOfEvens__1')!;
    const student: Policy = {
      name: 'clumsy',
      version: 0,
      act: async (states) =>
        states.map((s) => ({
          text: [
            say({ name: 'edit', path: 'src/sumOfEvens.js', start: 2, end: 2, content: '  let total = 1;\n' }),
            say({ name: 'edit', path: 'test/sumOfEvens.test.js', start: 1, end: 0, content: '// mine\n' }),
            say({ name: 'run_tests' }),
          ][s.turns.length]!,
        })),
    };
    const t = await runEpisode(task, new TakeoverPolicy(student, new StateExpertPolicy('edit'), () => 3), createNodeSandbox, opts);
    expect(t.turns.slice(0, 3).every((x) => x.no_train)).toBe(true);
    expect(t.turns.slice(3).every((x) => !x.no_train)).toBe(true);
    expect(t.reward.tests).toBe(1);
    expect(t.final_diff).not.toContain('test/');
    // The replayed state is the sandbox's: after the student's turns, both edits are there.
    const state = await replayState(task, t.turns.slice(0, 3));
    expect(state['src/sumOfEvens.js']).toContain('let total = 1;');
    expect(state['test/sumOfEvens.test.js']!.startsWith('// mine\n')).toBe(true);
  }, 60_000);
  it('submits once a test run passed, and runs the tests first when it did not see one', async () => {
    const task = l0[0]!;
    const gold = (await import('../../../src/sandbox/patch.ts')).applyDiff(task.files, task.patch).files;
    const path = Object.keys(gold).find((p) => p.startsWith('src/'))!;
    const fix: Command = { name: 'create', path, content: gold[path]! };
    const student: Policy = { name: 'fixer', version: 0, act: async (states) => states.map(() => ({ text: say(fix) })) };
    const t = await runEpisode(task, new TakeoverPolicy(student, new StateExpertPolicy('edit'), () => 1), createNodeSandbox, opts);
    expect(t.turns.map((x) => x.command!.name)).toEqual(['create', 'run_tests', 'submit']);
    expect(t.reward.tests).toBe(1);
  }, 30_000);
});

describe('state expert with guesses (bc.daggerGuesses)', () => {
  const FILE = 'public/tasks/level0/val.jsonl';
  const tasks = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks.filter((_, i) => i % 25 === 0); // 13 functions
  const subOpts = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 30, 'agent.viewHints': true, 'agent.triedHints': true }), { sandbox: 'node' });
  const olds = (t: { turns: readonly { command?: Command | null }[] }) => t.turns.flatMap((x) => (x.command?.name === 'sub' ? [x.command.old] : []));
  it("from the start, names the scripted expert's guesses in its order (both ends), tests and undoes each, then fixes", { timeout: 180_000 }, async () => {
    for (const order of ['list', 'last'] as const) {
      const specs = tasks.map((task) => ({ task, seed: 1 }));
      const scripted = await runEpisodes(specs, new ExpertPolicy({ guesses: 3, guessOrder: order, style: 'bare', editCommand: 'sub' }), createNodeSandbox, subOpts);
      const state = await runEpisodes(specs, new StateExpertPolicy('sub', 'bare', { n: 3, order }), createNodeSandbox, subOpts);
      let guessed = 0;
      state.forEach((t, i) => {
        expect(t.reward.tests, t.task_id).toBe(1);
        expect(olds(t).slice(0, -1), `${order} ${t.task_id}`).toEqual(olds(scripted[i]!).slice(0, -1)); // the guesses (the fix may be worded apart)
        const names = t.turns.map((x) => x.command!.name);
        const k = names.filter((n) => n === 'undo').length;
        guessed += k;
        for (let j = 0; j < k; j++) expect(names.slice(2 + 3 * j, 4 + 3 * j)).toEqual(['run_tests', 'undo']);
      });
      expect(guessed).toBeGreaterThan(2);
    }
  });
  it('with agent.subTests, both experts guess in one turn a guess (the sub tests itself), name the last candidate listed, fix and submit', { timeout: 180_000 }, async () => {
    const o = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 30, 'agent.viewHints': true, 'agent.triedHints': true, 'agent.subTests': true }), { sandbox: 'node' });
    const specs = tasks.map((task) => ({ task, seed: 1 }));
    const scripted = await runEpisodes(specs, new ExpertPolicy({ guesses: 3, guessOrder: 'last', style: 'bare', editCommand: 'sub' }), createNodeSandbox, o);
    const state = await runEpisodes(specs, new StateExpertPolicy('sub', 'bare', { n: 3, order: 'last' }), createNodeSandbox, o);
    let guessed = 0;
    scripted.forEach((t, i) => {
      expect(t.reward.tests, t.task_id).toBe(1);
      const names = t.turns.map((x) => x.command!.name);
      const subs = names.filter((n) => n === 'sub').length;
      expect(names, t.task_id).toEqual(['view', ...Array<string>(subs).fill('sub'), 'submit']); // no run_tests, no undo
      guessed += subs - 1;
      t.turns.forEach((turn, k) => {
        // Each guess (a taken-back sub) names the last token of the observation before it (the list's last).
        if (turn.command?.name !== 'sub' || k === 0 || turn.status === 'ok') return;
        expect(turn.observation).toContain('the tests fail, so the change was taken back');
        expect((turn.command as { old: string }).old, t.task_id).toBe(t.turns[k - 1]!.observation.split(/\s/).at(-1));
      });
      expect(t.turns.at(-2)!.observation).toMatch(/\nrun_tests: 0 failed/);
      expect(olds(state[i]!).slice(0, -1), t.task_id).toEqual(olds(t).slice(0, -1)); // the state expert's guesses are the same
      expect(state[i]!.reward.tests, t.task_id).toBe(1);
      expect(state[i]!.turns.map((x) => x.command!.name).filter((n) => n === 'run_tests' || n === 'undo'), t.task_id).toEqual([]);
    });
    expect(guessed).toBeGreaterThan(2);
  });
  it('with agent.retryFixes, both experts try each fix of a candidate in turn (the bug\'s own too, up to its right one), the list\'s last each time', { timeout: 180_000 }, async () => {
    const o = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 30, 'agent.viewHints': true, 'agent.triedHints': true, 'agent.subTests': true, 'agent.retryFixes': true }), { sandbox: 'node' });
    // Beside the sample, three tasks whose bug's token is listed and whose right fix is not its first.
    const second = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks.filter((t) => {
      const m = t.mutation as unknown as { location: { file: string }; original: string; mutated: string }; // level-0 tasks record the one-token change
      return onceTokens(t.files[m.location.file]!).includes(m.mutated) && fixesFor(m.mutated).indexOf(m.original) > 0;
    });
    const specs = [...tasks, ...second.slice(0, 3)].map((task) => ({ task, seed: 1 }));
    const scripted = await runEpisodes(specs, new ExpertPolicy({ guesses: 3, guessOrder: 'last', style: 'bare', editCommand: 'sub', retryFixes: true }), createNodeSandbox, o);
    const state = await runEpisodes(specs, new StateExpertPolicy('sub', 'bare', { n: 3, order: 'last', retryFixes: true }), createNodeSandbox, o);
    const pairs = (t: { turns: readonly { command?: Command | null }[] }) => t.turns.flatMap((x) => (x.command?.name === 'sub' ? [`${x.command.old} ${x.command.new}`] : []));
    let retried = 0, bugRetried = 0;
    scripted.forEach((t, i) => {
      expect(t.reward.tests, t.task_id).toBe(1);
      expect(pairs(state[i]!), t.task_id).toEqual(pairs(t)); // the same subs, replacements included
      const subs = t.turns.filter((x) => x.command?.name === 'sub').map((x) => x.command as { old: string; new: string });
      // Each candidate's replacements are its fixes in fixesFor's order, one after another.
      for (const [k, s] of subs.entries()) {
        const before = subs.slice(0, k).filter((x) => x.old === s.old).map((x) => x.new);
        if (k === subs.length - 1 && !before.length) continue; // the fix, first try (a negated condition is no fixesFor pair)
        expect(fixesFor(s.old).slice(0, before.length + 1), t.task_id).toEqual([...before, s.new]);
        if (before.length) {
          retried++;
          expect(subs[k - 1]!.old, t.task_id).toBe(s.old); // right after the first
          if (k === subs.length - 1) bugRetried++;
        }
      }
      t.turns.forEach((turn, k) => {
        if (turn.command?.name === 'sub' && k > 0 && turn.status !== 'ok') expect((turn.command as { old: string }).old, t.task_id).toBe(t.turns[k - 1]!.observation.split(/\s/).at(-1));
      });
    });
    expect(retried).toBeGreaterThan(bugRetried); // other candidates retried
    expect(bugRetried).toBeGreaterThan(0); // and a bug's token whose first fix was not the right one
  });
  it("after a student's refused sub, its first guess is the last token of the refusal (agent.triedOnRefusal lists the candidates there)", { timeout: 60_000 }, async () => {
    const o = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 30, 'agent.viewHints': true, 'agent.triedHints': true, 'agent.triedOnRefusal': true, 'agent.subTests': true }), { sandbox: 'node' });
    const student: Policy = { name: 'blind', version: 0, act: async (states) => states.map((s) => ({ text: formatCommand(s.turns.length === 0 ? { name: 'view' } : { name: 'sub', old: '@@@', new: '+' }) })) };
    let guesses = 0;
    for (const task of tasks) {
      const t = await runEpisode(task, new TakeoverPolicy(student, new StateExpertPolicy('sub', 'bare', { n: 3, order: 'last' }), () => 2), createNodeSandbox, o);
      expect(t.turns[1]!.observation, task.instance_id).toMatch(/^src\/.*unchanged: "@@@" is not in the file\nnot yet tried: /);
      const list = t.turns[1]!.observation.split('not yet tried: ')[1]!.split(' ');
      expect(t.turns[2]!.command!.name).toBe('sub');
      if (t.turns[2]!.status !== 'ok') (guesses++, expect(olds(t)[1], task.instance_id).toBe(list.at(-1))); // a guess: the copy's answer
      expect(t.reward.tests, task.instance_id).toBe(1);
    }
    expect(guesses).toBeGreaterThan(2);
  });
  it("takes over after a student's own guess: tests it, undoes it, and does not try it again", { timeout: 60_000 }, async () => {
    // A task whose first listed candidate (the student's guess) is not the fix's.
    const source = (task: (typeof tasks)[number]) => Object.keys(task.files).find((p) => p.startsWith('src/'))!;
    const task = tasks.find((t) => {
      const l = onceTokens(t.files[source(t)]!);
      return l.length >= 3 && l[0] !== '!' && !t.patch.includes(`-${t.files[source(t)]!.split('\n').find((x) => x.includes(l[0]!))}`);
    })!;
    const listed = onceTokens(task.files[source(task)]!);
    const student: Policy = { name: 'guesser', version: 0, act: async (states) => states.map((s) => ({ text: s.turns.length === 0 ? formatCommand({ name: 'view' }) : formatCommand({ name: 'sub', old: listed[0]!, new: listed[0] === '1' ? '2' : '1' }) })) };
    const t = await runEpisode(task, new TakeoverPolicy(student, new StateExpertPolicy('sub', 'bare', { n: 3, order: 'last' }), () => 2), createNodeSandbox, subOpts);
    expect(t.reward.tests).toBe(1);
    if (t.turns[1]!.status === 'ok') expect(t.turns.slice(2, 4).map((x) => x.command!.name)).toEqual(['run_tests', 'undo']);
    expect(olds(t).slice(1)).not.toContain(listed[0]); // the student's guess is not made again
    // agent.subTests: the student's guess tested itself; the expert goes on guessing and fixing with subs alone.
    const o = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 30, 'agent.viewHints': true, 'agent.triedHints': true, 'agent.subTests': true }), { sandbox: 'node' });
    const u = await runEpisode(task, new TakeoverPolicy(student, new StateExpertPolicy('sub', 'bare', { n: 3, order: 'last' }), () => 2), createNodeSandbox, o);
    expect(u.reward.tests).toBe(1);
    expect(u.turns.slice(2).map((x) => x.command!.name).filter((n) => n !== 'sub')).toEqual(['submit']);
    expect(olds(u).slice(1)).not.toContain(listed[0]);
  });
});
