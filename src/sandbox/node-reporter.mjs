// node:test reporter loaded inside the sandboxed test process (plain JS: it runs without tsx).
// Writes one JSON line per finished test to fd 3 (or marked lines on stdout: see send) — {"e":"result","path":[...],"status","message","ms"} —
// and {"e":"running","path":[...]} as each test starts, synchronously, so the lines are out before a
// test that busy-loops blocks the process (see the note at the end).
import { writeSync } from 'node:fs';
import { Transform } from 'node:stream';

// The node sandbox reads fd 3. A WebContainer has only the terminal, so there (WEBSWE_REPORTER_MARK set by
// webcontainer.browser.ts) each line goes to stdout behind the mark, for webcontainer-output.ts to pick out.
const MARK = process.env.WEBSWE_REPORTER_MARK;
const send = MARK
  ? (obj) => process.stdout.write(MARK + JSON.stringify(obj) + '\n')
  : (obj) => {
      try {
        writeSync(3, JSON.stringify(obj) + '\n');
      } catch {
        // fd 3 is not open (run by hand) or was closed: nothing to report to.
      }
    };

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
    const message = status === 'fail' ? errorText(data.details?.error) : typeof reason === 'string' ? reason : undefined;
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
