// The spawner: a small node process that starts the sandboxes' processes for the trainer (spawner.node.ts)
// and relays their pipes over its IPC channel. A fork copies the parent's page tables, so a trainer holding
// hundreds of MB (model, KV caches, WASM memories) pays ~20-50 ms of its main thread for every process it
// starts itself; this process is small, so starting one here costs a few ms, and none on the trainer's thread.
// Messages in: spawn {id, file, args, cwd, env, fds}, in {id, d}, end {id}, kill {id}. Out: pid {id, pid},
// data {id, fd, d}, exit {id, code, signal, error?}. Every child gets its own process group (killed as a
// whole); when the trainer goes away, so do they and this process. Plain JavaScript: started with plain node.
import { spawn } from 'node:child_process';

const kids = new Map();
const send = (m) => process.connected && process.send(m);
const killGroup = (c) => {
  try {
    process.kill(-c.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

process.on('message', (m) => {
  if (m.t === 'spawn') {
    let c;
    try {
      c = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: Array.from({ length: m.fds }, () => 'pipe') });
    } catch (e) {
      send({ t: 'exit', id: m.id, code: null, signal: null, error: e.message });
      return;
    }
    kids.set(m.id, c);
    let failed;
    c.on('error', (e) => (failed = e.message));
    c.stdin.on('error', () => undefined); // writes to a process that died: its exit is what reports it
    if (c.pid !== undefined) send({ t: 'pid', id: m.id, pid: c.pid });
    for (let fd = 1; fd < m.fds; fd++) c.stdio[fd].setEncoding('utf8').on('data', (d) => send({ t: 'data', id: m.id, fd, d }));
    c.on('close', (code, signal) => {
      kids.delete(m.id);
      send({ t: 'exit', id: m.id, code, signal, ...(failed !== undefined ? { error: failed } : {}) });
    });
  } else if (m.t === 'in') kids.get(m.id)?.stdin.write(m.d);
  else if (m.t === 'end') kids.get(m.id)?.stdin.end();
  else if (m.t === 'kill') {
    const c = kids.get(m.id);
    if (c) killGroup(c);
  }
});

process.on('disconnect', () => {
  for (const c of kids.values()) killGroup(c);
  process.exit(0);
});
