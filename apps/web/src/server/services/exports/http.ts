import type { ExportFormat } from './build-export';

export const problem = (
  status: number,
  code: string,
  detail: string,
  headers: Record<string, string> = {},
) =>
  Response.json(
    { type: 'about:blank', title: code, status, detail },
    { status, headers: { 'Content-Type': 'application/problem+json', ...headers } },
  );

export function parseFormat(v: string | null): ExportFormat | null {
  return v === 'csv' || v === 'json' || v === 'html' || v === 'summary-csv' ? v : null;
}

export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'poolbench'
  );
}

export function download(
  body: string,
  contentType: string,
  filename: string,
  extra: Record<string, string> = {},
) {
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    },
  });
}
