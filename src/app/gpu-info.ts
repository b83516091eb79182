// The WebGPU section: the adapter the trainer worker obtained, its limits and features, or how to
// enable WebGPU. Shown on every view (the browser tests read #gpu).
import { ENABLE_WEBGPU_HELP } from '../gpu/adapter.browser.ts';
import type { WorkerGpuInfo } from '../../workers/trainer.api.ts';
import { el } from './dom.ts';

export function renderGpuInfo(info: WorkerGpuInfo): HTMLElement {
  const section = el('section', { id: 'gpu', 'data-status': info.ok ? 'ready' : 'unavailable', 'aria-live': 'polite', 'aria-labelledby': 'gpu-heading' });
  if (!info.ok) {
    section.append(el('h2', { id: 'gpu-heading' }, 'No WebGPU'), el('p', { id: 'gpu-help' }, info.reason ?? ENABLE_WEBGPU_HELP), el('p', {}, 'Runs train on the CPU backend.'));
    return section;
  }
  const a = info.adapter!;
  section.append(
    el('h2', { id: 'gpu-heading' }, 'WebGPU adapter (trainer worker)'),
    el('p', { id: 'gpu-adapter' }, `${a.vendor || 'unknown vendor'} · ${a.architecture || 'unknown architecture'}${a.description ? ` · ${a.description}` : ''}${a.isFallbackAdapter ? ' · software fallback (runs train on the faster CPU backend)' : ''}`),
    el('p', {}, `features: ${info.features!.join(', ') || 'none'}`),
  );
  const table = el('table', { 'aria-label': 'adapter limits' });
  for (const k of ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup']) {
    table.append(el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, String(info.limits![k]))));
  }
  section.append(table);
  return section;
}
