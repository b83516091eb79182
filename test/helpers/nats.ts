// A real nats-server for tests (src/dist/local-server.node.ts): JetStream on a temporary file store, TCP
// and WebSocket listeners on free loopback ports, the learner and contributor users c1…cN. Debian's
// `nats-server` package provides the binary (.ci/run installs it).
import { startLocalServer, type LocalServer } from '../../src/dist/local-server.node.ts';

export type TestServer = LocalServer;
export const startNatsServer = (contributors = 3): Promise<TestServer> => startLocalServer(contributors);
