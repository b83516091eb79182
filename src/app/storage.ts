// This site's storage as the views show it: usage and quota (navigator.storage.estimate), whether the
// browser keeps it persistently, and the request for persistence made when a run starts (only a page
// may ask: StorageManager.persist is not exposed to workers).
import { formatBytes } from '../model/planner.ts';
import { el } from './dom.ts';

/**
 * Ask the browser to keep this site's data under storage pressure: its answer (false where unsupported),
 * or null when it has not answered within `waitMs` (Firefox asks the user, who may take their time; the
 * request stands, and the Live view's storage line shows the outcome).
 */
export async function askPersistence(waitMs = 1500): Promise<boolean | null> {
  const ask = navigator.storage?.persist?.().catch(() => false) ?? Promise.resolve(false);
  return Promise.race([ask, new Promise<null>((r) => setTimeout(() => r(null), waitMs))]);
}

/**
 * A line "Storage: 1.2 MiB used of 10.00 GiB …" (id storage-usage, data-usage / data-quota in bytes),
 * read now and again on each `refresh()` (the live view calls it after every checkpoint).
 */
export function storageUsage(): { element: HTMLElement; refresh: () => Promise<void> } {
  const element = el('p', { id: 'storage-usage', 'aria-live': 'polite' }, 'Storage: reading…');
  const refresh = async () => {
    const s = navigator.storage;
    if (!s?.estimate) {
      element.textContent = 'Storage: this browser does not report its usage (navigator.storage.estimate).';
      return;
    }
    const [{ usage = 0, quota = 0 }, persisted] = await Promise.all([s.estimate(), s.persisted?.().catch(() => false) ?? false]);
    element.dataset.usage = String(usage);
    element.dataset.quota = String(quota);
    element.dataset.persisted = String(persisted);
    element.textContent = `Storage: ${formatBytes(usage)} used of ${formatBytes(quota)} this site may use (${(100 * usage / Math.max(1, quota)).toFixed(1)} %); ` +
      (persisted ? 'persistent (the browser keeps it under storage pressure).' : 'not persistent: the browser may clear it under storage pressure.') +
      ' When it is full a training run pauses at its last checkpoint; delete runs to free space.';
  };
  void refresh().catch(() => (element.textContent = 'Storage: could not be read.'));
  return { element, refresh };
}
