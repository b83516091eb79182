// The page: a hash router over the views (start: the first screen; runs, new run, live run, trajectories, tasks, compare, model) and the WebGPU
// section the trainer worker reports. Exposes the worker API as `window.webswe` for the browser tests.
import { ENABLE_WEBGPU_HELP } from '../gpu/adapter.browser.ts';
import type { FileMap, Sandbox, SandboxOptions } from '../sandbox/types.ts';
import type { WebContainerApi } from '../sandbox/webcontainer.browser.ts';
import { trainer } from './client.ts';
import { el } from './dom.ts';
import { renderGpuInfo } from './gpu-info.ts';
import { renderLive } from './views/live.ts';
import { renderNewRun } from './views/new-run.ts';
import { renderRuns } from './views/runs.ts';
import { renderStart } from './views/start.ts';
import { renderCompare } from './views/compare.ts';
import { renderContribute } from './views/contribute.ts';
import { renderModel } from './views/model.ts';
import { renderTask, renderTaskList } from './views/tasks.ts';
import { renderEpisode, renderSteps } from './views/trajectories.ts';

/**
 * The browser sandboxes by name, loaded on first use: `await webswe.sandboxes.worker(files)` gives a
 * Sandbox (src/sandbox/types.ts) in this page. The browser tests and `webswe bench sandbox` drive them
 * through this hook; keep it when the UI is rebuilt.
 */
const sandboxes = {
  worker: async (files: FileMap, options?: SandboxOptions): Promise<Sandbox> => (await import('../sandbox/worker.browser.ts')).createWorkerSandbox(files, options),
  webcontainer: async (files: FileMap, options?: SandboxOptions): Promise<Sandbox> => (await import('../sandbox/webcontainer.browser.ts')).createWebContainerSandbox(files, options),
};
/** The IndexedDB run store module, loaded on first use (the browser tests check it from the page). */
const idb = () => import('../store/idb.browser.ts');
/**
 * Test-only: boot this page's WebContainers (the `webcontainer` sandboxes above and those of training runs)
 * from a stand-in for @webcontainer/api's `WebContainer` (an object with `boot()`), since the browser tier
 * cannot reach stackblitz.com; null goes back to the real one (test/browser/webcontainer-run.test.ts).
 */
const useWebContainerApi = async (api: WebContainerApi | null): Promise<void> => (await import('../sandbox/webcontainer.browser.ts')).useWebContainerApi(api);
(window as unknown as { webswe: unknown }).webswe = { trainer, sandboxes, idb, useWebContainerApi };

type View = (root: HTMLElement) => () => void;

/** '#/run/a%2Fb/trajectories/dapo/3' → the view that renders it. */
function route(hash: string): { view: View; nav: string } {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || parts[0] === 'start') return { view: renderStart, nav: 'start' };
  if (parts[0] === 'new') return { view: renderNewRun, nav: 'new' };
  if (parts[0]?.startsWith('contribute')) return { view: renderContribute, nav: 'contribute' };
  if (parts[0] === 'model') return { view: renderModel, nav: 'model' };
  if (parts[0] === 'tasks') {
    const [set, id] = [parts[1], parts[2]];
    return { view: set !== undefined && id !== undefined ? (r) => renderTask(r, set, id) : (r) => renderTaskList(r, set), nav: 'tasks' };
  }
  if (parts[0] === 'compare' && parts[1] !== undefined && parts[2] !== undefined) {
    const [a, b] = [parts[1], parts[2]];
    return { view: (r) => renderCompare(r, a, b), nav: 'runs' };
  }
  if (parts[0] === 'run' && parts[1] !== undefined) {
    const name = parts[1];
    if (parts[2] === 'trajectories') {
      const [phase, step, index] = parts.slice(3);
      if (phase !== undefined && step !== undefined && index !== undefined) return { view: (r) => renderEpisode(r, name, phase, Number(step), Number(index)), nav: 'runs' };
      return { view: (r) => renderSteps(r, name, phase, step === undefined ? undefined : Number(step)), nav: 'runs' };
    }
    return { view: (r) => renderLive(r, name), nav: 'runs' };
  }
  return { view: renderRuns, nav: 'runs' };
}

function start(): void {
  const root = document.getElementById('app')!;
  const nav = el('nav', { 'aria-label': 'main' },
    el('a', { href: '#/start', 'data-nav': 'start' }, 'Start'), ' ',
    el('a', { href: '#/runs', 'data-nav': 'runs' }, 'Runs'), ' ',
    el('a', { href: '#/new', 'data-nav': 'new' }, 'New run'), ' ',
    el('a', { href: '#/tasks', 'data-nav': 'tasks' }, 'Tasks'), ' ',
    el('a', { href: '#/model', 'data-nav': 'model' }, 'Model'), ' ',
    el('a', { href: '#/contribute', 'data-nav': 'contribute' }, 'Contribute'));
  const view = el('div', { id: 'view' });
  const gpu = el('aside', { id: 'gpu-slot', 'aria-label': 'WebGPU' }, el('p', { id: 'status' }, 'Asking the trainer worker for a WebGPU device…'));
  root.append(nav, view, gpu);
  if (!('gpu' in navigator)) gpu.append(el('p', {}, `Page: ${ENABLE_WEBGPU_HELP}`));

  let cleanup = () => {};
  let first = true;
  const show = () => {
    cleanup();
    view.replaceChildren();
    const r = route(location.hash);
    for (const a of nav.querySelectorAll('a')) a.toggleAttribute('aria-current', a.dataset.nav === r.nav);
    cleanup = r.view(view);
    // Move focus to the new view's heading (not on first load: the page starts at its top).
    if (!first) view.querySelector<HTMLElement>('.view-heading')?.focus();
    first = false;
  };
  addEventListener('hashchange', show);
  show();

  void trainer.probe().then((info) => {
    document.getElementById('status')?.remove();
    gpu.append(renderGpuInfo(info));
  });
}

start();
