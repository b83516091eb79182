// A server a stranger can join (webswe share server/config/revoke, src/cli/share.ts): TLS on both listeners
// with a self-signed certificate made for this machine, clients that trust it only when told to (--ca), a
// certificate and key given by path checked against each other, and a contributor revoked while connected:
// its connection is closed by the running server's reload and its next connect refused, the others untouched.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectServer, revokeContributor, writeServerFiles } from '../../../src/cli/share.ts';
import { freePort, runNatsServer } from '../../../src/share/local-server.node.ts';
import { checkTlsFiles, selfSignedCert, spkiHash } from '../../../src/share/tls.node.ts';
import { noNatsReason } from '../../helpers/nats.ts';

describe.skipIf(noNatsReason)('the share server over TLS, with revocation', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const s of stops) await s();
  });

  it('serves TLS only, trusted with --ca; a revoked contributor is cut off at once and refused after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webswe-share-'));
    const f = writeServerFiles(dir, { contributors: 2, port: await freePort(), websocketPort: await freePort() });
    expect(f.tls).toMatchObject({ selfSigned: true, cert: join(dir, 'tls', 'cert.pem') });
    const conf = readFileSync(join(dir, 'nats.conf'), 'utf8');
    expect(conf).toMatch(/^tls \{ cert_file: .*cert\.pem", key_file: .*key\.pem", timeout: 5 \}$/m);
    expect(conf).toMatch(/^websocket \{ port: \d+, tls \{ cert_file: /m);
    expect(conf).not.toMatch(/no_tls/);
    expect(spkiHash(readFileSync(f.tls!.cert, 'utf8'))).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const server = await runNatsServer(join(dir, 'nats.conf'));
    stops.push(server.stop);
    expect(Number(readFileSync(join(dir, 'nats.pid'), 'utf8'))).toBe(server.pid);
    const [c1, c2] = f.contributors;
    const url = (u: { user: string; password: string }) => `nats://${u.user}:${u.password}@127.0.0.1:${f.port}`;

    // Without the certificate to trust: refused by this side, with the fix named.
    await expect(connectServer(url(c1!), 'contributor')).rejects.toThrow(/has a certificate this machine does not trust .*pass --ca with the server's certificate/);
    await expect(connectServer(url(f.learner), 'learner', join(dir, 'missing.pem'))).rejects.toThrow(/--share-ca .*missing\.pem: no such file/);
    const a = await connectServer(url(c1!), 'contributor', f.tls!.cert);
    const b = await connectServer(url(c2!), 'contributor', f.tls!.cert);
    expect(a.nc.info?.tls_required).toBe(true);

    // Revoked while connected: the reload closes c001's connection (its reconnects are refused), c002 goes on.
    const cut = (async () => {
      for await (const s of a.nc.status()) if (s.type === 'disconnect' || s.type === 'error') return s.type;
      return 'ended';
    })();
    expect(revokeContributor(dir, c1!.user)).toEqual({ reloaded: server.pid });
    expect(await Promise.race([cut, new Promise((r) => setTimeout(() => r('still connected after 10 s'), 10_000))])).toMatch(/^(disconnect|error)$/);
    await a.nc.close();
    await expect(connectServer(url(c1!), 'contributor', f.tls!.cert)).rejects.toThrow(/refused user "c001" .*not revoked/);
    expect((await b.nc.request('$JS.API.INFO', undefined, { timeout: 5000 }).then(() => 'answered', (e: Error) => e.message))).toBe('answered');
    await b.nc.close();
    // Kept across restarts: users.json lists it revoked, nats.conf no longer has it; revoking again or the learner is refused.
    expect(JSON.parse(readFileSync(join(dir, 'users.json'), 'utf8')).revoked).toEqual(['c001']);
    expect(readFileSync(join(dir, 'nats.conf'), 'utf8')).not.toContain('"c001"');
    expect(writeServerFiles(dir, { contributors: 2, port: f.port, websocketPort: f.websocketPort }).contributors.map((c) => c.user)).toEqual(['c002']);
    expect(() => revokeContributor(dir, 'c001')).toThrow(/c001 is revoked already/);
    expect(() => revokeContributor(dir, 'learner')).toThrow(/is the learner; revoke contributors only/);
    expect(() => revokeContributor(dir, 'c999')).toThrow(/no contributor "c999"/);
  }, 60_000);

  it('takes a real certificate by path, refusing a key that is not its own and a missing file', () => {
    const one = selfSignedCert(mkdtempSync(join(tmpdir(), 'webswe-cert-')));
    const two = selfSignedCert(mkdtempSync(join(tmpdir(), 'webswe-cert-')));
    expect(checkTlsFiles(one)).toEqual(one);
    expect(() => checkTlsFiles({ cert: one.cert, key: two.key })).toThrow(/is not the private key of --cert/);
    expect(() => checkTlsFiles({ cert: one.key, key: one.key })).toThrow(/is not a PEM certificate/);
    expect(() => checkTlsFiles({ cert: '/nonexistent.pem', key: one.key })).toThrow(/--cert \/nonexistent\.pem: no such file/);
    const dir = mkdtempSync(join(tmpdir(), 'webswe-share-'));
    expect(() => writeServerFiles(dir, { contributors: 1, port: 4222, websocketPort: 8080, cert: one.cert })).toThrow(/--cert and --key go together/);
    const f = writeServerFiles(dir, { contributors: 1, port: 4222, websocketPort: 8080, cert: one.cert, key: one.key });
    expect(f.tls).toEqual({ cert: one.cert, key: one.key, selfSigned: false });
    // --plain: no TLS, the WebSocket listener plain (loopback only).
    expect(writeServerFiles(dir, { contributors: 1, port: 4222, websocketPort: 8080, plain: true }).tls).toBeUndefined();
    expect(readFileSync(join(dir, 'nats.conf'), 'utf8')).toMatch(/no_tls: true/);
    // A stale pid file naming another program (here: this test's own process) gets no SIGHUP.
    writeFileSync(join(dir, 'nats.pid'), String(process.pid));
    expect(revokeContributor(dir, 'c001')).toEqual({ reloaded: null });
  });
});
