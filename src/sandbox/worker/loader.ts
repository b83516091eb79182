// The worker sandbox's module loader: each repository file becomes an ES module at its own URL (a data:
// URL with a nonce, in the browser's Worker and Node's runner alike), its relative imports rewritten to the URLs of its
// dependencies, compiled first (so a cycle cannot be loaded: it is reported as such), node:test and
// node:assert(/strict) mapped to the shim modules, dynamic import() routed through a global resolver.
// Rewrites keep every line where it was, so stack positions map back to repo files. Core code.
import { parse, parseExpressionAt, tokenizer, type Node } from 'acorn';
import { findNodeAround, full } from 'acorn-walk';
import type { FileMap } from '../types.ts';

/** A module-loading failure, printed the way Node prints it (ERR_MODULE_NOT_FOUND, SyntaxError, …). */
export class LoadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    /** For a SyntaxError: Node's "file:line\n<source line>\n<caret>" banner. */
    readonly banner?: string,
    /** For a SyntaxError acorn found: the original source, so the engine's own message can be had. */
    readonly source?: string,
  ) {
    super(message);
  }
}
Object.defineProperty(LoadError.prototype, 'name', { value: 'Error', writable: true });

export interface LoadedModule {
  path: string;
  url: string;
  /** The text the engine runs (specifiers rewritten; same lines and, off import lines, same columns). */
  code: string;
}

/** Node's built-in modules that the worker sandbox does not provide (a clear error instead of "not found"). */
const NODE_BUILTINS = new Set('assert buffer child_process cluster console crypto dgram dns events fs http http2 https module net os path perf_hooks process querystring readline stream string_decoder timers tls tty url util v8 vm worker_threads zlib'.split(' '));

export interface LoaderOptions {
  files: FileMap;
  /** A URL the engine can import for this module text. */
  makeUrl: (code: string) => string;
  /** Specifier → URL of a shim module ('node:test', 'node:assert', 'node:assert/strict'). */
  builtins: Record<string, string>;
  /** The global the rewritten `import(x)` calls: (fromPath, specifier) → module namespace. */
  importHook: string;
  /** A global function called at the start of every loop iteration (for, for-in, for-of, while,
   *  do-while) in the repository's modules: the runner counts iterations with it (RunJob.loopBudget). */
  loopGuard?: string;
}

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** './x.js' from 'test/a.test.js' → 'test/x.js'; null when it leaves the repository. */
export function resolveRelative(from: string, spec: string): string | null {
  const parts = dirOf(from) ? dirOf(from).split('/') : [];
  for (const seg of spec.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

export class ModuleLoader {
  private readonly urls = new Map<string, string>();
  private readonly byUrl = new Map<string, LoadedModule>();
  private readonly loading: string[] = [];

  constructor(private readonly o: LoaderOptions) {}

  /** The URL of `path`'s module, compiling it and its static dependencies first. */
  urlFor(path: string, from?: string): string {
    const known = this.urls.get(path);
    if (known) return known;
    if (this.loading.includes(path)) {
      const cycle = [...this.loading.slice(this.loading.indexOf(path)), path].join(' → ');
      throw new LoadError(`circular import: ${cycle}; the worker sandbox loads each module after its imports, so a cycle cannot load here (it does under Node: use the node sandbox)`, 'ERR_WORKER_SANDBOX_CYCLE');
    }
    if (!Object.hasOwn(this.o.files, path)) throw notFound(path, from, this.o.files);
    if (/\.(cjs|json|node|wasm)$/.test(path)) {
      throw new LoadError(`${path} is not an ES module: the worker sandbox runs .js and .mjs ES modules only`, 'ERR_UNKNOWN_FILE_EXTENSION');
    }
    this.loading.push(path);
    try {
      const code = this.rewrite(path, this.o.files[path]!);
      const url = this.o.makeUrl(code);
      this.urls.set(path, url);
      this.byUrl.set(url, { path, url, code });
      return url;
    } finally {
      this.loading.pop();
    }
  }

  /** The module a URL (as it appears in stack traces) belongs to. */
  moduleAt(url: string): LoadedModule | undefined {
    return this.byUrl.get(url);
  }

  modules(): LoadedModule[] {
    return [...this.byUrl.values()];
  }

  /** The URL a specifier written in `from` resolves to (static and dynamic imports alike). */
  resolve(spec: string, from: string): string {
    const builtin = this.o.builtins[spec];
    if (builtin) return builtin;
    const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
    if (spec.startsWith('node:') || NODE_BUILTINS.has(bare.split('/')[0]!)) {
      throw new LoadError(
        `the worker sandbox provides ${Object.keys(this.o.builtins).filter((k) => k.startsWith('node:')).join(', ')} only; "${spec}" (imported from ${from}) is not available here (use the node sandbox)`,
        'ERR_WORKER_SANDBOX_BUILTIN',
      );
    }
    if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
      const target = resolveRelative(from, spec);
      if (target === null) throw new LoadError(`Cannot find module '${spec}' imported from ${from}: it is outside the repository`, 'ERR_MODULE_NOT_FOUND');
      return this.urlFor(target, from);
    }
    if (spec.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(spec)) {
      throw new LoadError(`Cannot find module '${spec}' imported from ${from}: use a relative path ('./' or '../') to a file in the repository`, 'ERR_MODULE_NOT_FOUND');
    }
    throw new LoadError(`Cannot find package '${spec.split('/')[0]}' imported from ${from}`, 'ERR_MODULE_NOT_FOUND');
  }

  private rewrite(path: string, source: string): string {
    let ast: Node;
    try {
      ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true });
    } catch (e) {
      const err = e as SyntaxError & { loc?: { line: number; column: number } };
      const loc = err.loc ?? { line: 1, column: 0 };
      const line = source.split('\n')[loc.line - 1] ?? '';
      const banner = `${path}:${loc.line}\n${line}\n${' '.repeat(loc.column)}^\n`;
      throw new LoadError(err.message.replace(/ \(\d+:\d+\)$/, ''), 'SYNTAX', banner, source);
    }
    const edits: { start: number; end: number; text: string }[] = [];
    const staticSource = (n: Node & { source?: (Node & { value?: unknown }) | null }) => {
      const s = n.source;
      if (s && typeof s.value === 'string') edits.push({ start: s.start, end: s.end, text: JSON.stringify(this.resolve(s.value, path)) });
    };
    for (const n of (ast as unknown as { body: Node[] }).body) {
      if (n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') staticSource(n);
    }
    if (/\bimport\s*\(/.test(source)) {
      full(ast, (n) => {
        if (n.type !== 'ImportExpression') return;
        const src = (n as unknown as { source: Node }).source;
        edits.push({ start: n.start, end: src.start, text: `globalThis[${JSON.stringify(this.o.importHook)}](${JSON.stringify(path)}, ` });
      });
    }
    if (this.o.loopGuard !== undefined) {
      // `GUARD();` first in each loop body; a body that is one statement is wrapped in braces. Same
      // lines; columns shift only after an insertion on its line.
      const call = `globalThis[${JSON.stringify(this.o.loopGuard)}]();`;
      full(ast, (n) => {
        if (!LOOPS.has(n.type)) return;
        const body = (n as unknown as { body: Node }).body;
        if (body.type === 'BlockStatement') edits.push({ start: body.start + 1, end: body.start + 1, text: call });
        else {
          edits.push({ start: body.start, end: body.start, text: `{${call}` });
          edits.push({ start: body.end, end: body.end, text: '}' });
        }
      });
    }
    // Applied from the end; at one position a replacement (import( → the hook) before an insertion.
    edits.sort((a, b) => b.start - a.start || b.end - a.end);
    let out = source;
    for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }

  /**
   * The source of the call expression at a stack position (0-based line and column) of a loaded
   * module, indentation normalised: how Node's assert.ok quotes the failing call.
   */
  callExpressionAt(url: string, line: number, column: number): string | undefined {
    const mod = this.byUrl.get(url);
    if (!mod) return undefined;
    const code = mod.code.split('\n').slice(line).join('\n');
    try {
      for (const token of tokenizer(code, { ecmaVersion: 'latest' })) {
        if (token.start > column) break;
        try {
          const expr = parseExpressionAt(code, token.start, { ecmaVersion: 'latest' });
          const found = findNodeAround(expr, column, 'CallExpression');
          if (found && found.node.end >= column) {
            const start = found.node.start;
            const [first, ...rest] = code.slice(start, found.node.end).split('\n');
            let message = first!;
            for (const l of rest) {
              let pos = 0;
              while (pos < start && (l[pos] === ' ' || l[pos] === '\t')) pos++;
              message += `\n  ${l.slice(pos)}`;
            }
            return message;
          }
        } catch {
          // not an expression from this token on: try the next one
        }
      }
    } catch {
      // the tokenizer met something it cannot read before the column
    }
    return undefined;
  }
}

function notFound(path: string, from: string | undefined, files: FileMap): LoadError {
  const by = from ? ` imported from ${from}` : '';
  const hint = Object.hasOwn(files, `${path}.js`) ? `\nDid you mean to import ${path}.js?` : '';
  const isDir = Object.keys(files).some((f) => f.startsWith(`${path}/`));
  if (isDir) return new LoadError(`Directory import '${path}' is not supported resolving ES modules${by}`, 'ERR_UNSUPPORTED_DIR_IMPORT');
  return new LoadError(`Cannot find module '${path}'${by}${hint}`, 'ERR_MODULE_NOT_FOUND');
}
