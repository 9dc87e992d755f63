import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32; // 32 x log2(62) = 190 bits
const CHECKSUM_CHARS = 6;
export const TOKEN_PREFIX = 'pb_';
export const TOKEN_LENGTH = TOKEN_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS;
const TOKEN_RE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      // rejection sampling: 248 = 4 x 62, so every character is equally likely
      if (b < 248 && out.length < n) out += ALPHABET[b % 62];
    }
  }
  return out;
}

function checksum(random: string): string {
  const digest = createHash('sha256').update(random).digest();
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) out += ALPHABET[digest[i]! % 62];
  return out;
}

/** `pb_` + 32 random base62 characters + a 6-character checksum of them. */
export function generateApiToken(): string {
  const random = randomBase62(RANDOM_CHARS);
  return `${TOKEN_PREFIX}${random}${checksum(random)}`;
}

/** Shape and checksum only: a typo or a truncated paste is caught before any database lookup. */
export function isWellFormedApiToken(token: string): boolean {
  if (!TOKEN_RE.test(token)) return false;
  const random = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_CHARS);
  return token.slice(TOKEN_PREFIX.length + RANDOM_CHARS) === checksum(random);
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What lists show: enough to tell tokens apart, far too little to use one. */
export function tokenDisplayParts(token: string): { prefix: string; last4: string } {
  return { prefix: token.slice(0, TOKEN_PREFIX.length + 4), last4: token.slice(-4) };
}
