import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '@poolbench/contracts/errors';

/**
 * Secrets at rest (target header values, monitor DSNs) are sealed with AES-256-GCM under
 * POOLBENCH_SECRET_KEY (32 bytes, base64). Layout: version(1) | iv(12) | tag(16) | ciphertext.
 * Only the worker opens them, right before a run; the web app only seals.
 */
const VERSION = 1;

/** The server cannot seal or open secrets (key missing or wrong): the service is unavailable, not the input wrong. */
export class SecretKeyError extends AppError<'unavailable'> {
  constructor(reason: string) {
    super('unavailable', `the server cannot use target secrets: ${reason}`);
    this.name = 'SecretKeyError';
  }
}

export function secretKeyFromEnv(env: NodeJS.ProcessEnv = process.env): Buffer {
  const raw = env.POOLBENCH_SECRET_KEY;
  if (!raw)
    throw new SecretKeyError(
      'POOLBENCH_SECRET_KEY is not set (32 random bytes, base64); `make up` writes one to .data/poolbench.env',
    );
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32)
    throw new SecretKeyError(`POOLBENCH_SECRET_KEY must decode to 32 bytes, got ${key.length}`);
  return key;
}

export function sealSecret(
  value: unknown,
  key: Buffer = secretKeyFromEnv(),
): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const out = Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  return new Uint8Array(out);
}

export function openSecret<T = unknown>(sealed: Uint8Array, key: Buffer = secretKeyFromEnv()): T {
  const buf = Buffer.from(sealed);
  if (buf[0] !== VERSION) throw new SecretKeyError(`unknown secret format version ${buf[0]}`);
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(1, 13));
  decipher.setAuthTag(buf.subarray(13, 29));
  const plain = Buffer.concat([decipher.update(buf.subarray(29)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as T;
}
