// Types for harden.mjs (plain JavaScript so that the node sandbox's preload can import it without a build step).
export declare const ECMASCRIPT_GLOBALS: readonly string[];
/** The intrinsics no global names, each where the engine has it. */
export declare function anonymousIntrinsics(g?: object): object[];
/** Make `owner`'s data properties `keys` (default: all but constructor) assignable on objects that inherit them. */
export declare function enableOverrides(owner: object, keys?: readonly PropertyKey[]): void;
/** Freeze `root`, `more` and everything reachable from them (own properties, getters, setters, prototypes). */
export declare function harden<T>(root: T, skip?: ReadonlySet<unknown>, ...more: unknown[]): T;
/** Freeze the realm's intrinsics (and `globals`) and make their global bindings read-only; once a realm. */
export declare function hardenIntrinsics(options?: { globals?: readonly string[]; skip?: readonly unknown[] }, g?: object): void;
export declare const hardened: () => boolean;
/** Lock a host class's prototype: methods non-replaceable (override accessors), the object non-extensible. */
export declare function lockPrototype(owner: object): void;
/** Lock a host class's static properties: functions read-only, nothing redefinable, settings writable. */
export declare function lockStatics(C: object): void;
