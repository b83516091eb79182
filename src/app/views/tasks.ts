// Tasks: browse the bundled train/test sets and the imported ones (filter by library, difficulty and
// text, a page at a time), and read one task: its issue, files (test files marked), FAIL_TO_PASS and
// PASS_TO_PASS, and the gold patch as a diff. "Run base" and "Run gold patch" run the task's tests in
// the worker sandbox in this page and show each test's result beside what the task says it should be.
import type { RunResult } from '../../sandbox/types.ts';
import type { Task } from '../../tasks/schema.ts';
import { trainer } from '../client.ts';
import { setMarkdown } from '../markdown.ts';
import { el, errorText, heading } from '../dom.ts';
import { filterTasks, type TaskFilter } from '../../tasks/filter.ts';
import { BUNDLED_SETS, loadTaskSet, setLabel } from '../task-catalog.ts';

const PAGE = 25;
export const tasksHref = (set?: string, id?: string) => ['#/tasks', ...[set, id].filter((s) => s !== undefined).map((s) => encodeURIComponent(s!))].join('/');

/** Filters and page per set, kept while the page lives so "back to the list" lands where it was. */
const state = new Map<string, TaskFilter & { page: number }>();

/** The first line of the issue, cut to fit a table cell. */
const gist = (t: Task) => {
  const line = (t.problem_statement.split('\n').find((l) => l.trim()) ?? '').replace(/^#+\s*/, '');
  return line.length > 110 ? `${line.slice(0, 107)}…` : line;
};

function setLinks(current: string): HTMLElement {
  const list = el('ul', { class: 'inline-list', id: 'task-sets' });
  const add = (key: string) => list.append(el('li', {}, el('a', { href: tasksHref(key), 'aria-current': key === current ? 'page' : undefined }, setLabel(key))));
  for (const k of BUNDLED_SETS) add(k);
  void trainer.listTaskSets().then((sets) => sets.forEach((s) => add(s.path)), () => {});
  return el('nav', { 'aria-label': 'task sets' }, list);
}

export function renderTaskList(root: HTMLElement, setKey: string = BUNDLED_SETS[0]): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const status = el('p', { id: 'task-count', 'aria-live': 'polite' }, 'Loading the tasks…');
  const repoIn = el('select', { id: 'task-repo', name: 'repo' }, el('option', { value: '' }, 'all libraries'));
  const diffIn = el('select', { id: 'task-difficulty', name: 'difficulty' }, el('option', { value: '' }, 'any'), el('option', { value: 'easy' }, 'easy'), el('option', { value: 'hard' }, 'hard'));
  const textIn = el('input', { id: 'task-text', name: 'text', type: 'search', placeholder: 'words in the id or the issue', autocomplete: 'off', spellcheck: 'false' });
  const filters = el('form', { role: 'search', class: 'controls', 'aria-label': 'filter tasks' },
    el('label', { for: 'task-repo' }, 'Library'), repoIn,
    el('label', { for: 'task-difficulty' }, 'Difficulty'), diffIn,
    el('label', { for: 'task-text' }, 'Text'), textIn);
  const table = el('table', { id: 'task-list', 'aria-label': 'tasks' });
  const prev = el('button', { type: 'button', id: 'task-prev', disabled: true }, '← Previous');
  const next = el('button', { type: 'button', id: 'task-next', disabled: true }, 'Next →');
  const pageNote = el('span', { id: 'task-page' });
  root.append(heading('Tasks'), setLinks(setKey), error, filters, status, table, el('div', { class: 'controls', role: 'group', 'aria-label': 'pages' }, prev, pageNote, next));
  filters.addEventListener('submit', (e) => e.preventDefault());

  const f = state.get(setKey) ?? { repo: '', difficulty: '', text: '', page: 0 };
  state.set(setKey, f);
  let closed = false;
  void (async () => {
    try {
      const set = await loadTaskSet(setKey);
      if (closed) return;
      repoIn.append(...set.repos.map((r) => el('option', { value: r }, r)));
      repoIn.value = f.repo;
      diffIn.value = f.difficulty;
      textIn.value = f.text;
      const show = () => {
        const hits = filterTasks(set.tasks, f);
        const pages = Math.max(1, Math.ceil(hits.length / PAGE));
        f.page = Math.min(f.page, pages - 1);
        const from = f.page * PAGE, shown = hits.slice(from, from + PAGE);
        table.dataset.count = String(hits.length);
        status.textContent = `${hits.length} of ${set.tasks.length} tasks match${hits.length ? `; showing ${from + 1}–${from + shown.length}` : ''}.${set.refused.length ? ` ${set.refused.length} line(s) of the file were refused (line ${set.refused[0]!.line}: ${set.refused[0]!.message}).` : ''}`;
        table.replaceChildren(
          el('tr', {}, ...['task', 'library', 'difficulty', 'bug', 'tests (fail→pass / pass→pass)', 'issue'].map((t) => el('th', { scope: 'col' }, t))),
          ...shown.map((t) => el('tr', { 'data-task': t.instance_id },
            el('th', { scope: 'row' }, el('a', { href: tasksHref(setKey, t.instance_id) }, t.instance_id)),
            el('td', {}, t.repo), el('td', {}, String(t.difficulty ?? '–')), el('td', {}, t.mutation?.operator ?? '–'),
            el('td', {}, `${t.FAIL_TO_PASS.length} / ${t.PASS_TO_PASS.length}`), el('td', { class: 'gist' }, gist(t)))),
        );
        pageNote.textContent = `Page ${f.page + 1} of ${pages}`;
        prev.disabled = f.page === 0;
        next.disabled = f.page >= pages - 1;
      };
      const refilter = () => {
        f.repo = repoIn.value;
        f.difficulty = diffIn.value;
        f.text = textIn.value;
        f.page = 0;
        show();
      };
      let typing: ReturnType<typeof setTimeout> | undefined;
      repoIn.addEventListener('change', refilter);
      diffIn.addEventListener('change', refilter);
      textIn.addEventListener('input', () => {
        clearTimeout(typing);
        typing = setTimeout(refilter, 150);
      });
      prev.addEventListener('click', () => ((f.page -= 1), show()));
      next.addEventListener('click', () => ((f.page += 1), show()));
      show();
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
      status.textContent = '';
    }
  })();
  return () => {
    closed = true;
  };
}

/** A unified diff with its added, removed, hunk and header lines marked for styling. */
export function renderDiff(patch: string, id?: string): HTMLElement {
  const pre = el('pre', { class: 'diff', id });
  for (const line of patch.trimEnd().split('\n')) {
    const kind = /^(diff |index |--- |\+\+\+ )/.test(line) ? 'meta' : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
    pre.append(el('span', { class: `diff-${kind}` }, line), '\n');
  }
  return pre;
}

type Mode = 'base' | 'gold';

/** The task's tests with what each should do in this mode and what it did. */
function resultTable(task: Task, mode: Mode, run: RunResult): { table: HTMLElement; asExpected: boolean; summary: string } {
  const got = new Map<string, { status: string; message?: string }>();
  for (const t of run.tests) if (got.get(t.fullName)?.status !== 'fail') got.set(t.fullName, { status: t.status, message: t.message });
  const rows: [string, 'FAIL_TO_PASS' | 'PASS_TO_PASS' | 'other'][] = [
    ...task.FAIL_TO_PASS.map((n) => [n, 'FAIL_TO_PASS'] as [string, 'FAIL_TO_PASS']),
    ...task.PASS_TO_PASS.map((n) => [n, 'PASS_TO_PASS'] as [string, 'PASS_TO_PASS']),
    ...[...got.keys()].filter((n) => !task.FAIL_TO_PASS.includes(n) && !task.PASS_TO_PASS.includes(n)).map((n) => [n, 'other'] as [string, 'other']),
  ];
  let asExpected = !run.timedOut;
  const table = el('table', { id: 'task-results', 'aria-label': `test results, ${mode === 'base' ? 'base' : 'gold patch'}` },
    el('tr', {}, ...['test', 'list', 'expected', 'result', ''].map((t) => el('th', { scope: 'col' }, t))));
  for (const [name, list] of rows) {
    const expected = list === 'other' ? null : mode === 'base' && list === 'FAIL_TO_PASS' ? 'fail' : 'pass';
    const r = got.get(name);
    const status = r?.status ?? 'missing';
    const ok = expected === null || status === expected;
    if (!ok) asExpected = false;
    table.append(el('tr', { 'data-test': name, 'data-list': list, 'data-status': status, 'data-ok': String(ok) },
      el('td', {}, name, r?.message && status === 'fail' ? el('details', {}, el('summary', {}, 'message'), el('pre', {}, r.message)) : null),
      el('td', {}, list), el('td', {}, expected ?? '–'), el('td', { class: `result-${status}` }, status),
      el('td', { class: 'verdict' }, ok ? '✓ as expected' : '✗ unexpected')));
  }
  const n = (list: string, s: string) => rows.filter(([name, l]) => l === list && (got.get(name)?.status ?? 'missing') === s).length;
  const summary = `${mode === 'base' ? 'Base' : 'Gold patch'}: FAIL_TO_PASS ${n('FAIL_TO_PASS', 'pass')} pass, ${task.FAIL_TO_PASS.length - n('FAIL_TO_PASS', 'pass')} fail; PASS_TO_PASS ${n('PASS_TO_PASS', 'pass')} pass, ${task.PASS_TO_PASS.length - n('PASS_TO_PASS', 'pass')} fail${run.timedOut ? '; the time limit was hit' : ''} (${(run.durationMs / 1000).toFixed(1)} s). ${asExpected ? 'As the task says.' : 'Not what the task says.'}`;
  return { table, asExpected, summary };
}

function renderTaskBody(task: Task): HTMLElement[] {
  const tests = new Set(task.test_files);
  const m = task.mutation;
  const where = m?.location === undefined ? '' : typeof m.location === 'string' ? ` at ${m.location}` : ` at ${m.location.file}${m.location.line ? `:${m.location.line}` : ''}`;
  const facts: [string, string][] = [
    ['library', task.repo], ['split', task.split ?? '–'], ['difficulty', String(task.difficulty ?? '–')],
    ['bug', m ? `${m.operator}${where}` : '–'], ['files', `${Object.keys(task.files).length} (${task.test_files.length} test file${task.test_files.length === 1 ? '' : 's'})`],
  ];
  const dl = el('dl', { class: 'facts' });
  for (const [k, v] of facts) dl.append(el('dt', {}, k), el('dd', {}, v));
  const names = (id: string, list: string[]) => el('ul', { id, class: 'test-names' }, ...list.map((n) => el('li', {}, n)));
  const files = el('ul', { id: 'task-files', class: 'files' }, ...Object.keys(task.files).sort().map((p) =>
    el('li', { 'data-path': p, 'data-test-file': String(tests.has(p)) },
      el('details', {}, el('summary', {}, el('code', {}, p), tests.has(p) ? el('span', { class: 'badge' }, ' test file') : null), el('pre', {}, task.files[p]!)))));
  const section = (id: string, title: string, ...body: HTMLElement[]) => el('section', { 'aria-labelledby': id }, el('h3', { id }, title), ...body);
  return [
    dl,
    section('task-issue-heading', 'Issue', setMarkdown(el('div', { id: 'task-issue', class: 'issue-text' }), task.problem_statement)),
    section('task-tests-heading', 'Tests', el('h4', {}, `FAIL_TO_PASS (${task.FAIL_TO_PASS.length}): fail before the fix, pass after`), names('fail-to-pass', task.FAIL_TO_PASS),
      el('h4', {}, `PASS_TO_PASS (${task.PASS_TO_PASS.length}): pass before and after`), names('pass-to-pass', task.PASS_TO_PASS)),
    section('task-patch-heading', 'Gold patch', renderDiff(task.patch, 'task-patch')),
    section('task-files-heading', 'Files', el('p', {}, 'Test files are marked; the grader restores them before it runs the tests.'), files),
  ];
}

export function renderTask(root: HTMLElement, setKey: string, id: string): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const body = el('div', { id: 'task' });
  const runBase = el('button', { type: 'button', id: 'run-base', disabled: true }, 'Run base');
  const runGold = el('button', { type: 'button', id: 'run-gold', disabled: true }, 'Run gold patch');
  const runStatus = el('p', { id: 'task-run-status', 'aria-live': 'polite' });
  const results = el('div', { id: 'task-run', 'data-state': 'idle' });
  root.append(
    heading(`Task ${id}`),
    el('p', {}, el('a', { href: tasksHref(setKey) }, `← tasks of ${setLabel(setKey)}`)),
    error,
    el('div', { class: 'controls', role: 'group', 'aria-label': "run the task's tests in this page" }, runBase, runGold,
      el('small', {}, 'in the worker sandbox: base = the files as given; gold = with the gold patch applied')),
    runStatus, results, body,
  );
  let closed = false;
  void (async () => {
    try {
      const task = (await loadTaskSet(setKey)).byId.get(id);
      if (closed) return;
      if (!task) throw new Error(`${setLabel(setKey)} has no task ${id}`);
      body.append(...renderTaskBody(task));
      const run = async (mode: Mode) => {
        runBase.disabled = runGold.disabled = true;
        results.dataset.state = 'running';
        results.dataset.mode = mode;
        results.replaceChildren();
        runStatus.textContent = mode === 'base' ? 'Running the tests on the files as given…' : 'Applying the gold patch and running the tests…';
        try {
          const { createWorkerSandbox } = await import('../../sandbox/worker.browser.ts');
          const sb = await createWorkerSandbox(task.files, { timeoutMs: 30_000 });
          try {
            if (mode === 'gold') await sb.applyPatch(task.patch);
            const r = resultTable(task, mode, await sb.runTests(task.test_files));
            if (closed) return;
            runStatus.textContent = r.summary;
            results.dataset.asExpected = String(r.asExpected);
            results.append(r.table);
            results.dataset.state = 'done';
          } finally {
            await sb.dispose().catch(() => undefined);
          }
        } catch (e) {
          results.dataset.state = 'failed';
          runStatus.textContent = `The run failed: ${errorText(e)}`;
        } finally {
          runBase.disabled = runGold.disabled = false;
        }
      };
      runBase.addEventListener('click', () => void run('base'));
      runGold.addEventListener('click', () => void run('gold'));
      runBase.disabled = runGold.disabled = false;
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
    }
  })();
  return () => {
    closed = true;
  };
}
