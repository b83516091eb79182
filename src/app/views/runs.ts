// The run list: every run this browser keeps, its status (a run whose page went away mid-training
// is "interrupted"), its last checkpoint, a way to open or resume it, its exports (episodes as ATIF
// JSON or SFT JSONL, the last checkpoint as a zip of its Hugging Face folder), and a choice of two runs
// to compare (#/compare/a/b). Below it, imports of checkpoint zips and task files (imports.ts).
import type { ExportedFile, RunSummary } from '../../../workers/trainer.api.ts';
import { onRunEvent, trainer } from '../client.ts';
import { storageUsage } from '../storage.ts';
import { checkpointWhere, el, errorText, heading, runHref, when } from '../dom.ts';
import { renderImports } from './imports.ts';

const RESUMABLE = new Set(['paused', 'stopped', 'interrupted', 'failed']);

/** Hand a file the worker made to the browser as a download. */
function saveFile(f: ExportedFile): void {
  const url = URL.createObjectURL(f.blob);
  const a = el('a', { href: url, download: f.fileName, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  // The download holds its own reference once it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

interface RowContext {
  refresh: () => void;
  fail: (e: unknown) => void;
  selected: Set<string>;
  selectionChanged: () => void;
}

function exportButton(label: string, aria: string, make: () => Promise<ExportedFile>, ctx: RowContext, disabled = false): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'small', 'aria-label': aria, disabled }, label);
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      saveFile(await make());
    } catch (e) {
      ctx.fail(e);
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

function row(r: RunSummary, ctx: RowContext): HTMLTableRowElement {
  const actions = el('td', { class: 'actions' });
  // A run without its config (an imported checkpoint that came without one) has nothing to resume with.
  if (RESUMABLE.has(r.status) && r.config) {
    const b = el('button', { type: 'button', 'aria-label': `Resume ${r.name}` }, 'Resume');
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        await trainer.resumeRun(r.name);
        location.hash = runHref(r.name);
      } catch (e) {
        ctx.fail(e);
        b.disabled = false;
      }
    });
    actions.append(b, ' ');
  }
  actions.append(
    el('span', { class: 'exports', role: 'group', 'aria-label': `exports of ${r.name}` }, 'Export: ',
      exportButton('ATIF', `Export the episodes of ${r.name} as ATIF JSON`, () => trainer.exportTrajectories(r.name, 'atif'), ctx), ' ',
      exportButton('SFT', `Export the episodes of ${r.name} as SFT JSONL`, () => trainer.exportTrajectories(r.name, 'sft'), ctx), ' ',
      exportButton('Checkpoint zip', `Export the last checkpoint of ${r.name} as a zip`, () => trainer.exportCheckpoint(r.name), ctx, !r.checkpoint)),
  );
  if (!r.live) {
    const d = el('button', { type: 'button', class: 'quiet', 'aria-label': `Delete ${r.name}` }, 'Delete');
    d.addEventListener('click', async () => {
      if (!confirm(`Delete run ${r.name} with its metrics, trajectories and checkpoints?`)) return;
      await trainer.deleteRun(r.name).catch(ctx.fail);
      ctx.selected.delete(r.name);
      ctx.refresh();
    });
    actions.append(' ', d);
  }
  const pick = el('input', { type: 'checkbox', class: 'compare-pick', 'aria-label': `Select ${r.name} to compare`, checked: ctx.selected.has(r.name) });
  pick.addEventListener('change', () => {
    if (pick.checked) ctx.selected.add(r.name);
    else ctx.selected.delete(r.name);
    ctx.selectionChanged();
  });
  const ck = r.checkpoint;
  return el('tr', { 'data-run': r.name },
    el('td', {}, pick),
    el('th', { scope: 'row' }, el('a', { href: runHref(r.name) }, r.name)),
    el('td', {}, el('span', { class: 'status', 'data-status': r.status }, r.status)),
    el('td', {}, r.preset || '–', r.config ? ` · ${r.config['model.preset']} · seed ${r.config.seed}` : ''),
    el('td', {}, when(r.created)),
    el('td', { class: 'checkpoint' }, ck ? checkpointWhere(ck) : 'none'),
    el('td', {}, String(r.metricsCount)),
    actions,
  );
}

export function renderRuns(root: HTMLElement): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const table = el('table', { id: 'runs', 'aria-label': 'runs in this browser' });
  const empty = el('p', { hidden: true }, 'No runs yet. ', el('a', { href: '#/start' }, 'Start the learning run'), ', ', el('a', { href: '#/new' }, 'set one up'), ' or import a checkpoint below.');
  const compare = el('button', { type: 'button', id: 'compare-runs', disabled: true, 'aria-describedby': 'compare-hint' }, 'Compare selected');
  const hint = el('small', { id: 'compare-hint' }, 'Tick two runs to overlay their curves.');
  const selected = new Set<string>();
  const selectionChanged = () => {
    compare.disabled = selected.size !== 2;
    hint.textContent = selected.size === 2 ? `Compare ${[...selected].join(' and ')}.` : `Tick two runs to overlay their curves (${selected.size} ticked).`;
  };
  compare.addEventListener('click', () => {
    const [a, b] = [...selected];
    if (a !== undefined && b !== undefined) location.hash = `#/compare/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
  });
  const fail = (e: unknown) => {
    error.hidden = false;
    error.textContent = errorText(e);
  };
  let closed = false;
  let poll: ReturnType<typeof setTimeout> | undefined;
  // Usage is read again whenever the list is (a deleted or imported run changes it).
  const usage = storageUsage();
  const refresh = async () => {
    clearTimeout(poll);
    void usage.refresh().catch(() => undefined);
    try {
      const runs = await trainer.listRuns();
      if (closed) return;
      for (const name of selected) if (!runs.some((r) => r.name === name)) selected.delete(name);
      const ctx: RowContext = { refresh: () => void refresh(), fail, selected, selectionChanged };
      table.replaceChildren(
        el('tr', {}, ...['compare', 'run', 'status', 'preset · model · seed', 'created', 'last checkpoint', 'metrics rows', ''].map((t) => el('th', { scope: 'col' }, t))),
        ...runs.map((r) => row(r, ctx)),
      );
      selectionChanged();
      table.dataset.count = String(runs.length);
      table.hidden = runs.length === 0;
      empty.hidden = runs.length > 0;
      // A run held by another page (or by a reloaded page's worker that has not let go yet): look again.
      if (runs.some((r) => r.status === 'running' && !r.live)) poll = setTimeout(refresh, 1000);
    } catch (e) {
      fail(e);
    }
  };
  root.append(
    heading('Runs'),
    el('div', { class: 'controls' }, el('a', { href: '#/new', class: 'button' }, 'New run'), compare, hint),
    // The table scrolls sideways in its own box on a narrow window: its Delete buttons never fall off the page.
    error, el('div', { class: 'table-scroll' }, table), empty,
    renderImports(() => void refresh()),
    usage.element,
  );
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
