// The run list: every run this browser keeps, its status (a run whose page went away mid-training
// is "interrupted"), its last checkpoint, and a way to open or resume it.
import type { RunSummary } from '../../../workers/trainer.api.ts';
import { onRunEvent, trainer } from '../client.ts';
import { el, errorText, heading, runHref, when } from '../dom.ts';

const RESUMABLE = new Set(['paused', 'stopped', 'interrupted', 'failed']);

function row(r: RunSummary, refresh: () => void, error: HTMLElement): HTMLTableRowElement {
  const actions = el('td', {});
  if (RESUMABLE.has(r.status)) {
    const b = el('button', { type: 'button', 'aria-label': `Resume ${r.name}` }, 'Resume');
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        await trainer.resumeRun(r.name);
        location.hash = runHref(r.name);
      } catch (e) {
        error.hidden = false;
        error.textContent = errorText(e);
        b.disabled = false;
      }
    });
    actions.append(b);
  }
  if (!r.live) {
    const d = el('button', { type: 'button', class: 'quiet', 'aria-label': `Delete ${r.name}` }, 'Delete');
    d.addEventListener('click', async () => {
      if (!confirm(`Delete run ${r.name} with its metrics, trajectories and checkpoints?`)) return;
      await trainer.deleteRun(r.name).catch((e) => ((error.hidden = false), (error.textContent = errorText(e))));
      refresh();
    });
    actions.append(' ', d);
  }
  const ck = r.checkpoint;
  return el('tr', { 'data-run': r.name },
    el('th', { scope: 'row' }, el('a', { href: runHref(r.name) }, r.name)),
    el('td', {}, el('span', { class: 'status', 'data-status': r.status }, r.status)),
    el('td', {}, r.preset || '–', r.config ? ` · ${r.config['model.preset']} · seed ${r.config.seed}` : ''),
    el('td', {}, when(r.created)),
    el('td', {}, ck ? `${ck.phase} step ${ck.step}` : 'none'),
    el('td', {}, String(r.metricsCount)),
    actions,
  );
}

export function renderRuns(root: HTMLElement): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const table = el('table', { id: 'runs', 'aria-label': 'runs in this browser' });
  const empty = el('p', { hidden: true }, 'No runs yet. ', el('a', { href: '#/new' }, 'Start one'), '.');
  root.append(heading('Runs'), el('p', {}, el('a', { href: '#/new', class: 'button' }, 'New run')), error, table, empty);
  let closed = false;
  let poll: ReturnType<typeof setTimeout> | undefined;
  const refresh = async () => {
    clearTimeout(poll);
    try {
      const runs = await trainer.listRuns();
      if (closed) return;
      table.replaceChildren(
        el('tr', {}, ...['run', 'status', 'preset · model · seed', 'created', 'last checkpoint', 'metrics rows', ''].map((t) => el('th', { scope: 'col' }, t))),
        ...runs.map((r) => row(r, refresh, error)),
      );
      table.hidden = runs.length === 0;
      empty.hidden = runs.length > 0;
      // A run held by another page (or by a reloaded page's worker that has not let go yet): look again.
      if (runs.some((r) => r.status === 'running' && !r.live)) poll = setTimeout(refresh, 1000);
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
    }
  };
  const unsubscribe = onRunEvent((e) => {
    if (e.type === 'status' || e.type === 'checkpoint') void refresh();
  });
  void refresh();
  return () => {
    closed = true;
    clearTimeout(poll);
    unsubscribe();
  };
}
