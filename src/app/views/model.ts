// Model: load a pretrained Llama / Qwen2 / Qwen3 model by Hugging Face Hub id or from local files. The
// trainer worker downloads (progress per file and overall, cancellable), checks (config fields, tokenizer,
// safetensors headers against the config) and caches it in IndexedDB (workers/models.ts); this view shows
// the progress, the one-line reason of a refusal, the model's summary and memory plan on this adapter
// (model-report.ts), the cached models with their sizes, a delete button and the site's storage use, and what
// a DAPO iteration of the paper's setting costs here (iteration-price.ts).
import * as Comlink from 'comlink';
import type { CachedModelInfo, ModelLoadProgress, ModelReport } from '../../../workers/models.api.ts';
import { ENABLE_WEBGPU_HELP } from '../../gpu/adapter.browser.ts';
import { formatBytes } from '../../model/planner.ts';
import { trainer } from '../client.ts';
import { el, errorText, heading, when } from '../dom.ts';
import { storageUsage } from '../storage.ts';
import { iterationPriceSection } from './iteration-price.ts';
import { paramText, renderModelReport } from './model-report.ts';

/** A picked folder's name (the first part of webkitRelativePath) as a cache name. */
const folderName = (files: readonly File[]) => (files[0]?.webkitRelativePath.split('/')[0] ?? '').replace(/[^\w.-]+/g, '-').slice(0, 100);

function progressList(p: ModelLoadProgress): HTMLElement {
  return el('ul', { id: 'progress-files', class: 'files' }, ...p.files.map((f) => {
    // Missing: no bar; waiting: an empty one; loading without a size yet: an indeterminate one (no value).
    const bar = f.state === 'missing' || f.state === 'skipped' ? el('span', {}) : el('progress', { 'aria-label': f.name, max: f.total ?? (f.state === 'waiting' ? 1 : undefined) });
    if (bar instanceof HTMLProgressElement && (f.total !== undefined || f.state === 'waiting')) bar.value = f.loaded;
    const what = f.state === 'missing' ? 'not in the repository (optional)' : f.state === 'skipped' ? 'left out: not a model file' : f.state === 'waiting' ? 'not fetched yet'
      : `${formatBytes(f.loaded)}${f.total !== undefined ? ` of ${formatBytes(f.total)}` : ''}${f.state === 'done' ? ', done' : ''}`;
    return el('li', { 'data-file': f.name, 'data-state': f.state, 'data-loaded': f.loaded, 'data-total': f.total }, el('code', {}, f.name), bar, el('small', {}, what));
  }));
}

export function renderModel(root: HTMLElement): () => void {
  let alive = true;
  const h = heading('Model');
  const gpuNote = el('div', { id: 'model-gpu', 'aria-live': 'polite' });

  const hubIn = el('input', { id: 'hub-id', name: 'hub-id', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'Qwen/Qwen2.5-0.5B-Instruct', 'aria-describedby': 'hub-id-doc', size: 40 });
  const downloadBtn = el('button', { type: 'submit', id: 'hub-load' }, 'Download');
  const cancelBtn = el('button', { type: 'button', id: 'load-cancel', disabled: true }, 'Cancel');
  const hubForm = el('form', { id: 'hub-form', 'aria-labelledby': 'hub-heading' },
    el('h3', { id: 'hub-heading' }, 'From the Hugging Face Hub'),
    el('div', { class: 'field' }, el('label', { for: 'hub-id' }, 'Model id (owner/name)'), hubIn,
      el('small', { id: 'hub-id-doc' }, 'Fetches config.json, tokenizer.json, tokenizer_config.json and model.safetensors (or its index and shards) from huggingface.co/<id>/resolve/main/. A cached model loads without the network.')),
    el('div', { class: 'controls' }, downloadBtn, cancelBtn));

  const nameIn = el('input', { id: 'local-name', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'the folder name', 'aria-describedby': 'local-name-doc' });
  const filesIn = el('input', { id: 'model-files', type: 'file', multiple: true, accept: '.json,.safetensors,.jinja', 'aria-describedby': 'model-files-doc' });
  const folderIn = el('input', { id: 'model-folder', type: 'file', webkitdirectory: true, 'aria-describedby': 'model-files-doc' });
  const localForm = el('form', { id: 'files-form', 'aria-labelledby': 'files-heading' },
    el('h3', { id: 'files-heading' }, 'From files on this computer'),
    el('div', { class: 'field' }, el('label', { for: 'local-name' }, 'Name in the cache (optional, before choosing)'), nameIn,
      el('small', { id: 'local-name-doc' }, 'Kept as local/<name>; letters, digits, ".", "_", "-". Empty: the folder name, else "model".')),
    el('div', { class: 'field' }, el('label', { for: 'model-files' }, 'Model files'), filesIn),
    el('div', { class: 'field' }, el('label', { for: 'model-folder' }, 'or a model folder'), folderIn,
      el('small', { id: 'model-files-doc' }, 'config.json, tokenizer.json, tokenizer_config.json and model.safetensors (or model.safetensors.index.json and its shards); other files are left out.')));

  const status = el('p', { id: 'load-status', role: 'status' });
  const overall = el('progress', { id: 'progress-overall' });
  const overallText = el('span', { id: 'progress-overall-text' });
  const filesBox = el('div', { id: 'progress-files-box' });
  const progress = el('section', { id: 'load-progress', 'aria-labelledby': 'load-heading', 'data-state': 'idle', hidden: true },
    el('h3', { id: 'load-heading' }, 'Progress'), status,
    el('div', { class: 'field' }, el('label', { for: 'progress-overall' }, 'Overall'), overall, overallText), filesBox);
  const error = el('div', { id: 'load-error', class: 'error', role: 'alert', hidden: true });
  const summary = el('div', { id: 'model-report' });
  const cache = el('table', { id: 'model-cache', 'aria-label': 'cached models' });
  const storage = storageUsage();

  const showProgress = (p: ModelLoadProgress) => {
    if (!alive) return;
    status.textContent = p.message;
    overall.max = Math.max(1, p.total);
    overall.value = p.loaded;
    overall.dataset.loaded = String(p.loaded);
    overall.dataset.total = String(p.total);
    overallText.textContent = ` ${formatBytes(p.loaded)} of ${formatBytes(p.total)}`;
    filesBox.replaceChildren(progressList(p));
  };

  let busy = false;
  let loads = 0;
  const setBusy = (b: boolean) => {
    busy = b;
    for (const c of [hubIn, downloadBtn, nameIn, filesIn, folderIn]) c.disabled = b;
    cancelBtn.disabled = !b;
  };
  /** Runs one load (or a cached model's description) with its progress; `failed` is the status line of a failure. */
  const load = async (what: string, run: (listener: (p: ModelLoadProgress) => void) => Promise<ModelReport>, failed = `Not loaded: ${what} was not stored (the reason is below).`) => {
    if (busy) return;
    setBusy(true);
    error.hidden = true;
    progress.hidden = false;
    progress.dataset.state = 'loading';
    progress.dataset.load = String(++loads); // which load the state is of (the tests wait on it)
    status.textContent = `Loading ${what}…`;
    overall.removeAttribute('value');
    overallText.textContent = '';
    filesBox.replaceChildren();
    summary.replaceChildren(); // the previous model's account would read as this load's
    try {
      const r = await run(Comlink.proxy(showProgress));
      if (!alive) return;
      progress.dataset.state = 'done';
      status.textContent = r.fromCache ? `${r.model.id} is cached: loaded without the network.` : `${r.model.id}: checked and cached (${formatBytes(r.model.bytes)}).`;
      showReport(r);
      await showCache();
    } catch (e) {
      if (!alive) return;
      const cancelled = (e as Error).name === 'AbortError';
      progress.dataset.state = cancelled ? 'cancelled' : 'failed';
      status.textContent = cancelled ? 'Cancelled: nothing was stored.' : failed;
      if (!cancelled) {
        error.hidden = false;
        error.textContent = errorText(e).replace(/^ModelFileError: /, '');
      }
    } finally {
      if (alive) setBusy(false);
    }
  };

  const showReport = (r: ModelReport) => summary.replaceChildren(renderModelReport(r));

  const showCache = async () => {
    const list = await trainer.listModels();
    if (!alive) return;
    cache.dataset.count = String(list.length);
    cache.replaceChildren(el('tr', {}, ...['model', 'source', 'size', 'shape', 'model.preset', 'cached', ''].map((t) => el('th', { scope: 'col' }, t))), ...list.map(cacheRow));
    if (!list.length) cache.append(el('tr', {}, el('td', { colspan: 7 }, 'No model cached yet.')));
    await storage.refresh();
  };
  const cacheRow = (m: CachedModelInfo) => {
    const show = el('button', { type: 'button', class: 'small', 'aria-label': `Show ${m.id}` }, 'Show');
    const del = el('button', { type: 'button', class: 'small quiet', 'aria-label': `Delete ${m.id}` }, 'Delete');
    show.addEventListener('click', () => load(m.id, () => trainer.describeModel(m.id), `${m.id} no longer loads from the cache: delete it and load it again (the reason is below).`));
    del.addEventListener('click', async () => {
      if (!confirm(`Delete ${m.id} (${formatBytes(m.bytes)}) from this browser? Runs that name ${m.path} can no longer start.`)) return;
      try {
        await trainer.deleteModel(m.id);
        if (summary.querySelector(`[data-model="${CSS.escape(m.id)}"]`)) summary.replaceChildren();
        await showCache();
      } catch (e) {
        error.hidden = false;
        error.textContent = errorText(e);
      }
    });
    const s = m.summary;
    return el('tr', { 'data-model': m.id, 'data-bytes': m.bytes },
      el('th', { scope: 'row' }, m.id), el('td', {}, m.source === 'hub' ? 'Hub' : 'files'), el('td', {}, formatBytes(m.bytes)),
      el('td', {}, `${s.modelType}, ${paramText(s.params)} parameters, ${s.dtypes.join('/')}`), el('td', {}, el('code', {}, m.path)),
      el('td', {}, when(m.created)), el('td', { class: 'actions' }, show, ' ', del));
  };

  hubForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const id = hubIn.value.trim();
    if (!id) {
      error.hidden = false;
      error.textContent = 'Write a Hub model id (owner/name), e.g. Qwen/Qwen2.5-0.5B-Instruct.';
      hubIn.focus();
      return;
    }
    void load(id, (listener) => trainer.loadHubModel(id, listener));
  });
  cancelBtn.addEventListener('click', () => void trainer.cancelModelLoad());
  localForm.addEventListener('submit', (ev) => ev.preventDefault());
  for (const input of [filesIn, folderIn]) {
    input.addEventListener('change', async () => {
      const picked = [...(input.files ?? [])];
      if (!picked.length) return;
      const name = nameIn.value.trim() || folderName(picked) || 'model';
      await load(`local/${name}`, (listener) => trainer.importModelFiles(picked, name, listener));
      input.value = '';
    });
  }

  void trainer.probe().then((g) => {
    if (!alive) return;
    if (!g.ok) {
      const reason = g.reason ?? '';
      gpuNote.className = 'error';
      gpuNote.dataset.status = 'unavailable';
      gpuNote.textContent = `Pretrained models need WebGPU, and the trainer worker has none (${reason}).${reason.includes(ENABLE_WEBGPU_HELP) ? '' : ` ${ENABLE_WEBGPU_HELP}`} Models can still be downloaded and checked here.`;
    } else gpuNote.dataset.status = 'ready';
  });
  void showCache().catch((e) => ((error.hidden = false), (error.textContent = errorText(e))));

  const price = iterationPriceSection();
  root.append(h,
    el('p', {}, 'Load a pretrained Llama, Qwen2 or Qwen3 model. It is checked before it is kept (config fields we do not implement are refused by name; the tokenizer must load; every weight is checked against config.json), then cached in this browser; a run trains it with model.preset set to its idb:models/ path.'),
    gpuNote, hubForm, localForm, progress, error, summary,
    el('section', { 'aria-labelledby': 'cache-heading', id: 'model-cache-section' }, el('h3', { id: 'cache-heading' }, 'Cached models'), cache, storage.element),
    price.section);
  return () => {
    alive = false;
    price.close();
  };
}
