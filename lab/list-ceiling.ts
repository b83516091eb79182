// The ceiling of guess and check from the list's end, per task file: the share of one-token tasks a perfect
// copier solves within agent.maxTurns turns (view, the guesses, the fix, submit) when it copies the last
// candidate of the latest list (agent.viewHints, agent.triedHints) and names
//   one replacement per candidate (the world before agent.retryFixes): the token leaves the list once named, so
//     a bug whose right fix is not its token's first (`>=` from `<`, `7` from `8`) is never fixed; or
//   every fix of a candidate in fixesFor's order (agent.retryFixes): the token stays until each was tried.
// No model runs: this is what the world allows, the bar a policy that only copies can reach (docs/learning.md,
// finding 35).
//   npx tsx lab/list-ceiling.ts public/tasks/level0/val.jsonl [--turns 14]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fixesFor, nameable, onceTokens } from '../src/agent/tools.ts';
import { parseTaskFile } from '../src/tasks/schema.ts';

const { values: a, positionals } = parseArgs({ allowPositionals: true, options: { turns: { type: 'string', default: '14' } } });
const file = positionals[0];
if (!file) throw new Error('usage: npx tsx lab/list-ceiling.ts TASKS.jsonl [--turns 14]');
const maxTurns = Number(a.turns);
if (!Number.isInteger(maxTurns) || maxTurns < 3) throw new Error(`--turns must be an integer ≥ 3 (view, fix, submit), got ${a.turns}`);

let listed = 0, once = 0, every = 0;
const { tasks } = parseTaskFile(readFileSync(file, 'utf8'), file);
for (const t of tasks) {
  const m = t.mutation as unknown as { location?: { file?: string }; original?: string; mutated?: string } | undefined;
  const text = m?.location?.file ? t.files[m.location.file] : undefined;
  if (text === undefined || m?.mutated === undefined || m.original === undefined) continue;
  const list = onceTokens(text);
  const at = list.indexOf(m.mutated);
  if (at < 0) continue; // not a one-token bug a sub of a listed candidate fixes
  listed++;
  const after = list.slice(at + 1).filter(nameable); // guessed first, from the end
  const fixes = fixesFor(m.mutated);
  if (fixes[0] === m.original && 1 + after.length + 2 <= maxTurns) once++;
  const k = fixes.indexOf(m.original);
  if (k >= 0 && 1 + after.reduce((s, x) => s + fixesFor(x).length, 0) + k + 2 <= maxTurns) every++;
}
const pct = (n: number) => `${((100 * n) / Math.max(1, listed)).toFixed(1)} %`;
console.log(`${file}: ${tasks.length} tasks, ${listed} with the bug's token on the list; within ${maxTurns} turns a perfect copier solves`);
console.log(`  one replacement a candidate:        ${once} (${pct(once)})`);
console.log(`  every fix (agent.retryFixes):       ${every} (${pct(every)})`);
