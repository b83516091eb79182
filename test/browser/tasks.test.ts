// The Tasks view in chromium: browse the bundled sets a page at a time, filter them (the counts match
// the same filter run here over the files), read one task (issue, files with the test files marked,
// FAIL_TO_PASS / PASS_TO_PASS, the gold patch as a diff), and run its tests in the worker sandbox in
// the page: on the files as given the FAIL_TO_PASS tests fail and the PASS_TO_PASS ones pass; with the
// gold patch every one passes. Screenshots go to test-results/screenshots/.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { filterTasks } from '../../src/tasks/filter.ts';
import { parseTaskFile, type Task } from '../../src/tasks/schema.ts';
import { noBrowserReason, openAppPage, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const load = (split: string): Task[] => parseTaskFile(readFileSync(`public/tasks/${split}.jsonl`, 'utf8'), split).tasks;

describe.skipIf(noBrowserReason)('the Tasks view', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];
  const train = load('train');
  const test = load('test');
  const level0 = load('level0/train');
  // A hard task (two bugs) of the test split: several FAIL_TO_PASS tests, some PASS_TO_PASS ones.
  const task = test.find((t) => t.difficulty === 'hard' && t.FAIL_TO_PASS.length >= 2 && t.PASS_TO_PASS.length >= 2)!;
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const count = async () => Number(await page.getAttribute('#task-list', 'data-count'));
  const shownIds = () => page.$$eval('#task-list tr[data-task]', (trs) => trs.map((tr) => tr.getAttribute('data-task')!));

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("opens on the learning run's training set, lists every bundled set, pages, every control labelled and reachable with Tab", async () => {
    await page.goto(`${baseUrl}#/runs`);
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.waitForSelector('#task-list[data-count]', { timeout: 60_000 });
    expect(await page.getAttribute('nav[aria-label="main"] a[data-nav="tasks"]', 'aria-current')).toBe('');
    expect(await page.$$eval('#task-sets a', (as) => as.map((a) => a.textContent))).toEqual(
      ['level 0 train (the learning run trains here)', 'level 0 val', 'level 0 test (its held-out table)', "level 0 train, users' reports (micro-find)", "level 0 val, users' reports", "level 0 test, users' reports", 'library train', 'library test']);
    expect(await count()).toBe(level0.length);
    expect(await shownIds()).toEqual(level0.slice(0, 25).map((t) => t.instance_id));
    expect(await page.textContent('#task-page')).toBe(`Page 1 of ${Math.ceil(level0.length / 25)}`);
    await page.click('#task-next');
    expect(await shownIds()).toEqual(level0.slice(25, 50).map((t) => t.instance_id));
    await page.click('#task-prev');

    const unlabelled = await page.$$eval('input, select, textarea', (els) =>
      els.filter((e) => !(e as HTMLInputElement).labels?.length && !e.getAttribute('aria-label')).map((e) => e.outerHTML));
    expect(unlabelled).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached = new Set<string>();
    for (let i = 0; i < 20; i++) { // the nav's links, the sets', then the view's controls
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('href') || ''));
    }
    for (const want of ['#/tasks', `#/tasks/${encodeURIComponent('level0/test')}`, '#/tasks/test', 'task-repo', 'task-difficulty', 'task-text']) expect(reached, want).toContain(want);
    await shot('tasks');
    // The episode the first screen's run plays first is findable by its function's name.
    const named = filterTasks(level0, { repo: '', difficulty: '', text: 'averageSpeed' });
    expect(named.length).toBeGreaterThan(0);
    await page.fill('#task-text', 'averageSpeed');
    await page.waitForFunction((n) => document.querySelector('#task-list')?.getAttribute('data-count') === String(n), named.length);
    await page.fill('#task-text', '');
    await page.waitForFunction((n) => document.querySelector('#task-list')?.getAttribute('data-count') === String(n), level0.length);
  });

  it('filters by library, difficulty and text, with the counts the same filter gives over the file', async () => {
    await page.goto(`${baseUrl}#/tasks/train`);
    await page.waitForFunction((n) => document.querySelector('#task-list')?.getAttribute('data-count') === String(n), train.length, { timeout: 60_000 });
    await page.selectOption('#task-repo', 'roman');
    await page.selectOption('#task-difficulty', 'hard');
    const hard = filterTasks(train, { repo: 'roman', difficulty: 'hard', text: '' });
    expect(hard.length).toBeGreaterThan(0);
    await page.waitForFunction((n) => document.querySelector('#task-list')?.getAttribute('data-count') === String(n), hard.length);
    expect(await shownIds()).toEqual(hard.slice(0, 25).map((t) => t.instance_id));
    // Words from one task's issue narrow the list to the tasks that contain them all.
    const words = hard[0]!.problem_statement.split(/\s+/).filter((w) => w.length > 5).slice(0, 2).join(' ');
    const want = filterTasks(train, { repo: 'roman', difficulty: 'hard', text: words });
    await page.fill('#task-text', words);
    await page.waitForFunction((n) => document.querySelector('#task-list')?.getAttribute('data-count') === String(n), want.length);
    expect(await shownIds()).toContain(hard[0]!.instance_id);
    expect(await page.textContent('#task-count')).toContain(`${want.length} of ${train.length} tasks match`);
    await page.fill('#task-text', 'no-task-says-this-zzz');
    await page.waitForFunction(() => document.querySelector('#task-list')?.getAttribute('data-count') === '0');
  });

  it('reads one task: issue, files with the test files marked, both test lists and the gold patch as a diff', async () => {
    await page.goto(`${baseUrl}#/tasks/test`);
    await page.waitForFunction(() => Number(document.querySelector('#task-list')?.getAttribute('data-count')) > 0, undefined, { timeout: 60_000 });
    expect(await count()).toBe(test.length);
    await page.goto(`${baseUrl}#/tasks/test/${encodeURIComponent(task.instance_id)}`);
    await page.waitForSelector('#task-issue', { timeout: 60_000 });
    // The issue is Markdown, rendered: its `code` spans are code elements, its words all there.
    const issue = (await page.textContent('#task-issue')) ?? '';
    for (const w of task.problem_statement.replace(/[`*#]/g, ' ').split(/\s+/).filter((x) => /^\w{4,}$/.test(x))) expect(issue).toContain(w);
    const spans = (task.problem_statement.match(/`[^`\n]+`/g) ?? []).length;
    expect(spans).toBeGreaterThan(0);
    expect(await page.locator('#task-issue code').count()).toBeGreaterThanOrEqual(spans);
    expect(issue).not.toContain('`');
    const files = await page.$$eval('#task-files li', (lis) => lis.map((li) => [li.getAttribute('data-path'), li.getAttribute('data-test-file')]));
    expect(files.map(([p]) => p)).toEqual(Object.keys(task.files).sort());
    expect(files.filter(([, t]) => t === 'true').map(([p]) => p).sort()).toEqual([...task.test_files].sort());
    expect(await page.$$eval('#fail-to-pass li', (lis) => lis.map((l) => l.textContent))).toEqual(task.FAIL_TO_PASS);
    expect(await page.$$eval('#pass-to-pass li', (lis) => lis.map((l) => l.textContent))).toEqual(task.PASS_TO_PASS);
    expect(await page.textContent('#task-patch')).toBe(task.patch.trimEnd() + '\n');
    const removed = task.patch.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
    const added = task.patch.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
    expect(await page.locator('#task-patch .diff-del').count()).toBe(removed);
    expect(await page.locator('#task-patch .diff-add').count()).toBe(added);
  });

  it("renders an imported task's Markdown with its HTML sanitised: no script, handler or frame survives", async () => {
    const evil = { ...task, instance_id: 'evil__1', problem_statement: '**bold** `code`\n\n<img src="x" onerror="window.pwned = 1"><script>window.pwned = 2</script><iframe src="about:blank"></iframe><a href="javascript:alert(1)">link</a>' };
    await page.evaluate((text) => (window as any).webswe.trainer.importTaskSet('evil', text), JSON.stringify(evil) + '\n');
    await page.goto(`${baseUrl}#/tasks/${encodeURIComponent('idb:tasks/evil')}/evil__1`);
    await page.waitForSelector('#task-issue strong', { timeout: 60_000 });
    await page.waitForTimeout(200);
    const html = await page.innerHTML('#task-issue');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).not.toMatch(/onerror|<script|<iframe|javascript:/);
    expect(await page.evaluate(() => (window as any).pwned ?? null)).toBeNull();
  });

  it('runs the base files in the worker sandbox: the FAIL_TO_PASS tests fail, the PASS_TO_PASS ones pass', async () => {
    await page.click('#run-base');
    await page.waitForSelector('#task-run[data-mode="base"][data-state="done"]', { timeout: 120_000 });
    const rows = await page.$$eval('#task-results tr[data-test]', (trs) => trs.map((tr) => [tr.getAttribute('data-test'), tr.getAttribute('data-list'), tr.getAttribute('data-status')]));
    expect(rows.filter(([, l]) => l === 'FAIL_TO_PASS')).toEqual(task.FAIL_TO_PASS.map((n) => [n, 'FAIL_TO_PASS', 'fail']));
    expect(rows.filter(([, l]) => l === 'PASS_TO_PASS')).toEqual(task.PASS_TO_PASS.map((n) => [n, 'PASS_TO_PASS', 'pass']));
    expect(await page.getAttribute('#task-run', 'data-as-expected')).toBe('true');
    expect(await page.textContent('#task-run-status')).toContain('As the task says.');
    await shot('task-base');
  });

  it('runs it with the gold patch applied: every test passes', async () => {
    await page.click('#run-gold');
    await page.waitForSelector('#task-run[data-mode="gold"][data-state="done"]', { timeout: 120_000 });
    const rows = await page.$$eval('#task-results tr[data-test]', (trs) => trs.map((tr) => [tr.getAttribute('data-test'), tr.getAttribute('data-status')]));
    expect(rows).toEqual([...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].map((n) => [n, 'pass']));
    expect(await page.getAttribute('#task-run', 'data-as-expected')).toBe('true');
    await shot('task-gold');
  });

  it('names a task that is not in the set', async () => {
    await page.goto(`${baseUrl}#/tasks/test/no-such-task__1`);
    await page.waitForSelector('.error[role="alert"]:not([hidden])', { timeout: 60_000 });
    expect(await page.textContent('.error[role="alert"]:not([hidden])')).toBe('library test has no task no-such-task__1');
    expect(errors).toEqual([]);
  });
});
