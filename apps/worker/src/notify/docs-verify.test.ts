import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from './webhook-message';

const DOC = new URL('../../../../docs/notifications.md', import.meta.url);

type Verify = (secret: string, header: string, rawBody: string, maxAgeSeconds?: number) => boolean;

/**
 * The receiver's check docs/notifications.md tells teams to copy runs as written against the
 * signature the worker sends: a real delivery passes, an altered body, another secret or a stale
 * timestamp does not.
 */
describe('docs/notifications.md: the signature check as documented', () => {
  let dir = '';
  let verify: Verify;
  beforeAll(async () => {
    const blocks = [...readFileSync(DOC, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map(
      (m) => m[1]!,
    );
    expect(blocks).toHaveLength(1);
    dir = mkdtempSync(join(tmpdir(), 'poolbench-docs-verify-'));
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, `${blocks[0]}\nexport { verify };\n`);
    ({ verify } = (await import(pathToFileURL(file).href)) as { verify: Verify });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const secret = 'a-webhook-secret-of-32-characters';
  const body = JSON.stringify({ event: 'schedule.regression', outcome: 'regression' });
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts what the worker signs', () => {
    expect(verify(secret, signBody(secret, body, now()), body)).toBe(true);
  });
  it('refuses an altered body, another secret, a stale or missing signature', () => {
    const header = signBody(secret, body, now());
    expect(verify(secret, header, body.replace('regression', 'pass'))).toBe(false);
    expect(verify('another-secret-of-32-characters!!', header, body)).toBe(false);
    expect(verify(secret, signBody(secret, body, now() - 3600), body)).toBe(false);
    expect(verify(secret, '', body)).toBe(false);
  });
});
