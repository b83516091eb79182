// The WebContainer sandbox's side of a test run inside the container: the mark of the reporter's lines
// (the node sandbox's reporter, node-reporter.mjs, writes them to stdout there), and the parser that
// splits the terminal's combined output into the program's text (capped) and those results. Core code.
import { CappedText } from './runs.ts';
import type { TestResult, TestStatus } from './types.ts';

/** Marks the reporter's lines on stdout: node-reporter.mjs, run with WEBSWE_REPORTER_MARK set to it,
 *  writes one marked JSON line per test event (the container has no fd 3). */
export const REPORTER_MARK = '\u001eWEBSWE ';

const STATUSES: readonly string[] = ['pass', 'fail', 'skip', 'todo'];
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
export const stripAnsi = (s: string) => s.replace(ANSI, '');

/** Splits the combined terminal output into the program's text and the reporter's marked lines. */
export class OutputParser {
  tests: TestResult[] = [];
  running: string[] | undefined;
  sawTests = false;
  /** Marked lines without the run's key: the code under test wrote them (it can print the mark). */
  foreign = 0;
  private readonly out: CappedText;
  private pending = '';
  constructor(
    limit: number,
    private readonly file?: string,
    /** The run's report key (node-reporter.mjs writes it on every line); undefined: lines are not checked. */
    private readonly key?: string,
  ) {
    this.out = new CappedText(limit);
  }

  /** Characters of the program's text left out by the cap. */
  get dropped(): number {
    return this.out.dropped;
  }

  push(chunk: string): void {
    const lines = (this.pending + stripAnsi(chunk).replace(/\r\n?/g, '\n')).split('\n');
    this.pending = lines.pop()!;
    for (const l of lines) this.line(l, true);
  }

  end(): void {
    if (this.pending) this.line(this.pending, false);
    this.pending = '';
  }

  private line(l: string, newline: boolean): void {
    const at = l.indexOf(REPORTER_MARK);
    if (at === -1) return this.keep(newline ? `${l}\n` : l);
    if (at > 0) this.keep(l.slice(0, at)); // the program's text that shared the line
    let r: { k?: unknown; e?: string; path?: unknown; status?: string; message?: unknown; ms?: unknown };
    try {
      r = JSON.parse(l.slice(at + REPORTER_MARK.length)) as typeof r;
    } catch {
      this.foreign++;
      return;
    }
    if (this.key !== undefined && r?.k !== this.key) {
      this.foreign++;
      return;
    }
    if (!Array.isArray(r.path) || r.path.some((p) => typeof p !== 'string')) return;
    const path = r.path as string[];
    this.sawTests = true;
    if (r.e === 'running') this.running = path;
    else if (r.e === 'result' && STATUSES.includes(r.status!)) {
      const t: TestResult = { fullName: path.join(' > '), status: r.status as TestStatus };
      if (typeof r.message === 'string') t.message = r.message;
      if (typeof r.ms === 'number') t.durationMs = r.ms;
      if (this.file) t.file = this.file;
      this.tests.push(t);
    }
  }

  private keep(s: string): void {
    this.out.push(s);
  }

  text(): string {
    return this.out.text();
  }
}
