// The task record (SWE-bench field names, one JSON object per line of a .jsonl file) and its parser:
// every malformed line is reported with its line number and field, and the good lines still load.
// Core code: no Node APIs. FAIL_TO_PASS / PASS_TO_PASS may be JSON strings, as SWE-bench stores them.
import { resolveRepoPath, type FileMap } from '../sandbox/types.ts';

export interface MutationInfo {
  /** The mutation operator, e.g. "flip-comparison". */
  operator: string;
  /** Where it was applied: free text or { file, line, column }. */
  location?: string | { file: string; line?: number; column?: number };
}

export interface Task {
  /** Unique in its file, "<repo>__<n>". */
  instance_id: string;
  /** The library's name. */
  repo: string;
  /** The repository before the fix. */
  files: FileMap;
  /** The issue text a user would write. */
  problem_statement: string;
  /** The gold fix: a git-style unified diff (a/ b/ prefixes) against `files`. */
  patch: string;
  /** The test files to run, e.g. ["test/roman.test.js"]. */
  test_files: string[];
  /** Full names ("describe > it") of tests that fail before the fix and pass after. */
  FAIL_TO_PASS: string[];
  /** Full names of tests that pass before and after. */
  PASS_TO_PASS: string[];
  split?: string;
  difficulty?: string | number;
  /** Rung of the graded world (tasks/levels.ts): 0 one function, 1 a module of a few, 2 a library. */
  level?: number;
  mutation?: MutationInfo;
  created_by?: string;
  test_command?: string;
}

/** One problem in a task file: `field` is absent for line-level problems (bad JSON). */
export interface TaskFileError {
  file: string;
  line: number;
  field?: string;
  instance_id?: string;
  message: string;
}

export interface ParsedTaskFile {
  tasks: Task[];
  /** lines[i] is the 1-based line tasks[i] came from. */
  lines: number[];
  errors: TaskFileError[];
}

/** "file:line: field FAIL_TO_PASS: message" */
export function formatTaskError(e: TaskFileError): string {
  return `${e.file}:${e.line}: ${e.field ? `field ${e.field}: ` : ''}${e.message}`;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Problem = { field: string; message: string };

function nonEmptyString(rec: Record<string, unknown>, field: string, out: Problem[]): string {
  const v = rec[field];
  if (v === undefined) out.push({ field, message: 'is missing' });
  else if (typeof v !== 'string') out.push({ field, message: `expected a string, got ${typeName(v)}` });
  else if (v.trim() === '') out.push({ field, message: 'is empty' });
  return typeof v === 'string' ? v : '';
}

/** An array of test names, or (SWE-bench's habit) a JSON string holding one. */
function testNames(rec: Record<string, unknown>, field: string, out: Problem[]): string[] {
  let v = rec[field];
  if (v === undefined) {
    out.push({ field, message: 'is missing (an array of test full names, "describe > it")' });
    return [];
  }
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch (e) {
      out.push({ field, message: `is a string but not a JSON array of test names: ${(e as Error).message}` });
      return [];
    }
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    out.push({ field, message: `expected an array of strings (or a JSON string of one), got ${Array.isArray(v) ? 'an array with a non-string' : typeName(v)}` });
    return [];
  }
  const names = v as string[];
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) out.push({ field, message: `names "${dup}" twice` });
  return names;
}

function repoPath(p: string, field: string, out: Problem[]): boolean {
  try {
    if (resolveRepoPath(p) === p) return true;
    out.push({ field, message: `path "${p}" is not in normal form; write "${resolveRepoPath(p)}"` });
  } catch (e) {
    out.push({ field, message: (e as Error).message });
  }
  return false;
}

function optional(rec: Record<string, unknown>, out: Problem[]): Partial<Task> {
  const o: Partial<Task> = {};
  for (const f of ['split', 'created_by', 'test_command'] as const) {
    const v = rec[f];
    if (v === undefined) continue;
    if (typeof v === 'string') o[f] = v;
    else out.push({ field: f, message: `expected a string, got ${typeName(v)}` });
  }
  const d = rec.difficulty;
  if (typeof d === 'string' || typeof d === 'number') o.difficulty = d;
  else if (d !== undefined) out.push({ field: 'difficulty', message: `expected a string or a number, got ${typeName(d)}` });
  const lv = rec.level;
  if (lv === 0 || lv === 1 || lv === 2) o.level = lv;
  else if (lv !== undefined) out.push({ field: 'level', message: `expected 0, 1 or 2, got ${JSON.stringify(lv)}` });
  const m = rec.mutation;
  if (isRecord(m) && typeof m.operator === 'string' && (m.location === undefined || typeof m.location === 'string' || isRecord(m.location))) {
    o.mutation = m as unknown as MutationInfo;
  } else if (m !== undefined) {
    out.push({ field: 'mutation', message: 'expected { "operator": string, "location": string | { "file", "line", "column" } }' });
  }
  return o;
}

/** Check one decoded record; returns the task or the list of field problems. */
export function checkTask(rec: unknown): { task?: Task; problems: Problem[] } {
  const out: Problem[] = [];
  if (!isRecord(rec)) return { problems: [{ field: '', message: `expected a JSON object, got ${typeName(rec)}` }] };
  const instance_id = nonEmptyString(rec, 'instance_id', out);
  const repo = nonEmptyString(rec, 'repo', out);
  const problem_statement = nonEmptyString(rec, 'problem_statement', out);
  const patch = nonEmptyString(rec, 'patch', out);
  const files: FileMap = {};
  if (!isRecord(rec.files)) out.push({ field: 'files', message: rec.files === undefined ? 'is missing' : `expected an object of path → text, got ${typeName(rec.files)}` });
  else {
    for (const [p, text] of Object.entries(rec.files)) {
      if (typeof text !== 'string') out.push({ field: 'files', message: `"${p}": expected the file's text as a string, got ${typeName(text)}` });
      else if (repoPath(p, 'files', out)) files[p] = text;
    }
    if (Object.keys(rec.files).length === 0) out.push({ field: 'files', message: 'is empty' });
  }
  let test_files: string[] = [];
  if (!Array.isArray(rec.test_files) || rec.test_files.length === 0 || rec.test_files.some((x) => typeof x !== 'string')) {
    out.push({ field: 'test_files', message: rec.test_files === undefined ? 'is missing' : 'expected a non-empty array of paths' });
  } else {
    test_files = rec.test_files as string[];
    for (const t of test_files) {
      if (repoPath(t, 'test_files', out) && isRecord(rec.files) && !Object.hasOwn(files, t)) {
        out.push({ field: 'test_files', message: `"${t}" is not one of the task's files` });
      }
    }
  }
  const FAIL_TO_PASS = testNames(rec, 'FAIL_TO_PASS', out);
  const PASS_TO_PASS = testNames(rec, 'PASS_TO_PASS', out);
  if (rec.FAIL_TO_PASS !== undefined && FAIL_TO_PASS.length === 0 && !out.some((p) => p.field === 'FAIL_TO_PASS')) {
    out.push({ field: 'FAIL_TO_PASS', message: 'is empty: a task needs at least one test that the fix makes pass' });
  }
  const both = FAIL_TO_PASS.find((n) => PASS_TO_PASS.includes(n));
  if (both !== undefined) out.push({ field: 'PASS_TO_PASS', message: `"${both}" is also in FAIL_TO_PASS` });
  const extra = optional(rec, out);
  if (out.length) return { problems: out };
  return { task: { instance_id, repo, files, problem_statement, patch, test_files, FAIL_TO_PASS, PASS_TO_PASS, ...extra }, problems: [] };
}

/** Parse a .jsonl task file. Blank lines are skipped; each bad line yields errors and the rest still load. */
export function parseTaskFile(text: string, fileName: string): ParsedTaskFile {
  const result: ParsedTaskFile = { tasks: [], lines: [], errors: [] };
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch (e) {
      result.errors.push({ file: fileName, line, message: `not valid JSON: ${(e as Error).message}` });
      return;
    }
    const id = isRecord(rec) && typeof rec.instance_id === 'string' ? rec.instance_id : undefined;
    const { task, problems } = checkTask(rec);
    if (id !== undefined && seen.has(id)) problems.push({ field: 'instance_id', message: `"${id}" is already used on line ${seen.get(id)}` });
    if (id !== undefined && !seen.has(id)) seen.set(id, line);
    for (const p of problems) {
      result.errors.push({ file: fileName, line, ...(p.field ? { field: p.field } : {}), ...(id !== undefined ? { instance_id: id } : {}), message: p.message });
    }
    if (task && problems.length === 0) {
      result.tasks.push(task);
      result.lines.push(line);
    }
  });
  return result;
}

/** One task as a .jsonl line, fields in the documented order. */
export function formatTaskLine(t: Task): string {
  const { instance_id, repo, files, problem_statement, patch, test_files, FAIL_TO_PASS, PASS_TO_PASS, ...rest } = t;
  return JSON.stringify({ instance_id, repo, files, problem_statement, patch, test_files, FAIL_TO_PASS, PASS_TO_PASS, ...rest });
}
