// The Model view's account of one model (workers/models.api.ts ModelReport): its shape, parameter count
// and dtypes; the memory plan at the New run form's defaults, full fine-tuning beside LoRA; the adapter's
// limits; and the verdict: fits, or why not and what to do (workers/model-fit.ts).
import type { ModelReport } from '../../../workers/models.api.ts';
import type { PlanRow } from '../../../workers/models.api.ts';
import { formatBytes } from '../../model/planner.ts';
import { el } from '../dom.ts';

/** 494032768 → "494.0 M". */
export const paramText = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : String(n));

const FAMILY = { llama: 'Llama', qwen2: 'Qwen2', qwen3: 'Qwen3' } as const;

function facts(r: ModelReport): HTMLElement {
  const s = r.model.summary;
  const rows: [string, string | Node][] = [
    ['Family', `${FAMILY[s.modelType]} (model_type ${s.modelType})`],
    ['Layers', String(s.numLayers)],
    ['Hidden size', String(s.hiddenSize)],
    ['MLP width', String(s.intermediateSize)],
    ['Heads / KV heads', `${s.numHeads} / ${s.numKvHeads} (head dim ${s.headDim})`],
    ['Vocabulary', `${s.vocabSize} (tokenizer ids 0 to ${s.tokenizerVocab - 1})`],
    ['Parameters', `${paramText(s.params)} (${s.params.toLocaleString('en')})`],
    ['Weights', `${s.dtypes.join(', ')}: ${formatBytes(s.storedBytes)} stored, ${formatBytes(s.f32Bytes)} as f32 on the GPU`],
    ['Context', `${s.maxPositionEmbeddings} positions (max_position_embeddings)`],
    ['Embeddings', s.tieWordEmbeddings ? 'tied (lm_head is the embedding)' : 'separate lm_head'],
    ['Chat template', s.chatTemplate ? "the model's own" : 'none: ChatML is used'],
    ['model.preset', el('code', {}, r.model.path)],
  ];
  return el('dl', { class: 'facts', id: 'model-facts' }, ...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', { 'data-fact': k }, v)]));
}

function planTable(r: ModelReport): HTMLElement {
  const [full, lora] = r.fit.rows as [PlanRow, PlanRow];
  const f = formatBytes;
  const lines: [string, (p: PlanRow) => string][] = [
    ['trainable parameters', (p) => paramText(p.plan.trainableParams)],
    ['weights', (p) => f(p.plan.bytes.weights)],
    ['gradients', (p) => f(p.plan.bytes.grads)],
    ['AdamW m + v', (p) => f(p.plan.bytes.adam)],
    [`activations (${r.fit.trainShape})`, (p) => f(p.plan.bytes.activations + p.plan.bytes.scratch)],
    ['logits', (p) => f(p.plan.bytes.logits)],
    [`KV cache (${r.fit.generateShape})`, (p) => f(p.plan.bytes.kvCache)],
    ['peak: a training step', (p) => f(p.plan.train)],
    ['peak: generation', (p) => f(p.plan.generate)],
    ['largest buffer bound whole', (p) => `${f(p.plan.largestBuffer.bytes)}: ${p.plan.largestBuffer.name}`],
    ['widest row of a split tensor', (p) => `${f(p.plan.largestRow.bytes)}: ${p.plan.largestRow.name}`],
    ["fits the adapter's per-buffer limits", (p) => (!r.fit.gpu.ok ? 'no adapter' : p.ok ? 'yes' : 'no')],
  ];
  return el('table', { id: 'model-plan', 'aria-label': 'memory plan' },
    el('tr', {}, el('th', { scope: 'col' }, ''), el('th', { scope: 'col' }, 'full fine-tuning (model.loraRank 0)'), el('th', { scope: 'col' }, `LoRA (model.loraRank ${lora.loraRank})`)),
    ...lines.map(([label, v]) => el('tr', {}, el('th', { scope: 'row' }, label), el('td', {}, v(full)), el('td', {}, v(lora)))));
}

function adapter(r: ModelReport): HTMLElement {
  const g = r.fit.gpu;
  if (!g.ok) return el('p', { id: 'model-adapter' }, 'No WebGPU adapter in the trainer worker.');
  const lim = (k: string) => (g.limits[k] === undefined ? 'unknown' : `${formatBytes(g.limits[k]!)} (${k})`);
  return el('p', { id: 'model-adapter' }, `Adapter: ${g.adapter}${g.fallback ? ' (software fallback)' : ''}. Per buffer: ${lim('maxBufferSize')}, per binding: ${lim('maxStorageBufferBindingSize')}. Features: ${g.features.join(', ') || 'none'}.`);
}

export function renderModelReport(r: ModelReport): HTMLElement {
  const fit = r.fit;
  const verdict = el('div', { id: 'model-fit', 'data-verdict': fit.verdict, role: fit.verdict === 'ok' ? undefined : 'alert', class: fit.verdict === 'ok' ? undefined : 'error' },
    fit.verdict === 'ok'
      ? el('p', {}, `Fits this adapter's per-buffer limits at the New run form's defaults (preset ${fit.preset}).`)
      : el('ul', { class: 'problems' }, ...fit.problems.map((p) => el('li', {}, p))));
  const how = r.fromCache ? 'from the cache (no download)' : r.model.source === 'hub' ? 'downloaded and cached' : 'checked and cached';
  return el('section', { id: 'model-summary', 'aria-labelledby': 'model-summary-heading', 'data-model': r.model.id, 'data-from-cache': String(r.fromCache) },
    el('h3', { id: 'model-summary-heading' }, r.model.id, el('span', { class: 'badge' }, how)),
    facts(r),
    el('h4', {}, 'Memory plan'),
    el('p', {}, `Training at the New run form's defaults (preset ${fit.preset}): ${fit.trainShape} per optimiser step, generation of ${fit.generateShape}; every tensor f32.`),
    planTable(r), adapter(r), verdict,
    el('ul', { class: 'notes', id: 'model-notes' }, ...fit.notes.map((n) => el('li', {}, n))),
  );
}
