// The realm hardening every sandbox does before the code under test runs (src/sandbox/harden.mjs), in a fresh node
// process: the prototypes of every kind of value a test or a runner makes are frozen (the anonymous intrinsics
// too), the mutations code under test would try are refused, and ordinary code that assigns over an inherited
// property (an Error subclass's name, a plain object's toString) still works.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('hardenIntrinsics', () => {
  it('freezes what tests and runners reach, refuses the mutations, keeps ordinary overrides working', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['test/fixtures/sandbox/harden-probe.mjs'], { encoding: 'utf8' })) as { ms: number; mutable: string[]; allowed: string[]; honest: string[] };
    expect(out.mutable).toEqual([]);
    expect(out.allowed).toEqual([]);
    expect(out.honest).toEqual(['MyError: my x', 'plain', 'old', '{"a":[1,{"b":2}]}', '1,2,3', '1,2']);
  });
});
