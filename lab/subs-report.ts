// What an agent's subs name, from a run's saved trajectories: the figures docs/learning.md quotes for the
// guess-and-check runs (E36–E42). For each episode: its first sub's OLD against the candidate list it last saw
// (agent.viewHints' "occur once: …", agent.triedHints' "not yet tried: …"): the list's first, its last,
// another listed one, absent from the list, or no list seen; then every guess after a list (a sub whose last
// observation ended with one) the same way; the commands an episode; the subs the file took and those it
// refused; how many applied subs the solved episodes made; the OLD texts named most.
//   npx tsx lab/subs-report.ts runs/e40 [--phase eval-base]   (the file prefix under trajectories/)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Trajectory } from '../src/agent/trajectory.ts';

const { values: a, positionals } = parseArgs({ allowPositionals: true, options: { phase: { type: 'string', default: 'eval-' } } });
const run = positionals[0];
if (!run) throw new Error('usage: npx tsx lab/subs-report.ts RUN_FOLDER [--phase eval-base]');
const dir = join(run, 'trajectories');
const files = readdirSync(dir).filter((f) => f.startsWith(a.phase!) && f.endsWith('.jsonl')).sort();
if (files.length === 0) throw new Error(`no ${a.phase}*.jsonl in ${dir}: --phase names a file prefix there (bc, dagger1, rft, eval-base, …)`);

const LIST = /(?:occur once|not yet tried): (.*)$/;
type Where = 'first listed' | 'last listed' | 'other listed' | 'not listed' | 'no list seen';
const where = (old: string, list: string[] | undefined): Where =>
  !list ? 'no list seen' : list[0] === old ? 'first listed' : list.at(-1) === old ? 'last listed' : list.includes(old) ? 'other listed' : 'not listed';
const count = <K,>(m: Map<K, number>, k: K, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

let episodes = 0, solved = 0, applied = 0, refused = 0;
const firstSub = new Map<Where, number>(), guesses = new Map<Where, number>(), commands = new Map<string, number>();
const appliedInSolved = new Map<number, number>(), olds = new Map<string, number>();
for (const f of files) {
  for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as Trajectory;
    episodes++;
    let list: string[] | undefined, seenSub = false, mine = 0, listJustBefore = false;
    for (const turn of t.turns) {
      const c = turn.command;
      count(commands, c?.name ?? '(format error)');
      if (c?.name === 'sub') {
        const w = where(c.old, list);
        if (!seenSub) count(firstSub, w);
        if (listJustBefore) count(guesses, w);
        seenSub = true;
        count(olds, c.old);
        if (turn.status === 'ok') (applied++, mine++);
        else refused++;
      }
      const m = LIST.exec(turn.observation ?? '');
      listJustBefore = !!m;
      if (m) list = m[1]!.split(' ');
    }
    if (t.reward.total > 0) (solved++, count(appliedInSolved, mine));
  }
}

const share = (m: Map<string, number>, of: number) => [...m].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v} (${((100 * v) / of).toFixed(0)} %)`).join(', ');
const total = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);
console.log(`${run} ${a.phase}*: ${episodes} episodes, ${solved} solved (${((100 * solved) / episodes).toFixed(1)} %)`);
console.log(`first sub:            ${share(firstSub, total(firstSub))} of ${total(firstSub)}`);
console.log(`sub just after a list: ${share(guesses, total(guesses))} of ${total(guesses)}`);
console.log(`commands an episode:  ${[...commands].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${(v / episodes).toFixed(2)}`).join(', ')}`);
console.log(`subs applied ${applied}, refused ${refused}; applied subs in the solved episodes: ${[...appliedInSolved].sort((x, y) => x[0] - y[0]).map(([k, v]) => `${k}: ${v}`).join(', ')}`);
console.log(`OLD named most:       ${[...olds].sort((x, y) => y[1] - x[1]).slice(0, 10).map(([k, v]) => `${k} ${v}`).join(', ')}`);
