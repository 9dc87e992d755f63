import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, secretKeyFromEnv } from './secrets';

describe('secrets', () => {
  const key = randomBytes(32);

  it('round-trips and never contains the plaintext', () => {
    const sealed = sealSecret({ headers: { Authorization: 'Bearer s3cr3t-value' } }, key);
    expect(Buffer.from(sealed).toString('latin1')).not.toContain('s3cr3t-value');
    expect(openSecret(sealed, key)).toEqual({ headers: { Authorization: 'Bearer s3cr3t-value' } });
  });

  it('rejects a tampered ciphertext and a wrong key', () => {
    const sealed = sealSecret('dsn', key);
    const tampered = Uint8Array.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => openSecret(tampered, key)).toThrow();
    expect(() => openSecret(sealed, randomBytes(32))).toThrow();
  });

  it('explains a missing or short key', () => {
    expect(() => secretKeyFromEnv({})).toThrow(/POOLBENCH_SECRET_KEY is not set/);
    expect(() => secretKeyFromEnv({ POOLBENCH_SECRET_KEY: 'c2hvcnQ=' })).toThrow(/32 bytes, got 5/);
  });
});
