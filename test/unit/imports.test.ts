// The dependency rule, checked on the source text: imports go down the layers (docs/architecture.md).
// The core (src/ minus the front ends) imports nothing from the CLI, the app or the workers; the agent
// imports nothing from the trainer (rl); bench registers no CLI commands; the app imports the workers only
// through their contracts (*.api.ts); and no module imports itself back through a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? files(p) : /\.ts$/.test(f) && !f.endsWith('.d.ts') ? [p] : [];
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
const ALL = [...files('src'), ...files('workers')];
const FRONT = /^(src\/cli|src\/app|workers)\//;

describe('the dependency rule', () => {
  it('the core imports no front end; agent no trainer; bench no CLI; the app only worker contracts', () => {
    const bad: string[] = [];
    for (const f of ALL) {
      for (const to of imports(f)) {
        if (!FRONT.test(f) && FRONT.test(to)) bad.push(`${f} → ${to} (the core imports a front end)`);
        if (f.startsWith('src/agent/') && to.startsWith('src/rl/')) bad.push(`${f} → ${to} (agent imports the trainer)`);
        if (f.startsWith('src/bench/') && to.startsWith('src/cli/')) bad.push(`${f} → ${to} (bench imports the CLI)`);
        if (f.startsWith('src/app/') && to.startsWith('workers/') && !to.endsWith('.api.ts')) bad.push(`${f} → ${to} (the app imports a worker implementation)`);
      }
    }
    expect(bad).toEqual([]);
    expect(ALL.length).toBeGreaterThan(100); // it read the tree
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
