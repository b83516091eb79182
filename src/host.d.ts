// Host globals every runtime (browser page, worker, Node) provides and the core may use. The core
// is compiled without DOM and Node types (tsconfig.core.json); this is its whole view of the host.
declare var performance: { now(): number };
declare function queueMicrotask(cb: () => void): void;
declare function setTimeout(cb: () => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
declare var console: { log(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
