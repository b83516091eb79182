// The Runs view's imports: a checkpoint zip becomes a run (resumable when it brought its run config and
// tokenizer; workers/checkpoint-import.ts), and a .jsonl task file becomes a task set that runs name
// `idb:tasks/<name>` in tasks.train or tasks.test (checked line by line; any bad line refuses the file,
// each one listed with its line number and reason). Imported task sets are listed with a delete button.
import type { TaskSetInfo } from '../../../workers/trainer.api.ts';
import { trainer } from '../client.ts';
import { el, errorText, when } from '../dom.ts';
import { forgetTaskSet } from '../task-catalog.ts';
import { tasksHref } from './tasks.ts';

/** A file name as a task set name (letters, digits, '.', '_', '-'). */
const setName = (file: string) => file.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100) || 'tasks.jsonl';

export function renderImports(runsChanged: () => void): HTMLElement {
  const status = el('p', { id: 'import-status', role: 'status' });
  const error = el('div', { id: 'import-error', class: 'error', role: 'alert', hidden: true });
  const ckIn = el('input', { id: 'import-checkpoint', type: 'file', accept: '.zip,application/zip', 'aria-describedby': 'import-checkpoint-doc' });
  const tasksIn = el('input', { id: 'import-tasks', type: 'file', accept: '.jsonl,.json,.txt', 'aria-describedby': 'import-tasks-doc' });
  const sets = el('table', { id: 'task-set-list', 'aria-label': 'imported task sets' });

  const busy = async (input: HTMLInputElement, what: string, f: (file: File) => Promise<string>) => {
    const file = input.files?.[0];
    if (!file) return;
    input.disabled = true;
    error.hidden = true;
    status.textContent = `Importing ${file.name} (${what})…`;
    try {
      status.textContent = await f(file);
    } catch (e) {
      status.textContent = '';
      error.hidden = false;
      error.textContent = errorText(e);
    } finally {
      input.disabled = false;
      input.value = '';
    }
  };

  const showSets = async () => {
    const list = await trainer.listTaskSets();
    sets.dataset.count = String(list.length);
    sets.replaceChildren(el('tr', {}, ...['task set', 'tasks', 'libraries', 'path for tasks.train / tasks.test', 'imported', ''].map((t) => el('th', { scope: 'col' }, t))),
      ...list.map((s) => setRow(s)));
    if (!list.length) sets.append(el('tr', {}, el('td', { colspan: 6 }, 'No task file imported yet.')));
  };
  const setRow = (s: TaskSetInfo) => {
    const del = el('button', { type: 'button', class: 'quiet', 'aria-label': `Delete task set ${s.name}` }, 'Delete');
    del.addEventListener('click', async () => {
      if (!confirm(`Delete the task set ${s.name}? Runs that name ${s.path} can no longer start or resume.`)) return;
      await trainer.deleteTaskSet(s.name);
      forgetTaskSet(s.path);
      await showSets();
    });
    return el('tr', { 'data-task-set': s.name },
      el('th', { scope: 'row' }, el('a', { href: tasksHref(s.path) }, s.name)), el('td', {}, String(s.count)),
      el('td', {}, s.repos.join(', ')), el('td', {}, el('code', {}, s.path)), el('td', {}, when(s.created)), el('td', {}, del));
  };

  ckIn.addEventListener('change', () => busy(ckIn, 'a checkpoint', async (file) => {
    const r = await trainer.importCheckpoint(file, file.name);
    runsChanged();
    return r.note;
  }));
  tasksIn.addEventListener('change', () => busy(tasksIn, 'a task file', async (file) => {
    const s = await trainer.importTaskSet(setName(file.name), await file.text());
    forgetTaskSet(s.path);
    await showSets();
    return `Imported ${s.count} task${s.count === 1 ? '' : 's'} (${s.repos.join(', ')}) as ${s.name}: give ${s.path} to tasks.train or tasks.test in the New run form.`;
  }));
  void showSets().catch((e) => ((error.hidden = false), (error.textContent = errorText(e))));

  return el('section', { 'aria-labelledby': 'import-heading', id: 'imports' },
    el('h3', { id: 'import-heading' }, 'Import'),
    el('div', { class: 'field' }, el('label', { for: 'import-checkpoint' }, 'Checkpoint zip'), ckIn,
      el('small', { id: 'import-checkpoint-doc' }, 'A "Checkpoint zip" export (or a zipped CLI run folder) becomes a run here; Resume continues it when it brought its run config and tokenizer.')),
    el('div', { class: 'field' }, el('label', { for: 'import-tasks' }, 'Task file (.jsonl)'), tasksIn,
      el('small', { id: 'import-tasks-doc' }, 'One SWE-bench-style task per line (instance_id, repo, files, test_files, FAIL_TO_PASS, PASS_TO_PASS, patch). Every line is checked; a file with a bad line is refused, each bad line named.')),
    status, error,
    el('h4', {}, 'Imported task sets'), sets,
  );
}
