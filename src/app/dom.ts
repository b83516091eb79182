// Small DOM helpers for the page's views (no framework): elements with text and attributes, and
// the few formats every view uses.

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** A view's heading: focused when the view opens, so keyboard and screen-reader users land on it. */
export function heading(text: string, level: 'h2' | 'h3' = 'h2'): HTMLElement {
  return el(level, { tabindex: -1, class: 'view-heading' }, text);
}

export const runHref = (name: string, ...rest: (string | number)[]) => `#/run/${[name, ...rest].map((s) => encodeURIComponent(String(s))).join('/')}`;

/** The run estimator's duration format (one for the page, the CLI and the worker). */
export { duration } from '../rl/estimate.ts';

export const when = (ms: number) => new Date(ms).toLocaleString();

/** Where a checkpoint stands, in the same words wherever it is shown (Runs table, live view): the end
 *  of a phase (step 0 of a phase it lists as done), the start of one, or a step inside it. */
export const checkpointWhere = (c: { phase: string; step: number; done?: string[] }) =>
  c.step === 0 && (c.done?.includes(c.phase) ?? true) ? `at the end of ${c.phase}` : c.step === 0 ? `at the start of ${c.phase}` : `after ${c.phase} step ${c.step}`;

export function num(v: number | undefined | null, digits = 3): string {
  if (v === undefined || v === null || !Number.isFinite(v)) return '–';
  return Math.abs(v) >= 1000 ? v.toFixed(0) : String(+v.toPrecision(digits));
}

export function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e) {
    const name = (e as { name?: string }).name;
    return `${name && name !== 'Error' ? `${name}: ` : ''}${(e as { message: string }).message}`;
  }
  return String(e);
}
