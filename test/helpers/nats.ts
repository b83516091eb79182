// A real nats-server for tests (src/share/local-server.node.ts): JetStream on a temporary file store, TCP
// and WebSocket listeners on free loopback ports, the learner and contributor users c1…cN. Debian's
// `nats-server` package provides the binary (.ci/run installs it).
import { spawnSync } from 'node:child_process';
import { startLocalServer, type LocalServer } from '../../src/share/local-server.node.ts';

export type TestServer = LocalServer;
export const startNatsServer = (contributors = 3): Promise<TestServer> => startLocalServer(contributors);

/** Why the shared-run tests cannot run here (null: they can). Like the browser tier without chromium,
 *  they are skipped with this reason printed; `.ci/run` installs the package. */
export const noNatsReason: string | null = spawnSync('nats-server', ['--version']).error ? 'no nats-server on PATH: apt-get install -y nats-server' : null;
if (noNatsReason) console.warn(`shared-run tests: skipping, ${noNatsReason}`);
