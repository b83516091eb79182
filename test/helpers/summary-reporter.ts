// Prints, after every run, one line per tier and the plain total CI reads:
// `N passed, N failed, N skipped`. Skipped tests with a note print the note (the reason).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    const tiers = new Map<string, { passed: number; failed: number; skipped: number }>();
    const notes = new Set<string>();
    let failedModules = 0;
    for (const m of modules) {
      const tier = m.project.name || 'default';
      const t = tiers.get(tier) ?? { passed: 0, failed: 0, skipped: 0 };
      tiers.set(tier, t);
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) failedModules++;
      for (const test of m.children.allTests()) {
        const r = test.result();
        if (r.state === 'passed') t.passed++;
        else if (r.state === 'failed') t.failed++;
        else {
          t.skipped++;
          if (r.state === 'skipped' && r.note) notes.add(`[${tier}] skipped: ${r.note}`);
        }
      }
    }
    const total = { passed: 0, failed: failedModules + errors.length, skipped: 0 };
    const lines: string[] = [];
    for (const [name, t] of [...tiers].sort()) {
      lines.push(`  ${name.padEnd(8)} ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
      total.passed += t.passed;
      total.failed += t.failed;
      total.skipped += t.skipped;
    }
    const out = ['', ...notes, 'tiers:', ...lines, `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`];
    process.stdout.write(out.join('\n') + '\n');
  }
}
