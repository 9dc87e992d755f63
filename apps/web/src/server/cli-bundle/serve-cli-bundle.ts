import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ProblemError, problemResponse } from '~/server/rest/problem';

export const CLI_BUNDLE_FILE = 'poolbench.mjs';
const MANIFEST_FILE = 'poolbench.json';

interface Bundle {
  key: string;
  bytes: Buffer;
  sha256: string;
  version: string;
}

let cached: Bundle | null = null;

/** The bundle and its version, re-read only when the file changed (a rebuild while the app runs). */
async function loadBundle(dir: string): Promise<Bundle | null> {
  const path = join(dir, CLI_BUNDLE_FILE);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  const key = `${path}:${info.size}:${info.mtimeMs}`;
  if (cached?.key === key) return cached;
  const bytes = await readFile(path);
  const manifest = await readFile(join(dir, MANIFEST_FILE), 'utf8')
    .then((t) => JSON.parse(t) as { version?: unknown })
    .catch(() => null);
  const version = typeof manifest?.version === 'string' ? manifest.version : 'unknown';
  cached = { key, bytes, sha256: createHash('sha256').update(bytes).digest('hex'), version };
  return cached;
}

/** RFC 9110 If-None-Match: a list of (possibly weak) entity tags, or `*`. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * GET/HEAD of the CLI bundle. Public: it is the same code for everyone and holds no secret. The
 * ETag is the sha256 of the file, so a CI cache or `curl -z`-style client revalidates cheaply,
 * and X-PoolBench-CLI-Version says which CLI it is without running it.
 */
export async function serveCliBundle(req: Request, dir: string): Promise<Response> {
  const bundle = await loadBundle(dir);
  if (!bundle) {
    return problemResponse(
      new ProblemError(
        'unavailable',
        `this server has no CLI bundle (${join(dir, CLI_BUNDLE_FILE)}); build it with "npx turbo run build --filter=@poolbench/cli" (make up does) and retry`,
      ),
    );
  }
  const etag = `"sha256-${bundle.sha256}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': 'no-cache',
    'X-PoolBench-CLI-Version': bundle.version,
    'Repr-Digest': `sha-256=:${Buffer.from(bundle.sha256, 'hex').toString('base64')}:`,
  };
  if (matches(req.headers.get('if-none-match'), etag))
    return new Response(null, { status: 304, headers });
  const full = {
    ...headers,
    'Content-Type': 'text/javascript; charset=utf-8',
    'Content-Length': String(bundle.bytes.length),
    'Content-Disposition': `inline; filename="${CLI_BUNDLE_FILE}"`,
  };
  return new Response(req.method === 'HEAD' ? null : new Uint8Array(bundle.bytes), {
    status: 200,
    headers: full,
  });
}
