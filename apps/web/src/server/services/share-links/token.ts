import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: 43 characters of base64url. */
export function generateShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this is stored: a database leak does not leak working links. */
export function hashShareToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
