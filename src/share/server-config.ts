// The nats-server configuration of a shared-run server (docs/sharing.md): JetStream on file storage, a
// WebSocket listener for browsers, and one account whose users are the learner (everything) and the
// contributors, each allowed only what contributing needs:
//   publish  $JS.API.INFO, stream/consumer info and next-message requests on the work stream, acks of
//            work items, object-store reads of the "webswe" bucket (info, message get, ordered consumers
//            and their flow control), and results on its own subject webswe.results.*.<user>;
//   subscribe its own inbox prefix _INBOX_<user>.> (replies come there; no one else's).
// Nothing else: no stream or consumer create/update/delete/purge, no object writes, no subscribing to
// results, no publishing on another contributor's subject. The integration test tries each of these.
// With a certificate, both listeners speak TLS only (a page served over https can open only wss://); the
// pid file lets `webswe share revoke` make the running server reload its users (SIGHUP), which closes a
// revoked contributor's connection without a restart.
import { OBJECT_BUCKET, WORK_STREAM, checkToken } from './protocol.ts';

export interface ServerUser {
  user: string;
  password: string;
}

export interface ServerConfigOptions {
  port: number;
  websocketPort: number;
  httpPort?: number;
  /** JetStream's file store (kept across server restarts). */
  storeDir: string;
  learner: ServerUser;
  contributors: readonly ServerUser[];
  /** Largest message the server accepts (bytes): above the learner's own result limit, so that oversized
   *  results reach the learner and are counted there. */
  maxPayload?: number;
  /** TLS on the client and WebSocket listeners (PEM paths); without it both are plain (loopback only). */
  tls?: { cert: string; key: string };
  /** Where the server writes its pid (what a reload is signalled to). */
  pidFile?: string;
}

/** The inbox prefix a contributor must connect with (its replies arrive there). */
export const inboxPrefix = (user: string) => `_INBOX_${user}`;

export function contributorPermissions(user: string): { publish: { allow: string[] }; subscribe: { allow: string[] } } {
  checkToken('contributor name', user);
  const obj = `OBJ_${OBJECT_BUCKET}`;
  return {
    publish: {
      allow: [
        '$JS.API.INFO',
        `$JS.API.STREAM.INFO.${obj}`, `$JS.API.STREAM.MSG.GET.${obj}`, `$JS.API.DIRECT.GET.${obj}`, `$JS.API.DIRECT.GET.${obj}.>`,
        `$JS.API.CONSUMER.CREATE.${obj}`, `$JS.API.CONSUMER.CREATE.${obj}.>`, `$JS.FC.${obj}.>`,
        `$JS.API.STREAM.INFO.${WORK_STREAM}`, `$JS.API.CONSUMER.INFO.${WORK_STREAM}.*`, `$JS.API.CONSUMER.MSG.NEXT.${WORK_STREAM}.*`, `$JS.ACK.${WORK_STREAM}.>`,
        `webswe.results.*.${user}`,
      ],
    },
    subscribe: { allow: [`${inboxPrefix(user)}.>`] },
  };
}

const q = (s: string) => JSON.stringify(s);

export function serverConfig(o: ServerConfigOptions): string {
  const users = [
    `      { user: ${q(o.learner.user)}, password: ${q(o.learner.password)} }`,
    ...o.contributors.map((c) => {
      const p = contributorPermissions(c.user);
      const list = (xs: string[]) => `[${xs.map(q).join(', ')}]`;
      return `      { user: ${q(c.user)}, password: ${q(c.password)}, permissions: { publish: { allow: ${list(p.publish.allow)} }, subscribe: { allow: ${list(p.subscribe.allow)} } } }`;
    }),
  ];
  return [
    '# nats-server configuration of a webswe shared-run server (written by `webswe share config`).',
    `port: ${o.port}`,
    ...(o.pidFile ? [`pid_file: ${q(o.pidFile)}`] : []),
    ...(o.tls ? [`tls { cert_file: ${q(o.tls.cert)}, key_file: ${q(o.tls.key)}, timeout: 5 }`] : []),
    ...(o.httpPort ? [`http_port: ${o.httpPort}`] : []),
    `max_payload: ${o.maxPayload ?? 8 * 1024 * 1024}`,
    `jetstream { store_dir: ${q(o.storeDir)}, max_memory_store: 256MB, max_file_store: 8GB }`,
    ...(o.tls
      ? ['# Browsers connect here (wss://).', `websocket { port: ${o.websocketPort}, tls { cert_file: ${q(o.tls.cert)}, key_file: ${q(o.tls.key)} } }`]
      : ['# Browsers connect here (ws://): plain, for loopback only; a certificate (webswe share server makes one) turns on wss://.', `websocket { port: ${o.websocketPort}, no_tls: true }`]),
    'accounts {',
    '  WEBSWE {',
    '    jetstream: enabled',
    '    users: [',
    ...users,
    '    ]',
    '  }',
    '}',
    '',
  ].join('\n');
}
