// New run: a run preset, then every config field rendered from FIELDS (label, value, default, range,
// meaning), validated by resolveConfig (the CLI's messages) before the worker starts the run. A memory
// estimate from the model's planner (src/rl/fit.ts) follows the fields as they change, against the
// budget of the backend the run would use, and a run that will not fit is refused with its numbers.
// Starting a run asks the browser to keep this site's storage (navigator.storage.persist).
import { formatBytes } from '../../model/planner.ts';
import { MODEL_PRESETS } from '../../model/presets.ts';
import { CONFIG_SECTIONS, ConfigError, FIELDS, flattenConfig, resolveConfig, sectionOf, type ConfigValue, type FieldSpec } from '../../rl/config.ts';
import { checkRunFit, planParts, type MemoryBudget, type RunFit } from '../../rl/fit.ts';
import { RUN_PRESETS } from '../../rl/presets.ts';
import { BROWSER_DEFAULTS, type BackendChoice } from '../../../workers/trainer.api.ts';
import { trainer } from '../client.ts';
import { BUNDLED_SETS } from '../task-catalog.ts';
import { el, errorText, heading, runHref } from '../dom.ts';
import { askPersistence } from '../storage.ts';
import { sandboxChoice } from './sandbox-choice.ts';

const fieldId = (path: string) => `field-${path.replace(/\./g, '-')}`;
const SECTIONS = CONFIG_SECTIONS;
/** The sections the form shows open: what a user changes first (the seed, the model, the tasks). */
const OPEN_SECTIONS = new Set(['seed', 'model', 'tasks']);

/** The values a preset gives every field (defaults ← preset ← browser layer). */
function presetValues(preset: string): Record<string, ConfigValue> {
  return flattenConfig(resolveConfig(RUN_PRESETS[preset]?.overrides ?? {}, BROWSER_DEFAULTS));
}

function input(spec: FieldSpec, describedBy: string): HTMLInputElement | HTMLSelectElement {
  const common = { id: fieldId(spec.path), name: spec.path, 'aria-describedby': describedBy };
  if (spec.choices) return el('select', common, ...spec.choices.map((c) => el('option', { value: c }, c)));
  if (spec.type === 'bool') return el('input', { ...common, type: 'checkbox' });
  if (spec.type === 'string') return el('input', { ...common, type: 'text', spellcheck: 'false' });
  return el('input', { ...common, type: 'number', inputmode: spec.type === 'int' ? 'numeric' : 'decimal', step: spec.type === 'int' ? 1 : 'any', min: spec.min, max: spec.max });
}

function setValue(e: HTMLInputElement | HTMLSelectElement, v: ConfigValue): void {
  if (e instanceof HTMLInputElement && e.type === 'checkbox') e.checked = v === true;
  else if (typeof v === 'number' && String(v).length > 10) {
    // 2/3 shows as 0.666667; the exact value stays behind it while the field reads so.
    e.value = String(+v.toPrecision(6));
    e.dataset.exact = String(v);
    e.dataset.shown = e.value;
  } else {
    e.value = String(v);
    delete e.dataset.exact;
  }
}

function readValue(spec: FieldSpec, e: HTMLInputElement | HTMLSelectElement): ConfigValue {
  if (spec.type === 'bool') return (e as HTMLInputElement).checked;
  if (spec.type === 'string') return e.value;
  if (e.dataset.exact !== undefined && e.value === e.dataset.shown) return Number(e.dataset.exact);
  // An empty or malformed number stays a string, and resolveConfig names the field.
  return e.value.trim() === '' || !Number.isFinite(Number(e.value)) ? e.value : Number(e.value);
}

/** The estimate's section: the planner's parts, the backend's budget and the verdict (id memory-verdict, data-fits). */
function memoryEstimate() {
  const table = el('table', { id: 'memory-table', 'aria-label': 'planned memory of the run' });
  const budgetText = el('p', { id: 'memory-budget' });
  const verdict = el('p', { id: 'memory-verdict', role: 'status', 'data-fits': 'unknown' }, 'Estimating…');
  const element = el('section', { id: 'memory', 'aria-labelledby': 'memory-heading' },
    el('h3', { id: 'memory-heading' }, 'Memory estimate'),
    el('p', {}, "From the model's memory planner, as an upper bound: every episode may fill its context (agent.contextTokens + agent.actionTokens), one training row each. It follows the fields as you change them."),
    table, budgetText, verdict);
  const show = (fit: RunFit | null, budget: MemoryBudget | null, problem = '') => {
    verdict.classList.toggle('error', fit?.ok === false);
    if (!fit) {
      table.replaceChildren();
      verdict.dataset.fits = 'unknown';
      verdict.textContent = `No estimate: ${problem}`;
      return;
    }
    const p = fit.plan;
    const row = (part: string, label: string, bytes: number) => el('tr', { 'data-part': part, 'data-bytes': bytes }, el('th', { scope: 'row' }, label), el('td', {}, formatBytes(bytes)));
    table.replaceChildren(
      ...planParts(fit).map((p) => row(p.part, p.label, p.bytes)),
      ...(fit.options.training === 'none' ? [] : [row('train', 'peak of a training step', p.train)]),
      row('generate', 'peak of generation', p.generate),
      row('largest', `largest buffer bound whole: ${p.largestBuffer.name}`, p.largestBuffer.bytes),
    );
    if (budget) {
      budgetText.textContent = budget.backend === 'webgpu'
        ? `Budget (WebGPU): ${formatBytes(budget.bufferBytes!)} per buffer (the adapter's ${budget.bufferLimit}); browsers do not tell a page how much memory the GPU has, so the total is not checked.`
        : `Budget (CPU backend): ${formatBytes(budget.memoryBytes!)} in all (${budget.memoryLimit}).`;
    }
    verdict.dataset.fits = String(fit.ok);
    verdict.textContent = fit.ok ? `Fits: ${formatBytes(p.total)} at its peak, largest buffer ${formatBytes(p.largestBuffer.bytes)}.` : fit.message;
  };
  return { element, show };
}

export function renderNewRun(root: HTMLElement): () => void {
  const form = el('form', { id: 'new-run', novalidate: true, 'aria-labelledby': 'new-run-heading' });
  const h = heading('New run');
  h.id = 'new-run-heading';
  const errorBox = el('div', { id: 'form-error', role: 'alert', class: 'error', hidden: true });

  const nameIn = el('input', { id: 'run-name', name: 'name', type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'run-name-doc', placeholder: 'automatic' });
  const presetIn = el('select', { id: 'run-preset', name: 'preset', 'aria-describedby': 'run-preset-doc' },
    ...Object.entries(RUN_PRESETS).map(([k, p]) => el('option', { value: k, title: p.description }, k)), el('option', { value: '' }, 'none (config defaults)'));
  const backendIn = el('select', { id: 'run-backend', name: 'backend', 'aria-describedby': 'run-backend-doc' },
    el('option', { value: 'auto' }, 'auto'), el('option', { value: 'webgpu' }, 'webgpu'), el('option', { value: 'wasm' }, 'wasm (CPU, all cores)'), el('option', { value: 'fast-cpu' }, 'fast-cpu (JS, one thread)'));
  const presetDoc = el('small', { id: 'run-preset-doc' });
  const runFieldset = el('fieldset', {}, el('legend', {}, 'Run'),
    el('div', { class: 'field' }, el('label', { for: 'run-name' }, 'Run name'), nameIn, el('small', { id: 'run-name-doc' }, 'unique in this browser; empty: <preset>-seed<seed>-<time>')),
    el('div', { class: 'field' }, el('label', { for: 'run-preset' }, 'Preset'), presetIn, presetDoc),
    el('div', { class: 'field' }, el('label', { for: 'run-backend' }, 'Backend'), backendIn,
      el('small', { id: 'run-backend-doc' }, 'auto: on a hardware adapter, whichever of WebGPU and the CPU backend finishes this run sooner, measured at its model once and remembered; the CPU backend on a software fallback (faster there) or without WebGPU')),
  );
  form.append(runFieldset);
  // Sharing (docs/sharing.md): the server's WebSocket address and its learner user; empty: not shared.
  const shareIn = {
    server: el('input', { id: 'share-server', name: 'share-server', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'not shared (e.g. ws://127.0.0.1:8080)', 'aria-describedby': 'share-doc' }),
    user: el('input', { id: 'share-user', name: 'share-user', type: 'text', autocomplete: 'off', value: 'learner' }),
    password: el('input', { id: 'share-password', name: 'share-password', type: 'password', autocomplete: 'off' }),
  };
  const shareFieldset = el('fieldset', {}, el('legend', {}, SECTIONS.dist!),
    el('div', { class: 'field' }, el('label', { for: 'share-server' }, 'Server'), shareIn.server,
      el('small', { id: 'share-doc' }, 'a shared-run server (`webswe share server` prints its WebSocket address and the learner\'s password); contributors then join from the Contribute view or `webswe contribute`')),
    el('div', { class: 'field' }, el('label', { for: 'share-user' }, 'Learner user'), shareIn.user),
    el('div', { class: 'field' }, el('label', { for: 'share-password' }, 'Learner password'), shareIn.password));

  const inputs = new Map<string, { spec: FieldSpec; e: HTMLInputElement | HTMLSelectElement; doc: HTMLElement; error: HTMLElement }>();
  const fieldsets = new Map<string, HTMLFieldSetElement>([['Run', runFieldset], [SECTIONS.dist!, shareFieldset]]);
  for (const spec of FIELDS) {
    const sec = sectionOf(spec.path);
    let fs = fieldsets.get(SECTIONS[sec]!);
    if (!fs) {
      fs = el('fieldset', {}, el('legend', {}, SECTIONS[sec]!));
      fieldsets.set(SECTIONS[sec]!, fs);
    }
    // The sections a user changes first are open; the rest fold, each under its title.
    if (!fs.parentNode) form.append(OPEN_SECTIONS.has(sec) ? fs : el('details', { class: 'section', 'data-section': sec }, el('summary', {}, SECTIONS[sec]!), fs));
    const docId = `${fieldId(spec.path)}-doc`;
    const e = input(spec, docId);
    const doc = el('small', { id: docId });
    const error = el('p', { id: `${fieldId(spec.path)}-error`, class: 'field-error', role: 'alert', hidden: true });
    inputs.set(spec.path, { spec, e, doc, error });
    fs.append(el('div', { class: 'field' }, el('label', { for: e.id }, spec.path), e, error, doc));
  }
  // agent.sandbox: worker (offline), webcontainer only where this page can boot one (it says why not).
  const sandboxIn = inputs.get('agent.sandbox')?.e;
  if (sandboxIn instanceof HTMLSelectElement) sandboxChoice(sandboxIn);
  // Suggestions for the fields that name something this browser has: model presets and models cached in
  // the Model view (idb:models/<id>), the bundled task sets and imported ones (idb:tasks/<name>).
  const suggest = (id: string, paths: string[], values: () => Promise<string[]>) => {
    const list = el('datalist', { id });
    form.append(list);
    for (const p of paths) inputs.get(p)?.e.setAttribute('list', id);
    void values().then((vs) => list.replaceChildren(...vs.map((v) => el('option', { value: v }))), () => undefined);
  };
  suggest('model-choices', ['model.preset'], async () => [...Object.keys(MODEL_PRESETS), ...(await trainer.listModels()).map((m) => m.path)]);
  suggest('task-set-choices', ['tasks.train', 'tasks.test'], async () => [...BUNDLED_SETS.map((k) => `public/tasks/${k}.jsonl`), ...(await trainer.listTaskSets()).map((t) => t.path)]);
  const submit = el('button', { type: 'submit', id: 'start-run' }, 'Start run');
  const memory = memoryEstimate();
  form.append(memory.element, errorBox, el('div', { class: 'controls' }, submit));

  const fill = () => {
    const preset = presetIn.value;
    presetDoc.textContent = RUN_PRESETS[preset]?.description ?? 'the config defaults, as `webswe train --print-config` lists them';
    const values = presetValues(preset);
    for (const [path, { spec, e, doc }] of inputs) {
      setValue(e, values[path]!);
      const range = spec.choices ? `one of ${spec.choices.join(', ')}` : spec.min !== undefined ? `range ${spec.min} to ${spec.max}` : '';
      const source = path in BROWSER_DEFAULTS ? 'in the browser' : `preset ${preset}`;
      const presetNote = values[path] !== spec.default ? ` · ${source}: ${values[path]}` : '';
      doc.textContent = `${spec.doc} · default ${spec.default}${presetNote}${range ? ` · ${range}` : ''}`;
    }
  };
  /** The form's values as overrides over the preset's (what startRun takes). */
  const formOverrides = () => {
    const base = presetValues(presetIn.value);
    const overrides: Record<string, ConfigValue> = {};
    for (const [path, { spec, e }] of inputs) {
      const v = readValue(spec, e);
      if (v !== base[path]) overrides[path] = v;
    }
    return overrides;
  };
  const resolveForm = () => resolveConfig(RUN_PRESETS[presetIn.value]?.overrides ?? {}, BROWSER_DEFAULTS, formOverrides());

  // The budget of each backend choice, asked of the worker once (it knows the adapter).
  const budgets = new Map<string, Promise<MemoryBudget>>();
  const budgetFor = (choice: string) => {
    let b = budgets.get(choice);
    if (!b) {
      budgets.set(choice, (b = trainer.memoryBudget(choice as BackendChoice)));
      b.catch(() => budgets.delete(choice)); // asked again next time (e.g. a device that could not be had)
    }
    return b;
  };
  let estimateSeq = 0;
  const estimate = async () => {
    const seq = ++estimateSeq;
    let cfg;
    try {
      cfg = resolveForm();
      markField(null);
    } catch (e) {
      const message = errorText(e).replace(/^ConfigError: /, '');
      markField(message);
      return memory.show(null, null, message);
    }
    let budget: MemoryBudget;
    try {
      budget = await budgetFor(backendIn.value);
    } catch (e) {
      if (seq === estimateSeq) memory.show(null, null, `the ${backendIn.value} backend cannot be opened: ${errorText(e)}`);
      return;
    }
    if (seq !== estimateSeq) return; // a later change is being estimated
    try {
      memory.show(checkRunFit(flattenConfig(cfg), budget), budget);
    } catch (e) {
      memory.show(null, budget, errorText(e).replace(/^ConfigError: /, ''));
    }
  };
  presetIn.addEventListener('change', fill);
  form.addEventListener('input', () => void estimate());
  form.addEventListener('change', () => void estimate());
  fill();
  void estimate();

  /** The field a config message names ("dapo.groupSize: …"), marked invalid with the message beside it (its section
   *  opened); every other field cleared. Null clears them all. Returns the field marked. */
  function markField(message: string | null): HTMLInputElement | HTMLSelectElement | undefined {
    const path = message === null ? undefined : /^([\w.@]+):/.exec(message)?.[1];
    for (const [p, { e, error }] of inputs) {
      const bad = p === path;
      if (bad) e.setAttribute('aria-invalid', 'true');
      else e.removeAttribute('aria-invalid');
      error.hidden = !bad;
      error.textContent = bad ? message!.slice(path!.length + 1).trim() : '';
      if (bad) {
        const folded = e.closest('details');
        if (folded) folded.open = true;
      }
    }
    return path ? inputs.get(path)?.e : undefined;
  }
  const showError = (message: string) => {
    errorBox.hidden = false;
    errorBox.textContent = message;
    const bad = markField(message);
    if (bad) bad.focus();
    else if (/^name:/.test(message)) nameIn.focus();
  };

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const overrides = formOverrides();
    let cfg;
    try {
      cfg = resolveForm();
    } catch (e) {
      if (e instanceof ConfigError) return showError(e.message);
      throw e;
    }
    // Refused here with the planner's numbers (the worker checks again before it starts the run). A model
    // the estimate cannot size (a cached pretrained one) and a backend that cannot open are the worker's to judge.
    const budget = await budgetFor(backendIn.value).catch(() => null);
    let fit: RunFit | null = null;
    try {
      fit = budget && checkRunFit(flattenConfig(cfg), budget);
    } catch {
      fit = null;
    }
    if (budget && fit && !fit.ok) {
      memory.show(fit, budget);
      return showError(fit.message);
    }
    submit.disabled = true;
    submit.textContent = 'Starting…';
    try {
      // Asked as the run starts (only a page may ask); the worker keeps the answer in run.json.
      const persisted = await askPersistence();
      const server = shareIn.server.value.trim();
      const share = server ? { server, user: shareIn.user.value.trim(), password: shareIn.password.value } : undefined;
      const run = await trainer.startRun({ name: nameIn.value, preset: presetIn.value, overrides, backend: backendIn.value as BackendChoice, persisted, ...(share ? { share } : {}) });
      location.hash = runHref(run.name);
    } catch (e) {
      showError(errorText(e).replace(/^ConfigError: /, ''));
    } finally {
      submit.disabled = false;
      submit.textContent = 'Start run';
    }
  });

  root.append(h, el('p', {}, 'Every field starts at the preset\'s value; its default, range and meaning are beside it. The run trains in a worker, so this page stays responsive; it is kept in this browser (IndexedDB) and resumes after a reload from its last checkpoint.'), form);
  return () => {};
}
