// Host globals every runtime (browser page, worker, Node) provides and the core may use. The core
// is compiled without DOM and Node types (tsconfig.core.json); this is its whole view of the host.
declare var performance: { now(): number };
declare function queueMicrotask(cb: () => void): void;
declare function setTimeout(cb: () => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
declare var console: { log(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
declare function atob(data: string): string;
/** The part of WebAssembly's JS API the WASM backend uses (src/ops/wasm/threads.ts). */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(d: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Global {
    value: number;
  }
}
/** Web Crypto (browsers, workers, Node ≥ 19): the shared-run learner's audit draws and secret (src/share/learner.ts). */
declare var crypto: { getRandomValues<T extends Uint8Array | Uint32Array>(a: T): T; subtle: { digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer> } };
