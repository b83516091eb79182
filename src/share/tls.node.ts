// TLS for a shared-run server: a self-signed certificate for this machine's loopback names, made once with
// Debian's openssl (`webswe share server` when no certificate is given), and the SPKI hash of a certificate
// (its public key's SHA-256, base64): what a browser can be told to trust (Chromium's
// --ignore-certificate-errors-spki-list) and what a person compares to check they reached the right server.
import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsFiles {
  /** PEM certificate (chain) and its private key. */
  cert: string;
  key: string;
}

/** The self-signed certificate in `dir` (cert.pem, key.pem), made when missing: P-256, for 127.0.0.1, ::1 and localhost. */
export function selfSignedCert(dir: string): TlsFiles {
  const files = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
  if (existsSync(files.cert) && existsSync(files.key)) return files;
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '825',
    '-subj', '/CN=webswe share server', '-addext', 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
    '-keyout', files.key, '-out', files.cert,
  ], { encoding: 'utf8' });
  if (r.error) throw new Error('openssl is not installed (it makes the server\'s self-signed certificate): apt-get install openssl, or give --cert and --key');
  if (r.status !== 0) throw new Error(`openssl could not make a certificate: ${r.stderr.trim().split('\n').at(-1)}`);
  return files;
}

/** The SHA-256 of a PEM certificate's SubjectPublicKeyInfo, base64. */
export function spkiHash(certPem: string): string {
  const der = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

/** A certificate and key given by path: both must exist and the key must match the certificate. */
export function checkTlsFiles(f: TlsFiles): TlsFiles {
  for (const [what, path] of [['--cert', f.cert], ['--key', f.key]] as const) if (!existsSync(path)) throw new Error(`${what} ${path}: no such file`);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(readFileSync(f.cert));
  } catch (e) {
    throw new Error(`--cert ${f.cert} is not a PEM certificate (${(e as Error).message})`);
  }
  let matches = false;
  try {
    matches = cert.checkPrivateKey(createPrivateKeyFrom(f.key));
  } catch (e) {
    throw new Error(`--key ${f.key} is not a PEM private key (${(e as Error).message})`);
  }
  if (!matches) throw new Error(`--key ${f.key} is not the private key of --cert ${f.cert}`);
  return f;
}

const createPrivateKeyFrom = (path: string) => createPrivateKey(readFileSync(path));
