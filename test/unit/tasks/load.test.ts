// The one task-file policy (src/tasks/load.ts) and its hosts: a file with any malformed line is refused
// whole, naming every bad line with its field; `webswe train` and `webswe solve` (real processes) say so
// in the same words and exit 1, where solve used to skip the bad lines and train to show one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkTaskFile, TaskFileRefused } from '../../../src/tasks/load.ts';

const FILE = 'test/fixtures/tasks/malformed.jsonl';
const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));

describe('checkTaskFile', () => {
  it('refuses a file with bad lines, naming each with its field', () => {
    let err: unknown;
    try {
      checkTaskFile(readFileSync(FILE, 'utf8'), FILE);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TaskFileRefused);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^test\/fixtures\/tasks\/malformed\.jsonl: \d+ lines refused, nothing used/);
    for (const at of [':3: field problem_statement', ':4: field FAIL_TO_PASS', ':14: field repo', ':14: field patch']) expect(msg).toContain(at);
    expect(() => checkTaskFile('\n\n', 'empty.jsonl')).toThrow(/empty\.jsonl: no tasks in the file/);
    expect(checkTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'h').length).toBe(10);
  });
  it('train and solve refuse it the same way, with exit 1', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'webswe-load-')), 'run');
    const train = spawnSync(process.execPath, [BIN, 'train', '--out', out, '--set', `tasks.train=${FILE}`, '--set', 'model.preset=scratch-30k'], { encoding: 'utf8' });
    expect(existsSync(out)).toBe(false); // refused before the run folder is made: nothing to clean up
    const solve = spawnSync(process.execPath, [BIN, 'solve', '--task', FILE, '--policy', 'expert'], { encoding: 'utf8' });
    for (const r of [train, solve]) {
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/malformed\.jsonl: \d+ lines refused, nothing used/);
      expect(r.stderr).toContain(':3: field problem_statement');
    }
  });
});
