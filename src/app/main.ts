// The page: for now, what WebGPU this browser offers (in the page and in the trainer worker), or
// how to enable it. Exposes the worker API as `window.webswe` for the browser tests.
import * as Comlink from 'comlink';
import { ENABLE_WEBGPU_HELP } from '../gpu/adapter.browser.ts';
import type { TrainerApi, WorkerGpuInfo } from '../../workers/trainer.api.ts';

const worker = new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
const trainer = Comlink.wrap<TrainerApi>(worker);
(window as unknown as { webswe: unknown }).webswe = { trainer };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function renderInfo(info: WorkerGpuInfo): HTMLElement {
  const section = el('section', undefined, { id: 'gpu', 'data-status': info.ok ? 'ready' : 'unavailable', 'aria-live': 'polite' });
  if (!info.ok) {
    section.append(el('h2', 'No WebGPU'), el('p', info.reason ?? ENABLE_WEBGPU_HELP, { id: 'gpu-help' }));
    return section;
  }
  const a = info.adapter!;
  section.append(
    el('h2', 'WebGPU adapter (trainer worker)'),
    el('p', `${a.vendor || 'unknown vendor'} · ${a.architecture || 'unknown architecture'}${a.description ? ` · ${a.description}` : ''}${a.isFallbackAdapter ? ' · software fallback' : ''}`, { id: 'gpu-adapter' }),
    el('p', `features: ${info.features!.join(', ') || 'none'}`),
  );
  const table = el('table', undefined, { 'aria-label': 'adapter limits' });
  for (const k of ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup']) {
    const tr = el('tr');
    tr.append(el('th', k, { scope: 'row' }), el('td', String(info.limits![k])));
    table.append(tr);
  }
  section.append(table);
  return section;
}

async function start(): Promise<void> {
  const root = document.getElementById('app')!;
  const status = el('p', 'Asking the trainer worker for a WebGPU device…', { id: 'status' });
  root.append(status);
  if (!('gpu' in navigator)) root.append(el('p', `Page: ${ENABLE_WEBGPU_HELP}`));
  const info = await trainer.probe();
  status.remove();
  root.append(renderInfo(info));
}

void start();
