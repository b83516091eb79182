// The README's app screenshot, made by the app itself: build and serve the app (Vite preview, the
// headers `webswe serve` uses), open it in Debian's chromium with WebGPU on SwiftShader (a machine
// without a hardware GPU adapter, so `auto` picks the CPU backend), press "Start the run that learns"
// (the micro preset, nothing changed), and watch the live view. Every 30 s it prints the run's progress
// and the held-out pass@1 rows the page shows; it takes the screenshot when the page shows
// the evaluation after `--phase` (default rft) or after `--minutes` (default 20), whichever comes
// first, then stops the run. The picture: the run's page from its header to its evaluation table
// (progress, the curves against minutes since the run started, pass@1 after each phase).
//
//   npx tsx lab/app-learning-shot.ts [--out docs/app-learning.png] [--phase base|rft|dapo] [--minutes 20]
//
// One heavy job: run it on a quiet machine (its wall times are the figures the README quotes).
import { parseArgs } from 'node:util';
import { openAppPage } from '../src/bench/chromium.node.ts';
import { buildAndServe } from './serve-app.ts';

const { values: args } = parseArgs({ options: { out: { type: 'string', default: 'docs/app-learning.png' }, phase: { type: 'string', default: 'rft' }, minutes: { type: 'string', default: '20' } } });
if (!['base', 'rft', 'dapo'].includes(args.phase!)) throw new Error(`--phase must be base, rft or dapo, got "${args.phase}"`);
const limitMs = Number(args.minutes) * 60_000;
if (!(limitMs > 0)) throw new Error(`--minutes must be a positive number, got "${args.minutes}"`);

const app = await buildAndServe();
const errors: string[] = [];
const { browser, page } = await openAppPage(errors);
try {
  await page.goto(app.url);
  await page.waitForSelector('#start-learning');
  await page.click('#start-learning');
  await page.waitForURL(/#\/run\//, { timeout: 60_000 });
  const t0 = Date.now();
  const minutes = () => ((Date.now() - t0) / 60_000).toFixed(1);
  // What the page shows: the evaluation table's rows, the progress line and the run's status.
  const read = () => page.evaluate(() => ({
    evals: [...document.querySelectorAll('#run-results tr')].slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')).filter((r) => r.length >= 3),
    progress: document.querySelector('#progress-text')?.textContent ?? '',
    status: document.querySelector('#run-status')?.getAttribute('data-status') ?? '',
  }));
  for (;;) {
    const s = await read();
    console.log(`[${minutes()} min] ${s.status} · ${s.progress} · ${s.evals.map((r) => `${r[0]}: pass@1 ${r[1]}, pass@K ${r[2]}`).join(' · ') || 'no evaluation yet'}`);
    if (s.evals.some((r) => r[0] === args.phase) || s.status === 'done' || s.status === 'error' || Date.now() - t0 > limitMs) break;
    await page.waitForTimeout(30_000);
  }
  // The run's page from its header to its evaluation table, without the episode panel (a turn-by-turn
  // transcript; the start test's screenshot shows it) or the adapter table below.
  await page.addStyleTag({ content: '#now-playing { display: none !important; }' });
  const bottom = await page.evaluate(() => {
    const r = document.querySelector('section[aria-labelledby="results-heading"]')!.getBoundingClientRect();
    return Math.ceil(r.bottom + window.scrollY + 16);
  });
  await page.screenshot({ path: args.out!, fullPage: true, clip: { x: 0, y: 0, width: 1100, height: bottom } });
  console.log(`[${minutes()} min] screenshot: ${args.out}`);
  if (await page.isEnabled('#stop-run').catch(() => false)) await page.click('#stop-run');
  if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await app.close();
}
