// Contributing from this tab (the Contribute view): the trainer worker connects to the shared run's
// server over its WebSocket listener, plays work items on this tab's backend in the worker sandbox
// (src/share/contributor.ts) and reports each item to the page; Stop ends it after the current item (an
// unfinished item's lease runs out and it goes to another contributor; nothing is lost).
import { wsconnect } from '@nats-io/nats-core';
import { RunBus } from '../src/share/bus.ts';
import { contribute } from '../src/share/contributor.ts';
import { checkToken } from '../src/share/protocol.ts';
import { inboxPrefix } from '../src/share/server-config.ts';
import type { OpenedBackend } from './backend.ts';
import type { BackendChoice, ContributeApi } from './trainer.api.ts';

export function contributeApi(open: (choice: BackendChoice) => Promise<OpenedBackend>): ContributeApi {
  let active = false, stopping = false;
  return {
    async contribute(req, listener) {
      if (active) throw new Error('this tab is already contributing: stop it first');
      checkToken('run', req.run);
      checkToken('user', req.user);
      if (!/^wss?:\/\//.test(req.server)) throw new Error(`the server address must be the WebSocket one (ws://HOST:PORT or wss://…), got "${req.server}"`);
      active = true;
      stopping = false;
      try {
        let nc;
        try {
          nc = await wsconnect({ servers: req.server, user: req.user, pass: req.password, inboxPrefix: inboxPrefix(req.user) });
        } catch (e) {
          const m = (e as Error).message || (e as Error).name || '';
          const why = m ? ` (${m})` : '';
          throw new Error(/auth/i.test(m) ? `the server refused user "${req.user}": check the user and password${why}`
            : `cannot reach the server at ${req.server}${why}: is the run's server started (\`npx webswe share server\` on the learner's machine prints this address, a user and a password) and this address its WebSocket listener?` +
              (req.server.startsWith('wss://') ? ` A server with a self-signed certificate: open ${req.server.replace(/^wss:/, 'https:')} in this browser once and accept it.` : ''));
        }
        try {
          const { be, name } = await open(req.backend ?? 'auto');
          listener({ kind: 'backend', name });
          const sandbox = (await import('../src/sandbox/worker.browser.ts')).createWorkerSandbox;
          return await contribute({ bus: new RunBus(nc, req.run), user: req.user, be, sandbox, shouldStop: () => stopping, onEvent: listener });
        } finally {
          await nc.close().catch(() => undefined);
        }
      } finally {
        active = false;
      }
    },
    async stopContributing() {
      stopping = true;
    },
  };
}
