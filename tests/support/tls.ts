/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl into a folder, for tests that serve TLS. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Writes key.pem and cert.pem (valid one day) into `dir` and answers their paths. */
export function selfSignedCert(dir: string): { key: string; cert: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}
