// The grader's verdict on a run (src/agent/grade.ts judgeRun): a wanted test passes when the runner reported it
// once, as passing; a test reported twice, or lines on the report's channel the runner did not write, fail the
// whole run with the reason; a missing test fails. And gradeFiles grades each test file in a sandbox of its own,
// so a first file's run cannot rewrite the second file it is graded with.
import { describe, expect, it } from 'vitest';
import { gradeFiles, judgeRun } from '../../../src/agent/grade.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import type { RunResult, TestResult } from '../../../src/sandbox/types.ts';
import type { Task } from '../../../src/tasks/schema.ts';

const task = { FAIL_TO_PASS: ['a'], PASS_TO_PASS: ['b', 'c'], test_files: ['test/x.test.js'] } as unknown as Task;
const run = (tests: [string, TestResult['status']][], problems?: string[]): RunResult => ({
  tests: tests.map(([fullName, status]) => ({ fullName, status })), output: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 1, ...(problems && { problems }),
});

describe('judgeRun', () => {
  it('passes the wanted tests reported once as passing, fails the rest', () => {
    expect(judgeRun(task, run([['a', 'pass'], ['b', 'pass'], ['c', 'pass'], ['extra', 'fail']]))).toEqual({ passed: ['a', 'b', 'c'], failed: [], timed_out: false });
    expect(judgeRun(task, run([['a', 'pass'], ['b', 'skip']]))).toEqual({ passed: ['a'], failed: ['b', 'c'], timed_out: false });
  });

  it('fails every test when a wanted test is reported twice, whatever the reports say', () => {
    const v = judgeRun(task, run([['a', 'fail'], ['a', 'pass'], ['b', 'pass'], ['c', 'pass']]));
    expect(v.passed).toEqual([]);
    expect(v.failed).toEqual(['a', 'b', 'c']);
    expect(v.problems).toEqual(['the test "a" was reported 2 times (the runner reports each test once)']);
  });

  it("fails every test when the run's report has lines the runner did not write", () => {
    const v = judgeRun(task, run([['a', 'pass'], ['b', 'pass'], ['c', 'pass']], ['3 line(s) on the test report\'s channel did not come from the test runner']));
    expect([v.passed, v.failed.length, v.problems?.length]).toEqual([[], 3, 1]);
  });
});

describe('gradeFiles', () => {
  it('grades each test file in its own sandbox: a run that rewrites the next test file changes nothing', async () => {
    const two = {
      FAIL_TO_PASS: ['first', 'second'], PASS_TO_PASS: [], test_files: ['test/a.test.js', 'test/b.test.js'],
      files: {
        'package.json': '{"type":"module"}\n',
        'test/a.test.js': "import { test } from 'node:test';\nimport '../src/x.js';\ntest('first', () => {});\n",
        'test/b.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { x } from '../src/x.js';\ntest('second', () => assert.equal(x, 2));\n",
      },
    } as unknown as Task;
    // The buggy module: x is 1, and when imported it rewrites test/b.test.js into a test that passes.
    const final = { ...two.files, 'src/x.js': "import fs from 'node:fs';\nexport const x = 1;\ntry { fs.writeFileSync('test/b.test.js', \"import { test } from 'node:test';\\ntest('second', () => {});\\n\"); } catch {}\n" };
    const v = await gradeFiles(two, final, createNodeSandbox, 5000);
    expect(v.passed).toEqual(['first']);
    expect(v.failed).toEqual(['second']);
  });
});
