// The content-addressed test-run cache: the same files, tests and limits are run once; any change to a
// file, the tests asked for or the limits runs again; a run that hit its time limit is never kept.
import { describe, expect, it } from 'vitest';
import { cachedFactory, RunCache } from '../../../src/sandbox/run-cache.ts';
import type { FileMap, RunResult, SandboxFactory } from '../../../src/sandbox/types.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';

function counting(timedOut = () => false) {
  const runs: string[] = [];
  const create: SandboxFactory = async (files: FileMap) =>
    new MemorySandbox(files, (fs, testFiles, names): RunResult => {
      runs.push(fs['src/a.js']!);
      return { tests: [{ fullName: `t ${names?.join(',') ?? 'all'}`, status: fs['src/a.js']!.includes('ok') ? 'pass' : 'fail' }], output: testFiles.join(','), exitCode: 0, timedOut: timedOut(), truncated: false, durationMs: 1 };
    });
  return { create, runs };
}

describe('RunCache', () => {
  it('answers the same state from the cache, across sandboxes, and runs a changed one', async () => {
    const { create, runs } = counting();
    const cache = new RunCache();
    const make = cachedFactory(create, cache);
    const a = await make({ 'src/a.js': 'bad', 't.test.js': 'x' });
    const r1 = await a.runTests(['t.test.js']);
    const b = await make({ 'src/a.js': 'bad', 't.test.js': 'x' });
    expect(await b.runTests(['t.test.js'])).toEqual(r1);
    expect(runs).toEqual(['bad']);
    await b.writeFile('src/a.js', 'ok');
    expect((await b.runTests(['t.test.js'])).tests[0]!.status).toBe('pass');
    expect(await b.runTests(['t.test.js'], { names: ['one'] })).toMatchObject({ tests: [{ fullName: 't one' }] });
    expect(runs).toEqual(['bad', 'ok', 'ok']);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 3 });
    // A changed limit is another run.
    const c = await make({ 'src/a.js': 'bad', 't.test.js': 'x' }, { timeoutMs: 1234 });
    await c.runTests(['t.test.js']);
    expect(runs).toHaveLength(4);
  });
  it('a cached result is a copy the caller may change', async () => {
    const make = cachedFactory(counting().create, new RunCache());
    const a = await make({ 'src/a.js': 'bad' });
    const r = await a.runTests(['t.test.js']);
    r.tests[0]!.status = 'pass';
    expect((await a.runTests(['t.test.js'])).tests[0]!.status).toBe('fail');
  });
  it('never keeps a run that hit its time limit, and evicts the oldest past its size', async () => {
    const slow = counting(() => true);
    const make = cachedFactory(slow.create, new RunCache());
    const a = await make({ 'src/a.js': 'bad' });
    await a.runTests(['t.test.js']);
    await a.runTests(['t.test.js']);
    expect(slow.runs).toHaveLength(2);
    const small = new RunCache(2);
    const m2 = cachedFactory(counting().create, small);
    for (const text of ['a', 'b', 'c']) await (await m2({ 'src/a.js': text })).runTests(['t.test.js']);
    expect(small.size).toBe(2);
  });
  it('delegates every other method to the sandbox', async () => {
    const make = cachedFactory(counting().create, new RunCache());
    const a = await make({ 'src/a.js': 'x' });
    expect(a.kind).toBe('memory');
    await a.writeFile('src/b.js', 'y');
    expect(await a.listFiles()).toEqual(['src/a.js', 'src/b.js']);
    expect(await a.diff()).toContain('+y');
  });
});
