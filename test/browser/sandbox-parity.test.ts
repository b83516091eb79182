// Parity: every task of the bundled test split (public/tasks/test.jsonl; before it exists, the corpus
// libraries and the hand-written tasks) gives the same per-test results — full name and status, in
// report order — in the worker sandbox (Chromium) as in the node sandbox (Node), before and after the
// gold patch. Identical repository states (the gold state of a library's tasks) run once. The node
// side runs a few processes at a time, the worker side in one page, both at once, per library.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createNodeSandbox } from '../../src/sandbox/node.node.ts';
import { applyDiff } from '../../src/sandbox/patch.ts';
import type { FileMap, RunResult, Sandbox } from '../../src/sandbox/types.ts';
import { loadCorpus } from '../../src/tasks/build.node.ts';
import { parseTaskFile } from '../../src/tasks/schema.ts';
import { launchChromium, noBrowserReason } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const TEST_SPLIT = new URL('../../public/tasks/test.jsonl', import.meta.url);
const HANDWRITTEN = new URL('../fixtures/tasks/handwritten.jsonl', import.meta.url);
/** Generous: the CI machine is small and loaded; no timing is asserted. */
const TIMEOUT_MS = 30_000;
const NODE_CONCURRENCY = 3;
const PAGE_BATCH = 25;

interface State {
  /** Task ids (with base/gold) that share this repository state. */
  ids: string[];
  group: string;
  files: FileMap;
  testFiles: string[];
}
type Brief = { tests: [string, string, string | null][]; exitCode: number | null; timedOut: boolean; output?: string };

async function loadStates(): Promise<{ source: string; tasks: number; states: State[] }> {
  const byKey = new Map<string, State>();
  const add = (id: string, group: string, files: FileMap, testFiles: string[]) => {
    const key = JSON.stringify([testFiles, Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))]);
    const s = byKey.get(key);
    if (s) s.ids.push(id);
    else byKey.set(key, { ids: [id], group, files, testFiles });
  };
  const addTasks = (url: URL, name: string) => {
    const { tasks } = parseTaskFile(readFileSync(url, 'utf8'), name);
    for (const t of tasks) {
      add(`${t.instance_id} (base)`, t.repo, t.files, t.test_files);
      try {
        add(`${t.instance_id} (gold)`, t.repo, applyDiff(t.files, t.patch).files, t.test_files);
      } catch {
        // a deliberately broken hand-written task: its base state still counts
      }
    }
    return tasks.length;
  };
  if (existsSync(TEST_SPLIT)) {
    const n = addTasks(TEST_SPLIT, 'public/tasks/test.jsonl');
    return { source: 'public/tasks/test.jsonl', tasks: n, states: [...byKey.values()] };
  }
  const { libraries } = await loadCorpus();
  for (const lib of libraries) add(`${lib.name} (library)`, lib.name, lib.files, lib.testFiles);
  const n = addTasks(HANDWRITTEN, 'handwritten.jsonl');
  return { source: 'the corpus libraries and test/fixtures/tasks/handwritten.jsonl', tasks: libraries.length + n, states: [...byKey.values()] };
}

/** The output is kept only when no test was reported (it then says why). */
const brief = (r: RunResult): Brief => ({
  tests: r.tests.map((t) => [t.fullName, t.status, t.message ?? null]),
  exitCode: r.exitCode,
  timedOut: r.timedOut,
  ...(r.tests.length === 0 ? { output: r.output.slice(0, 2000) } : {}),
});

/** The node side: NODE_CONCURRENCY sandboxes, each reset to the next state. */
async function runInNode(states: State[]): Promise<Brief[]> {
  const out: Brief[] = new Array(states.length);
  let next = 0;
  const worker = async () => {
    let sb: Sandbox | undefined;
    try {
      while (next < states.length) {
        const i = next++;
        const s = states[i]!;
        if (!sb) sb = await createNodeSandbox(s.files, { timeoutMs: TIMEOUT_MS });
        else await sb.reset(s.files);
        out[i] = brief(await sb.runTests(s.testFiles));
      }
    } finally {
      await sb?.dispose();
    }
  };
  await Promise.all(Array.from({ length: NODE_CONCURRENCY }, worker));
  return out;
}

describe.skipIf(noBrowserReason)('parity: node sandbox vs worker sandbox on the bundled test split', async () => {
  const { source, tasks, states } = await loadStates();
  const groups = [...new Set(states.map((s) => s.group))];
  let browser: Browser;
  let page: Page;
  const totals = { states: 0, tests: 0, failures: 0, sameMessage: 0, differing: [] as string[] };
  const pageTrouble: string[] = [];

  /** The worker side: batches of states, each in a fresh worker sandbox of the one page. */
  async function runInPage(states: State[]): Promise<Brief[]> {
    const out: Brief[] = [];
    for (let i = 0; i < states.length; i += PAGE_BATCH) {
      const batch = states.slice(i, i + PAGE_BATCH).map((s) => ({ files: s.files, testFiles: s.testFiles }));
      out.push(
        ...(await page.evaluate(
          async ({ batch, timeoutMs }) => {
            const { sandboxes } = (window as any).webswe;
            const res = [];
            for (const s of batch) {
              const sb = await sandboxes.worker(s.files, { timeoutMs });
              try {
                const r = await sb.runTests(s.testFiles);
                const tests = r.tests.map((t: any) => [t.fullName, t.status, t.message ?? null]);
                res.push({ tests, exitCode: r.exitCode, timedOut: r.timedOut, ...(tests.length === 0 ? { output: r.output.slice(0, 2000) } : {}) });
              } finally {
                await sb.dispose();
              }
            }
            return res;
          },
          { batch, timeoutMs: TIMEOUT_MS },
        )),
      );
    }
    return out;
  }

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    // Diagnostics: what the page saw go wrong (failed requests, errors), printed at the end.
    page.on('requestfailed', (r) => pageTrouble.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('console', (m) => m.type() === 'error' && !/favicon/.test(m.text()) && pageTrouble.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => pageTrouble.push(`page error: ${e.message}`));
    await page.goto(inject('baseUrl'));
    await page.waitForFunction(() => (window as any).webswe?.sandboxes);
  });
  afterAll(async () => {
    await browser?.close();
    const msg = `${totals.failures} failures, messages identical for ${totals.sameMessage}`;
    console.log(`parity (${source}): ${tasks} tasks, ${totals.states} distinct repository states, ${totals.tests} test results compared, all names and statuses identical; ${msg}`);
    for (const d of totals.differing.slice(0, 10)) console.log(`  message differs: ${d}`);
    for (const t of pageTrouble.slice(0, 20)) console.log(`  page: ${t}`);
  });

  it('has tasks to compare', () => {
    expect(states.length).toBeGreaterThan(0);
  });

  for (const group of groups) {
    it(`${group}: identical per-test results, base and gold`, async () => {
      const mine = states.filter((s) => s.group === group);
      const [inNode, inPage] = await Promise.all([runInNode(mine), runInPage(mine)]);
      for (const [i, s] of mine.entries()) {
        const n = inNode[i]!;
        const w = inPage[i]!;
        const said = (b: Brief, side: string) => (b.output !== undefined ? `\n${side} (exit ${b.exitCode}${b.timedOut ? ', timed out' : ''}) said: ${b.output}` : '');
        const label = `${s.ids.join(', ')}${said(n, 'node')}${said(w, 'worker')}`;
        expect(w.tests.map(([name, status]) => `${status} ${name}`), label).toEqual(n.tests.map(([name, status]) => `${status} ${name}`));
        expect(w.exitCode, label).toBe(n.exitCode);
        expect(w.timedOut, label).toBe(n.timedOut);
        // Bundled tasks always report tests and finish; a hand-written fixture may be broken on purpose.
        if (source === 'public/tasks/test.jsonl') expect(n.tests.length > 0 && !n.timedOut, `${label}: no test reported, or timed out`).toBe(true);
        totals.states++;
        totals.tests += n.tests.length;
        for (const [k, [name, status, message]] of n.tests.entries()) {
          if (status !== 'fail') continue;
          totals.failures++;
          if (w.tests[k]![2] === message) totals.sameMessage++;
          else totals.differing.push(`${s.ids[0]} › ${name}\n    node:   ${JSON.stringify(message)}\n    worker: ${JSON.stringify(w.tests[k]![2])}`);
        }
      }
    });
  }
});
