// The node sandbox's test reporter and the preload of every process it starts (plain JS: it runs without tsx).
// Node loads this module first (`--import`), before any of the repository's code, and again as the reporter
// (`--test-reporter`, the same URL: the same module instance). Loaded first, it
//  - takes the run's report key from the environment and deletes it there (the code under test cannot read it
//    back: the permission model refuses /proc/self/environ, the inspector and process.binding, and node:v8's heap
//    snapshots, which would show the key among the heap's strings, are taken out below);
//  - keeps its own tools (JSON.stringify, fs.writeSync) in this module's scope;
//  - hardens the realm (harden.mjs): the intrinsics frozen and their global bindings read-only; node:assert,
//    node:assert/strict and node:test frozen, so a module cannot rebind what the tests call; node:events' and
//    node:stream's classes and node:test's result stream locked (node:test's results reach this reporter through
//    them: a patched EventEmitter.prototype.emit or TestsStream.prototype.fail would rewrite them).
// As the reporter it writes one JSON line per test to fd 3 (a WebContainer has only the terminal: there, with
// WEBSWE_REPORTER_MARK set by webcontainer.browser.ts, each line goes to stdout behind the mark), each carrying the
// key — {"k":KEY,"e":"result","path":[...],"status","message","ms"} — and {"k":KEY,"e":"running","path":[...]} as each
// test starts, synchronously, so the lines are out before a test that busy-loops blocks the process (see the note
// at the end). The host takes only lines with the key; any other line there is the code under test's, and the run's
// report is then not trusted (node-run.node.ts).
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Transform } from 'node:stream';
import { harden, hardenIntrinsics, lockPrototype, lockStatics } from './harden.mjs';

const KEY = process.env.WEBSWE_REPORT_KEY ?? '';
const MARK = process.env.WEBSWE_REPORTER_MARK;
delete process.env.WEBSWE_REPORT_KEY;
delete process.env.WEBSWE_REPORTER_MARK;

const stringify = JSON.stringify;
const writeOut = process.stdout.write.bind(process.stdout);
const send = MARK
  ? (obj) => writeOut(MARK + stringify({ k: KEY, ...obj }) + '\n')
  : (obj) => {
      try {
        writeSync(3, stringify({ k: KEY, ...obj }) + '\n');
      } catch {
        // fd 3 is not open (run by hand) or was closed: nothing to report to.
      }
    };

// --- hardening, before any repository code ---------------------------------------------------------------------
const require = createRequire(import.meta.url);
// Heap snapshots hold every string of the heap, the key among them; V8 flags can expose natives that read memory.
const v8 = require('node:v8');
for (const name of ['getHeapSnapshot', 'writeHeapSnapshot', 'setFlagsFromString', 'queryObjects']) {
  if (typeof v8[name] === 'function') {
    v8[name] = () => {
      throw new Error(`v8.${name}() is not available in the sandbox`);
    };
  }
}
// node:test's results reach this reporter as events: a patched EventEmitter.prototype.emit or stream method would
// rewrite them. Those classes' prototypes are locked (their instances assign over them: `this._events = …`).
const events = require('node:events');
const stream = require('node:stream');
const classes = [events.EventEmitter, stream.Stream, stream.Readable, stream.Writable, stream.Duplex, stream.Transform, stream.PassThrough];
for (const C of classes) lockPrototype(C.prototype), lockStatics(C);
// node:test's own result stream: the root test reports each result through its methods (ok, fail), and node:test's
// run() hands the code under test an instance of the same class, its only way to reach it.
// run() is wrapped so that the class is locked before its first instance reaches the caller (the export is frozen
// below, so the wrapper stays).
const nodeTest = require('node:test');
if (typeof nodeTest.run === 'function') {
  const run = nodeTest.run;
  let locked = false;
  nodeTest.run = function run_(...args) {
    const stream = run.apply(this, args);
    if (!locked) lockPrototype(Object.getPrototypeOf(stream)), (locked = true);
    return stream;
  };
}
// node's web globals beside ECMAScript's (node:test aborts a timed-out test through AbortController.prototype).
const WEB = ['AbortController', 'AbortSignal', 'EventTarget', 'Event', 'DOMException', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'Buffer', 'queueMicrotask', 'structuredClone', 'atob', 'btoa'];
hardenIntrinsics({ globals: WEB, skip: [process, console] });
harden(require('node:assert'), new Set([process, console]), require('node:assert/strict'), nodeTest);
Object.freeze(v8);

// --- the reporter -----------------------------------------------------------------------------------------------
const errorText = (err) => {
  if (!err) return undefined;
  const inner = err.cause ?? err; // node:test wraps the test's own error in ERR_TEST_FAILURE
  return String(inner?.message ?? inner);
};

const reported = []; // describe path in report order (`test:start`, as node's TAP reporter uses it)
const running = []; // describe path in execution order (`test:dequeue`)

function onEvent({ type, data }) {
  if (type === 'test:dequeue') {
    running.length = data.nesting;
    running.push(data.name);
    send({ e: 'running', path: [...running] });
  } else if (type === 'test:start') {
    reported.length = data.nesting;
    reported.push(data.name);
  } else if ((type === 'test:pass' || type === 'test:fail') && data.details?.type !== 'suite') {
    const path = [...reported.slice(0, data.nesting), data.name];
    const todo = data.todo !== undefined && data.todo !== false;
    const skip = data.skip !== undefined && data.skip !== false;
    const status = todo ? 'todo' : skip ? 'skip' : type === 'test:pass' ? 'pass' : 'fail';
    const reason = todo ? data.todo : skip ? data.skip : undefined;
    let message;
    try {
      message = status === 'fail' ? errorText(data.details?.error) : typeof reason === 'string' ? reason : undefined;
    } catch {
      message = '[the error could not be read: reading it threw]'; // a getter of the thrown value's: still a failure
    }
    send({ e: 'result', path, status, message, ms: data.details?.duration_ms });
  }
}

// node:test pipes its event stream into this reporter, but a piped stream only starts to flow a tick
// later: a test file whose synchronous tests hang would report nothing. The event stream is also an
// EventEmitter that emits each event as it happens, so listen there when the pipe connects.
let direct = false;
const reporter = new Transform({
  writableObjectMode: true,
  transform(event, _encoding, done) {
    if (!direct) onEvent(event);
    done();
  },
});
reporter.on('pipe', (source) => {
  direct = true;
  for (const type of ['test:dequeue', 'test:start', 'test:pass', 'test:fail']) source.on(type, (data) => onEvent({ type, data }));
});
export default reporter;
