import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  acceptsGzip,
  PASS_ENCODING_HEADER,
  PASSED_ENCODING_HEADER,
  pageBytesAnswer,
  storedBody,
  storedText,
} from './page-bytes-response';

const headers = (acceptEncoding: string) =>
  new Headers({ [PASS_ENCODING_HEADER]: '1', 'accept-encoding': acceptEncoding });

describe('Accept-Encoding', () => {
  it('gzip only when the client accepts it with a q above 0', () => {
    for (const h of [
      'gzip',
      'gzip, deflate, br',
      'br;q=1, gzip;q=0.5',
      '*',
      'identity, *;q=0.1',
      'X-GZIP',
    ])
      expect(acceptsGzip(h), h).toBe(true);
    for (const h of [
      '',
      'gzip;q=0',
      'gzip; q=0.000',
      'br, gzip;q=0',
      'identity',
      '*;q=0',
      'gzip;q=0, *',
      'br, deflate',
      'gzipx',
    ])
      expect(acceptsGzip(h), h).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });

  it('a page answers identity to gzip;q=0 and the stored gzip to gzip', () => {
    const page = { etag: '"e"', gzip: gzipSync('{"a":1}'), finished: true };
    const refused = pageBytesAnswer(headers('gzip;q=0'), page);
    expect(refused.headers[PASSED_ENCODING_HEADER]).toBeUndefined();
    expect(Buffer.from(refused.body as Uint8Array).toString()).toBe('{"a":1}');
    expect(pageBytesAnswer(headers('gzip'), page).headers[PASSED_ENCODING_HEADER]).toBe('gzip');
    const text = storedText('{"b":2}');
    expect(storedBody(headers('gzip;q=0'), text, 'private').body).toBe('{"b":2}');
    expect(storedBody(headers('gzip, br'), text, 'private').body).toBe(text.gzip);
  });
});
