// Live run: status, progress and ETA, pause / resume / stop, the last checkpoint, the curves (charts.ts)
// and the evaluation table, all updated as the worker's events arrive. Opening a run that was
// training when its page went away shows it as interrupted, resumable from its last checkpoint. A run
// that paused by itself (a full store, a lost GPU device) says why and what to do; the site's storage
// usage is shown and re-read after each checkpoint.
import type { Progress } from '../../rl/phases.ts';
import type { MetricRecord } from '../../store/types.ts';
import type { RunEvent, RunSummary } from '../../../workers/trainer.api.ts';
import { RunCharts } from '../charts.ts';
import { onRunEvent, trainer } from '../client.ts';
import { checkpointWhere, duration, el, errorText, heading, num, runHref, when } from '../dom.ts';
import { storageUsage } from '../storage.ts';
import { nowPlaying } from './now-playing.ts';
import { Countdown, RunEta } from '../run-eta.ts';
import { gainText, phaseGains } from '../../rl/gains.ts';

/** Stage ETA from the rate since the stage began. */
class Eta {
  private key = '';
  private t0 = 0;
  private d0 = 0;
  seconds(p: Progress, at: number): number | null {
    const key = `${p.phase}/${p.stage}/${p.total}`;
    if (key !== this.key || p.done < this.d0) {
      this.key = key;
      this.t0 = at;
      this.d0 = p.done;
      return null;
    }
    const rate = (p.done - this.d0) / Math.max(1e-3, (at - this.t0) / 1000);
    return rate > 0 ? (p.total - p.done) / rate : null;
  }
}

const RESUMABLE = new Set(['paused', 'stopped', 'interrupted', 'failed']);

const where = checkpointWhere;

export function renderLive(root: HTMLElement, name: string): () => void {
  const h = heading(`Run ${name}`);
  const status = el('span', { id: 'run-status', class: 'status', 'data-status': 'loading' }, 'loading…');
  const meta = el('span', { id: 'run-meta' });
  const pause = el('button', { type: 'button', id: 'pause-run', disabled: true }, 'Pause');
  const resume = el('button', { type: 'button', id: 'resume-run', disabled: true }, 'Resume');
  const stop = el('button', { type: 'button', id: 'stop-run', disabled: true }, 'Stop');
  const bar = el('progress', { id: 'run-progress', 'aria-labelledby': 'progress-text', max: 1, value: 0 });
  const runBar = el('progress', { id: 'run-total-progress', 'aria-labelledby': 'run-eta', max: 1, value: 0 });
  const progressText = el('p', { id: 'progress-text' }, 'no progress yet');
  const eta = el('p', { id: 'run-eta' });
  const log = el('p', { id: 'run-log', 'aria-live': 'polite' });
  const error = el('div', { id: 'run-error', class: 'error', role: 'alert', hidden: true });
  const checkpoint = el('p', { id: 'run-checkpoint', 'data-phase': '' }, 'No checkpoint yet.');
  const resumed = el('p', { id: 'run-resumed', hidden: true });
  const count = el('p', { id: 'metric-count', 'data-count': 0 }, '0 metrics rows');
  const results = el('table', { id: 'run-results', 'aria-label': 'evaluation after each phase' });
  const shared = el('p', { id: 'run-shared', hidden: true });
  const charts = new RunCharts();
  const playing = nowPlaying();
  const storage = storageUsage();
  root.append(
    h,
    el('p', {}, status, ' ', meta),
    el('div', { class: 'controls', role: 'group', 'aria-label': 'run controls' }, pause, resume, stop, el('a', { href: runHref(name, 'trajectories'), id: 'open-trajectories' }, 'Trajectories')),
    error,
    el('section', { 'aria-labelledby': 'progress-heading' }, el('h3', { id: 'progress-heading' }, 'Progress'), runBar, eta, bar, progressText, log, resumed, checkpoint, storage.element),
    playing.element,
    el('section', { 'aria-labelledby': 'curves-heading' }, el('h3', { id: 'curves-heading' }, 'Curves'), count, shared, charts.element),
    el('section', { 'aria-labelledby': 'results-heading' }, el('h3', { id: 'results-heading' }, 'Evaluation'), results),
  );

  let run: RunSummary | null = null;
  let rows: MetricRecord[] = [];
  const etaOf = new Eta();
  const runEtaOf = new RunEta(() => run?.config ?? undefined, () => run?.rates ?? undefined);
  const countdown = new Countdown();
  let closed = false;
  let poll: ReturnType<typeof setTimeout> | undefined;

  /** A run another page holds (or held: a reloaded page's worker may take a moment to let go) is re-read until that settles. */
  const recheck = () => {
    clearTimeout(poll);
    if (closed || !run || run.live || run.status !== 'running') return;
    poll = setTimeout(async () => {
      const r = await trainer.getRun(name).catch(() => null);
      if (closed || !r || run?.live) return;
      run = r;
      renderStatus();
      recheck();
    }, 1000);
  };

  const renderStatus = () => {
    if (!run) return;
    const s = run.status;
    status.dataset.status = s;
    status.textContent = s === 'running' && !run.live ? 'running in another tab' : s;
    const cfg = run.config;
    meta.textContent = [run.preset ? `preset ${run.preset}` : 'no preset', cfg ? `model ${cfg['model.preset']}` : '', cfg ? `seed ${cfg.seed}` : '', run.backend ? `backend ${run.backend}` : '', `created ${when(run.created)}`].filter(Boolean).join(' · ');
    pause.disabled = stop.disabled = !(s === 'running' && run.live);
    resume.disabled = !RESUMABLE.has(s);
    // A paused run with an error paused by itself (QuotaExceededError, GpuDeviceLostError): say why.
    const why = run.error && (s === 'failed' || s === 'paused') ? run.error : null;
    error.hidden = !why;
    error.dataset.reason = why?.name ?? '';
    if (why) error.textContent = s === 'failed' ? `The run failed: ${why.name}: ${why.message}` : `The run paused: ${why.message}`;
    const ck = run.checkpoint;
    if (ck) {
      checkpoint.dataset.phase = ck.phase;
      checkpoint.dataset.step = String(ck.step);
      checkpoint.textContent = `Last checkpoint: ${where(ck)} (phases done: ${ck.done.join(', ') || 'none'}; ${ck.metricsCount} metrics rows; ${(ck.bytes / 1024).toFixed(0)} KiB), ${when(ck.at)}.`;
    }
    if (s !== 'running') {
      // The request's "…ing" line gives way to what happened once the run has stopped or paused.
      if (log.dataset.pending) {
        log.textContent = s === 'paused' ? 'Paused.' : s === 'stopped' ? 'Stopped.' : '';
        delete log.dataset.pending;
      }
      bar.max = 1;
      bar.value = s === 'done' ? 1 : 0;
      if (s === 'done') runBar.value = 1;
      progressText.textContent = s === 'done' ? '' : 'Not training.';
      eta.textContent = s === 'done' ? 'Finished.' : RESUMABLE.has(s) ? `Resume continues from ${ck ? `the checkpoint ${where(ck)}` : 'the start (no checkpoint yet)'}.` : '';
    }
  };

  const renderRows = () => {
    count.dataset.count = String(rows.length);
    count.textContent = `${rows.length} metrics rows`;
    const evals = rows.filter((r) => r.phase.startsWith('eval-'));
    results.replaceChildren(el('tr', {}, el('th', { scope: 'col' }, 'after phase'), el('th', { scope: 'col' }, 'pass@1 (mean ± std)'), el('th', { scope: 'col' }, 'pass@K'), el('th', { scope: 'col' }, 'gain (bar: 2 × the larger std)')));
    const gains = phaseGains(evals.map((r) => ({ phase: r.phase, 'pass@1': r.values['pass@1']!, 'pass@1_std': r.values['pass@1_std']! })));
    evals.forEach((r, i) => {
      const step = i > 0 ? gainText(gains[i - 1]!) : '';
      results.append(el('tr', {}, el('td', {}, r.phase.slice(5)), el('td', {}, `${num(100 * r.values['pass@1']!)} % ± ${num(100 * r.values['pass@1_std']!)} %`), el('td', {}, `${num(100 * r.values['pass@k']!)} %`), el('td', {}, step)));
    });
    if (!evals.length) results.append(el('tr', {}, el('td', { colspan: 4 }, 'no phase has finished yet')));
    // A shared run (docs/sharing.md): what contributors delivered, and what this learner refused and why.
    const dist = rows.filter((r) => r.values.dist_accepted !== undefined);
    shared.hidden = !dist.length;
    if (dist.length) {
      const total = (k: string) => dist.reduce((a, r) => a + (r.values[k] ?? 0), 0);
      const reasons = [...new Set(dist.flatMap((r) => Object.keys(r.values).filter((k) => k.startsWith('dist_rejected_'))))].map((k) => `${k.slice(14).replace(/_/g, ' ')} ${total(k)}`);
      shared.dataset.accepted = String(total('dist_accepted'));
      shared.dataset.rejected = String(total('dist_rejected'));
      shared.textContent = `Shared run: ${total('dist_accepted')} groups from contributors accepted after verification, ${total('dist_rejected')} results rejected${reasons.length ? ` (${reasons.join(', ')})` : ''}, ${total('dist_played_by_learner')} groups played here.`;
    }
  };

  const reloadRows = async () => {
    rows = await trainer.readMetrics(name);
    charts.setRows(rows);
    renderRows();
  };

  const showProgress = (p: Progress, at: number) => {
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    const phases = String(run?.config?.['run.phases'] ?? '').split(',').map((s) => s.trim());
    const k = phases.indexOf(p.phase);
    progressText.textContent = `${p.phase}${k >= 0 ? ` (phase ${k + 1} of ${phases.length})` : ''} · ${p.stage}: ${p.done} / ${p.total}`;
    const s = etaOf.seconds(p, at), estimate = runEtaOf.seconds(p, at);
    const whole = estimate === null ? null : countdown.update(estimate, at);
    runBar.value = runEtaOf.fraction;
    eta.dataset.runSeconds = whole === null ? '' : String(Math.round(whole));
    eta.textContent = whole !== null ? `About ${duration(whole)} left in the run${s !== null ? ` (${duration(s)} in this stage)` : ''}.`
      : s === null ? 'Estimating the time left…' : `About ${duration(s)} left in this stage; the whole run's time left follows once its pace is known.`;
  };

  // The view may mount after the worker announced the run's backend: re-read the record once then.
  let refreshing = false;
  const refreshRecord = async () => {
    refreshing = true;
    const r = await trainer.getRun(name).catch(() => null);
    if (r && run && !closed) {
      run.backend ??= r.backend;
      renderStatus();
    }
  };
  // Events that arrive before the first read of the record lands are not lost: the record is read again after it.
  let missed = false;
  let statusEvents = 0;
  const onEvent = (e: RunEvent) => {
    if (e.run !== name || closed) return;
    if (!run && e.type !== 'metrics' && e.type !== 'progress') missed = true;
    if (run && !run.backend && !refreshing && e.type !== 'status') void refreshRecord();
    if (e.type === 'turn' || e.type === 'episode-end') playing.onEvent(e);
    else if (e.type === 'metrics') {
      if (charts.append(e.rows, e.from)) {
        rows.push(...e.rows);
        renderRows();
      } else void reloadRows();
    } else if (e.type === 'progress') showProgress(e.progress, e.at);
    else if (e.type === 'log') log.textContent = e.message;
    else if (e.type === 'checkpoint' && run) {
      run.checkpoint = e.checkpoint;
      renderStatus();
      void storage.refresh().catch(() => {});
    } else if (e.type === 'status' && run) {
      statusEvents++;
      run.status = e.status;
      run.live = e.status === 'running';
      runEtaOf.reset();
      countdown.reset();
      if (e.backend) run.backend = e.backend;
      if (e.error) run.error = e.error;
      else if (e.status === 'running') delete run.error;
      if (e.status !== 'running') void storage.refresh().catch(() => {});
      if (e.resumedFrom) {
        resumed.hidden = false;
        resumed.dataset.phase = e.resumedFrom.phase;
        resumed.textContent = `Resumed from the checkpoint ${where(e.resumedFrom)}.`;
      }
      renderStatus();
    }
  };
  const unsubscribe = onRunEvent(onEvent);

  const act = (button: HTMLButtonElement, f: () => Promise<unknown>) =>
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await f();
      } catch (e) {
        error.hidden = false;
        error.textContent = errorText(e);
      }
    });
  act(pause, async () => {
    log.dataset.pending = 'pause';
    log.textContent = 'Pausing after the current turn…';
    await trainer.pauseRun();
  });
  act(stop, async () => {
    log.dataset.pending = 'stop';
    log.textContent = 'Stopping after the current turn…';
    await trainer.stopRun();
  });
  act(resume, async () => {
    error.hidden = true;
    const seen = statusEvents;
    const r = await trainer.resumeRun(name);
    if (r && run && statusEvents !== seen) {
      // Status events that arrived while the call was in flight are newer than its answer.
      r.status = run.status;
      r.live = run.live;
      if (run.error) r.error = run.error;
      else delete r.error;
    } else delete r.error; // starting again: the old pause reason no longer applies
    run = r ?? run;
    await reloadRows();
    renderStatus();
  });

  void (async () => {
    try {
      run = await trainer.getRun(name);
      if (closed) return;
      if (!run) {
        status.textContent = 'not found';
        status.dataset.status = 'missing';
        error.hidden = false;
        error.textContent = `This browser has no run named "${name}".`;
        return;
      }
      renderStatus();
      if (missed) {
        // The worker writes the record before it announces a change, so this read includes what was missed.
        const again = await trainer.getRun(name);
        if (closed) return;
        if (again && run) {
          // Keep the newer checkpoint should one be announced while this read was in flight.
          if (run.checkpoint && (!again.checkpoint || again.checkpoint.at < run.checkpoint.at)) again.checkpoint = run.checkpoint;
          run = again;
        }
        renderStatus();
      }
      recheck();
      await reloadRows();
      const now = await trainer.activeRun();
      if (now.run === name && now.progress) showProgress(now.progress, Date.now());
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
    }
  })();

  return () => {
    closed = true;
    clearTimeout(poll);
    unsubscribe();
    playing.destroy();
    charts.destroy();
  };
}
