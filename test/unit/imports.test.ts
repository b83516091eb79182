// The dependency rule, checked on the source text (docs/style.md §7): every folder may import only the layers below
// it, in one order, scripts, lab and workers included; the app imports the workers only through their contracts
// (*.api.ts); no product file imports a benchmark (but the bench command), a test or a lab probe; and no module
// imports itself back through a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? files(p) : /\.m?ts$/.test(f) && !/\.d\.m?ts$/.test(f) ? [p] : [];
  });
/** Repo-relative paths a file imports (static and dynamic, relative specifiers only). */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
    const spec = (m[1] ?? m[2])!.replace(/\?raw$/, '');
    out.push(normalize(join(dirname(file), spec)));
  }
  return out;
}

/** The layer of a path: src/<folder>, the files at src/'s top (random.ts, deadline.ts: `base`), or a top folder. */
function layerOf(p: string): string {
  const parts = p.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length === 2 ? 'base' : parts[1]!;
}

/**
 * What each layer may import, besides itself: the order of docs/style.md (gpu ← ops ← model ← agent and rl ← front
 * ends; sandbox ← tasks ← agent). The front ends (cli, app, workers) sit on top, bench beside cli, lab and scripts
 * outside the product.
 */
const BELOW: Record<string, readonly string[]> = {
  base: [],
  gpu: ['base'],
  ops: ['gpu', 'base'],
  model: ['ops', 'gpu', 'base'],
  sandbox: ['base'],
  tasks: ['sandbox', 'base'],
  agent: ['model', 'ops', 'sandbox', 'tasks', 'base'],
  store: ['agent', 'model', 'ops', 'base'],
  rl: ['agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  report: ['store', 'rl', 'agent', 'base'],
  share: ['rl', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  bench: ['share', 'rl', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  workers: ['share', 'rl', 'report', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  app: ['workers', 'share', 'rl', 'report', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  cli: ['bench', 'share', 'rl', 'report', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  scripts: ['cli', 'bench', 'share', 'rl', 'report', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
  lab: ['cli', 'bench', 'share', 'rl', 'report', 'agent', 'store', 'model', 'ops', 'gpu', 'sandbox', 'tasks', 'base'],
};

const ALL = [...files('src'), ...files('workers'), ...files('scripts'), ...files('lab')];

describe('the dependency rule', () => {
  it('every file imports only the layers below its own (docs/style.md), scripts, lab and workers included', () => {
    const bad: string[] = [];
    for (const f of ALL) {
      const from = layerOf(f);
      const allowed = BELOW[from];
      if (!allowed) {
        bad.push(`${f}: its folder (${from}) has no place in the layer order; add it to BELOW`);
        continue;
      }
      for (const to of imports(f)) {
        const layer = layerOf(to);
        if (layer === from) continue;
        if (!allowed.includes(layer)) bad.push(`${f} → ${to} (${from} may not import ${layer})`);
        // The app reaches the trainer worker only through its contract; only the bench command imports benchmarks.
        if (from === 'app' && layer === 'workers' && !to.endsWith('.api.ts')) bad.push(`${f} → ${to} (the app imports a worker implementation)`);
        if (layer === 'bench' && from === 'cli' && !/^src\/cli\/bench[^/]*\.ts$/.test(f)) bad.push(`${f} → ${to} (only the bench command imports benchmarks)`);
      }
    }
    expect(bad).toEqual([]);
    expect(ALL.length).toBeGreaterThan(100); // it read the tree
  });

  it('the rule itself refuses an import upwards, and a test or lab module in the product', () => {
    const allowed = (from: string, to: string) => BELOW[layerOf(from)]!.includes(layerOf(to));
    expect(allowed('src/gpu/context.ts', 'src/ops/recycle.ts')).toBe(false);
    expect(allowed('workers/estimate.ts', 'src/bench/model.ts')).toBe(false);
    expect(allowed('src/rl/phases.ts', 'test/helpers/browser.ts')).toBe(false);
    expect(allowed('scripts/bundle-node.mjs', 'lab/serve-app.ts')).toBe(false);
    expect(allowed('src/agent/episode.ts', 'src/rl/config.ts')).toBe(false);
    expect(allowed('src/rl/phases.ts', 'src/agent/episode.ts')).toBe(true);
  });

  it('has no import circles', () => {
    const graph = new Map(ALL.map((f) => [f, imports(f).filter((t) => ALL.includes(t))]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        circles.push([...path.slice(path.indexOf(f)), f].map((p) => relative('.', p)).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of ALL) visit(f, []);
    expect(circles).toEqual([]);
  });
});
