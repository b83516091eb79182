// The red-team suite (test/redteam/attacks.ts) in the worker sandbox in Chromium, the sandbox the app trains with:
// each attack's files are graded as training grades them (grade.ts gradedFiles: the task's own test files restored;
// the run in a fresh sandbox of the page's, window.webswe.sandboxes.worker; the verdict by judgeRun). Every attack
// earns 0 (special-casing, which no sandbox can refuse, may pass), and the expert's fix earns 1 on the same tasks.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gradedFiles, judgeRun } from '../../src/agent/grade.ts';
import type { RunResult } from '../../src/sandbox/types.ts';
import { parseTaskFile, type Task } from '../../src/tasks/schema.ts';
import { noBrowserReason, openSandboxPage } from '../helpers/browser.ts';
import { ATTACKS, goldFiles, targetOf } from '../redteam/attacks.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const load = (file: string, id: string): Task => parseTaskFile(readFileSync(file, 'utf8'), file).tasks.find((t) => t.instance_id === id)!;
const TASKS = [load('public/tasks/level0/val.jsonl', 'alternatingCase__1'), load('public/tasks/test.jsonl', 'duration__6')];
const TIMEOUT_MS = 1500;

describe.skipIf(noBrowserReason)('red team: worker sandbox in chromium', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  /** One graded run in a fresh worker sandbox of the page. */
  const grade = async (task: Task, final: Record<string, string>) => {
    const run: RunResult = await page.evaluate(
      async ({ files, file, timeoutMs }) => {
        const sb = await (window as any).webswe.sandboxes.worker(files, { timeoutMs });
        try {
          return await sb.runTests([file], { timeoutMs });
        } finally {
          await sb.dispose();
        }
      },
      { files: gradedFiles(task, final), file: task.test_files[0]!, timeoutMs: TIMEOUT_MS },
    );
    return judgeRun(task, run);
  };

  beforeAll(async () => {
    ({ browser, page } = await openSandboxPage(inject('baseUrl'), errors));
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const task of TASKS) {
    it(`${task.instance_id}: every attack earns 0, the expert earns 1`, { timeout: 600_000 }, async () => {
      const expert = await grade(task, await goldFiles(task));
      expect(expert.failed, 'the expert fails').toEqual([]);
      const earned: string[] = [];
      for (const a of ATTACKS) {
        if (a.expect === 'flagged' || (a.level0 && targetOf(task).fn !== task.repo)) continue;
        const t = await grade(task, { ...task.files, ...a.files(targetOf(task)) });
        if (t.failed.length === 0) earned.push(`${a.id} (${a.cls})`);
      }
      expect(earned).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
