// What the app, its workers and the CLI show a user names no source file and no experiment: every string
// literal of src/app, workers and src/cli (comments and imports aside) is checked.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** The string literals of a source file, its comments, imports and module URLs left out. */
function literals(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/\s.*$/gm, '')
    .replace(/^import .*$/gm, '')
    .replace(/import\(\s*'[^']*'\s*\)/g, '')
    .replace(/new URL\(\s*'[^']*'/g, '');
  return [...code.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
}

describe('text a user sees', () => {
  it('names no source path and no experiment id', () => {
    const bad: string[] = [];
    for (const f of [...files('src/app'), ...files('workers'), ...files('src/cli')]) {
      for (const t of literals(readFileSync(f, 'utf8'))) if (/\bsrc\/\w+\/|\bE\d{2,3}\b|finding \d/.test(t)) bad.push(`${f}: ${t.slice(0, 120)}`);
    }
    expect(bad).toEqual([]);
  });

  it('would catch one', () => {
    expect(literals("const a = 'see src/rl/pack.ts'; // src/x/y.ts\nimport { b } from '../src/rl/c.ts';").filter((t) => /\bsrc\/\w+\//.test(t))).toEqual(["'see src/rl/pack.ts'"]);
  });
});
